//===- HttpChatClient.cpp - requests with retries -------------------------===//

#include "ke/LLM/HttpChatClient.h"
#include "ke/LLM/ServerLimits.h"

#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <thread>

using namespace ke::llm;

HttpChatClient::HttpChatClient(LLMConfig config,
                               std::unique_ptr<HttpTransport> transport,
                               uint64_t seed)
    : config(std::move(config)),
      protocol(ChatProtocol::get(this->config.provider)),
      transport(std::move(transport)),
      retry(this->config.maxRetries, this->config.backoffSeconds,
            this->config.maxBackoffSeconds, seed),
      sleep([](double seconds) {
        std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
      }) {}

std::optional<unsigned> HttpChatClient::queryContextWindow() {
  return readContextWindow(config, *transport);
}

llvm::Expected<ChatReply> HttpChatClient::complete(const ChatRequest &request) {
  if (!protocol)
    return llvm::createStringError("unknown LLM provider '" + config.provider +
                                   "'");
  HttpRequest http = protocol->buildRequest(config, request);
  auto started = std::chrono::steady_clock::now();
  std::string lastProblem;
  for (unsigned attempt = 1;; ++attempt) {
    HttpResponse response = transport->post(http);
    if (response.status >= 200 && response.status < 300) {
      llvm::Expected<ChatReply> reply = protocol->parseReply(response.body);
      if (!reply)
        return llvm::createStringError(
            redact(llvm::toString(reply.takeError()), config.apiKey));
      reply->attempts = static_cast<int>(attempt);
      reply->latencySeconds = std::chrono::duration<double>(
                                  std::chrono::steady_clock::now() - started)
                                  .count();
      return reply;
    }
    // What the server said is shown, never the request: the key lives there.
    if (response.status == 0)
      lastProblem =
          response.timedOut
              ? llvm::formatv("timed out after {0:f1} s", config.timeoutSeconds)
                    .str()
              : "no answer: " + response.transportError;
    else
      lastProblem =
          llvm::formatv("HTTP {0}: {1}", response.status,
                        llvm::StringRef(response.body).take_front(300))
              .str();
    lastProblem = redact(lastProblem, config.apiKey);
    if (!RetryPolicy::isRetryable(response) || !retry.allowsAnother(attempt))
      return llvm::createStringError(
          llvm::formatv("{0} at {1}: {2} (after {3} attempt{4})",
                        config.describe(), redact(http.url, config.apiKey),
                        lastProblem, attempt, attempt == 1 ? "" : "s"));
    sleep(retry.delayAfter(attempt, response));
  }
}

std::unique_ptr<LLMClient>
ke::llm::createHttpChatClient(const LLMConfig &config) {
  return std::make_unique<HttpChatClient>(
      config, std::make_unique<CurlTransport>(),
      static_cast<uint64_t>(
          std::chrono::steady_clock::now().time_since_epoch().count()));
}
