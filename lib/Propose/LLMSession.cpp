//===- LLMSession.cpp - client, knowledge and proposer from options -------===//

#include "ke/Propose/LLMSession.h"
#include "ke/LLM/HttpChatClient.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"

using namespace ke::propose;

llvm::Expected<std::unique_ptr<LLMSession>>
LLMSession::create(store::Store &store, std::optional<int64_t> run,
                   const LLMSessionOptions &options, mlir::MLIRContext *context,
                   std::vector<std::string> &warnings) {
  std::optional<llm::LLMMode> mode = llm::parseLLMMode(options.mode);
  if (!mode)
    return llvm::createStringError("unknown llm-mode '" + options.mode +
                                   "'; expected live, record or replay");
  llvm::Expected<llm::LLMConfig> config =
      llm::LLMConfig::resolve(options.config);
  if (!config)
    return config.takeError();

  std::unique_ptr<LLMSession> session(new LLMSession());
  std::unique_ptr<llm::LLMClient> live;
  if (*mode != llm::LLMMode::Replay)
    live = llm::createHttpChatClient(*config);
  session->client = std::make_unique<llm::RecordingClient>(
      std::move(live), *config, store, *mode, run);

  std::vector<std::string> directories;
  std::string builtIn = kb::KnowledgeBase::getDefaultDirectory();
  if (llvm::sys::fs::is_directory(builtIn))
    directories.push_back(builtIn);
  else
    warnings.push_back("the built-in knowledge directory '" + builtIn +
                       "' is missing (set KE_KB_DIR); prompts get no "
                       "built-in knowledge");
  llvm::SmallVector<llvm::StringRef> extra;
  llvm::StringRef(options.extraKnowledge).split(extra, ',', -1, false);
  for (llvm::StringRef directory : extra)
    directories.push_back(directory.trim().str());
  llvm::Expected<kb::KnowledgeBase> knowledge =
      kb::KnowledgeBase::open(store, directories, warnings);
  if (!knowledge)
    return knowledge.takeError();
  session->knowledge.emplace(std::move(*knowledge));

  // A window the user did not give is the server's own, where it says it
  // (recorded, so a replay sizes its prompts alike).
  LLMProposerOptions proposerOptions = options.proposer;
  if (proposerOptions.contextTokens == 0)
    if (std::optional<unsigned> window = session->client->queryContextWindow())
      proposerOptions.contextTokens = *window;
  session->proposer =
      std::make_unique<LLMProposer>(*session->client, &*session->knowledge,
                                    &store, context, proposerOptions);
  return session;
}
