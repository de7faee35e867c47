//===- LLMSession.h - everything an LLM-driven pass needs -------*- C++ -*-===//
//
// The client (HTTP, wrapped in record/replay), the indexed knowledge base
// and the LLM proposer, built from a pass's options in one place so that
// ke-evolve and ke-rewrite behave the same.
//
//===----------------------------------------------------------------------===//

#ifndef KE_PROPOSE_LLMSESSION_H
#define KE_PROPOSE_LLMSESSION_H

#include "ke/Propose/LLMProposer.h"

#include <memory>

namespace ke::propose {

struct LLMSessionOptions {
  llm::LLMConfig config; ///< before LLMConfig::resolve
  std::string mode = "live";
  /// Comma-separated extra knowledge directories (kb/ always comes first).
  std::string extraKnowledge;
  LLMProposerOptions proposer;
};

class LLMSession {
public:
  /// Fails with a message fit for a diagnostic on bad options (unknown
  /// provider or mode, no model, a missing knowledge directory).
  /// Knowledge documents that do not parse only add `warnings`.
  static llvm::Expected<std::unique_ptr<LLMSession>>
  create(store::Store &store, std::optional<int64_t> run,
         const LLMSessionOptions &options, mlir::MLIRContext *context,
         std::vector<std::string> &warnings);

  LLMProposer &getProposer() { return *proposer; }
  llm::RecordingClient &getClient() { return *client; }
  const kb::KnowledgeBase *getKnowledge() const {
    return knowledge ? &*knowledge : nullptr;
  }

private:
  LLMSession() = default;
  std::unique_ptr<llm::RecordingClient> client;
  std::optional<kb::KnowledgeBase> knowledge;
  std::unique_ptr<LLMProposer> proposer;
};

} // namespace ke::propose

#endif // KE_PROPOSE_LLMSESSION_H
