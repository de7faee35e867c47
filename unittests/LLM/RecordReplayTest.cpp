//===- RecordReplayTest.cpp - calls kept and answered from the database ---===//

#include "ke/LLM/RecordReplay.h"
#include "ke/Store/Store.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

using namespace ke;
using namespace ke::llm;

namespace {
/// Answers "reply <n>" to its n-th request.
class CountingClient : public LLMClient {
public:
  explicit CountingClient(LLMConfig config) : config(std::move(config)) {}
  llvm::Expected<ChatReply> complete(const ChatRequest &) override {
    ChatReply reply;
    reply.text = "reply " + std::to_string(++calls);
    reply.promptTokens = 10;
    reply.completionTokens = 5;
    return reply;
  }
  const LLMConfig &getConfig() const override { return config; }
  int calls = 0;

private:
  LLMConfig config;
};

class RecordReplayTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ke-llm", directory));
    llvm::SmallString<128> path = directory;
    llvm::sys::path::append(path, "ke.db");
    auto opened = store::Store::open(path);
    ASSERT_TRUE(bool(opened)) << llvm::toString(opened.takeError());
    database = std::move(*opened);
    config.provider = "openai";
    config.model = "m";
    config.apiKey = "sk-SECRET";
  }
  void TearDown() override { llvm::sys::fs::remove_directories(directory); }

  std::string ask(RecordingClient &client, const std::string &prompt) {
    ChatRequest request;
    request.messages = {{"user", prompt}};
    auto reply = client.complete(request);
    return reply ? reply->text : "error: " + llvm::toString(reply.takeError());
  }

  llvm::SmallString<128> directory;
  std::unique_ptr<store::Store> database;
  LLMConfig config;
};
} // namespace

TEST_F(RecordReplayTest, ReplayAnswersInRecordedOrder) {
  auto live = std::make_unique<CountingClient>(config);
  RecordingClient recorder(std::move(live), config, *database, LLMMode::Live,
                           std::nullopt);
  EXPECT_EQ(ask(recorder, "a"), "reply 1");
  EXPECT_EQ(ask(recorder, "a"), "reply 2"); // live asks again
  EXPECT_EQ(ask(recorder, "b"), "reply 3");
  EXPECT_EQ(recorder.getTokensUsed(), 45);

  RecordingClient replayer(nullptr, config, *database, LLMMode::Replay,
                           std::nullopt);
  EXPECT_EQ(ask(replayer, "b"), "reply 3");
  EXPECT_EQ(ask(replayer, "a"), "reply 1");
  EXPECT_EQ(ask(replayer, "a"), "reply 2");
  std::string miss = ask(replayer, "a");
  EXPECT_NE(miss.find("llm-mode=replay: no recorded answer"), std::string::npos)
      << miss;
  EXPECT_NE(ask(replayer, "never asked").find("0 recorded"), std::string::npos);
  EXPECT_EQ(replayer.getTokensUsed(), 45);
}

TEST_F(RecordReplayTest, RecordReusesWhatItHasAndAsksForTheRest) {
  {
    RecordingClient recorder(std::make_unique<CountingClient>(config), config,
                             *database, LLMMode::Record, std::nullopt);
    EXPECT_EQ(ask(recorder, "a"), "reply 1");
  }
  auto live = std::make_unique<CountingClient>(config);
  CountingClient *counter = live.get();
  RecordingClient recorder(std::move(live), config, *database, LLMMode::Record,
                           std::nullopt);
  EXPECT_EQ(ask(recorder, "a"), "reply 1"); // from the database
  EXPECT_EQ(counter->calls, 0);
  EXPECT_EQ(ask(recorder, "a"), "reply 1"); // a fresh live answer
  EXPECT_EQ(counter->calls, 1);
}

TEST_F(RecordReplayTest, StoresNoSecretAndTheKeyIgnoresMaskedText) {
  RecordingClient recorder(std::make_unique<CountingClient>(config), config,
                           *database, LLMMode::Live, std::nullopt);
  ask(recorder, "the key is sk-SECRET");
  auto calls = database->loadLLMCalls();
  ASSERT_TRUE(bool(calls));
  ASSERT_EQ(calls->size(), 1u);
  EXPECT_EQ((*calls)[0].request.find("SECRET"), std::string::npos);

  ChatRequest a, b;
  a.messages = {{"user", "time 1.5 us"}};
  b.messages = {{"user", "time 1.7 us"}};
  a.replayKeyText = b.replayKeyText = "time <measured>";
  EXPECT_EQ(computeReplayKey("m", a), computeReplayKey("m", b));
  EXPECT_NE(computeReplayKey("m", a), computeReplayKey("other", a));
}
