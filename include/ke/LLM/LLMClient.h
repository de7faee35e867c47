//===- LLMClient.h - chat with a language model -----------------*- C++ -*-===//
//
// The provider-neutral side of ke's LLM support: a chat request, its reply,
// the configuration read from options and the environment, and the client
// interface that the HTTP clients and the record/replay layer implement.
//
//===----------------------------------------------------------------------===//

#ifndef KE_LLM_LLMCLIENT_H
#define KE_LLM_LLMCLIENT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ke::llm {

struct Message {
  std::string role; ///< system | user | assistant
  std::string content;
};

struct ChatRequest {
  std::vector<Message> messages;
  unsigned maxTokens = 4096;
  double temperature = 0.2;
  /// The prompt with its measured numbers masked: the replay key is made of
  /// this, so a replayed search finds its answers although timings differ.
  /// Empty: the messages themselves.
  std::string replayKeyText;
  /// A JSON schema the reply must follow (OpenAI's response_format, which
  /// vLLM, llama.cpp's server and Ollama honour by constraining decoding);
  /// empty: free text. Servers without it get the same prompt, whose
  /// skeleton asks for the same JSON.
  std::string responseSchema;
  /// How the schema is sent: "json_schema" (OpenAI's form: OpenAI, vLLM,
  /// llama.cpp's llama-server, Ollama), "json_object" (the schema inside a
  /// json_object format: llama-cpp-python's server) or "none".
  std::string responseFormat = "json_schema";
  /// Sequences that end the reply (OpenAI "stop", Anthropic
  /// "stop_sequences").
  std::vector<std::string> stop;
};

struct ChatReply {
  std::string text;
  std::optional<int64_t> promptTokens;
  std::optional<int64_t> completionTokens;
  /// Why the model stopped: "stop", "length" (cut at max_tokens), ... as
  /// the server says it (Anthropic's max_tokens is reported as "length").
  std::string finishReason;
  double latencySeconds = 0.0;
  int attempts = 1;
  /// The llm_calls row that recorded this call, when recorded.
  std::optional<int64_t> callId;
  bool replayed = false;
};

/// Where to send requests. `apiKey` is a secret: it goes into request
/// headers and nowhere else (never into a message, a log or the database).
struct LLMConfig {
  std::string provider; ///< openai | anthropic
  std::string model;
  std::string baseURL;
  std::string apiKey;
  double timeoutSeconds = 120.0;
  unsigned maxRetries = 4;
  double backoffSeconds = 1.0;     ///< first retry's delay
  double maxBackoffSeconds = 60.0; ///< cap of any delay, Retry-After included

  /// Fills what the options left empty from KE_LLM_PROVIDER, KE_LLM_MODEL,
  /// KE_LLM_BASE_URL and KE_LLM_API_KEY (falling back to OPENAI_API_KEY or
  /// ANTHROPIC_API_KEY), then the provider's defaults; fails on an unknown
  /// provider or a missing model.
  static llvm::Expected<LLMConfig> resolve(LLMConfig options);
  /// "openai:gpt-4o" style, for messages and the node's proposer name.
  std::string describe() const { return provider + ":" + model; }
};

class LLMClient {
public:
  virtual ~LLMClient();
  virtual llvm::Expected<ChatReply> complete(const ChatRequest &request) = 0;
  virtual const LLMConfig &getConfig() const = 0;
  /// The server's context window in tokens, where the server says it
  /// (none by default).
  virtual std::optional<unsigned> queryContextWindow() { return std::nullopt; }
};

/// `text` with every occurrence of `secret` (if non-empty) replaced, for
/// anything derived from a server's answer before it is shown or stored.
std::string redact(llvm::StringRef text, llvm::StringRef secret);

/// The messages as JSON (role, content), the form requests are stored in.
std::string serializeMessages(const ChatRequest &request);

} // namespace ke::llm

#endif // KE_LLM_LLMCLIENT_H
