//===- LLMProposer.cpp - the universal operator ---------------------------===//

#include "ke/Propose/LLMProposer.h"

#include "ke/Eval/EvaluationReport.h"
#include "ke/Propose/PromptSynthesizer.h"
#include "ke/Propose/Rewrite.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace ke::propose;

MemoryOperator LLMProposer::chooseMemory(const ProposalContext &context) {
  unsigned turn = proposed++;
  if (turn % 16 == 15)
    return MemoryOperator::Restart;
  if (turn % 4 == 1 && !context.siblings.empty())
    return MemoryOperator::CompareSiblings;
  if (turn % 4 == 3 && context.elite.size() >= 2)
    return MemoryOperator::Combine;
  return MemoryOperator::InheritTrajectory;
}

std::vector<Proposal> LLMProposer::propose(const ProposalContext &context) {
  std::vector<Proposal> proposals;
  for (unsigned i = 0; i < context.count; ++i) {
    if (options.tokenBudget > 0 &&
        client.getTokensUsed() >= options.tokenBudget) {
      stopReason = llvm::formatv("LLM token budget spent ({0} of {1} tokens)",
                                 client.getTokensUsed(), options.tokenBudget);
      break;
    }
    Proposal proposal = proposeOne(context);
    // A replay that misses an answer would silently diverge from the
    // recorded search: stop instead.
    if (!proposal.error.empty() && client.getMode() == llm::LLMMode::Replay &&
        llvm::StringRef(proposal.error).contains("llm-mode=replay")) {
      failure = proposal.error.substr(5); // drop "llm: "
      stopReason = "replay miss";
      proposals.clear();
      break;
    }
    proposals.push_back(std::move(proposal));
  }
  return proposals;
}

namespace {
/// The bound ke-run reported for a node, for retrieval.
std::string readBound(llvm::StringRef diagnosis) {
  llvm::Expected<ke::eval::EvaluationReport> report =
      ke::eval::EvaluationReport::parse(diagnosis);
  if (!report) {
    llvm::consumeError(report.takeError());
    return "";
  }
  return report->bound;
}
} // namespace

Proposal LLMProposer::proposeOne(const ProposalContext &proposalContext) {
  Proposal proposal;
  proposal.memory = chooseMemory(proposalContext);
  const NodeView &parent = proposalContext.parent;
  // A clean slate starts from the reference: the root of the trajectory.
  const NodeView &base = proposal.memory == MemoryOperator::Restart &&
                                 !proposalContext.trajectory.empty()
                             ? proposalContext.trajectory.front()
                             : parent;

  PromptInputs inputs;
  inputs.context = &proposalContext;
  inputs.memory = proposal.memory;
  inputs.baseIR = base.payloadIR;
  inputs.tokenBudget = options.promptTokens;
  if (knowledge && options.passages > 0) {
    kb::RetrievalSignals signals;
    signals.target = proposalContext.target;
    llvm::SmallVector<llvm::StringRef> kinds;
    llvm::StringRef(proposalContext.opKinds).split(kinds, ',', -1, false);
    for (llvm::StringRef kind : kinds)
      signals.opKinds.push_back(kind.str());
    signals.bound = readBound(parent.diagnosis);
    signals.errorText = parent.error;
    auto passages = knowledge->retrieve(signals, options.passages);
    if (passages)
      inputs.passages = std::move(*passages);
    else
      llvm::consumeError(passages.takeError()); // knowledge is optional
  }
  if (store && options.skills > 0) {
    auto skills = store->findSkills(proposalContext.target,
                                    proposalContext.opKinds, options.skills);
    if (skills)
      inputs.skills = std::move(*skills);
    else
      llvm::consumeError(skills.takeError());
  }

  llm::ChatRequest request = synthesizePrompt(inputs);
  request.maxTokens = options.maxReplyTokens;
  request.temperature = options.temperature;
  for (unsigned round = 0;; ++round) {
    llvm::Expected<llm::ChatReply> reply = client.complete(request);
    if (!reply) {
      proposal.error = "llm: " + llvm::toString(reply.takeError());
      proposal.strategy = "llm: no usable reply";
      return proposal;
    }
    proposal.llmCall = reply->callId;
    std::string problem;
    llvm::Expected<ParsedRewrite> rewrite = parseRewriteReply(reply->text);
    if (rewrite) {
      proposal.rewrite = rewrite->text;
      proposal.strategy =
          (rewrite->kind == RewriteKind::TransformScript ? "llm transform: "
                                                         : "llm rewrite: ") +
          (rewrite->explanation.empty() ? std::string("(no explanation)")
                                        : rewrite->explanation);
      llvm::Expected<std::string> payload = materializeRewrite(
          *rewrite, base.payloadIR, proposalContext.kernelName, context);
      if (payload) {
        proposal.payloadIR = std::move(*payload);
        proposal.error.clear();
        return proposal;
      }
      problem = llvm::toString(payload.takeError());
    } else {
      problem = llvm::toString(rewrite.takeError());
      proposal.strategy = "llm: unparsable reply";
    }
    proposal.error = "verify: " + problem;
    if (round >= options.repairs)
      return proposal;
    request = synthesizeRepair(request, reply->text, problem);
  }
}
