//===- Timing.h - timing a callable until the measurement is stable -------===//

#ifndef KE_EVAL_TIMING_H
#define KE_EVAL_TIMING_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace ke::eval {

struct TimingOptions {
  /// Untimed calls first (caches, page faults, lazy JIT work).
  int warmupRuns = 2;
  /// Keep timing until both the run count and the total time are reached.
  int minRuns = 5;
  double minSeconds = 0.2;
  int maxRuns = 100000;
};

struct TimingResult {
  double medianNs = 0.0;
  double minNs = 0.0;
  int runs = 0;
};

/// Times `run` with a monotonic clock, one sample per call.
TimingResult measure(llvm::function_ref<void()> run,
                     const TimingOptions &options);

} // namespace ke::eval

#endif // KE_EVAL_TIMING_H
