//===- ChatProtocol.h - the wire formats of chat APIs -----------*- C++ -*-===//
//
// How a ChatRequest becomes an HTTP request and an HTTP body becomes a
// ChatReply, for OpenAI-compatible chat completions (OpenAI, vLLM,
// llama.cpp server, Ollama) and for Anthropic messages.
//
//===----------------------------------------------------------------------===//

#ifndef KE_LLM_CHATPROTOCOL_H
#define KE_LLM_CHATPROTOCOL_H

#include "ke/LLM/HttpTransport.h"
#include "ke/LLM/LLMClient.h"

#include <memory>

namespace ke::llm {

class ChatProtocol {
public:
  virtual ~ChatProtocol();
  virtual HttpRequest buildRequest(const LLMConfig &config,
                                   const ChatRequest &request) const = 0;
  /// The reply of a 2xx body; an error says what was malformed.
  virtual llvm::Expected<ChatReply> parseReply(llvm::StringRef body) const = 0;

  /// The protocol of `provider` (openai | anthropic), or null.
  static std::unique_ptr<ChatProtocol> get(llvm::StringRef provider);
};

} // namespace ke::llm

#endif // KE_LLM_CHATPROTOCOL_H
