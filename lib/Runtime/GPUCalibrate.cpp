//===- GPUCalibrate.cpp - the GPU's measured peaks ------------------------===//

#include "ke/Runtime/GPUCalibrate.h"
#include "ke/Runtime/GPUDriver.h"
#include "ke/Runtime/GPUTimingLock.h"

#include <algorithm>
#include <cstdint>
#include <sstream>

using namespace ke::runtime;

namespace {
constexpr int kChains = 8;  // independent FMA chains per thread
constexpr int kUnroll = 8;  // FMAs per chain per loop iteration
constexpr unsigned kBlocks = 4096, kThreads = 256, kIterations = 2048;
constexpr size_t kCopyBytes = size_t(1) << 30;

/// A PTX kernel whose loop body is kChains x kUnroll FMAs that do not
/// depend on each other within a step, so latency hides behind the chains
/// and the loop's own two instructions are a few percent of the issue slots.
std::string getFmaLoopPTX() {
  std::ostringstream ptx;
  ptx << ".version 7.0\n.target sm_70\n.address_size 64\n"
         ".visible .entry ke_fma_peak(.param .u64 ke_out, .param .u32 ke_steps)\n{\n"
         "  .reg .pred %p;\n  .reg .b32 %r<6>;\n  .reg .f32 %f<"
      << kChains + 1
      << ">;\n  .reg .b64 %rd<4>;\n  .reg .f32 %k<2>;\n"
         "  mov.f32 %k0, 0f3F7FFFEF;\n  mov.f32 %k1, 0f33D6BF95;\n"
         "  ld.param.u64 %rd1, [ke_out];\n  ld.param.u32 %r1, [ke_steps];\n"
         "  mov.u32 %r2, %tid.x;\n  mov.u32 %r4, %ctaid.x;\n"
         "  mov.u32 %r5, %ntid.x;\n  mad.lo.u32 %r2, %r4, %r5, %r2;\n"
         "  cvt.rn.f32.u32 %f0, %r2;\n";
  for (int c = 1; c < kChains; ++c)
    ptx << "  add.f32 %f" << c << ", %f0, 0f3F800000;\n";
  ptx << "  mov.u32 %r3, 0;\n$L_body:\n";
  for (int u = 0; u < kUnroll; ++u)
    for (int c = 0; c < kChains; ++c)
      // x = x * 0.999999 + 1e-7: stays finite for any number of steps.
      ptx << "  fma.rn.f32 %f" << c << ", %f" << c
          << ", %k0, %k1;\n";
  ptx << "  add.u32 %r3, %r3, 1;\n  setp.lt.u32 %p, %r3, %r1;\n"
         "  @%p bra $L_body;\n  mov.f32 %f"
      << kChains << ", %f0;\n";
  for (int c = 1; c < kChains; ++c)
    ptx << "  add.f32 %f" << kChains << ", %f" << kChains << ", %f" << c
        << ";\n";
  ptx << "  cvta.to.global.u64 %rd2, %rd1;\n"
         "  mul.wide.u32 %rd3, %r2, 4;\n  add.u64 %rd2, %rd2, %rd3;\n"
         "  st.global.f32 [%rd2], %f"
      << kChains << ";\n  ret;\n}\n";
  return ptx.str();
}

/// The fastest of a warm-up and five timed runs of `work`, in ms.
template <typename Work>
float timeBest(const GPUDriver &gpu, void *stream, Work work) {
  void *start = nullptr, *stop = nullptr;
  gpu.cuEventCreate(&start, 0);
  gpu.cuEventCreate(&stop, 0);
  float best = 0;
  for (int run = 0; run < 6; ++run) {
    gpu.cuEventRecord(start, stream);
    work();
    gpu.cuEventRecord(stop, stream);
    gpu.cuEventSynchronize(stop);
    float ms = 0;
    gpu.cuEventElapsedTime(&ms, start, stop);
    if (run > 0 && (best == 0 || ms < best))
      best = ms;
  }
  gpu.cuEventDestroy(start);
  gpu.cuEventDestroy(stop);
  return best;
}
} // namespace

GPUPeaks ke::runtime::measureGPUPeaks() {
  GPUPeaks peaks;
  const GPUDriver *gpu = getGPUDriver(&peaks.error);
  if (!gpu)
    return peaks;
  char name[256] = {0};
  gpu->cuDeviceGetName(name, sizeof(name), 0);
  peaks.device = name;
  GPUTimingLock lock;

  CUdeviceptr source = 0, destination = 0;
  if (int status = gpu->cuMemAlloc(&source, kCopyBytes)) {
    peaks.error = "bandwidth: cuMemAlloc: " + describeGPUError(status);
    return peaks;
  }
  if (int status = gpu->cuMemAlloc(&destination, kCopyBytes)) {
    gpu->cuMemFree(source);
    peaks.error = "bandwidth: cuMemAlloc: " + describeGPUError(status);
    return peaks;
  }
  gpu->cuMemsetD8(source, 1, kCopyBytes);
  gpu->cuCtxSynchronize();
  // cuMemcpy runs on the legacy default stream: events there time it.
  float copyMs = timeBest(*gpu, nullptr, [&] {
    gpu->cuMemcpy(destination, source, kCopyBytes);
  });
  gpu->cuMemFree(source);
  gpu->cuMemFree(destination);
  if (copyMs > 0)
    peaks.gbps = 2.0 * double(kCopyBytes) / (double(copyMs) * 1e6);

  if (gpu->vendor != GPUVendor::NVIDIA) {
    peaks.error = "the FMA peak is measured on NVIDIA GPUs only";
    return peaks;
  }
  std::string ptx = getFmaLoopPTX();
  void *module = nullptr, *function = nullptr;
  if (int status = gpu->cuModuleLoadData(&module, ptx.c_str())) {
    peaks.error = "FMA loop: " + describeGPUError(status);
    return peaks;
  }
  gpu->cuModuleGetFunction(&function, module, "ke_fma_peak");
  CUdeviceptr out = 0;
  gpu->cuMemAlloc(&out, size_t(kBlocks) * kThreads * sizeof(float));
  unsigned iterations = kIterations;
  void *params[] = {&out, &iterations};
  int launchStatus = 0;
  float fmaMs = timeBest(*gpu, nullptr, [&] {
    if (int status = gpu->cuLaunchKernel(function, kBlocks, 1, 1, kThreads,
                                         1, 1, 0, nullptr, params, nullptr))
      launchStatus = status;
  });
  gpu->cuCtxSynchronize();
  gpu->cuMemFree(out);
  gpu->cuModuleUnload(module);
  if (launchStatus) {
    peaks.error = "FMA loop: " + describeGPUError(launchStatus);
    return peaks;
  }
  double flops = 2.0 * kChains * kUnroll * double(kIterations) * kBlocks *
                 kThreads;
  if (fmaMs > 0)
    peaks.gflops = flops / (double(fmaMs) * 1e6);
  return peaks;
}
