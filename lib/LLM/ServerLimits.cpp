//===- ServerLimits.cpp - what an LLM server says of its limits -----------===//

#include "ke/LLM/ServerLimits.h"

#include "llvm/Support/JSON.h"

using namespace ke::llm;

namespace {
std::optional<unsigned> asWindow(std::optional<int64_t> value) {
  // Anything below a few hundred tokens is not a window ke can use.
  if (!value || *value < 256 || *value > (int64_t(1) << 30))
    return std::nullopt;
  return static_cast<unsigned>(*value);
}
} // namespace

std::optional<unsigned>
ke::llm::parseModelListContext(llvm::StringRef body, llvm::StringRef model) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(body);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *root = parsed->getAsObject();
  const llvm::json::Array *data = root ? root->getArray("data") : nullptr;
  if (!data)
    return std::nullopt;
  for (const llvm::json::Value &entry : *data) {
    const llvm::json::Object *object = entry.getAsObject();
    if (!object)
      continue;
    std::optional<llvm::StringRef> id = object->getString("id");
    if (data->size() == 1 || (id && *id == model))
      return asWindow(object->getInteger("max_model_len"));
  }
  return std::nullopt;
}

std::optional<unsigned> ke::llm::parsePropsContext(llvm::StringRef body) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(body);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root)
    return std::nullopt;
  if (const llvm::json::Object *settings =
          root->getObject("default_generation_settings"))
    if (std::optional<unsigned> window = asWindow(settings->getInteger("n_ctx")))
      return window;
  return asWindow(root->getInteger("n_ctx"));
}

std::optional<unsigned> ke::llm::readContextWindow(const LLMConfig &config,
                                                   HttpTransport &transport) {
  if (config.provider != "openai" || config.baseURL.empty())
    return std::nullopt;
  llvm::StringRef base = llvm::StringRef(config.baseURL).rtrim('/');
  auto ask = [&](std::string url) {
    HttpRequest request;
    request.url = std::move(url);
    if (!config.apiKey.empty())
      request.headers.push_back({"Authorization", "Bearer " + config.apiKey});
    request.timeoutSeconds = 5.0;
    HttpResponse response = transport.get(request);
    return response.status == 200 ? response.body : std::string();
  };
  if (std::optional<unsigned> window =
          parseModelListContext(ask((base + "/models").str()), config.model))
    return window;
  // llama.cpp serves /props beside /v1, not under it.
  llvm::StringRef root = base;
  root.consume_back("/v1");
  return parsePropsContext(ask((root + "/props").str()));
}
