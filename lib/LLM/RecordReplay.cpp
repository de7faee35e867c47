//===- RecordReplay.cpp - every LLM call kept in the database -------------===//

#include "ke/LLM/RecordReplay.h"

#include <algorithm>
#include "ke/Store/Store.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SHA256.h"

using namespace ke::llm;

std::optional<LLMMode> ke::llm::parseLLMMode(llvm::StringRef text) {
  if (text == "live")
    return LLMMode::Live;
  if (text == "record")
    return LLMMode::Record;
  if (text == "replay")
    return LLMMode::Replay;
  return std::nullopt;
}

std::string ke::llm::computeReplayKey(llvm::StringRef model,
                                      const ChatRequest &request) {
  llvm::SHA256 hash;
  hash.update(model);
  hash.update("\n");
  hash.update(request.replayKeyText.empty() ? serializeMessages(request)
                                            : request.replayKeyText);
  // The reply's form is part of the question.
  if (!request.responseSchema.empty()) {
    hash.update("\nschema:");
    hash.update(request.responseSchema);
  }
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

double RecordingClient::getCharsPerToken() const {
  if (promptTokens <= 0)
    return 4.0;
  // Kept within what tokenizers give, so one odd reply cannot make prompts
  // much too long or needlessly short.
  return std::clamp(promptChars / promptTokens, 1.5, 8.0);
}

void RecordingClient::learnRatio(const ChatRequest &request,
                                 const ChatReply &reply) {
  if (!reply.promptTokens || *reply.promptTokens <= 0)
    return;
  for (const Message &message : request.messages)
    promptChars += message.content.size();
  promptTokens += static_cast<double>(*reply.promptTokens);
}

RecordingClient::RecordingClient(std::unique_ptr<LLMClient> live,
                                 LLMConfig config, store::Store &store,
                                 LLMMode mode, std::optional<int64_t> run)
    : live(std::move(live)), config(std::move(config)), store(store),
      mode(mode), run(run) {}

std::optional<unsigned> RecordingClient::queryContextWindow() {
  std::string key = "llm-server:context:" + config.model;
  if (mode == LLMMode::Replay || !live) {
    auto recorded = store.getMetaValue(key);
    if (!recorded) {
      llvm::consumeError(recorded.takeError());
      return std::nullopt;
    }
    unsigned window = 0;
    if (!*recorded || llvm::StringRef(**recorded).getAsInteger(10, window))
      return std::nullopt;
    return window;
  }
  std::optional<unsigned> window = live->queryContextWindow();
  if (window)
    llvm::consumeError(store.setMetaValue(key, std::to_string(*window)));
  return window;
}

llvm::Expected<ChatReply>
RecordingClient::complete(const ChatRequest &request) {
  std::string key = computeReplayKey(config.model, request);
  if (mode != LLMMode::Live) {
    // A replay repeats the recording, failures included; a recording only
    // reuses answers.
    auto recorded = store.findLLMCalls(key, mode == LLMMode::Replay);
    if (!recorded)
      return recorded.takeError();
    size_t &answered = answeredPerKey[key];
    if (answered < recorded->size()) {
      const store::LLMCallRecord &call = (*recorded)[answered++];
      if (call.status != "ok")
        return llvm::createStringError(call.error); // as recorded: later
                                                    // prompts quote it
      ChatReply reply;
      reply.text = call.response;
      reply.promptTokens = call.promptTokens;
      reply.completionTokens = call.completionTokens;
      reply.finishReason = call.finishReason;
      reply.latencySeconds = call.latencySeconds;
      reply.attempts = call.attempts;
      reply.callId = call.id;
      reply.replayed = true;
      learnRatio(request, reply);
      tokensUsed +=
          call.promptTokens.value_or(0) + call.completionTokens.value_or(0);
      return reply;
    }
    if (mode == LLMMode::Replay)
      return llvm::createStringError(llvm::formatv(
          "llm-mode=replay: no recorded answer for this prompt (model '{0}', "
          "key {1}, {2} recorded under it); record it first with "
          "llm-mode=record",
          config.model, llvm::StringRef(key).take_front(16), recorded->size()));
  }
  if (!live)
    return llvm::createStringError("no live LLM client configured");

  store::LLMCallRecord call;
  call.run = run;
  call.key = key;
  call.provider = config.provider;
  call.model = config.model;
  // The messages only: headers (where the key lives) are never stored.
  call.request = redact(serializeMessages(request), config.apiKey);
  llvm::Expected<ChatReply> reply = live->complete(request);
  if (reply) {
    call.status = "ok";
    call.response = redact(reply->text, config.apiKey);
    call.promptTokens = reply->promptTokens;
    call.completionTokens = reply->completionTokens;
    call.finishReason = reply->finishReason;
    call.latencySeconds = reply->latencySeconds;
    call.attempts = reply->attempts;
    learnRatio(request, *reply);
    tokensUsed +=
        reply->promptTokens.value_or(0) + reply->completionTokens.value_or(0);
  } else {
    call.status = "error";
    call.error = redact(llvm::toString(reply.takeError()), config.apiKey);
  }
  auto id = store.addLLMCall(call);
  if (!id)
    return id.takeError();
  // This answer is used up: the same prompt again asks the model again (as
  // a replay of this run will find it, in this order).
  if (call.status == "ok")
    ++answeredPerKey[key];
  if (call.status != "ok")
    return llvm::createStringError(call.error);
  reply->callId = *id;
  return reply;
}
