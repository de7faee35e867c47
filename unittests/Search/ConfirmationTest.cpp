//===- ConfirmationTest.cpp - choosing the output by re-timing ------------===//

#include "ke/Search/Confirmation.h"

#include "gtest/gtest.h"

using namespace ke::search;

namespace {
ConfirmedTime rounds(std::vector<double> roundNs) {
  ConfirmedTime time;
  time.timeNs = *std::min_element(roundNs.begin(), roundNs.end());
  time.roundNs = std::move(roundNs);
  return time;
}
ConfirmedTime failed() {
  ConfirmedTime time;
  time.problem = "incorrect: compare: ...";
  return time;
}
} // namespace

TEST(ConfirmationTest, ANodeMustBeatTheFloorInEveryRound) {
  // Faster in its best round, slower in another: noise, the floor stays.
  EXPECT_EQ(
      chooseConfirmed({rounds({100, 100, 100}), rounds({80, 105, 90})}, 0), 0u);
  // Faster in every round, but by less than the margin: the floor stays.
  EXPECT_EQ(chooseConfirmed({rounds({100, 100, 100}), rounds({98, 99, 98})}, 0),
            0u);
  // Faster in every round by more than the margin.
  EXPECT_EQ(chooseConfirmed({rounds({100, 100, 100}), rounds({90, 95, 92})}, 0),
            1u);
}

TEST(ConfirmationTest, TheFastestOfTheNodesThatBeatTheFloor) {
  EXPECT_EQ(chooseConfirmed({rounds({100, 100, 100}), rounds({90, 90, 90}),
                             rounds({50, 120, 50}), rounds({80, 85, 80})},
                            0),
            3u);
}

TEST(ConfirmationTest, WithoutAFloorTheFastest) {
  EXPECT_EQ(chooseConfirmed({rounds({100, 100, 100}), rounds({99, 99, 99})},
                            std::nullopt),
            1u);
  // A floor that fails when re-checked is no floor.
  EXPECT_EQ(chooseConfirmed(
                {failed(), rounds({99, 99, 99}), rounds({98, 120, 120})}, 0),
            2u);
  EXPECT_EQ(chooseConfirmed({failed(), failed()}, 0), std::nullopt);
}
