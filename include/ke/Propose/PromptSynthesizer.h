//===- PromptSynthesizer.h - the universal operator's prompt ----*- C++ -*-===//
//
// One synthesizer for every target and task: the prompt is assembled from
// the run's own evidence (kernel, target, the parent's IR and diagnosis,
// the context the memory operator selects) and from retrieved knowledge
// (KB passages, skills), within a token budget.
//
//===----------------------------------------------------------------------===//

#ifndef KE_PROPOSE_PROMPTSYNTHESIZER_H
#define KE_PROPOSE_PROMPTSYNTHESIZER_H

#include "ke/LLM/LLMClient.h"
#include "ke/Propose/Proposer.h"
#include "ke/Store/Store.h"

namespace ke::propose {

struct PromptInputs {
  const ProposalContext *context = nullptr;
  MemoryOperator memory = MemoryOperator::InheritTrajectory;
  /// The IR the rewrite applies to: the parent's, or the reference's for a
  /// clean-slate restart.
  std::string baseIR;
  std::vector<store::KnowledgePassage> passages;
  std::vector<store::SkillRecord> skills;
  /// Rough budget of the whole prompt (4 characters a token); knowledge,
  /// skills and context are dropped, least useful first, to fit.
  size_t tokenBudget = 8000;
};

llvm::StringRef getSystemPrompt();

llm::ChatRequest synthesizePrompt(const PromptInputs &inputs);

/// The schedule reply form's prompt (ScheduleReply.h): the ops and the
/// valid values of each knob, the measured schedules so far, the parent's
/// diagnosis and a literal reply; its response schema is set.
llm::ChatRequest synthesizeSchedulePrompt(const PromptInputs &inputs);
llvm::StringRef getScheduleSystemPrompt();

/// Adds the schedule form to an IR prompt as an alternative answer.
void offerScheduleForm(llm::ChatRequest &request,
                       const ProposalContext &context);

/// For servers whose chat template drops the system role: its text goes
/// at the head of the first user message.
void moveSystemToUser(llm::ChatRequest &request);

/// The follow-up asking for a repair: the original conversation, the reply
/// and what was wrong with it (quoting the offending line when known).
llm::ChatRequest synthesizeRepair(const llm::ChatRequest &original,
                                  llvm::StringRef reply,
                                  llvm::StringRef problem,
                                  llvm::StringRef offendingLine = "");

/// The same question again after a reply cut at `maxTokens`, asking for a
/// shorter answer; the cut reply is not sent back.
llm::ChatRequest synthesizeLengthRetry(const llm::ChatRequest &original,
                                       unsigned maxTokens);

/// Estimated tokens of a text (4 characters a token).
inline size_t estimateTokens(llvm::StringRef text) {
  return (text.size() + 3) / 4;
}

} // namespace ke::propose

#endif // KE_PROPOSE_PROMPTSYNTHESIZER_H
