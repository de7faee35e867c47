//===- GPUBundle.h - a compiled GPU kernel that travels ---------*- C++ -*-===//
//
// What `ke-run --target nvgpu --bundle DIR` writes and `ke-gpu-run DIR`
// (or ke-run itself, where a GPU is) runs: the kernel's host code as a
// shared object (its PTX embedded, loaded by constructors through MLIR's
// GPU runtime API), the inputs of each seed and the reference's outputs,
// and a manifest. So a kernel compiled where MLIR is can be checked and
// timed on a GPU machine that has only a C++ compiler and the driver.
// Plain C++ (no LLVM) on purpose.
//
//===----------------------------------------------------------------------===//

#ifndef KE_RUNTIME_GPUBUNDLE_H
#define KE_RUNTIME_GPUBUNDLE_H

#include <cstdint>
#include "ke/Runtime/GPUDriver.h"

#include <string>
#include <vector>

namespace ke::runtime {

struct BundleTensor {
  std::string kind; ///< f16 bf16 f32 f64 i1 i8 i16 i32 i64
  std::vector<int64_t> shape;
  int64_t getNumElements() const;
  int64_t getElementBytes() const;
  int64_t getNumBytes() const { return getNumElements() * getElementBytes(); }
};

struct BundleManifest {
  /// nvgpu (PTX, run through the CUDA driver) or amdgpu (hsaco, HIP).
  std::string target = "nvgpu";
  std::string kernel;
  double atol = 1e-4, rtol = 1e-4;
  std::vector<BundleTensor> arguments, results;
  int seeds = 1;
  /// Where inputs and expected outputs are, relative to the bundle (other
  /// schedules of one kernel share them); empty: the bundle itself.
  std::string data;
  /// Names of the ke.probe regions of the profiling build
  /// (kernel-profile.so), by region id; empty without one.
  std::vector<std::string> regions;
  std::string write() const;
  /// Empty `error` on success.
  static BundleManifest read(const std::string &text, std::string &error);
};

struct BundleResult {
  std::string kernel, device;
  std::string target = "nvgpu";
  std::string bundle; ///< the bundle directory's name (kernel@tile)
  bool correct = false;
  std::string error; ///< "<stage>: ...", empty when correct
  double maxAbsError = 0, maxRelError = 0;
  double medianNs = 0, minNs = 0;
  int runs = 0;
  /// Kernel launches of one call of the kernel function.
  int launchesPerCall = 0;
  /// Time spent waiting for other processes' use of the GPU to end.
  double lockWaitMs = 0;
  /// With profiling: each kernel launch of one call, timed on its own.
  std::vector<LaunchTime> profile;
  /// Why the profile is missing or partial (the measured time stands).
  std::string profileError;
  /// The manifest's region names (index = region id).
  std::vector<std::string> regionNames;
  /// Device time (global timer) summed per ke.probe region, in region id
  /// order; empty when no launch was timed on the device.
  struct RegionTime {
    std::string name;
    double deviceNs = 0;
    int launches = 0;
    /// Launches without a device timer, counted with their event time.
    int eventTimedLaunches = 0;
  };
  std::vector<RegionTime> getRegionTimes() const;
  std::string toJSON() const;
};

/// Loads, checks (every seed, against the expected outputs) and times
/// (CUDA events on the kernel's stream, L2 flushed before each run, at
/// least 5 runs and `minSeconds`) the bundle in `directory`.
/// With `profile`, one more call times each kernel launch (`profile`): of
/// the profiling build kernel-profile.so where the bundle has one (its
/// kernels read the global timer and its launches carry their region),
/// else of kernel.so with CUDA events only.
BundleResult runBundle(const std::string &directory, double minSeconds,
                       bool profile = false);

} // namespace ke::runtime

#endif // KE_RUNTIME_GPUBUNDLE_H
