//===- Candidate.cpp - a proposal made into a candidate module ------------===//

#include "ke/Propose/Candidate.h"
#include "ke/KeDialect.h"
#include "ke/Support/DiagnosticCollector.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace ke::propose;

BuiltCandidate ke::propose::buildCandidate(const Proposal &proposal,
                                           func::FuncOp base,
                                           func::FuncOp kernel,
                                           llvm::ArrayRef<OpShape> shapes) {
  BuiltCandidate built;
  built.module = ModuleOp::create(kernel.getLoc());
  built.problem = proposal.error;
  if (!built.problem.empty())
    return built;
  MLIRContext *context = kernel.getContext();
  if (proposal.schedule) {
    auto payload = cast<func::FuncOp>(base->clone());
    built.module->push_back(payload);
    if (llvm::Error error = verifySchedule(*proposal.schedule, shapes))
      built.problem = "schedule: " + llvm::toString(std::move(error));
    else if (llvm::Error error = applySchedule(payload, *proposal.schedule,
                                               &built.fallbacks))
      built.problem = "schedule: " + llvm::toString(std::move(error));
    return built;
  }
  ke::DiagnosticCollector diagnostics(context);
  OwningOpRef<ModuleOp> parsed =
      parseSourceString<ModuleOp>(proposal.payloadIR, context);
  func::FuncOp payload = parsed && !parsed->getOps<func::FuncOp>().empty()
                             ? *parsed->getOps<func::FuncOp>().begin()
                             : func::FuncOp();
  if (!payload) {
    built.problem = "verify: the proposal does not parse as a func.func: " +
                    diagnostics.str();
    return built;
  }
  if (payload.getFunctionType() != kernel.getFunctionType()) {
    built.problem = "verify: the proposal's type differs from the kernel's";
    return built;
  }
  payload->remove();
  payload.setSymName(kernel.getSymName());
  payload.setAllArgAttrs(kernel.getAllArgAttrs());
  for (NamedAttribute attr : kernel->getDiscardableAttrs())
    payload->setAttr(attr.getName(), attr.getValue());
  if (!proposal.gpuBlockTile.empty())
    payload->setAttr(KeDialect::kGPUBlockTileAttrName,
                     DenseI64ArrayAttr::get(context, proposal.gpuBlockTile));
  if (!proposal.gpuThreadTile.empty())
    payload->setAttr(KeDialect::kGPUThreadTileAttrName,
                     DenseI64ArrayAttr::get(context, proposal.gpuThreadTile));
  auto setIntegerKnob = [&](StringRef name, std::optional<int64_t> value) {
    if (value)
      payload->setAttr(name,
                       IntegerAttr::get(IntegerType::get(context, 64), *value));
  };
  setIntegerKnob(KeDialect::kGPUVectorWidthAttrName, proposal.gpuVectorWidth);
  setIntegerKnob(KeDialect::kGPUSharedTileAttrName, proposal.gpuSharedTile);
  setIntegerKnob(KeDialect::kGPUWarpsAttrName, proposal.gpuWarps);
  setIntegerKnob(KeDialect::kGPUTensorCoreTileAttrName,
                 proposal.gpuTensorCoreTile);
  setIntegerKnob(KeDialect::kGPUWarpgroupTileAttrName,
                 proposal.gpuWarpgroupTile);
  setIntegerKnob(KeDialect::kGPUReductionThreadsAttrName,
                 proposal.gpuReductionThreads);
  setIntegerKnob(KeDialect::kGPUKSplitsAttrName, proposal.gpuKSplits);
  built.module->push_back(payload);
  if (failed(verify(payload)))
    built.problem =
        "verify: the proposal does not verify: " + diagnostics.str();
  return built;
}
