//===- SearchSession.h - the steps every search driver shares ---*- C++ -*-===//
//
// ke-evolve (the tree search) and ke-rewrite (one round of proposals) run
// the same steps: prepare the kernel every proposal starts from, build a
// proposal's context from the candidate tree, ask the target which
// proposers apply, check a candidate in-process, and materialize candidates
// as ke.candidate ops. They live here once.
//
//===----------------------------------------------------------------------===//

#ifndef KE_SEARCH_SEARCHSESSION_H
#define KE_SEARCH_SEARCHSESSION_H

#include "ke/KeDialect.h"
#include "ke/Propose/DefaultVariantsProposer.h"
#include "ke/Propose/LLMSession.h"
#include "ke/Propose/Proposer.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ke {
struct TargetInfo;
namespace propose {
class TransformLibraryProposer;
} // namespace propose
} // namespace ke

namespace ke::search {

std::string printOp(mlir::Operation *op);
std::string hashText(llvm::StringRef text);
llvm::Error writeFile(llvm::StringRef path, llvm::StringRef contents);

/// The kernel as every proposal sees it: a copy of the reference with the
/// front end's forms cleaned up and every op linalg (the base schedules
/// apply to), its ops' shapes and its signature.
struct PreparedKernel {
  std::string name;
  mlir::OwningOpRef<mlir::ModuleOp> baseModule;
  mlir::func::FuncOp base;
  std::vector<propose::OpShape> shapes;
  std::string opKinds;
  std::string signature;
  /// Preparation steps that failed on this kernel and were skipped.
  std::string skipped;
};

/// Prepares `reference` under the name `name` for a search on `target`.
llvm::Expected<PreparedKernel> prepareKernel(mlir::func::FuncOp reference,
                                             llvm::StringRef name,
                                             propose::PayloadTarget target);

/// The candidate tree as a proposal context reads it: node 0 is the
/// reference; every other node has a parent.
class CandidateTreeView {
public:
  virtual ~CandidateTreeView();
  virtual size_t size() const = 0;
  virtual std::optional<size_t> getParent(size_t node) const = 0;
  virtual propose::NodeView getView(size_t node) const = 0;
  virtual bool isCorrect(size_t node) const = 0;
  virtual double getSpeedup(size_t node) const = 0;
};

/// What a proposer is told when it expands `parent`: the kernel, the
/// parent's trajectory from the root, its children so far and the best
/// four correct nodes.
propose::ProposalContext makeProposalContext(const PreparedKernel &kernel,
                                             llvm::StringRef target,
                                             unsigned threads,
                                             const CandidateTreeView &tree,
                                             size_t parent, unsigned count);

/// The built-in proposer of `target` (the transform library on CPUs,
/// thread-block shapes on GPUs), seeded with `seed`; `configureLibrary`
/// sees the transform library before it proposes (warm starts).
std::unique_ptr<propose::Proposer> createLibraryProposer(
    const TargetInfo &target, uint64_t seed, unsigned threads,
    llvm::function_ref<void(propose::TransformLibraryProposer &)>
        configureLibrary = {});

/// The LLM session options of a pass that declares Passes.td's
/// KeLLMOptions (ke-evolve and ke-rewrite).
template <typename PassT>
propose::LLMSessionOptions getLLMSessionOptions(const PassT &pass) {
  propose::LLMSessionOptions options;
  options.config.provider = pass.llmProvider;
  options.config.model = pass.llmModel;
  options.config.baseURL = pass.llmBaseURL;
  options.config.timeoutSeconds = pass.llmTimeout;
  options.config.maxRetries = pass.llmRetries;
  options.mode = pass.llmMode;
  options.extraKnowledge = pass.kb;
  options.proposer.passages = pass.kbPassages;
  options.proposer.promptTokens = pass.llmPromptTokens;
  options.proposer.repairs = pass.llmRepairs;
  options.proposer.tokenBudget = pass.llmMaxTokens;
  options.proposer.contextTokens = pass.llmContext;
  options.proposer.maxReplyTokens = pass.llmReplyTokens;
  options.proposer.replyForm = pass.llmReply;
  options.proposer.systemRole = pass.llmSystem;
  options.proposer.responseFormat = pass.llmResponseFormat;
  return options;
}

/// Opens the LLM session a search driver (`tool`: "ke-evolve", ...) asks
/// for: knowledge-base warnings as warnings on `anchor`, failure after an
/// error on it.
mlir::FailureOr<std::unique_ptr<propose::LLMSession>>
openLLMSession(store::Store &database, std::optional<int64_t> run,
               const propose::LLMSessionOptions &options,
               mlir::Operation *anchor, llvm::StringRef tool);

/// The in-process check of a candidate: does a copy lower for the target
/// and translate to LLVM IR? Empty if it does; a failure costs no
/// subprocess.
std::string checkLowers(mlir::ModuleOp candidate, const TargetInfo &target);

/// Kernels are searched and run on their own: calls to helper functions of
/// the file are inlined into the kernels (nothing else changes). Fails, at
/// the call, where a kernel still calls a function afterwards (external or
/// recursive).
mlir::LogicalResult inlineHelperCalls(mlir::ModuleOp module,
                                      llvm::StringRef passName);

/// The kernel as ke-run without --naive schedules it (the default
/// lowering's stages before bufferization, from the kernel as written, not
/// from the search's prepared base), as a module of its own, or why it
/// could not be built: the search's floor, and under other `knobs` the
/// default-variants proposer's candidates.
mlir::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
buildDefaultLowering(mlir::func::FuncOp kernel,
                     const propose::DefaultLoweringKnobs &knobs,
                     std::string &problem);

/// Appends a ke.candidate to `kernel` holding `payload` (renamed
/// "payload"; taken out of wherever it was).
CandidateOp appendCandidate(KernelOp kernel, llvm::StringRef name,
                            mlir::FlatSymbolRefAttr parent,
                            llvm::StringRef proposer, CandidateStatus status,
                            llvm::StringRef strategy,
                            mlir::DictionaryAttr metrics,
                            mlir::func::FuncOp payload);

/// The status a search records ("correct", ...) as the dialect's enum.
CandidateStatus parseCandidateStatus(llvm::StringRef status);

} // namespace ke::search

#endif // KE_SEARCH_SEARCHSESSION_H
