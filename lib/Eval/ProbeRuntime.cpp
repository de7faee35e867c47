//===- ProbeRuntime.cpp - where profiling probes report -------------------===//
//
// Probes sit at the top level of a kernel, so they run on the calling
// thread only (threads of a parallel region run inside one region): plain
// globals are enough. The clock is CLOCK_MONOTONIC (vDSO: tens of ns), far
// below the time of a loop nest worth profiling.
//
//===----------------------------------------------------------------------===//

#include "ke/Eval/ProbeRuntime.h"

#include <ctime>

namespace {
constexpr int64_t kMaxRegions = 4096;
ke::eval::RegionTime regions[kMaxRegions];
int64_t started[kMaxRegions];
int64_t used = 0;

int64_t nowNs() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return int64_t(now.tv_sec) * 1000000000 + now.tv_nsec;
}
} // namespace

extern "C" void ke_probe_start(int64_t id) {
  if (id < 0 || id >= kMaxRegions)
    return;
  started[id] = nowNs();
}

extern "C" void ke_probe_stop(int64_t id) {
  int64_t end = nowNs();
  if (id < 0 || id >= kMaxRegions)
    return;
  regions[id].totalNs += double(end - started[id]);
  ++regions[id].entries;
  if (id >= used)
    used = id + 1;
}

void ke::eval::resetProbes() {
  for (int64_t i = 0; i < used; ++i)
    regions[i] = RegionTime();
  used = 0;
}

std::vector<ke::eval::RegionTime> ke::eval::readProbes() {
  return std::vector<RegionTime>(regions, regions + used);
}

void *ke::eval::getProbeStartAddress() {
  return reinterpret_cast<void *>(&ke_probe_start);
}
void *ke::eval::getProbeStopAddress() {
  return reinterpret_cast<void *>(&ke_probe_stop);
}
