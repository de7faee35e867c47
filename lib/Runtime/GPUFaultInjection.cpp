//===- GPUFaultInjection.cpp - a device fault on purpose, for tests -------===//
//
// Containment on the GPU is tested with a real fault: one thread stores to
// an address no allocation holds, as a miscompiled candidate would. The
// CUDA context is then unusable, which is what the search must survive.
//
//===----------------------------------------------------------------------===//

#include "ke/Runtime/GPUDriver.h"

using namespace ke::runtime;

std::string ke::runtime::injectDeviceFault() {
  std::string problem;
  const GPUDriver *gpu = getGPUDriver(&problem);
  if (!gpu)
    return problem;
  if (gpu->vendor != GPUVendor::NVIDIA)
    return "fault injection is PTX: NVIDIA only";
  static const char *ptx = ".version 7.0\n.target sm_70\n.address_size 64\n"
                           ".visible .entry ke_wild_store()\n{\n"
                           "  .reg .b64 %rd<2>;\n  .reg .f32 %f<1>;\n"
                           "  mov.u64 %rd1, 8;\n  mov.f32 %f0, 0f3F800000;\n"
                           "  st.global.f32 [%rd1], %f0;\n  ret;\n}\n";
  void *module = nullptr, *function = nullptr;
  if (int status = gpu->cuModuleLoadData(&module, ptx))
    return describeGPUError(status);
  if (int status = gpu->cuModuleGetFunction(&function, module, "ke_wild_store"))
    return describeGPUError(status);
  if (int status = gpu->cuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0,
                                       getKernelStream(), nullptr, nullptr))
    return describeGPUError(status);
  return "";
}
