//===- SearchTreeTest.cpp - UCB selection and termination -----------------===//

#include "ke/Search/SearchTree.h"

#include "gtest/gtest.h"

using namespace ke::search;

namespace {
TEST(SearchTreeTest, RootIsTheReference) {
  SearchTree tree;
  EXPECT_EQ(tree.size(), 1u);
  EXPECT_EQ(tree.getBestSpeedup(), 1.0);
  EXPECT_EQ(tree.selectForExpansion(1.0), 0u);
}

TEST(SearchTreeTest, RewardsBackUpToAncestors) {
  SearchTree tree;
  size_t a = tree.addChild(0, 4.0, true);
  size_t b = tree.addChild(a, 8.0, true);
  EXPECT_EQ(tree.getNode(a).subtreeSize, 2);
  EXPECT_DOUBLE_EQ(tree.getNode(a).subtreeSpeedup, 12.0);
  EXPECT_DOUBLE_EQ(tree.getNode(0).subtreeSpeedup, 13.0);
  EXPECT_EQ(tree.getBestNode(), b);
  EXPECT_EQ(tree.getBestSpeedup(), 8.0);
}

TEST(SearchTreeTest, WithoutExplorationTheBestSubtreeWins) {
  SearchTree tree;
  size_t slow = tree.addChild(0, 2.0, true);
  size_t fast = tree.addChild(0, 10.0, true);
  EXPECT_EQ(tree.selectForExpansion(0.0), fast);
  (void)slow;
}

TEST(SearchTreeTest, IncorrectNodesAreNeverExpanded) {
  SearchTree tree;
  size_t wrong = tree.addChild(0, 0.0, false);
  for (int i = 0; i < 10; ++i) {
    size_t chosen = tree.selectForExpansion(100.0);
    EXPECT_NE(chosen, wrong);
    tree.noteExpansion(chosen);
  }
  // A failed node does not become the best either.
  EXPECT_EQ(tree.getBestNode(), 0u);
}

TEST(SearchTreeTest, ExplorationRevisitsRarelyExpandedNodes) {
  SearchTree tree;
  size_t good = tree.addChild(0, 10.0, true);
  size_t okay = tree.addChild(0, 8.0, true);
  // Expand the good node many times: its exploration bonus shrinks until
  // the rarely tried sibling wins.
  for (int i = 0; i < 50; ++i)
    tree.noteExpansion(good);
  EXPECT_EQ(tree.selectForExpansion(1.0), okay);
  EXPECT_EQ(tree.selectForExpansion(0.0), good);
  EXPECT_GT(tree.getScore(okay, 1.0), tree.getScore(good, 1.0));
}

TEST(TerminationTest, BudgetCountsEvaluatedCandidates) {
  TerminationTracker tracker({/*budget=*/3, 0, 0, 0});
  EXPECT_FALSE(tracker.check(2, 0, 1));
  auto reason = tracker.check(3, 0, 1);
  ASSERT_TRUE(reason);
  EXPECT_NE(reason->find("budget"), std::string::npos);
}

TEST(TerminationTest, StallNeedsConsecutiveExpansionsWithoutGain) {
  TerminationTracker tracker({0, 0, /*stall=*/2, 0});
  tracker.noteExpansion(false);
  EXPECT_FALSE(tracker.check(1, 0, 1));
  tracker.noteExpansion(true); // resets
  tracker.noteExpansion(false);
  EXPECT_FALSE(tracker.check(3, 0, 1));
  tracker.noteExpansion(false);
  EXPECT_TRUE(tracker.check(4, 0, 1));
}

TEST(TerminationTest, TimeLimitAndTargetSpeedup) {
  TerminationTracker tracker({0, /*time=*/10.0, 0, /*target=*/5.0});
  EXPECT_FALSE(tracker.check(100, 9.9, 4.9));
  EXPECT_TRUE(tracker.check(100, 10.0, 1.0));
  EXPECT_TRUE(tracker.check(100, 0.0, 5.0));
}

TEST(TerminationTest, ZeroMeansNoLimit) {
  TerminationTracker tracker({0, 0, 0, 0});
  for (int i = 0; i < 100; ++i)
    tracker.noteExpansion(false);
  EXPECT_FALSE(tracker.check(1000000, 1e9, 1e9));
}
} // namespace
