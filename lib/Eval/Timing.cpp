//===- Timing.cpp - timing a callable -------------------------------------===//

#include "ke/Eval/Timing.h"

#include <algorithm>
#include <chrono>
#include <vector>

using namespace ke::eval;

TimingResult ke::eval::measure(llvm::function_ref<void()> run,
                               const TimingOptions &options) {
  using Clock = std::chrono::steady_clock;
  std::vector<double> samples;
  // A call that alone outlasts the time budget (a naive reference of a big
  // kernel) is timed as warm-up and counted; then three samples suffice.
  int minRuns = options.minRuns;
  for (int i = 0; i < options.warmupRuns; ++i) {
    auto start = Clock::now();
    run();
    double ns =
        std::chrono::duration<double, std::nano>(Clock::now() - start).count();
    if (ns > options.minSeconds * 1e9) {
      minRuns = std::min(minRuns, 3);
      break;
    }
  }
  double total = 0.0;
  while (static_cast<int>(samples.size()) < options.maxRuns &&
         (static_cast<int>(samples.size()) < minRuns ||
          total < options.minSeconds * 1e9)) {
    auto start = Clock::now();
    run();
    double ns =
        std::chrono::duration<double, std::nano>(Clock::now() - start).count();
    samples.push_back(ns);
    total += ns;
  }
  TimingResult result;
  result.runs = static_cast<int>(samples.size());
  if (samples.empty())
    return result;
  std::sort(samples.begin(), samples.end());
  result.minNs = samples.front();
  size_t mid = samples.size() / 2;
  result.medianNs = samples.size() % 2
                        ? samples[mid]
                        : 0.5 * (samples[mid - 1] + samples[mid]);
  return result;
}
