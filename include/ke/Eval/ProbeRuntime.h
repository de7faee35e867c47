//===- ProbeRuntime.h - where profiling probes report -----------*- C++ -*-===//
//
// The functions `ke-lower-probes` calls (ke_probe_start/ke_probe_stop),
// accumulating the time of each region in this process. JIT-compiled
// kernels find them through ExecutionEngine::registerSymbols.
//
//===----------------------------------------------------------------------===//

#ifndef KE_EVAL_PROBERUNTIME_H
#define KE_EVAL_PROBERUNTIME_H

#include <cstdint>
#include <vector>

namespace ke::eval {

struct RegionTime {
  double totalNs = 0.0;
  int64_t entries = 0;
};

/// Clears every region's accumulated time.
void resetProbes();
/// The accumulated time per region id (index = id).
std::vector<RegionTime> readProbes();
/// Addresses of the runtime functions, for the JIT's symbol map.
void *getProbeStartAddress();
void *getProbeStopAddress();

} // namespace ke::eval

#endif // KE_EVAL_PROBERUNTIME_H
