//===- CostModelTest.cpp - features, the fit, the screen's choice ---------===//

#include "ke/Search/CostModel.h"
#include "ke/Search/ProposalScreen.h"
#include "ke/Search/ScheduleFeatures.h"
#include "ke/Store/Store.h"

#include "llvm/Support/FormatVariadic.h"

#include "gtest/gtest.h"

#include <set>

using namespace ke;
using namespace ke::search;

namespace {
ScheduleFeatures point(double a, double b, double c = 0.0) {
  ScheduleFeatures x{};
  x[0] = a;
  x[3] = b;
  x[7] = c;
  return x;
}

propose::OpShape matmul(int64_t m, int64_t n, int64_t k) {
  propose::OpShape shape;
  shape.name = "linalg.matmul";
  shape.bounds = {m, n, k};
  shape.isReduction = {false, false, true};
  shape.contiguousLoops = {1, 2};
  shape.uniformTypes = true;
  shape.inputLoops = {{0, 2}, {2, 1}};
  shape.outputLoops = {{0, 1}};
  return shape;
}

TEST(CostModelTest, LearnsALinearTrendAndRanksByIt) {
  CostModel model(/*ridge=*/0.01);
  EXPECT_FALSE(model.canRank());
  // log speedup = 2 a - b (+ a per-kernel constant the model ignores).
  for (double a : {0.0, 1.0})
    for (double b : {0.0, 1.0, 2.0, 3.0})
      model.addSample(point(a, b), 5.0 + 2.0 * a - b);
  EXPECT_TRUE(model.canRank());
  EXPECT_NEAR(model.getWeights()[0], 2.0, 0.05);
  EXPECT_NEAR(model.getWeights()[3], -1.0, 0.05);
  EXPECT_NEAR(model.getWeights()[7], 0.0, 1e-9);
  EXPECT_GT(model.predict(point(1, 0)), model.predict(point(0, 0)));
  EXPECT_GT(model.predict(point(0, 0)), model.predict(point(0, 3)));
  // Not a number is not a sample.
  model.addSample(point(1, 1), std::nan(""));
  EXPECT_EQ(model.getNumSamples(), 8u);
}

TEST(CostModelTest, APriorRanksEarlierAndPullsTheFit) {
  CostModel model(/*ridge=*/4.0);
  ScheduleFeatures prior{};
  prior[7] = -3.0; // learnt elsewhere: footprints over L2 hurt
  model.setPrior(prior);
  EXPECT_FALSE(model.canRank());
  EXPECT_LT(model.predict(point(0, 0, 1)), model.predict(point(0, 0, 0)));
  model.addSample(point(1, 0), 1.0);
  model.addSample(point(0, 0), 0.0);
  model.addSample(point(0, 1), 0.0);
  EXPECT_TRUE(model.canRank()); // three samples with a prior
  // Feature 7 never varied here: its weight stays the prior's.
  EXPECT_NEAR(model.getWeights()[7], -3.0, 1e-9);
  EXPECT_GT(model.getWeights()[0], 0.0);
}

TEST(CostModelTest, WeightsRoundTripThroughJSON) {
  CostModel model(0.01);
  for (double a : {0.0, 1.0, 2.0})
    model.addSample(point(a, 0), 0.5 * a);
  llvm::Expected<ScheduleFeatures> read =
      CostModel::parseWeights(model.serialize());
  ASSERT_TRUE(static_cast<bool>(read)) << llvm::toString(read.takeError());
  for (size_t i = 0; i < kNumScheduleFeatures; ++i)
    EXPECT_NEAR((*read)[i], model.getWeights()[i], 1e-9);
  // Unknown names are ignored, missing ones are 0; garbage is an error.
  llvm::Expected<ScheduleFeatures> partial =
      CostModel::parseWeights(R"({"vectorized": 1.5, "from_the_future": 9})");
  ASSERT_TRUE(static_cast<bool>(partial));
  EXPECT_EQ((*partial)[0], 1.5);
  EXPECT_EQ((*partial)[1], 0.0);
  llvm::Expected<ScheduleFeatures> bad = CostModel::parseWeights("[1, 2]");
  EXPECT_FALSE(static_cast<bool>(bad));
  llvm::consumeError(bad.takeError());
}

TEST(CostModelTest, SelectsTheBestPredictedAndExploresTheRest) {
  std::mt19937_64 generator(7);
  std::vector<double> scores = {0.1, 0.9, 0.5, 0.7, 0.3};
  EXPECT_EQ(CostModel::select(scores, 2, 0.0, generator),
            (std::vector<size_t>{1, 3}));
  EXPECT_EQ(CostModel::select(scores, 9, 0.0, generator).size(), 5u);
  // Always exploring: every slot but none twice, all from the pool; the
  // best prediction is given up last.
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<size_t> chosen = CostModel::select(scores, 3, 1.0, generator);
    ASSERT_EQ(chosen.size(), 3u);
    std::set<size_t> distinct(chosen.begin(), chosen.end());
    EXPECT_EQ(distinct.size(), 3u);
    for (size_t index : chosen)
      EXPECT_LT(index, scores.size());
  }
}

TEST(ScheduleFeaturesTest, DescribeVectorsThreadsAndFootprints) {
  std::vector<propose::OpShape> shapes = {matmul(512, 512, 512)};
  CacheSizes caches;
  caches.l1 = 32 * 1024;
  caches.l2 = 1024 * 1024;
  llvm::Expected<propose::Schedule> small =
      propose::Schedule::parse("c=[64,64,64] r=[4,16,1] v p");
  llvm::Expected<propose::Schedule> whole =
      propose::Schedule::parse("c=[] r=[1,16,1]");
  ASSERT_TRUE(static_cast<bool>(small) && static_cast<bool>(whole));
  ScheduleFeatures tiled =
      extractScheduleFeatures(*small, shapes, /*threads=*/2, caches);
  ScheduleFeatures untiled =
      extractScheduleFeatures(*whole, shapes, /*threads=*/2, caches);
  auto feature = [](const ScheduleFeatures &x, llvm::StringRef name) {
    for (auto [i, known] : llvm::enumerate(getScheduleFeatureNames()))
      if (known == name)
        return x[i];
    ADD_FAILURE() << "no feature " << name.str();
    return 0.0;
  };
  EXPECT_EQ(feature(tiled, "vectorized"), 1.0);
  EXPECT_EQ(feature(untiled, "vectorized"), 0.0);
  EXPECT_EQ(feature(tiled, "threaded"), 1.0);
  EXPECT_EQ(extractScheduleFeatures(*small, shapes, 1, caches)[1], 0.0);
  EXPECT_EQ(feature(tiled, "log2_vector_length"), 4.0);
  EXPECT_EQ(feature(tiled, "log2_register_tile"), 6.0);
  // 3 blocks of 64x64 floats: 48 KiB, over L1, within L2; the whole
  // matrices (3 MiB) exceed L2.
  EXPECT_NEAR(feature(tiled, "log2_footprint_l1"), std::log2(1.5), 1e-9);
  EXPECT_EQ(feature(tiled, "footprint_over_l2"), 0.0);
  EXPECT_EQ(feature(untiled, "footprint_over_l2"), 1.0);
  // 8 x 8 parallel tiles on 2 threads.
  EXPECT_EQ(feature(tiled, "log2_tiles_per_thread"), 5.0);
  // The vector runs along n, the contiguous loop.
  EXPECT_EQ(feature(tiled, "strided_vector"), 0.0);
  EXPECT_EQ(getScheduleFeatureNames().size(), kNumScheduleFeatures);
}
} // namespace

namespace {
using ke::search::ProposalScreen;

ke::store::NodeRecord measuredNode(int64_t vectorTile, double speedup) {
  ke::store::NodeRecord node;
  node.schedule = llvm::formatv("c=[64,64,64] r=[4,{0},1] v", vectorTile).str();
  node.status = "correct";
  node.speedup = speedup;
  return node;
}

TEST(ProposalScreenTest, ScreensOnlyOnceItsPredictionsAgree) {
  std::vector<propose::OpShape> shapes = {matmul(512, 512, 512)};
  // Wider vectors are faster on this kernel: the model learns it, predicts
  // the next ones in order, and is trusted.
  ProposalScreen agreeing(shapes, 1, 8, 0.25, /*trust=*/0.2, 1);
  ProposalScreen reversed(shapes, 1, 8, 0.25, /*trust=*/0.2, 1);
  std::vector<int64_t> tiles = {1, 2, 4, 8, 16, 32, 64, 2, 8, 32, 4, 16};
  for (auto [i, tile] : llvm::enumerate(tiles)) {
    agreeing.learn(measuredNode(tile, 1.0 + tile));
    // The first six teach a strong trend; the rest go the other way, by too
    // little to turn the fit: its predictions of them are all wrong.
    reversed.learn(measuredNode(tile, i < 6 ? 1.0 + tile : 3.0 - 0.01 * tile));
    if (i < 10) // six to learn from, then five judged predictions
      EXPECT_FALSE(agreeing.isTrusted()) << i;
  }
  EXPECT_EQ(agreeing.getNumPredicted(), 6u);
  EXPECT_GT(agreeing.getAgreement(), 0.9);
  EXPECT_TRUE(agreeing.isTrusted());
  EXPECT_EQ(agreeing.widen(1), 8u);
  EXPECT_LT(reversed.getAgreement(), 0.0);
  EXPECT_FALSE(reversed.isTrusted());
  EXPECT_EQ(reversed.widen(1), 1u);
  // A failed or unscheduled node teaches nothing.
  ke::store::NodeRecord failed = measuredNode(8, 0.0);
  failed.status = "failed";
  agreeing.learn(failed);
  EXPECT_EQ(agreeing.getNumPredicted(), 6u);
}

TEST(ProposalScreenTest, KeepsPinnedAndBestPredictedDropsMeasured) {
  std::vector<propose::OpShape> shapes = {matmul(512, 512, 512)};
  ProposalScreen screen(shapes, 1, 4, /*exploration=*/0.0, /*trust=*/-2, 1);
  for (int64_t tile : {1, 2, 4, 8, 16, 32})
    screen.learn(measuredNode(tile, 1.0 + tile));
  ASSERT_EQ(screen.widen(2), 8u);
  auto proposal = [](llvm::StringRef text, bool pinned = false) {
    propose::Proposal p;
    p.schedule = cantFail(propose::Schedule::parse(text));
    p.strategy = text.str();
    p.pinned = pinned;
    return p;
  };
  std::vector<propose::Proposal> pool = {
      proposal("c=[32,64,64] r=[4,2,1] v"),
      proposal("c=[64,64,64] r=[4,64,1] v"),         // best predicted
      proposal("c=[64,64,64] r=[4,32,1] v"),         // measured already
      proposal("c=[64,64,64] r=[4,1,1] v", true),    // pinned
      proposal("c=[64,64,64] r=[4,64,1] v")};        // twice in the pool
  screen.screen(pool, 2);
  ASSERT_EQ(pool.size(), 2u);
  EXPECT_TRUE(pool[0].pinned);
  EXPECT_EQ(pool[1].schedule->toString(), "c=[64,64,64] r=[4,64,1] v");
  EXPECT_NE(pool[1].strategy.find("[cost model: rank 1 of 2, tau "),
            std::string::npos)
      << pool[1].strategy;
}
} // namespace
