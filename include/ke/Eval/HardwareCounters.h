//===- HardwareCounters.h - perf_event_open around a run --------*- C++ -*-===//

#ifndef KE_EVAL_HARDWARECOUNTERS_H
#define KE_EVAL_HARDWARECOUNTERS_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace ke::eval {

/// Cycles, instructions and cache misses of this process (its threads
/// included, user space only), counted between start() and stop().
class HardwareCounters {
public:
  /// Fails with the reason when the kernel does not allow counting (e.g.
  /// perf_event_paranoid, a container without the syscall, no PMU in a VM).
  static llvm::Expected<std::unique_ptr<HardwareCounters>> open();
  ~HardwareCounters();
  void start();
  /// Counts since start(), by name ("cycles", "instructions",
  /// "cache_misses"); counters the PMU multiplexed are scaled.
  std::map<std::string, double> stop();

private:
  HardwareCounters() = default;
  struct Counter {
    std::string name;
    int fd = -1;
  };
  Counter counters[3];
};

} // namespace ke::eval

#endif // KE_EVAL_HARDWARECOUNTERS_H
