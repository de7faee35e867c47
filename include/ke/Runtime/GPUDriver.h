//===- GPUDriver.h - the CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// ke builds and runs without CUDA: libcuda.so.1 is opened with dlopen the
// first time a GPU is asked for. Plain C++ (no LLVM), so that the GPU
// runner can be built on a GPU machine that has a compiler and nothing else.
//
//===----------------------------------------------------------------------===//

#ifndef KE_RUNTIME_CUDADRIVER_H
#define KE_RUNTIME_CUDADRIVER_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ke::runtime {

using CUdeviceptr = unsigned long long;

enum class GPUVendor { NVIDIA, AMD };

/// Entry points by their CUDA driver names; for AMD, the HIP function of
/// the same shape (cuLaunchKernel = hipModuleLaunchKernel, cuMemAlloc =
/// hipMalloc, cuCtxSynchronize = hipDeviceSynchronize, ...).
struct GPUDriver {
  GPUVendor vendor = GPUVendor::NVIDIA;
  /// "CUDA" or "HIP", for messages.
  const char *api = "CUDA";
  /// Nanoseconds per tick of the timer ke-time-gpu-kernels reads
  /// (%globaltimer counts ns; AMD's s_memrealtime runs at 100 MHz).
  double timerNanosecondsPerTick = 1.0;
  int (*cuInit)(unsigned);
  int (*cuDeviceGet)(int *, int);
  int (*cuDeviceGetName)(char *, int, int);
  int (*cuDevicePrimaryCtxRetain)(void **, int);
  int (*cuCtxSetCurrent)(void *);
  int (*cuCtxSynchronize)();
  int (*cuModuleLoadData)(void **, const void *);
  int (*cuModuleLoadDataEx)(void **, const void *, unsigned, int *, void **);
  int (*cuModuleUnload)(void *);
  int (*cuModuleGetFunction)(void **, void *, const char *);
  int (*cuModuleGetGlobal)(CUdeviceptr *, size_t *, void *, const char *);
  /// Kernels opt in to more than 48 KB of dynamic shared memory.
  int (*cuFuncSetAttribute)(void *, int, int);
  int (*cuLaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned,
                        unsigned, unsigned, unsigned, void *, void **, void **);
  int (*cuStreamCreate)(void **, unsigned);
  int (*cuStreamSynchronize)(void *);
  int (*cuStreamDestroy)(void *);
  int (*cuStreamWaitEvent)(void *, void *, unsigned);
  int (*cuEventCreate)(void **, unsigned);
  int (*cuEventRecord)(void *, void *);
  int (*cuEventSynchronize)(void *);
  int (*cuEventElapsedTime)(float *, void *, void *);
  int (*cuEventDestroy)(void *);
  int (*cuMemAlloc)(CUdeviceptr *, size_t);
  int (*cuMemFree)(CUdeviceptr);
  int (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  int (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  int (*cuMemcpy)(CUdeviceptr, CUdeviceptr, size_t);
  int (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t);
  int (*cuMemsetD32)(CUdeviceptr, unsigned, size_t);
  /// TMA tensor maps (nvgpu.tma.create.descriptor); NVIDIA only (CUDA 12),
  /// null elsewhere.
  int (*cuTensorMapEncodeTiled)(void *, int, unsigned, void *,
                                const uint64_t *, const uint64_t *,
                                const unsigned *, const unsigned *, int, int,
                                int, int) = nullptr;
  int (*cuGetErrorString)(int, const char **) = nullptr;
  const char *(*hipGetErrorString)(int) = nullptr; ///< AMD only
};

/// Which vendor's driver getGPUDriver loads (NVIDIA unless changed; call
/// before the first GPU use: kernels of one process run on one vendor).
void selectGPUVendor(GPUVendor vendor);
GPUVendor getSelectedGPUVendor();

/// The selected vendor's driver with a current context on device 0, or
/// null with `error` saying why (no libcuda.so.1 / libamdhip64.so, no
/// device, ...). Initialized once per vendor.
const GPUDriver *getGPUDriver(std::string *error = nullptr);

/// "CUDA error N: message" (or HIP) for a driver result.
std::string describeGPUError(int result);

/// The first error a runtime call hit since the last take (the mgpu*
/// functions cannot return errors), or empty.
std::string takeRuntimeError();
void noteRuntimeError(const std::string &error);

/// The one stream every kernel call runs on (MLIR's mgpuStreamCreate
/// returns it), so that events recorded on it time the call.
void *getKernelStream();

/// Kernel launches of this process so far (mgpuLaunchKernel calls).
uint64_t getLaunchCount();

/// While `event` is set, the runtime records it on the stream the
/// generated code is about to wait for (mgpuStreamSynchronize), so that it
/// marks the end of the call's GPU work rather than the host's return from
/// the wait. Null turns it off. Each set starts a new call.
void markCallEnds(void *event);

/// Whether, since markCallEnds, the event was recorded at a wait after
/// which nothing more was launched (so it ends the call's GPU work).
bool callEndMarked();

/// One kernel launch timed while launch profiling was on.
struct LaunchTime {
  std::string kernel;
  /// CUDA events around the launch on its stream.
  double ns = 0;
  /// The kernel's span read from the device's global timer by its blocks
  /// (first block's start to last block's end), or -1 where the kernel
  /// was not built with timers (ke-time-gpu-kernels).
  double deviceNs = -1;
  /// The ke.probe region the host was in when it launched the kernel, or
  /// -1 outside every region.
  int region = -1;
};
/// Times every kernel launch with CUDA events on its stream while on
/// (the per-kernel profile of a GPU call).
void setLaunchProfiling(bool on);
/// The launches timed since the last take (waits for them to finish).
std::vector<LaunchTime> takeLaunchProfile();

/// Test hook: launches a kernel that stores to an address no allocation
/// holds (an illegal-address fault, reported at the next synchronization).
/// Returns why it could not, or empty.
std::string injectDeviceFault();

/// Frees the device blocks kept for reuse by the temporaries' allocator
/// (call between kernels; what is still in use stays).
void releaseCachedTemporaries();

} // namespace ke::runtime

#endif // KE_RUNTIME_GPUDRIVER_H
