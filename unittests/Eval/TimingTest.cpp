//===- TimingTest.cpp - timing until the measurement is stable ------------===//

#include "ke/Eval/Timing.h"

#include "gtest/gtest.h"

#include <chrono>
#include <thread>

using namespace ke::eval;

namespace {
TEST(TimingTest, FastCallsRunUntilTheTimeBudget) {
  int calls = 0;
  TimingOptions options;
  options.warmupRuns = 2;
  options.minRuns = 5;
  options.minSeconds = 0.02;
  TimingResult result = measure(
      [&] {
        ++calls;
        std::this_thread::sleep_for(std::chrono::microseconds(500));
      },
      options);
  EXPECT_GE(result.runs, 5);
  EXPECT_EQ(calls, result.runs + 2); // warm-up calls are not samples
  EXPECT_GE(result.medianNs, 500e3);
  EXPECT_LE(result.minNs, result.medianNs);
  EXPECT_GE(result.runs * result.medianNs, 0.5 * 0.02e9);
}

TEST(TimingTest, SlowCallsNeedOnlyThreeSamples) {
  int calls = 0;
  TimingOptions options;
  options.minSeconds = 0.001;
  TimingResult result = measure(
      [&] {
        ++calls;
        std::this_thread::sleep_for(std::chrono::milliseconds(3));
      },
      options);
  EXPECT_EQ(result.runs, 3);
  EXPECT_EQ(calls, 4); // one warm-up was enough to see it is slow
}

TEST(TimingTest, MaxRunsCapsTheSamples) {
  TimingOptions options;
  options.warmupRuns = 0;
  options.minRuns = 1;
  options.minSeconds = 10.0;
  options.maxRuns = 7;
  TimingResult result = measure([] {}, options);
  EXPECT_EQ(result.runs, 7);
}
} // namespace
