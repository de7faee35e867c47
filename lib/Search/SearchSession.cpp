//===- SearchSession.cpp - the steps every search driver shares -----------===//

#include "ke/Search/SearchSession.h"

#include "ke/Propose/GPUBlockProposer.h"
#include "ke/Propose/Schedule.h"
#include "ke/Propose/TransformLibraryProposer.h"
#include "ke/Support/DiagnosticCollector.h"
#include "ke/Eval/PrepareForLowering.h"
#include "ke/Target/CPUPipeline.h"
#include "ke/Target/GPUPipeline.h"
#include "ke/Target/TargetInfo.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Inliner.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace ke;
using namespace ke::search;

std::string ke::search::printOp(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  return text;
}

std::string ke::search::hashText(llvm::StringRef text) {
  return llvm::utohexstr(llvm::xxh3_64bits(text), /*LowerCase=*/true);
}

llvm::Error ke::search::writeFile(llvm::StringRef path,
                                  llvm::StringRef contents) {
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec);
  if (ec)
    return llvm::createStringError(ec, "cannot write '%s'", path.str().c_str());
  out << contents;
  return llvm::Error::success();
}

llvm::Expected<PreparedKernel>
ke::search::prepareKernel(func::FuncOp reference, llvm::StringRef name,
                          propose::PayloadTarget target) {
  PreparedKernel kernel;
  kernel.name = name.str();
  kernel.baseModule = ModuleOp::create(reference.getLoc());
  kernel.base = cast<func::FuncOp>(reference->clone());
  kernel.base.setSymName(name);
  kernel.baseModule->push_back(kernel.base);
  // A preparation step that fails on this kernel is skipped: the search goes
  // on without it and says so.
  if (llvm::Error error =
          propose::canonicalizeForScheduling(kernel.base, target,
                                             &kernel.skipped))
    return std::move(error);
  kernel.shapes = propose::describeOps(kernel.base);
  kernel.opKinds = propose::describeOpKinds(kernel.shapes);
  llvm::raw_string_ostream os(kernel.signature);
  os << reference.getFunctionType();
  return kernel;
}

CandidateTreeView::~CandidateTreeView() = default;

propose::ProposalContext ke::search::makeProposalContext(
    const PreparedKernel &kernel, llvm::StringRef target, unsigned threads,
    const CandidateTreeView &tree, size_t parent, unsigned count) {
  propose::ProposalContext context;
  context.kernelName = kernel.name;
  context.target = target.str();
  context.opKinds = kernel.opKinds;
  context.signature = kernel.signature;
  context.threads = std::max(1u, threads);
  context.shapes = kernel.shapes;
  context.parent = tree.getView(parent);
  for (std::optional<size_t> at = tree.getParent(parent); at;
       at = tree.getParent(*at))
    context.trajectory.insert(context.trajectory.begin(), tree.getView(*at));
  std::vector<size_t> ranked;
  for (size_t node = 1; node < tree.size(); ++node) {
    if (tree.getParent(node) == parent)
      context.siblings.push_back(tree.getView(node));
    if (tree.isCorrect(node))
      ranked.push_back(node);
  }
  llvm::stable_sort(ranked, [&](size_t a, size_t b) {
    return tree.getSpeedup(a) > tree.getSpeedup(b);
  });
  for (size_t i = 0; i < std::min<size_t>(4, ranked.size()); ++i)
    context.elite.push_back(tree.getView(ranked[i]));
  context.count = std::max(1u, count);
  return context;
}

std::unique_ptr<propose::Proposer> ke::search::createLibraryProposer(
    const TargetInfo &target, uint64_t seed, unsigned threads,
    llvm::function_ref<void(propose::TransformLibraryProposer &)>
        configureLibrary) {
  // On GPUs the library's space is the thread-block shape.
  if (target.isGPU())
    return std::make_unique<propose::GPUBlockProposer>();
  auto library = std::make_unique<propose::TransformLibraryProposer>(
      seed, target.hasThreads ? std::max(1u, threads) : 1u,
      target.maxVectorWidth);
  if (configureLibrary)
    configureLibrary(*library);
  return library;
}

FailureOr<std::unique_ptr<propose::LLMSession>>
ke::search::openLLMSession(store::Store &database, std::optional<int64_t> run,
                           const propose::LLMSessionOptions &options,
                           Operation *anchor, llvm::StringRef tool) {
  std::vector<std::string> warnings;
  auto session = propose::LLMSession::create(database, run, options,
                                             anchor->getContext(), warnings);
  for (const std::string &warning : warnings)
    anchor->emitWarning() << tool << ": knowledge base: " << warning;
  if (!session) {
    anchor->emitError() << tool << ": " << llvm::toString(session.takeError());
    return failure();
  }
  return std::move(*session);
}

std::string ke::search::checkLowers(ModuleOp candidate,
                                    const TargetInfo &target) {
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>(candidate->clone());
  MLIRContext *context = candidate.getContext();
  ke::DiagnosticCollector diagnostics(context);
  PassManager pm(context, ModuleOp::getOperationName());
  LowerCPUOptions options;
  options.naive = true; // the candidate carries its own schedule
  // Only the host JIT has an OpenMP runtime; GPU candidates are checked on
  // the CPU like ke-run checks them.
  options.threads = target.runsInProcess();
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (failed(buildLowerCPUPipeline(pm, options, errorStream)))
    return "lower: " + errors;
  if (failed(pm.run(*copy)))
    return "lower: " + diagnostics.str();
  // Translation to LLVM IR catches what the passes let through (ops with no
  // CPU lowering); machine code generation is left to ke-run.
  llvm::LLVMContext llvmContext;
  if (!translateModuleToLLVMIR(*copy, llvmContext))
    return "jit: " + diagnostics.str();
  if (!target.isGPU())
    return "";
  // GPU candidates are checked on the CPU and must also lower for the GPU:
  // the target's pipeline to assembly, as ke-run compiles them.
  OwningOpRef<ModuleOp> gpuCopy = cast<ModuleOp>(candidate->clone());
  for (auto function : gpuCopy->getOps<func::FuncOp>()) {
    eval::prepareForLowering(function);
    function->setAttr("llvm.emit_c_interface", UnitAttr::get(context));
  }
  PassManager gpuPm(context, ModuleOp::getOperationName());
  LowerGPUOptions gpuOptions;
  if (failed(buildLowerGPUPipeline(gpuPm, target, gpuOptions, errorStream)))
    return "lower: " + errors;
  if (failed(gpuPm.run(*gpuCopy)))
    return "lower: " + diagnostics.str();
  return "";
}

FailureOr<OwningOpRef<ModuleOp>>
ke::search::buildDefaultLowering(func::FuncOp kernel,
                                 const propose::DefaultLoweringKnobs &knobs,
                                 std::string &problem) {
  MLIRContext *context = kernel.getContext();
  OwningOpRef<ModuleOp> module = ModuleOp::create(kernel.getLoc());
  module->push_back(cast<func::FuncOp>(kernel->clone()));
  ke::DiagnosticCollector diagnostics(context);
  PassManager pm(context, ModuleOp::getOperationName());
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  LowerCPUOptions options;
  options.vectorWidth = knobs.vectorWidth;
  options.elementwiseVectorWidth = knobs.elementwiseVectorWidth;
  options.vectorRegisters = knobs.vectorRegisters;
  if (failed(parsePassPipeline(getDefaultCPUSchedulePipeline(options), pm,
                               errorStream))) {
    problem = "cannot build the default schedule: " + errors;
    return failure();
  }
  if (failed(pm.run(*module))) {
    problem = "the default schedule does not apply: " + diagnostics.str();
    return failure();
  }
  return std::move(module);
}

CandidateOp ke::search::appendCandidate(KernelOp kernel, llvm::StringRef name,
                                        FlatSymbolRefAttr parent,
                                        llvm::StringRef proposer,
                                        CandidateStatus status,
                                        llvm::StringRef strategy,
                                        DictionaryAttr metrics,
                                        func::FuncOp payload) {
  MLIRContext *context = kernel.getContext();
  OpBuilder builder = OpBuilder::atBlockEnd(&kernel.getBody().front());
  auto candidate = CandidateOp::create(
      builder, kernel.getLoc(), builder.getStringAttr(name), parent,
      builder.getStringAttr(proposer),
      CandidateStatusAttr::get(context, status),
      builder.getStringAttr(strategy), metrics);
  candidate.getBody().push_back(new Block());
  if (payload->getBlock())
    payload->remove();
  payload.setSymName("payload");
  candidate.getBody().front().push_back(payload);
  return candidate;
}

CandidateStatus ke::search::parseCandidateStatus(llvm::StringRef status) {
  return symbolizeCandidateStatus(status).value_or(CandidateStatus::Failed);
}

LogicalResult ke::search::inlineHelperCalls(ModuleOp module,
                                            llvm::StringRef passName) {
  InlinerInterface interface(module.getContext());
  InlinerConfig config;
  bool called = false;
  for (auto function : module.getOps<func::FuncOp>()) {
    if (!function->hasAttr(KeDialect::kKernelAttrName) || function.isExternal())
      continue;
    // Inlined bodies may call further helpers; a bound on the rounds stops
    // recursion, whose calls are then reported.
    for (int round = 0; round < 32; ++round) {
      SmallVector<func::CallOp> calls;
      function.walk([&](func::CallOp call) { calls.push_back(call); });
      bool inlined = false;
      for (func::CallOp call : calls) {
        auto callee = module.lookupSymbol<func::FuncOp>(call.getCalleeAttr());
        if (!callee || callee.isExternal() || callee == function)
          continue;
        if (succeeded(inlineCall(interface, config.getCloneCallback(), call,
                                 callee, &callee.getBody()))) {
          call.erase();
          inlined = true;
        }
      }
      if (!inlined)
        break;
    }
    function.walk([&](func::CallOp call) {
      call.emitError() << passName << ": kernel '@" << function.getSymName()
                       << "' calls '@" << call.getCallee()
                       << "', which cannot be inlined into it (external or "
                          "recursive); ke evaluates each kernel on its own";
      called = true;
    });
  }
  return failure(called);
}
