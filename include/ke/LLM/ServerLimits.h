//===- ServerLimits.h - what an LLM server says of its limits ---*- C++ -*-===//
//
// OpenAI-compatible servers that run one model know its context window and
// some say it: vLLM as `max_model_len` of each model in GET /v1/models,
// llama.cpp's server as `n_ctx` in GET /props. Prompts sized to it never
// overflow the server, where a guess either wastes the window or gets an
// HTTP 400 (vLLM) or a silently clamped reply (llama.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KE_LLM_SERVERLIMITS_H
#define KE_LLM_SERVERLIMITS_H

#include "ke/LLM/HttpTransport.h"
#include "ke/LLM/LLMClient.h"

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace ke::llm {

/// `max_model_len` of `model` in a /v1/models answer (the only model's when
/// the answer lists one).
std::optional<unsigned> parseModelListContext(llvm::StringRef body,
                                              llvm::StringRef model);
/// `n_ctx` of a llama.cpp /props answer (in default_generation_settings).
std::optional<unsigned> parsePropsContext(llvm::StringRef body);

/// Asks the server `config` points at (OpenAI-compatible only) for its
/// context window; none when it does not say, or does not answer within a
/// few seconds. Never retried: the window is an optimization.
std::optional<unsigned> readContextWindow(const LLMConfig &config,
                                          HttpTransport &transport);

} // namespace ke::llm

#endif // KE_LLM_SERVERLIMITS_H
