//===- ServerLimitsTest.cpp - reading a server's context window -----------===//

#include "ke/LLM/ServerLimits.h"

#include "gtest/gtest.h"

#include <map>

using namespace ke::llm;

namespace {
using Answers = std::map<std::string, std::string>;

/// Answers GETs by URL (404 for others) and remembers what was asked.
class GetTransport : public HttpTransport {
public:
  explicit GetTransport(Answers answers)
      : answers(std::move(answers)) {}
  HttpResponse post(const HttpRequest &) override {
    ADD_FAILURE() << "reading limits must not POST";
    return {};
  }
  HttpResponse get(const HttpRequest &request) override {
    asked.push_back(request.url);
    headers = request.headers;
    HttpResponse response;
    auto found = answers.find(request.url);
    response.status = found == answers.end() ? 404 : 200;
    if (found != answers.end())
      response.body = found->second;
    return response;
  }
  std::map<std::string, std::string> answers;
  std::vector<std::string> asked;
  std::vector<std::pair<std::string, std::string>> headers;
};

LLMConfig openAI(std::string baseURL) {
  LLMConfig config;
  config.provider = "openai";
  config.model = "served";
  config.baseURL = std::move(baseURL);
  config.apiKey = "sk-limits";
  return config;
}
} // namespace

TEST(ServerLimitsTest, ParsesVLLMModelList) {
  EXPECT_EQ(parseModelListContext(
                R"({"data":[{"id":"other","max_model_len":2048},)"
                R"({"id":"served","max_model_len":32768}]})",
                "served"),
            32768u);
  // A server of one model answers for it whatever it is called.
  EXPECT_EQ(parseModelListContext(
                R"({"data":[{"id":"x","max_model_len":8192}]})", "served"),
            8192u);
  EXPECT_EQ(parseModelListContext(R"({"data":[{"id":"served"}]})", "served"),
            std::nullopt);
  // Nonsense is no window.
  EXPECT_EQ(parseModelListContext(R"({"data":[{"id":"a","max_model_len":"8k"}]})",
                                  "a"),
            std::nullopt);
  EXPECT_EQ(parseModelListContext(R"({"data":[{"max_model_len":12}]})", "a"),
            std::nullopt);
  EXPECT_EQ(parseModelListContext("not json", "a"), std::nullopt);
}

TEST(ServerLimitsTest, ParsesLlamaCppProps) {
  EXPECT_EQ(parsePropsContext(
                R"({"default_generation_settings":{"n_ctx":4096}})"),
            4096u);
  EXPECT_EQ(parsePropsContext(R"({"n_ctx":16384})"), 16384u);
  EXPECT_EQ(parsePropsContext(R"({"total_slots":1})"), std::nullopt);
  EXPECT_EQ(parsePropsContext("[1,2]"), std::nullopt);
}

TEST(ServerLimitsTest, AsksModelsThenProps) {
  GetTransport vllm(Answers{{"http://h:8000/v1/models",
                      R"({"data":[{"id":"served","max_model_len":8192}]})"}});
  EXPECT_EQ(readContextWindow(openAI("http://h:8000/v1/"), vllm), 8192u);
  ASSERT_EQ(vllm.asked.size(), 1u);
  ASSERT_EQ(vllm.headers.size(), 1u);
  EXPECT_EQ(vllm.headers[0].second, "Bearer sk-limits");

  GetTransport llamaCpp(Answers{
      {"http://h:8080/v1/models", R"({"data":[{"id":"served"}]})"},
       {"http://h:8080/props",
        R"({"default_generation_settings":{"n_ctx":2048}})"}});
  EXPECT_EQ(readContextWindow(openAI("http://h:8080/v1"), llamaCpp), 2048u);
  EXPECT_EQ(llamaCpp.asked.back(), "http://h:8080/props");

  GetTransport silent(Answers{});
  EXPECT_EQ(readContextWindow(openAI("http://h:1/v1"), silent), std::nullopt);
  EXPECT_EQ(silent.asked.size(), 2u);

  LLMConfig anthropic = openAI("https://api.anthropic.com/v1");
  anthropic.provider = "anthropic";
  GetTransport unused(Answers{});
  EXPECT_EQ(readContextWindow(anthropic, unused), std::nullopt);
  EXPECT_TRUE(unused.asked.empty());
}
