//===- RecordReplay.h - every LLM call kept in the database -----*- C++ -*-===//
//
// A client that stores each call (request without secrets, reply, usage,
// latency) keyed by a hash of the model and the prompt, and can answer from
// those records: `live` always asks the model and records; `record` answers
// from the records when it can and asks (and records) otherwise; `replay`
// only answers from the records and fails clearly when a prompt is missing.
// Identical prompts are answered in the order they were recorded.
//
//===----------------------------------------------------------------------===//

#ifndef KE_LLM_RECORDREPLAY_H
#define KE_LLM_RECORDREPLAY_H

#include "ke/LLM/LLMClient.h"

#include "llvm/ADT/StringMap.h"

#include <memory>

namespace ke::store {
class Store;
} // namespace ke::store

namespace ke::llm {

enum class LLMMode { Live, Record, Replay };
std::optional<LLMMode> parseLLMMode(llvm::StringRef text);

/// The replay key of a request to `model`.
std::string computeReplayKey(llvm::StringRef model, const ChatRequest &request);

class RecordingClient : public LLMClient {
public:
  /// `live` may be null in replay mode. `run` is stored with each call.
  RecordingClient(std::unique_ptr<LLMClient> live, LLMConfig config,
                  store::Store &store, LLMMode mode,
                  std::optional<int64_t> run);
  llvm::Expected<ChatReply> complete(const ChatRequest &request) override;
  const LLMConfig &getConfig() const override { return config; }
  /// Asks the live server and records its answer; a replay reads the
  /// recorded answer, so it sizes prompts as the recording did.
  std::optional<unsigned> queryContextWindow() override;

  /// Tokens of every call answered so far (replayed ones included, so a
  /// replayed search stops where the recorded one did).
  int64_t getTokensUsed() const { return tokensUsed; }
  /// Characters per prompt token, learnt from the server's reported usage
  /// (4 until a reply reports it).
  double getCharsPerToken() const;
  LLMMode getMode() const { return mode; }

private:
  std::unique_ptr<LLMClient> live;
  LLMConfig config;
  store::Store &store;
  LLMMode mode;
  std::optional<int64_t> run;
  llvm::StringMap<size_t> answeredPerKey;
  int64_t tokensUsed = 0;
  double promptChars = 0, promptTokens = 0;
  void learnRatio(const ChatRequest &request, const ChatReply &reply);
};

} // namespace ke::llm

#endif // KE_LLM_RECORDREPLAY_H
