//===- GPUPeaks.cpp - the GPU's roofline, measured once per device --------===//

#include "ke/Eval/GPUPeaks.h"
#include "ke/Runtime/GPUCalibrate.h"
#include "ke/Runtime/GPUDriver.h"

using namespace ke::eval;

llvm::Expected<MachinePeaks> ke::eval::getOrCalibrateGPUPeaks(bool recalibrate) {
  std::string problem;
  const ke::runtime::GPUDriver *gpu = ke::runtime::getGPUDriver(&problem);
  if (!gpu)
    return llvm::createStringError("no GPU: " + problem);
  char name[256] = {0};
  gpu->cuDeviceGetName(name, sizeof(name), 0);
  std::string path = getGPUPeaksCachePath(name);
  if (!recalibrate) {
    llvm::Expected<MachinePeaks> cached = loadPeaks(path, name);
    if (cached)
      return *cached;
    llvm::consumeError(cached.takeError());
  }
  ke::runtime::GPUPeaks measured = ke::runtime::measureGPUPeaks();
  if (measured.gbps <= 0 || measured.gflops <= 0)
    return llvm::createStringError("GPU peaks: " + measured.error);
  MachinePeaks peaks;
  peaks.gflops = measured.gflops;
  peaks.gbps = measured.gbps;
  peaks.cpu = measured.device;
  peaks.isa = "ptx fma.rn.f32 loop; device-to-device copy";
  // A cache we cannot write only costs a re-measurement next time.
  llvm::consumeError(savePeaks(peaks, path));
  return peaks;
}
