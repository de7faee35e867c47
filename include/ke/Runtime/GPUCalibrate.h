//===- GPUCalibrate.h - the GPU's measured peaks ----------------*- C++ -*-===//
//
// The roofline of a GPU from two measurements on the device itself: DRAM
// bandwidth from a device-to-device copy far larger than L2, and f32 FMA
// throughput from a loop of independent FMAs in every thread of a grid that
// fills the GPU. Plain C++ on the driver API, like the rest of the runtime.
//
//===----------------------------------------------------------------------===//

#ifndef KE_RUNTIME_GPUCALIBRATE_H
#define KE_RUNTIME_GPUCALIBRATE_H

#include <string>

namespace ke::runtime {

struct GPUPeaks {
  std::string device; ///< the driver's name of device 0
  double gbps = 0;    ///< bytes read plus written per ns by a device copy
  double gflops = 0;  ///< f32 FMA throughput (2 flops per FMA); 0 where not
                      ///< measured (AMD: the loop is PTX)
  std::string error;  ///< why nothing (or only part) was measured
};

/// Measures device 0 (under the GPU timing lock; a fraction of a second).
GPUPeaks measureGPUPeaks();

} // namespace ke::runtime

#endif // KE_RUNTIME_GPUCALIBRATE_H
