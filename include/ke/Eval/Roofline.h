//===- Roofline.h - machine peaks and the bound of a kernel -----*- C++ -*-===//

#ifndef KE_EVAL_ROOFLINE_H
#define KE_EVAL_ROOFLINE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace ke::eval {

/// What this machine can do, as measured by `ke-run --calibrate`.
struct MachinePeaks {
  double gflops = 0.0; ///< f32 FMA throughput, GFLOP/s
  double gbps = 0.0;   ///< streaming (triad) bandwidth, GB/s
  unsigned threads = 1;
  std::string cpu; ///< model name the peaks were measured on (the CPU's,
                   ///< or the GPU's for GPU peaks)
  std::string isa; ///< ISA of the FMA loop (avx512f, avx2+fma, ptx, ...)
};

/// Measures the peaks with `threads` threads (about a second).
MachinePeaks calibrate(unsigned threads);

/// The cache file for `threads`: $KE_CACHE_DIR, else $XDG_CACHE_HOME/ke, else
/// $HOME/.cache/ke, then `peaks-t<threads>.json`.
std::string getPeaksCachePath(unsigned threads);

/// The cache file of a GPU's peaks, by the driver's device name: beside the
/// CPU's, `gpu-peaks-<name>.json`.
std::string getGPUPeaksCachePath(llvm::StringRef device);

/// Reads cached peaks; fails if missing, malformed or measured on another
/// machine than `machine` (by default this host's CPU).
llvm::Expected<MachinePeaks> loadPeaks(llvm::StringRef path);
llvm::Expected<MachinePeaks> loadPeaks(llvm::StringRef path,
                                       llvm::StringRef machine);
llvm::Error savePeaks(const MachinePeaks &peaks, llvm::StringRef path);

/// Cached peaks, calibrating (and caching) on first use.
MachinePeaks getOrCalibratePeaks(unsigned threads);

/// The CPU model of this machine, from /proc/cpuinfo.
std::string getHostCpuName();

enum class Bound { Compute, Memory, Latency };
llvm::StringRef getBoundName(Bound bound);

/// Compute- or memory-bound by arithmetic intensity against the machine's
/// ridge point; latency-bound when the whole kernel would take under
/// `kLatencyThresholdNs` at peak, i.e. fixed costs dominate.
Bound classifyBound(double flops, double bytes, const MachinePeaks &peaks);
constexpr double kLatencyThresholdNs = 2000.0;

} // namespace ke::eval

#endif // KE_EVAL_ROOFLINE_H
