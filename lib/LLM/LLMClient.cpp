//===- LLMClient.cpp - configuration and helpers --------------------------===//

#include "ke/LLM/LLMClient.h"

#include <cstdlib>
#include <nlohmann/json.hpp>

using namespace ke::llm;

LLMClient::~LLMClient() = default;

namespace {
std::string fromEnvironment(const char *name) {
  const char *value = std::getenv(name);
  return value ? value : "";
}
} // namespace

llvm::Expected<LLMConfig> LLMConfig::resolve(LLMConfig options) {
  LLMConfig config = std::move(options);
  if (config.provider.empty())
    config.provider = fromEnvironment("KE_LLM_PROVIDER");
  if (config.provider.empty())
    config.provider = "openai";
  if (config.provider != "openai" && config.provider != "anthropic")
    return llvm::createStringError(
        "unknown LLM provider '" + config.provider +
        "'; expected openai (any OpenAI-compatible server) or anthropic");
  if (config.model.empty())
    config.model = fromEnvironment("KE_LLM_MODEL");
  if (config.model.empty())
    return llvm::createStringError(
        "no LLM model: set KE_LLM_MODEL or the llm-model option");
  std::string providerURL = config.provider == "anthropic"
                                ? "https://api.anthropic.com/v1"
                                : "https://api.openai.com/v1";
  if (config.baseURL.empty())
    config.baseURL = fromEnvironment("KE_LLM_BASE_URL");
  if (config.baseURL.empty())
    config.baseURL = providerURL;
  while (!config.baseURL.empty() && config.baseURL.back() == '/')
    config.baseURL.pop_back();
  if (config.apiKey.empty())
    config.apiKey = fromEnvironment("KE_LLM_API_KEY");
  // The provider's own key only ever goes to the provider: a user with
  // OPENAI_API_KEY exported who points ke at another server must not send
  // it there.
  if (config.apiKey.empty() && config.baseURL == providerURL)
    config.apiKey =
        fromEnvironment(config.provider == "anthropic" ? "ANTHROPIC_API_KEY"
                                                       : "OPENAI_API_KEY");
  llvm::StringRef url = config.baseURL;
  if (!config.apiKey.empty() && url.consume_front("http://")) {
    llvm::StringRef host = url.split('/').first.rsplit(':').first;
    if (host != "127.0.0.1" && host != "localhost" && host != "[::1]")
      return llvm::createStringError(
          "refusing to send an API key over plain HTTP to '" + host.str() +
          "'; use https:// or a loopback address");
  }
  return config;
}

std::string ke::llm::redact(llvm::StringRef text, llvm::StringRef secret) {
  if (secret.empty())
    return text.str();
  std::string result;
  size_t start = 0;
  for (size_t at = text.find(secret); at != llvm::StringRef::npos;
       at = text.find(secret, start)) {
    result += text.slice(start, at).str();
    result += "[redacted]";
    start = at + secret.size();
  }
  result += text.substr(start).str();
  return result;
}

std::string ke::llm::serializeMessages(const ChatRequest &request) {
  nlohmann::json messages = nlohmann::json::array();
  for (const Message &message : request.messages)
    messages.push_back({{"role", message.role}, {"content", message.content}});
  nlohmann::json object = {{"messages", messages},
                           {"max_tokens", request.maxTokens},
                           {"temperature", request.temperature}};
  return object.dump();
}
