//===- KeOps.cpp - ke.kernel and ke.candidate -----------------------------===//

#include "ke/KeDialect.h"
#include "ke/Target/TargetInfo.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace ke;

#include "ke/KeEnums.cpp.inc"

#define GET_OP_CLASSES
#include "ke/KeOps.cpp.inc"

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

void KernelOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                     StringRef target) {
  state.addAttribute(getSymNameAttrName(state.name),
                     builder.getStringAttr(name));
  state.addAttribute(getTargetAttrName(state.name),
                     builder.getStringAttr(target));
  state.addRegion()->emplaceBlock();
}

ArrayRef<StringRef> KernelOp::getKnownTargets() {
  static const std::vector<StringRef> names = [] {
    std::vector<StringRef> list;
    for (const ke::TargetInfo &target : ke::getTargets())
      list.push_back(StringRef(target.name.data(), target.name.size()));
    return list;
  }();
  return names;
}

LogicalResult KernelOp::outlineTaggedFunctions(ModuleOp module,
                                               StringRef target) {
  SmallVector<func::FuncOp> tagged;
  for (auto function : module.getOps<func::FuncOp>())
    if (function->hasAttr(KeDialect::kKernelAttrName))
      tagged.push_back(function);
  for (func::FuncOp function : tagged) {
    if (function.isExternal())
      return function.emitError() << "kernel '@" << function.getSymName()
                                  << "' has no body to optimize";
    if (!mlir::SymbolTable::symbolKnownUseEmpty(function, module))
      return function.emitError()
             << "kernel '@" << function.getSymName()
             << "' is referenced elsewhere in the module and cannot be "
                "outlined into a ke.kernel";
    OpBuilder builder(function);
    auto kernel =
        KernelOp::create(builder, function.getLoc(), function.getSymName(),
                         target);
    function->moveBefore(&kernel.getBody().front(),
                         kernel.getBody().front().end());
  }
  return success();
}

func::FuncOp KernelOp::getReference() {
  auto functions = getBody().front().getOps<func::FuncOp>();
  return functions.empty() ? func::FuncOp() : *functions.begin();
}

CandidateOp KernelOp::lookupCandidate(StringRef name) {
  return dyn_cast_or_null<CandidateOp>(mlir::SymbolTable::lookupSymbolIn(
      getOperation(), StringAttr::get(getContext(), name)));
}

CandidateOp KernelOp::getBestCandidate() {
  CandidateOp best;
  double bestTime = 0.0;
  for (CandidateOp candidate : getCandidates()) {
    std::optional<double> time = candidate.getMedianTimeNs();
    if (candidate.getStatus() != CandidateStatus::Correct || !time)
      continue;
    if (!best || *time < bestTime) {
      best = candidate;
      bestTime = *time;
    }
  }
  return best;
}

LogicalResult KernelOp::verify() {
  if (!llvm::is_contained(getKnownTargets(), getTarget()))
    return emitOpError() << "has unknown target '" << getTarget()
                         << "'; expected one of "
                         << llvm::join(getKnownTargets(), ", ");
  return success();
}

LogicalResult KernelOp::verifyRegions() {
  Block &body = getBody().front();
  unsigned numReferences = 0;
  for (Operation &op : body) {
    if (isa<func::FuncOp>(op)) {
      ++numReferences;
      continue;
    }
    if (!isa<CandidateOp>(op))
      return op.emitOpError()
             << "is not allowed in a ke.kernel: expected the reference "
                "func.func and ke.candidate ops only";
  }
  if (numReferences != 1)
    return emitOpError() << "expects exactly one reference func.func in its "
                            "body, found "
                         << numReferences;
  func::FuncOp reference = getReference();
  if (reference.isExternal())
    return emitOpError() << "expects the reference '@" << reference.getSymName()
                         << "' to have a body";

  for (CandidateOp candidate : getCandidates()) {
    func::FuncOp payload = candidate.getPayload();
    if (payload && payload.getFunctionType() != reference.getFunctionType())
      return candidate.emitOpError()
             << "payload function type " << payload.getFunctionType()
             << " differs from the reference's " << reference.getFunctionType();
    FlatSymbolRefAttr parent = candidate.getParentAttr();
    if (parent && !lookupCandidate(parent.getValue()))
      return candidate.emitOpError()
             << "names parent " << parent << " which is not a candidate of '@"
             << getSymName() << "'";
  }

  // Parent links must form a tree: walk up from every candidate and fail on a
  // revisit. Each chain is at most as long as the number of candidates.
  for (CandidateOp candidate : getCandidates()) {
    llvm::SmallPtrSet<Operation *, 8> seen;
    SmallVector<StringRef> chain;
    CandidateOp current = candidate;
    while (current) {
      chain.push_back(current.getSymName());
      if (!seen.insert(current).second) {
        InFlightDiagnostic diag = candidate.emitOpError()
                                  << "parent chain forms a cycle: ";
        llvm::interleave(
            chain, [&](StringRef name) { diag << "@" << name; },
            [&] { diag << " -> "; });
        return diag;
      }
      FlatSymbolRefAttr parent = current.getParentAttr();
      current = parent ? lookupCandidate(parent.getValue()) : CandidateOp();
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// CandidateOp
//===----------------------------------------------------------------------===//

func::FuncOp CandidateOp::getPayload() {
  auto functions = getBody().front().getOps<func::FuncOp>();
  return functions.empty() ? func::FuncOp() : *functions.begin();
}

std::optional<double> CandidateOp::getMedianTimeNs() {
  DictionaryAttr metrics = getMetricsAttr();
  if (!metrics)
    return std::nullopt;
  if (auto time = metrics.getAs<FloatAttr>("time_ns"))
    return time.getValueAsDouble();
  if (auto time = metrics.getAs<IntegerAttr>("time_ns"))
    return static_cast<double>(time.getInt());
  return std::nullopt;
}

LogicalResult CandidateOp::verifyRegions() {
  Block &body = getBody().front();
  auto functions = body.getOps<func::FuncOp>();
  size_t numFunctions = std::distance(functions.begin(), functions.end());
  if (numFunctions != 1 || body.getOperations().size() != 1)
    return emitOpError() << "expects exactly one payload func.func in its "
                            "body, found "
                         << body.getOperations().size() << " op(s) of which "
                         << numFunctions << " func.func";
  if (getPayload().isExternal())
    return emitOpError() << "expects the payload to have a body";
  return success();
}
