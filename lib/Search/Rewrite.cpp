//===- Rewrite.cpp - ke-rewrite: one round of proposals -------------------===//
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
#include "ke/Search/SearchSession.h"
#include "ke/Target/TargetInfo.h"
#include "ke/Store/Store.h"
#include "ke/Search/Passes.h"

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
#include "ke/Search/Passes.h.inc"
} // namespace ke

using namespace mlir;
using namespace ke;

namespace {
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
  view.payloadIR = search::printOp(*module);
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

/// The candidates a ke.kernel holds, as a proposal context reads them.
class RewriteTreeView : public search::CandidateTreeView {
public:
  RewriteTreeView(
      const std::vector<propose::NodeView> &views,
      llvm::function_ref<std::optional<size_t>(size_t)> parentOf)
      : views(views), parentOf(parentOf) {}
  size_t size() const override { return views.size(); }
  std::optional<size_t> getParent(size_t node) const override {
    return parentOf(node);
  }
  propose::NodeView getView(size_t node) const override {
    return views[node];
  }
  bool isCorrect(size_t node) const override { return views[node].correct; }
  double getSpeedup(size_t node) const override {
    return views[node].speedup;
  }

private:
  const std::vector<propose::NodeView> &views;
  llvm::function_ref<std::optional<size_t>(size_t)> parentOf;
};

struct RewritePass : ke::impl::KeRewriteBase<RewritePass> {
  using Base::Base;
  template <typename PassT>
  friend propose::LLMSessionOptions
  ke::search::getLLMSessionOptions(const PassT &pass);
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
  const TargetInfo *targetInfo = lookupTarget(target.getValue());
  if (!targetInfo) {
    module.emitError() << "ke-rewrite: unknown target '" << target
                       << "'; expected one of " << getTargetNameList();
    return signalPassFailure();
  }

  // Tagged functions become kernels holding them as their reference.
  if (failed(search::inlineHelperCalls(module, "ke-rewrite")))
    return signalPassFailure();
  if (failed(KernelOp::outlineTaggedFunctions(module, target)))
    return signalPassFailure();

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
    FailureOr<std::unique_ptr<propose::LLMSession>> created =
        search::openLLMSession(*database, std::nullopt,
                               search::getLLMSessionOptions(*this), module,
                               "ke-rewrite");
    if (failed(created))
      return signalPassFailure();
    session = std::move(*created);
    chosen = &session->getProposer();
  } else {
    library = search::createLibraryProposer(*targetInfo, seed, threads);
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
  llvm::Expected<search::PreparedKernel> prepared =
      search::prepareKernel(reference, name,
                            lookupTarget(target.getValue())->isGPU()
                                ? propose::PayloadTarget::GPU
                                : propose::PayloadTarget::CPU);
  if (!prepared) {
    kernel.emitError() << "ke-rewrite: '@" << name
                       << "': " << llvm::toString(prepared.takeError());
    return failure();
  }
  if (!prepared->skipped.empty())
    kernel.emitWarning() << "ke-rewrite: '@" << name
                         << "': proposing without a preparation step: "
                         << prepared->skipped;

  // Node 0 is the reference, then the candidates in order.
  SmallVector<CandidateOp> candidates = llvm::to_vector(kernel.getCandidates());
  std::vector<propose::NodeView> views;
  views.push_back(viewOf(0, reference, name, CandidateOp()));
  views.back().payloadIR = search::printOp(*prepared->baseModule);
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
  RewriteTreeView tree(views, parentOf);
  llvm::StringSet<> names, payloads;
  for (CandidateOp candidate : candidates) {
    names.insert(candidate.getSymName());
    payloads.insert(printPayload(candidate.getPayload()));
  }
  unsigned nextName = 0;

  for (size_t index = 0; index < views.size(); ++index) {
    if (index > 0 && !views[index].correct &&
        views[index].status != "unevaluated")
      continue;
    propose::ProposalContext proposalContext = search::makeProposalContext(
        *prepared, kernel.getTarget(), threads, tree, index, count);
    std::vector<propose::Proposal> proposals =
        proposer.propose(proposalContext);
    if (std::string problem = proposer.getFailure(); !problem.empty()) {
      kernel.emitError() << "ke-rewrite: '@" << name << "': " << problem;
      return failure();
    }
    for (const propose::Proposal &proposal : proposals) {
      propose::BuiltCandidate built =
          propose::buildCandidate(proposal, prepared->base, reference,
                                  prepared->shapes);
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
      search::appendCandidate(kernel, childName, parentRef, proposer.getName(),
                              CandidateStatus::Unevaluated, proposal.strategy,
                              DictionaryAttr(), payload);
    }
  }
  return success();
}
} // namespace
