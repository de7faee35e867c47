//===- HttpChatClient.h - a chat client with retries ------------*- C++ -*-===//

#ifndef KE_LLM_HTTPCHATCLIENT_H
#define KE_LLM_HTTPCHATCLIENT_H

#include "ke/LLM/ChatProtocol.h"
#include "ke/LLM/RetryPolicy.h"

#include <functional>
#include <memory>

namespace ke::llm {

/// Sends requests with a protocol over a transport; retries 429, 5xx and
/// timeouts with exponential backoff and jitter, honouring Retry-After.
class HttpChatClient : public LLMClient {
public:
  HttpChatClient(LLMConfig config, std::unique_ptr<HttpTransport> transport,
                 uint64_t seed = 0);
  llvm::Expected<ChatReply> complete(const ChatRequest &request) override;
  const LLMConfig &getConfig() const override { return config; }
  std::optional<unsigned> queryContextWindow() override;
  /// Replaces the sleeping between retries (tests).
  void setSleep(std::function<void(double)> sleep) {
    this->sleep = std::move(sleep);
  }

private:
  LLMConfig config;
  std::unique_ptr<ChatProtocol> protocol;
  std::unique_ptr<HttpTransport> transport;
  RetryPolicy retry;
  std::function<void(double)> sleep;
};

/// The client `config` asks for (after LLMConfig::resolve).
std::unique_ptr<LLMClient> createHttpChatClient(const LLMConfig &config);

} // namespace ke::llm

#endif // KE_LLM_HTTPCHATCLIENT_H
