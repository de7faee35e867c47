//===- ProposerBanditTest.cpp - UCB1 over proposers -----------------------===//

#include "ke/Search/ProposerBandit.h"

#include "gtest/gtest.h"

using namespace ke::search;

TEST(ProposerBanditTest, TriesEveryArmThenFavoursTheRewarding) {
  ProposerBandit bandit(2);
  EXPECT_EQ(bandit.select(0.5), 0u);
  bandit.record(0, 0.1);
  EXPECT_EQ(bandit.select(0.5), 1u);
  bandit.record(1, 0.9);
  unsigned second = 0;
  for (int i = 0; i < 20; ++i) {
    size_t arm = bandit.select(0.5);
    second += arm == 1;
    bandit.record(arm, arm == 1 ? 0.9 : 0.1);
  }
  EXPECT_GT(second, 15u);
  EXPECT_GT(bandit.getPulls(0), 1u); // exploration keeps trying the other
  EXPECT_NEAR(bandit.getMeanReward(1), 0.9, 1e-9);
}

TEST(ProposerBanditTest, NeverChoosesARetiredArm) {
  ProposerBandit bandit(2);
  bandit.record(0, 1.0);
  bandit.record(1, 0.0);
  bandit.retire(0);
  EXPECT_TRUE(bandit.hasActiveArm());
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(bandit.select(0.5), 1u);
  bandit.retire(1);
  EXPECT_FALSE(bandit.hasActiveArm());
}
