//===- LLMProposer.cpp - the universal operator ---------------------------===//

#include "ke/Propose/LLMProposer.h"

#include "ke/Eval/EvaluationReport.h"
#include "ke/Propose/PromptSynthesizer.h"
#include "ke/Propose/Rewrite.h"
#include "ke/Propose/ScheduleReply.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Regex.h"

#include <limits>

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

std::vector<Proposal> LLMProposer::propose(const ProposalContext &given) {
  std::vector<Proposal> proposals;
  // Each proposal of a round is listed to the next prompts as already
  // proposed from this parent, so they differ (ke-rewrite count=N,
  // ke-evolve workers=N).
  ProposalContext context = given;
  for (unsigned i = 0; i < context.count; ++i) {
    if (options.tokenBudget > 0 &&
        client.getTokensUsed() >= options.tokenBudget) {
      stopReason = llvm::formatv("LLM token budget spent ({0} of {1} tokens)",
                                 client.getTokensUsed(), options.tokenBudget);
      break;
    }
    Proposal proposal = proposeOne(context);
    // A call the budget could not cover was not made: the search ends.
    if (!stopReason.empty())
      break;
    // A replay that misses an answer would silently diverge from the
    // recorded search: stop instead.
    if (!proposal.error.empty() && client.getMode() == llm::LLMMode::Replay &&
        llvm::StringRef(proposal.error).contains("llm-mode=replay")) {
      failure = proposal.error.substr(5); // drop "llm: "
      stopReason = "replay miss";
      proposals.clear();
      break;
    }
    NodeView proposed;
    // Not a node of the tree (yet): an index no node has.
    proposed.index = std::numeric_limits<size_t>::max() - i;
    proposed.strategy = proposal.strategy;
    proposed.status = proposal.error.empty() ? "proposed" : "failed";
    proposed.error = proposal.error;
    proposed.proposer = getName();
    if (proposal.schedule)
      proposed.schedule = proposal.schedule->toString();
    context.siblings.push_back(std::move(proposed));
    proposals.push_back(std::move(proposal));
  }
  return proposals;
}

bool LLMProposer::useScheduleForm() const {
  if (options.replyForm == "schedule")
    return true;
  if (options.replyForm == "ir")
    return false;
  // auto: small contexts cannot hold IR and its rewrite; a schedule fits.
  return options.contextTokens > 0 && options.contextTokens <= 16384;
}

namespace {
/// Tokens `request` will take, with the characters per token learnt so far
/// and a few tokens of chat framing per message.
int64_t estimatePromptTokens(const ke::llm::ChatRequest &request,
                             double charsPerToken) {
  double characters = 0;
  for (const ke::llm::Message &message : request.messages)
    characters += message.content.size();
  return static_cast<int64_t>(characters / charsPerToken) +
         8 * static_cast<int64_t>(request.messages.size());
}
} // namespace

llvm::Error LLMProposer::reserveTokens(llm::ChatRequest &request,
                                       unsigned minReply) {
  int64_t prompt = estimatePromptTokens(request, client.getCharsPerToken());
  int64_t reply = request.maxTokens;
  if (options.contextTokens > 0) {
    // A margin for the estimate's error.
    int64_t room = options.contextTokens - prompt - 64;
    if (room < minReply)
      return llvm::createStringError(llvm::formatv(
          "the prompt (about {0} tokens) leaves no room for a reply of {1} "
          "tokens in llm-context={2}; nothing was sent",
          prompt, minReply, options.contextTokens));
    reply = std::min(reply, room);
  }
  if (options.tokenBudget > 0) {
    int64_t room = options.tokenBudget - client.getTokensUsed() - prompt;
    if (room < minReply) {
      stopReason = llvm::formatv(
          "LLM token budget: {0} of {1} tokens spent, the next call needs "
          "about {2} (prompt) + {3} (reply)",
          client.getTokensUsed(), options.tokenBudget, prompt, minReply);
      return llvm::createStringError(stopReason);
    }
    reply = std::min(reply, room);
  }
  request.maxTokens = static_cast<unsigned>(reply);
  return llvm::Error::success();
}

namespace {
/// The line of `text` a diagnostic "<file>:LINE:COL: ..." in `problem`
/// points at, if any.
std::string findOffendingLine(llvm::StringRef problem, llvm::StringRef text) {
  static const llvm::Regex location(":([0-9]+):([0-9]+): ");
  llvm::SmallVector<llvm::StringRef> groups;
  if (!location.match(problem, &groups))
    return "";
  unsigned line = 0;
  if (groups[1].getAsInteger(10, line) || line == 0)
    return "";
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  return line <= lines.size() ? lines[line - 1].str() : std::string();
}

/// Retrieval tags from what the ops do: reductions, contractions,
/// elementwise chains, gathers (an operand not indexed by plain loops),
/// math functions, convolutions and pooling.
std::vector<std::string> describeBehaviour(llvm::ArrayRef<OpShape> shapes) {
  std::vector<std::string> tags;
  auto add = [&](llvm::StringRef tag) {
    if (!llvm::is_contained(tags, tag))
      tags.push_back(tag.str());
  };
  for (const OpShape &shape : shapes) {
    llvm::StringRef name(shape.name);
    bool reduces = shape.hasReductionLoops();
    if (reduces)
      add("reduction");
    if (reduces && shape.inputLoops.size() >= 2 && shape.uniformTypes)
      add("contraction");
    if (!reduces && shape.bounds.size() >= 1)
      add("elementwise");
    if (shape.hasMath)
      add("exp");
    if (llvm::any_of(shape.inputLoops, [](llvm::ArrayRef<int64_t> loops) {
          return llvm::is_contained(loops, -1);
        }))
      add("gather");
    if (name.contains("conv"))
      add("convolution");
    if (name.contains("pooling"))
      add("pooling");
    if (reduces && !shape.isReduction.empty() && shape.isReduction.back() &&
        shape.bounds.size() >= 2 && shape.inputLoops.size() == 1)
      add("row");
  }
  if (shapes.size() >= 2)
    add("fusion");
  return tags;
}

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

bool LLMProposer::isKnownSchedule(const Schedule &schedule,
                                  const ProposalContext &context) const {
  std::string text = schedule.toString();
  auto same = [&](const NodeView &node) { return node.schedule == text; };
  // This round's proposals are siblings the search has not built yet.
  if (same(context.parent) || llvm::any_of(context.trajectory, same) ||
      llvm::any_of(context.siblings, same) || llvm::any_of(context.elite, same))
    return true;
  return context.buildsKnownCandidate && context.buildsKnownCandidate(schedule);
}

std::optional<Schedule>
LLMProposer::findUnmeasuredNeighbour(const Schedule &schedule,
                                     const ProposalContext &context) {
  if (context.shapes.empty() || schedule.ops.size() != context.shapes.size())
    return std::nullopt;
  if (!neighbours)
    neighbours.emplace(/*seed=*/0x6b65, std::max(1u, context.threads));
  // Up to 16 one-knob changes; when all are known, one of them is the start
  // of the next 16 (3 knobs away at most).
  Schedule current = schedule;
  for (int step = 0; step < 3; ++step) {
    Schedule next = current;
    for (int attempt = 0; attempt < 16; ++attempt) {
      next = neighbours->mutate(current, context.shapes);
      if (!isKnownSchedule(next, context))
        return next;
    }
    current = next;
  }
  return std::nullopt;
}

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
    // What the kernel does, not only its ops' names (a kernel of generics
    // and fills says little by name).
    for (const std::string &tag : describeBehaviour(proposalContext.shapes))
      signals.opKinds.push_back(tag);
    signals.bound = readBound(parent.diagnosis);
    // The reference's own measurement is the first prompt's evidence.
    if (signals.bound.empty() && !proposalContext.trajectory.empty())
      signals.bound = readBound(proposalContext.trajectory.front().diagnosis);
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

  bool scheduleForm = useScheduleForm();
  unsigned replyTokens = options.maxReplyTokens
                             ? options.maxReplyTokens
                             : (scheduleForm ? 512u : 4096u);
  unsigned minReply = scheduleForm ? 128u : 512u;
  // The prompt's share of the window, in the synthesizer's 4-character
  // tokens, scaled by what the server's tokenizer does.
  double scale = client.getCharsPerToken() / 4.0;
  size_t promptTokens = options.promptTokens;
  if (options.contextTokens > 0)
    promptTokens = options.contextTokens > replyTokens + 64
                       ? options.contextTokens - replyTokens - 64
                       : options.contextTokens / 2;
  inputs.tokenBudget = static_cast<size_t>(promptTokens * scale);

  llm::ChatRequest request =
      scheduleForm ? synthesizeSchedulePrompt(inputs) : synthesizePrompt(inputs);
  bool scheduleOffered = !scheduleForm && options.replyForm == "auto";
  if (scheduleOffered)
    offerScheduleForm(request, proposalContext);
  if (options.systemRole == "user")
    moveSystemToUser(request);
  request.maxTokens = replyTokens;
  request.temperature = options.temperature;
  request.responseFormat = options.responseFormat;
  const llm::ChatRequest first = request;
  for (unsigned round = 0;; ++round) {
    if (llvm::Error error = reserveTokens(request, minReply)) {
      proposal.error = "llm: " + llvm::toString(std::move(error));
      proposal.strategy = "llm: not asked";
      return proposal;
    }
    llvm::Expected<llm::ChatReply> reply = client.complete(request);
    if (!reply) {
      proposal.error = "llm: " + llvm::toString(reply.takeError());
      proposal.strategy = "llm: no usable reply";
      return proposal;
    }
    proposal.llmCall = reply->callId;
    if (reply->finishReason == "length") {
      proposal.error = llvm::formatv("llm: the reply was cut at the limit of "
                                     "{0} tokens",
                                     request.maxTokens);
      proposal.strategy = "llm: reply cut at the length limit";
      if (round >= options.repairs)
        return proposal;
      request = synthesizeLengthRetry(first, request.maxTokens);
      continue;
    }
    std::string problem, offendingLine;
    bool looksLikeSchedule =
        scheduleForm ||
        (scheduleOffered && llvm::StringRef(reply->text).contains("\"ops\"") &&
         !llvm::StringRef(reply->text).contains("```mlir"));
    if (looksLikeSchedule) {
      llvm::Expected<ScheduleReply> chosen = parseScheduleReply(
          reply->text, proposalContext.shapes, proposalContext.threads);
      // A schedule already measured (small models copy the example's) is
      // moved to the nearest unmeasured one, said in the strategy, so the
      // reply still yields a candidate; only when every neighbour is known
      // is the model asked again, warmer.
      if (chosen && isKnownSchedule(chosen->schedule, proposalContext)) {
        std::string repeated = chosen->schedule.toString();
        if (std::optional<Schedule> moved =
                findUnmeasuredNeighbour(chosen->schedule, proposalContext)) {
          chosen->adjustments.insert(
              chosen->adjustments.begin(),
              "already measured (" + repeated +
                  "), moved to the nearest unmeasured schedule");
          chosen->schedule = std::move(*moved);
        } else if (round < options.repairs) {
          request = synthesizeRepair(
              request, reply->text,
              "this schedule (" + repeated +
                  ") was already measured or proposed; choose a different one");
          request.temperature = std::max(request.temperature, 0.9);
          continue;
        }
      }
      if (chosen) {
        proposal.schedule = chosen->schedule;
        proposal.rewrite = reply->text;
        proposal.strategy =
            "llm schedule: " + (chosen->explanation.empty()
                                    ? std::string("(no explanation)")
                                    : chosen->explanation);
        if (!chosen->adjustments.empty())
          proposal.strategy +=
              " [adjusted: " +
              llvm::join(llvm::ArrayRef(chosen->adjustments).take_front(4),
                         "; ") +
              (chosen->adjustments.size() > 4 ? "; ..." : "") + "]";
        proposal.error.clear();
        return proposal;
      }
      problem = llvm::toString(chosen.takeError());
      proposal.strategy = "llm: unparsable schedule reply";
    } else {
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
        offendingLine = findOffendingLine(problem, rewrite->text);
      } else {
        problem = llvm::toString(rewrite.takeError());
        proposal.strategy = "llm: unparsable reply";
      }
    }
    proposal.error = "verify: " + problem;
    if (round >= options.repairs)
      return proposal;
    request = synthesizeRepair(request, reply->text, problem, offendingLine);
  }
}
