//===- RewritePass.cpp - ke-rewrite: one round of proposals ---------------===//
//
// The expansion step of ke-evolve without the evaluation: every node of
// every ke.kernel gets children from the library or the LLM, verified and
// added as unevaluated candidates.
//
//===----------------------------------------------------------------------===//

#include "ke/KeDialect.h"
#include "ke/Propose/Candidate.h"
#include "ke/Propose/LLMSession.h"
#include "ke/Propose/TransformLibraryProposer.h"
#include "ke/Store/Store.h"
#include "ke/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

namespace ke {
#define GEN_PASS_DEF_KEREWRITE
#include "ke/Transforms/Passes.h.inc"
} // namespace ke

using namespace mlir;
using namespace ke;

namespace {
std::string printOp(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  return text;
}

/// A payload's text independent of where it sits (nested ops print with
/// their parent's context otherwise), for deduplication.
std::string printPayload(func::FuncOp payload) {
  std::string text;
  llvm::raw_string_ostream os(text);
  payload->print(os, OpPrintingFlags().useLocalScope());
  return text;
}

/// A node's view for the proposer, from what the IR records of it.
propose::NodeView viewOf(size_t index, func::FuncOp payload,
                         llvm::StringRef kernelName, CandidateOp candidate) {
  propose::NodeView view;
  view.index = index;
  OwningOpRef<ModuleOp> module = ModuleOp::create(payload.getLoc());
  auto copy = cast<func::FuncOp>(payload->clone());
  copy.setSymName(kernelName);
  module->push_back(copy);
  view.payloadIR = printOp(*module);
  if (!candidate) {
    view.strategy = "(reference)";
    view.correct = true;
    view.speedup = 1.0;
    return view;
  }
  view.strategy = candidate.getStrategy().str();
  view.proposer = candidate.getProposer().str();
  view.status = stringifyCandidateStatus(candidate.getStatus()).str();
  view.correct = candidate.getStatus() == CandidateStatus::Correct;
  // Library nodes record their schedule as the strategy.
  if (view.proposer == "library") {
    llvm::Expected<propose::Schedule> schedule =
        propose::Schedule::parse(view.strategy);
    if (schedule)
      view.schedule = schedule->toString();
    else
      llvm::consumeError(schedule.takeError());
  }
  llvm::json::Object diagnosis;
  if (DictionaryAttr metrics = candidate.getMetricsAttr()) {
    for (NamedAttribute metric : metrics) {
      auto value = dyn_cast<FloatAttr>(metric.getValue());
      if (!value)
        continue;
      double number = value.getValueAsDouble();
      if (metric.getName() == "speedup")
        view.speedup = number;
      else if (metric.getName() == "time_ns")
        diagnosis["time_ns"] = llvm::json::Object{{"median", number}};
      else
        diagnosis[metric.getName().str()] = number;
    }
  }
  if (!diagnosis.empty()) {
    llvm::raw_string_ostream os(view.diagnosis);
    os << llvm::json::Value(std::move(diagnosis));
  }
  return view;
}

struct RewritePass : ke::impl::KeRewriteBase<RewritePass> {
  using Base::Base;
  void runOnOperation() override;

private:
  LogicalResult rewriteKernel(KernelOp kernel, propose::Proposer &proposer);
};

void RewritePass::runOnOperation() {
  ModuleOp module = getOperation();
  if (proposer != "library" && proposer != "llm") {
    module.emitError() << "ke-rewrite: unknown proposer '" << proposer
                       << "'; expected library or llm";
    return signalPassFailure();
  }
  if (!llvm::is_contained(KernelOp::getKnownTargets(), target)) {
    module.emitError() << "ke-rewrite: unknown target '" << target
                       << "'; expected one of "
                       << llvm::join(KernelOp::getKnownTargets(), ", ");
    return signalPassFailure();
  }

  // Tagged functions become kernels holding them as their reference.
  for (auto function : llvm::to_vector(module.getOps<func::FuncOp>())) {
    if (!function->hasAttr(KeDialect::kKernelAttrName) || function.isExternal())
      continue;
    OpBuilder builder(function);
    auto kernel = KernelOp::create(builder, function.getLoc(),
                                   function.getSymName(), target);
    Block &body = kernel.getBody().front();
    function->moveBefore(&body, body.end());
  }

  std::unique_ptr<store::Store> database;
  std::unique_ptr<propose::LLMSession> session;
  std::unique_ptr<propose::Proposer> library;
  propose::Proposer *chosen = nullptr;
  if (proposer == "llm") {
    auto opened = store::Store::open(db);
    if (!opened) {
      module.emitError() << "ke-rewrite: "
                         << llvm::toString(opened.takeError());
      return signalPassFailure();
    }
    database = std::move(*opened);
    propose::LLMSessionOptions options;
    options.config.provider = llmProvider;
    options.config.model = llmModel;
    options.config.baseURL = llmBaseURL;
    options.config.timeoutSeconds = llmTimeout;
    options.config.maxRetries = llmRetries;
    options.mode = llmMode;
    options.extraKnowledge = kb;
    options.proposer.passages = kbPassages;
    options.proposer.promptTokens = llmPromptTokens;
    options.proposer.repairs = llmRepairs;
    options.proposer.tokenBudget = llmMaxTokens;
    std::vector<std::string> warnings;
    auto created = propose::LLMSession::create(*database, std::nullopt, options,
                                               &getContext(), warnings);
    for (const std::string &warning : warnings)
      module.emitWarning() << "ke-rewrite: knowledge base: " << warning;
    if (!created) {
      module.emitError() << "ke-rewrite: "
                         << llvm::toString(created.takeError());
      return signalPassFailure();
    }
    session = std::move(*created);
    chosen = &session->getProposer();
  } else {
    library = std::make_unique<propose::TransformLibraryProposer>(
        seed, std::max(1u, threads.getValue()));
    chosen = library.get();
  }

  for (KernelOp kernel : llvm::to_vector(module.getOps<KernelOp>()))
    if (failed(rewriteKernel(kernel, *chosen)))
      return signalPassFailure();
}

LogicalResult RewritePass::rewriteKernel(KernelOp kernel,
                                         propose::Proposer &proposer) {
  func::FuncOp reference = kernel.getReference();
  std::string name = kernel.getSymName().str();
  OwningOpRef<ModuleOp> baseModule = ModuleOp::create(kernel.getLoc());
  auto base = cast<func::FuncOp>(reference->clone());
  base.setSymName(name);
  baseModule->push_back(base);
  std::string skipped;
  if (llvm::Error error = propose::canonicalizeForScheduling(base, &skipped)) {
    kernel.emitError() << "ke-rewrite: '@" << name
                       << "': " << llvm::toString(std::move(error));
    return failure();
  }
  if (!skipped.empty())
    kernel.emitWarning() << "ke-rewrite: '@" << name
                         << "': proposing without a preparation step: "
                         << skipped;
  std::vector<propose::OpShape> shapes = propose::describeOps(base);
  std::string signature;
  {
    llvm::raw_string_ostream os(signature);
    os << reference.getFunctionType();
  }

  // Node 0 is the reference, then the candidates in order.
  SmallVector<CandidateOp> candidates = llvm::to_vector(kernel.getCandidates());
  std::vector<propose::NodeView> views;
  views.push_back(viewOf(0, reference, name, CandidateOp()));
  views.back().payloadIR = printOp(*baseModule);
  llvm::StringMap<size_t> indexOf;
  for (auto [i, candidate] : llvm::enumerate(candidates)) {
    views.push_back(viewOf(i + 1, candidate.getPayload(), name, candidate));
    indexOf[candidate.getSymName()] = i + 1;
  }
  auto parentOf = [&](size_t index) -> std::optional<size_t> {
    if (index == 0)
      return std::nullopt;
    std::optional<StringRef> from = candidates[index - 1].getParent();
    return from ? indexOf.lookup(*from) : 0;
  };
  std::vector<size_t> elite;
  for (size_t i = 1; i < views.size(); ++i)
    if (views[i].correct)
      elite.push_back(i);
  llvm::stable_sort(elite, [&](size_t a, size_t b) {
    return views[a].speedup > views[b].speedup;
  });
  if (elite.size() > 4)
    elite.resize(4);

  llvm::StringSet<> names, payloads;
  for (CandidateOp candidate : candidates) {
    names.insert(candidate.getSymName());
    payloads.insert(printPayload(candidate.getPayload()));
  }
  unsigned nextName = 0;
  OpBuilder builder = OpBuilder::atBlockEnd(&kernel.getBody().front());
  MLIRContext *context = &getContext();

  for (size_t index = 0; index < views.size(); ++index) {
    if (index > 0 && !views[index].correct &&
        views[index].status != "unevaluated")
      continue;
    propose::ProposalContext proposalContext;
    proposalContext.kernelName = name;
    proposalContext.target = kernel.getTarget().str();
    proposalContext.opKinds = propose::describeOpKinds(shapes);
    proposalContext.signature = signature;
    proposalContext.threads = std::max(1u, threads.getValue());
    proposalContext.shapes = shapes;
    proposalContext.parent = views[index];
    for (std::optional<size_t> at = parentOf(index); at; at = parentOf(*at))
      proposalContext.trajectory.insert(proposalContext.trajectory.begin(),
                                        views[*at]);
    for (size_t i = 1; i < views.size(); ++i)
      if (parentOf(i) == index)
        proposalContext.siblings.push_back(views[i]);
    for (size_t i : elite)
      proposalContext.elite.push_back(views[i]);
    proposalContext.count = std::max(1u, count.getValue());

    std::vector<propose::Proposal> proposals =
        proposer.propose(proposalContext);
    if (std::string problem = proposer.getFailure(); !problem.empty()) {
      kernel.emitError() << "ke-rewrite: '@" << name << "': " << problem;
      return failure();
    }
    for (const propose::Proposal &proposal : proposals) {
      propose::BuiltCandidate built =
          propose::buildCandidate(proposal, base, reference, shapes);
      if (!built.problem.empty()) {
        kernel.emitWarning()
            << "ke-rewrite: '@" << name << "': a proposal for "
            << (index == 0 ? std::string("the reference")
                           : "@" + candidates[index - 1].getSymName().str())
            << " was dropped: " << built.problem;
        continue;
      }
      auto payload = *built.module->getOps<func::FuncOp>().begin();
      payload->remove();
      payload.setSymName("payload");
      for (NamedAttribute attr :
           llvm::to_vector(payload->getDiscardableAttrs()))
        payload->removeAttr(attr.getName());
      // A candidate the kernel already holds is not added twice.
      if (!payloads.insert(printPayload(payload)).second) {
        payload->erase();
        continue;
      }
      std::string childName;
      do
        childName = llvm::formatv("r{0}", nextName++).str();
      while (names.contains(childName));
      names.insert(childName);
      FlatSymbolRefAttr parentRef =
          index == 0
              ? FlatSymbolRefAttr()
              : FlatSymbolRefAttr::get(candidates[index - 1].getSymNameAttr());
      auto candidate = CandidateOp::create(
          builder, kernel.getLoc(), builder.getStringAttr(childName), parentRef,
          builder.getStringAttr(proposer.getName()),
          CandidateStatusAttr::get(context, CandidateStatus::Unevaluated),
          builder.getStringAttr(proposal.strategy), DictionaryAttr());
      candidate.getBody().push_back(new Block());
      candidate.getBody().front().push_back(payload);
    }
  }
  return success();
}
} // namespace
