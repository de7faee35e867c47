//===- HttpChatClientTest.cpp - wire formats, retries, redaction ----------===//

#include "ke/LLM/HttpChatClient.h"
#include "ke/LLM/ChatProtocol.h"
#include "ke/LLM/RetryPolicy.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <deque>

using namespace ke::llm;

namespace {
/// Answers requests from a script and remembers them.
class ScriptedTransport : public HttpTransport {
public:
  explicit ScriptedTransport(std::deque<HttpResponse> responses,
                             std::vector<HttpRequest> *seen)
      : responses(std::move(responses)), seen(seen) {}
  HttpResponse post(const HttpRequest &request) override {
    seen->push_back(request);
    HttpResponse response = responses.front();
    if (responses.size() > 1)
      responses.pop_front();
    return response;
  }

private:
  std::deque<HttpResponse> responses;
  std::vector<HttpRequest> *seen;
};

HttpResponse ok(const std::string &body) {
  HttpResponse response;
  response.status = 200;
  response.body = body;
  return response;
}

HttpResponse status(long code, std::optional<double> retryAfter = {},
                    std::string body = "{}") {
  HttpResponse response;
  response.status = code;
  response.retryAfterSeconds = retryAfter;
  response.body = std::move(body);
  return response;
}

LLMConfig config(const std::string &provider) {
  LLMConfig config;
  config.provider = provider;
  config.model = "test-model";
  config.baseURL = "http://localhost:1/v1";
  config.apiKey = "sk-unit-SECRET";
  config.maxRetries = 3;
  return config;
}

ChatRequest request() {
  ChatRequest request;
  request.messages = {{"system", "be brief"}, {"user", "hello"}};
  return request;
}

const char *kOpenAIReply =
    R"({"choices":[{"message":{"role":"assistant","content":"hi"}}],)"
    R"("usage":{"prompt_tokens":7,"completion_tokens":2}})";
} // namespace

TEST(RetryPolicyTest, RetriesRateLimitsServerErrorsAndTimeouts) {
  EXPECT_TRUE(RetryPolicy::isRetryable(status(429)));
  EXPECT_TRUE(RetryPolicy::isRetryable(status(503)));
  EXPECT_TRUE(RetryPolicy::isRetryable(status(0)));
  EXPECT_FALSE(RetryPolicy::isRetryable(status(400)));
  EXPECT_FALSE(RetryPolicy::isRetryable(status(401)));
}

TEST(RetryPolicyTest, BacksOffExponentiallyWithJitterAndHonoursRetryAfter) {
  RetryPolicy policy(5, 1.0, 10.0, 42);
  for (unsigned attempt = 1; attempt <= 5; ++attempt) {
    double ceiling = std::min(10.0, std::ldexp(1.0, attempt - 1));
    double delay = policy.delayAfter(attempt, status(500));
    EXPECT_GE(delay, 0.5 * ceiling);
    EXPECT_LE(delay, ceiling);
  }
  EXPECT_EQ(policy.delayAfter(1, status(429, 7.0)), 7.0);
  EXPECT_EQ(policy.delayAfter(1, status(429, 600.0)), 10.0); // capped
  EXPECT_TRUE(policy.allowsAnother(5));
  EXPECT_FALSE(policy.allowsAnother(6));
}

TEST(ChatProtocolTest, OpenAIRequestAndReply) {
  auto protocol = ChatProtocol::get("openai");
  HttpRequest http = protocol->buildRequest(config("openai"), request());
  EXPECT_EQ(http.url, "http://localhost:1/v1/chat/completions");
  EXPECT_NE(http.body.find("\"model\":\"test-model\""), std::string::npos);
  EXPECT_NE(http.body.find("\"role\":\"system\""), std::string::npos);
  EXPECT_EQ(http.body.find("SECRET"), std::string::npos);
  bool bearer = false;
  for (auto &[name, value] : http.headers)
    bearer |= name == "Authorization" && value == "Bearer sk-unit-SECRET";
  EXPECT_TRUE(bearer);

  LLMConfig keyless = config("openai");
  keyless.apiKey.clear();
  for (auto &[name, value] : protocol->buildRequest(keyless, request()).headers)
    EXPECT_NE(name, "Authorization");

  auto reply = protocol->parseReply(kOpenAIReply);
  ASSERT_TRUE(bool(reply)) << llvm::toString(reply.takeError());
  EXPECT_EQ(reply->text, "hi");
  EXPECT_EQ(reply->promptTokens, 7);
  EXPECT_EQ(reply->completionTokens, 2);
  HttpRequest schema = protocol->buildRequest(config("openai"), [] {
    ChatRequest withSchema = request();
    withSchema.responseSchema = R"({"type":"object"})";
    return withSchema;
  }());
  EXPECT_NE(schema.body.find(R"("response_format":{"json_schema":{"name":"reply","schema":{"type":"object"}},"type":"json_schema"})"),
            std::string::npos)
      << schema.body;
  auto bad = protocol->parseReply(R"({"choices":[]})");
  ASSERT_FALSE(bool(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("no choices"),
            std::string::npos);
}

TEST(ChatProtocolTest, AnthropicRequestAndReply) {
  auto protocol = ChatProtocol::get("anthropic");
  HttpRequest http = protocol->buildRequest(config("anthropic"), request());
  EXPECT_EQ(http.url, "http://localhost:1/v1/messages");
  EXPECT_NE(http.body.find("\"system\":\"be brief\""), std::string::npos);
  EXPECT_EQ(http.body.find("\"role\":\"system\""), std::string::npos);
  bool key = false;
  for (auto &[name, value] : http.headers)
    key |= name == "x-api-key" && value == "sk-unit-SECRET";
  EXPECT_TRUE(key);
  auto reply = protocol->parseReply(
      R"({"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}],)"
      R"("usage":{"input_tokens":3,"output_tokens":4}})");
  ASSERT_TRUE(bool(reply)) << llvm::toString(reply.takeError());
  EXPECT_EQ(reply->text, "ab");
  EXPECT_EQ(reply->completionTokens, 4);
  EXPECT_FALSE(ChatProtocol::get("gemini"));

  // A reply is untrusted: a field of the wrong type is a malformed reply,
  // not an exception (found by the parser fuzzer).
  auto numberType = protocol->parseReply(
      R"({"content":[{"type":20,"text":"hello"}],"stop_reason":"end_turn"})");
  ASSERT_FALSE(bool(numberType));
  EXPECT_NE(llvm::toString(numberType.takeError()).find("no text block"),
            std::string::npos);
  // A cut reply is reported as such, in OpenAI's words.
  auto cut = protocol->parseReply(
      R"({"content":[{"type":"text","text":"a"}],"stop_reason":"max_tokens"})");
  ASSERT_TRUE(bool(cut));
  EXPECT_EQ(cut->finishReason, "length");
}

TEST(HttpChatClientTest, RetriesA429ThenSucceeds) {
  std::vector<HttpRequest> seen;
  HttpChatClient client(
      config("openai"),
      std::make_unique<ScriptedTransport>(
          std::deque<HttpResponse>{status(429, 3.0), ok(kOpenAIReply)}, &seen));
  std::vector<double> sleeps;
  client.setSleep([&](double seconds) { sleeps.push_back(seconds); });
  auto reply = client.complete(request());
  ASSERT_TRUE(bool(reply)) << llvm::toString(reply.takeError());
  EXPECT_EQ(reply->attempts, 2);
  EXPECT_EQ(seen.size(), 2u);
  ASSERT_EQ(sleeps.size(), 1u);
  EXPECT_EQ(sleeps[0], 3.0);
}

TEST(HttpChatClientTest, GivesUpAfterTheRetriesAndNeverShowsTheKey) {
  std::vector<HttpRequest> seen;
  // A server that echoes the key back in its error must not leak it.
  HttpChatClient client(
      config("openai"),
      std::make_unique<ScriptedTransport>(
          std::deque<HttpResponse>{
              status(500, {}, "{\"error\":\"bad key sk-unit-SECRET\"}")},
          &seen));
  client.setSleep([](double) {});
  auto reply = client.complete(request());
  ASSERT_FALSE(bool(reply));
  std::string message = llvm::toString(reply.takeError());
  EXPECT_EQ(seen.size(), 4u); // 1 + maxRetries
  EXPECT_NE(message.find("HTTP 500"), std::string::npos) << message;
  EXPECT_NE(message.find("after 4 attempts"), std::string::npos) << message;
  EXPECT_EQ(message.find("SECRET"), std::string::npos) << message;
  EXPECT_NE(message.find("[redacted]"), std::string::npos) << message;
}

TEST(HttpChatClientTest, DoesNotRetryClientErrors) {
  std::vector<HttpRequest> seen;
  HttpChatClient client(config("openai"),
                        std::make_unique<ScriptedTransport>(
                            std::deque<HttpResponse>{status(401)}, &seen));
  client.setSleep([](double) {});
  EXPECT_FALSE(bool(client.complete(request())));
  EXPECT_EQ(seen.size(), 1u);
}

TEST(LLMConfigTest, ResolvesFromTheEnvironment) {
  setenv("KE_LLM_MODEL", "env-model", 1);
  setenv("ANTHROPIC_API_KEY", "sk-ant", 1);
  unsetenv("KE_LLM_API_KEY");
  unsetenv("KE_LLM_BASE_URL");
  LLMConfig options;
  options.provider = "anthropic";
  auto resolved = LLMConfig::resolve(options);
  ASSERT_TRUE(bool(resolved)) << llvm::toString(resolved.takeError());
  EXPECT_EQ(resolved->model, "env-model");
  EXPECT_EQ(resolved->apiKey, "sk-ant");
  EXPECT_EQ(resolved->baseURL, "https://api.anthropic.com/v1");
  options.model = "option-model"; // options win over the environment
  EXPECT_EQ(LLMConfig::resolve(options)->model, "option-model");
  // The provider's key never goes to another server...
  options.baseURL = "https://proxy.example/v1";
  EXPECT_EQ(LLMConfig::resolve(options)->apiKey, "");
  // ...and no key goes over plain HTTP except to this machine.
  options.apiKey = "sk-explicit";
  options.baseURL = "http://10.0.0.7:8000/v1";
  auto plain = LLMConfig::resolve(options);
  ASSERT_FALSE(bool(plain));
  EXPECT_NE(llvm::toString(plain.takeError()).find("plain HTTP"),
            std::string::npos);
  options.baseURL = "http://127.0.0.1:8000/v1";
  EXPECT_TRUE(bool(LLMConfig::resolve(options)));
  options.provider = "gemini";
  EXPECT_FALSE(bool(LLMConfig::resolve(options)));
  unsetenv("KE_LLM_MODEL");
  unsetenv("ANTHROPIC_API_KEY");
}

TEST(RedactTest, ReplacesEveryOccurrence) {
  EXPECT_EQ(redact("a KEY b KEY", "KEY"), "a [redacted] b [redacted]");
  EXPECT_EQ(redact("nothing", ""), "nothing");
}
