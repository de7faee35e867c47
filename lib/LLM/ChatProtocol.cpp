//===- ChatProtocol.cpp - OpenAI-compatible and Anthropic formats ---------===//

#include "ke/LLM/ChatProtocol.h"

#include <nlohmann/json.hpp>

using namespace ke::llm;
using nlohmann::json;

ChatProtocol::~ChatProtocol() = default;

namespace {
llvm::Error malformed(llvm::StringRef what, llvm::StringRef body) {
  return llvm::createStringError("malformed reply (" + what +
                                 "): " + body.take_front(300).str() +
                                 (body.size() > 300 ? "..." : ""));
}

std::optional<int64_t> usage(const json &object, const char *key) {
  if (object.contains(key) && object[key].is_number_integer())
    return object[key].get<int64_t>();
  return std::nullopt;
}

/// The JSON body both APIs share: model, messages (without the system ones
/// when `systemApart`: Anthropic takes those in "system"), limits.
json makeBody(const LLMConfig &config, const ChatRequest &request,
              bool systemApart) {
  json messages = json::array();
  std::string system;
  for (const Message &message : request.messages) {
    if (systemApart && message.role == "system") {
      system += (system.empty() ? "" : "\n\n") + message.content;
      continue;
    }
    messages.push_back({{"role", message.role}, {"content", message.content}});
  }
  json body = {{"model", config.model},
               {"messages", messages},
               {"max_tokens", request.maxTokens},
               {"temperature", request.temperature}};
  if (!system.empty())
    body["system"] = system;
  if (!request.stop.empty())
    body[systemApart ? "stop_sequences" : "stop"] = request.stop;
  return body;
}

/// The HTTP request of `body` to `path`, the key in `keyHeader` as
/// `keyPrefix + key` when there is one.
HttpRequest makeRequest(const LLMConfig &config, llvm::StringRef path,
                        const json &body, llvm::StringRef keyHeader,
                        llvm::StringRef keyPrefix) {
  HttpRequest http;
  http.url = config.baseURL + path.str();
  http.headers.push_back({"Content-Type", "application/json"});
  if (!config.apiKey.empty())
    http.headers.push_back({keyHeader.str(), keyPrefix.str() + config.apiKey});
  http.body = body.dump();
  http.timeoutSeconds = config.timeoutSeconds;
  return http;
}

/// POST {base}/chat/completions; the key, if any, as a bearer token (local
/// servers such as llama.cpp or Ollama need none).
class OpenAIProtocol : public ChatProtocol {
public:
  HttpRequest buildRequest(const LLMConfig &config,
                           const ChatRequest &request) const override {
    json body = makeBody(config, request, /*systemApart=*/false);
    if (!request.responseSchema.empty() && request.responseFormat != "none") {
      json schema = json::parse(request.responseSchema, nullptr, false);
      if (!schema.is_discarded() && request.responseFormat == "json_object")
        body["response_format"] = {{"type", "json_object"},
                                   {"schema", schema}};
      else if (!schema.is_discarded())
        body["response_format"] = {
            {"type", "json_schema"},
            {"json_schema", {{"name", "reply"}, {"schema", schema}}}};
    }
    return makeRequest(config, "/chat/completions", body, "Authorization",
                       "Bearer ");
  }

  llvm::Expected<ChatReply> parseReply(llvm::StringRef body) const override {
    json object = json::parse(body.begin(), body.end(), nullptr, false);
    if (object.is_discarded() || !object.is_object())
      return malformed("not a JSON object", body);
    if (!object.contains("choices") || !object["choices"].is_array() ||
        object["choices"].empty())
      return malformed("no choices", body);
    const json &message = object["choices"][0]["message"];
    if (!message.is_object() || !message.contains("content") ||
        !message["content"].is_string())
      return malformed("no message content", body);
    ChatReply reply;
    reply.text = message["content"].get<std::string>();
    const json &choice = object["choices"][0];
    if (choice.contains("finish_reason") && choice["finish_reason"].is_string())
      reply.finishReason = choice["finish_reason"].get<std::string>();
    if (object.contains("usage") && object["usage"].is_object()) {
      reply.promptTokens = usage(object["usage"], "prompt_tokens");
      reply.completionTokens = usage(object["usage"], "completion_tokens");
    }
    return reply;
  }
};

/// POST {base}/messages with x-api-key; system messages go to "system".
class AnthropicProtocol : public ChatProtocol {
public:
  HttpRequest buildRequest(const LLMConfig &config,
                           const ChatRequest &request) const override {
    HttpRequest http = makeRequest(
        config, "/messages", makeBody(config, request, /*systemApart=*/true),
        "x-api-key", "");
    http.headers.push_back({"anthropic-version", "2023-06-01"});
    return http;
  }

  llvm::Expected<ChatReply> parseReply(llvm::StringRef body) const override {
    json object = json::parse(body.begin(), body.end(), nullptr, false);
    if (object.is_discarded() || !object.is_object())
      return malformed("not a JSON object", body);
    if (!object.contains("content") || !object["content"].is_array())
      return malformed("no content", body);
    ChatReply reply;
    bool any = false;
    for (const json &block : object["content"])
      // Fields are read only with the type they must have: a reply is
      // untrusted input (a number where a string belongs must not throw).
      if (block.is_object() && block.contains("type") &&
          block["type"].is_string() && block["type"] == "text" &&
          block.contains("text") && block["text"].is_string()) {
        reply.text += block["text"].get<std::string>();
        any = true;
      }
    if (!any)
      return malformed("no text block", body);
    if (object.contains("stop_reason") && object["stop_reason"].is_string()) {
      std::string reason = object["stop_reason"].get<std::string>();
      reply.finishReason = reason == "max_tokens" ? "length"
                           : reason == "end_turn" || reason == "stop_sequence"
                               ? "stop"
                               : reason;
    }
    if (object.contains("usage") && object["usage"].is_object()) {
      reply.promptTokens = usage(object["usage"], "input_tokens");
      reply.completionTokens = usage(object["usage"], "output_tokens");
    }
    return reply;
  }
};
} // namespace

std::unique_ptr<ChatProtocol> ChatProtocol::get(llvm::StringRef provider) {
  if (provider == "openai")
    return std::make_unique<OpenAIProtocol>();
  if (provider == "anthropic")
    return std::make_unique<AnthropicProtocol>();
  return nullptr;
}
