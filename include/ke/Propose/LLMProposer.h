//===- LLMProposer.h - the universal operator -------------------*- C++ -*-===//
//
// Proposes candidates by asking a language model: one synthesized prompt
// per child, the reply parsed into a transform script or a whole function,
// parse/verify/apply errors sent back once for repair, what still fails
// returned as a failed proposal with the reason.
//
//===----------------------------------------------------------------------===//

#ifndef KE_PROPOSE_LLMPROPOSER_H
#define KE_PROPOSE_LLMPROPOSER_H

#include "ke/KB/KnowledgeBase.h"
#include "ke/LLM/RecordReplay.h"
#include "ke/Propose/Proposer.h"
#include "ke/Propose/TransformLibraryProposer.h"

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace ke::propose {

struct LLMProposerOptions {
  size_t passages = 4;        ///< knowledge passages per prompt
  size_t skills = 3;          ///< skills per prompt
  size_t promptTokens = 8000; ///< budget of one prompt
  unsigned repairs = 1;       ///< repair rounds after a bad reply
  int64_t tokenBudget = 0;    ///< tokens of the whole search (0: none)
  /// Tokens of a reply (0: 512 for schedule replies, 4096 for IR).
  unsigned maxReplyTokens = 0;
  double temperature = 0.2;
  /// The server's context window in tokens (0: unknown, promptTokens
  /// applies): prompt + reply never exceed it.
  unsigned contextTokens = 0;
  /// schedule (JSON choice of the library's knobs), ir (transform script or
  /// function), auto (schedule up to 16k tokens of context, else IR with
  /// the schedule offered as an alternative).
  std::string replyForm = "auto";
  /// "user": the system prompt goes into the first user message (chat
  /// templates that drop the system role).
  std::string systemRole = "system";
  /// How a schedule reply's JSON schema is sent (llm::ChatRequest).
  std::string responseFormat = "json_schema";
};

class LLMProposer : public Proposer {
public:
  /// `knowledge` and `store` (for skills) may be null.
  LLMProposer(llm::RecordingClient &client, const kb::KnowledgeBase *knowledge,
              store::Store *store, mlir::MLIRContext *context,
              LLMProposerOptions options)
      : client(client), knowledge(knowledge), store(store), context(context),
        options(options) {}

  std::string getName() const override {
    return "llm:" + client.getConfig().model;
  }
  std::vector<Proposal> propose(const ProposalContext &context) override;
  std::string getStopReason() const override { return stopReason; }
  std::string getFailure() const override { return failure; }

  /// The memory operator of the next proposal from `context`: mostly
  /// refining the parent's path, regularly comparing siblings, combining
  /// with the elite, and now and then a clean slate. Deterministic.
  MemoryOperator chooseMemory(const ProposalContext &context);

private:
  Proposal proposeOne(const ProposalContext &context);
  /// Fits `request` into the context window and the token budget: its reply
  /// limit is lowered if it must be; an error when even a short reply would
  /// not fit (nothing is sent then).
  llvm::Error reserveTokens(llm::ChatRequest &request, unsigned minReply);
  bool useScheduleForm() const;
  /// Whether `schedule` was measured or proposed already (the tree as the
  /// search sees it, and this round's proposals).
  bool isKnownSchedule(const Schedule &schedule,
                       const ProposalContext &context) const;
  /// The nearest schedule nobody measured yet: library mutations (one knob
  /// each) of `schedule`, up to a few steps away; none when all are known.
  std::optional<Schedule> findUnmeasuredNeighbour(const Schedule &schedule,
                                                  const ProposalContext &context);

  llm::RecordingClient &client;
  const kb::KnowledgeBase *knowledge;
  store::Store *store;
  mlir::MLIRContext *context;
  LLMProposerOptions options;
  unsigned proposed = 0;
  /// Moves a repeated schedule to an unmeasured neighbour; deterministic.
  std::optional<TransformLibraryProposer> neighbours;
  std::string stopReason, failure;
};

} // namespace ke::propose

#endif // KE_PROPOSE_LLMPROPOSER_H
