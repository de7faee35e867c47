//===- MLIRGPURuntime.cpp - MLIR's GPU runtime API on CUDA or HIP ---------===//
//
// The functions code lowered by gpu-to-llvm calls (module loading, kernel
// launches, streams, events, memory) on the selected vendor's driver
// (GPUDriver.h: HIP fills the CUDA driver API's slots), and the hooks of
// finalize-memref-to-llvm{use-generic-functions}, which ke serves with
// device memory so kernels can read host-side temporaries. Errors cannot
// be returned through these signatures: the first one is kept and the
// runner reports it after the call.
//
//===----------------------------------------------------------------------===//

#include "ke/Runtime/CallEndMarker.h"
#include "ke/Runtime/GPUDriver.h"
#include "ke/Runtime/TiledTensorMap.h"

#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

using namespace ke::runtime;

static std::atomic<uint64_t> launchCount{0};

uint64_t ke::runtime::getLaunchCount() {
  return launchCount.load(std::memory_order_relaxed);
}

namespace {
/// markCallEnds' state, shared by the timing loop and the generated code's
/// waits.
struct CallEnd {
  std::mutex mutex;
  CallEndMarker marker;
};
CallEnd &callEnd() {
  static CallEnd end;
  return end;
}
} // namespace

void ke::runtime::markCallEnds(void *event) {
  CallEnd &end = callEnd();
  std::lock_guard<std::mutex> lock(end.mutex);
  end.marker.begin(event);
}

bool ke::runtime::callEndMarked() {
  CallEnd &end = callEnd();
  std::lock_guard<std::mutex> lock(end.mutex);
  return end.marker.endsCall(getLaunchCount());
}

#define KE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {
const GPUDriver *driver() { return getGPUDriver(); }

/// Kernel names and modules by function handle, and the launches being
/// profiled.
struct LaunchProfile {
  std::mutex mutex;
  bool on = false;
  struct Kernel {
    std::string name;
    void *module = nullptr;
    /// The kernel's __ke_timer_<name> words (ke-time-gpu-kernels), 0 when
    /// it has none; looked up on the first profiled launch.
    CUdeviceptr timer = 0;
    bool lookedUp = false;
  };
  std::unordered_map<void *, Kernel> kernels;
  /// The ke.probe region the host code is in (ke_gpu_probe_start/stop).
  int region = -1;
  struct Pending {
    std::string kernel;
    void *start = nullptr, *stop = nullptr;
    double deviceNs = -1;
    int region = -1;
  };
  std::vector<Pending> pending;
};
LaunchProfile &launchProfile() {
  static LaunchProfile profile;
  return profile;
}

bool check(int result, const char *what) {
  if (result == 0)
    return true;
  noteRuntimeError(std::string(what) + ": " + describeGPUError(result));
  return false;
}
} // namespace

KE_EXPORT void *mgpuModuleLoadJIT(void *data, int optLevel) {
  if (!driver())
    return nullptr;
  void *module = nullptr;
  char log[8192] = {0};
  // CU_JIT_ERROR_LOG_BUFFER, _SIZE_BYTES, CU_JIT_OPTIMIZATION_LEVEL.
  int options[] = {5, 6, 7};
  void *values[] = {log, reinterpret_cast<void *>(sizeof(log)),
                    reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  int result = driver()->cuModuleLoadDataEx(&module, data, 3, options, values);
  if (result != 0)
    noteRuntimeError("loading the PTX: " + describeGPUError(result) + ": " +
                     log);
  return module;
}

KE_EXPORT void *mgpuModuleLoad(void *data, size_t) {
  if (!driver())
    return nullptr;
  void *module = nullptr;
  check(driver()->cuModuleLoadData(&module, data), "loading the cubin");
  return module;
}

KE_EXPORT void mgpuModuleUnload(void *module) {
  if (driver() && module)
    check(driver()->cuModuleUnload(module), "cuModuleUnload");
}

KE_EXPORT void *mgpuModuleGetFunction(void *module, const char *name) {
  if (!driver() || !module) {
    noteRuntimeError(std::string("no module for kernel ") + name);
    return nullptr;
  }
  void *function = nullptr;
  if (check(driver()->cuModuleGetFunction(&function, module, name),
            "cuModuleGetFunction")) {
    LaunchProfile &profile = launchProfile();
    std::lock_guard<std::mutex> lock(profile.mutex);
    LaunchProfile::Kernel &kernel = profile.kernels[function];
    kernel = LaunchProfile::Kernel(); // a handle reused after an unload
    kernel.name = name;
    kernel.module = module;
  }
  return function;
}

KE_EXPORT void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                                intptr_t gridZ, intptr_t blockX,
                                intptr_t blockY, intptr_t blockZ,
                                int32_t sharedBytes, void *stream,
                                void **params, void **extra, size_t) {
  if (!driver() || !function)
    return;
  launchCount.fetch_add(1, std::memory_order_relaxed);
  // Past 48 KB a kernel must opt in to its dynamic shared memory
  // (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES).
  constexpr int32_t kDefaultSharedLimit = 48 * 1024;
  constexpr int kMaxDynamicSharedSizeBytes = 8;
  if (sharedBytes > kDefaultSharedLimit)
    check(driver()->cuFuncSetAttribute(function, kMaxDynamicSharedSizeBytes,
                                       sharedBytes),
          "cuFuncSetAttribute");
  LaunchProfile &profile = launchProfile();
  std::unique_lock<std::mutex> lock(profile.mutex);
  if (!profile.on) {
    check(driver()->cuLaunchKernel(function, gridX, gridY, gridZ, blockX,
                                   blockY, blockZ, sharedBytes, stream, params,
                                   extra),
          "cuLaunchKernel");
    return;
  }
  LaunchProfile::Kernel &kernel = profile.kernels[function];
  LaunchProfile::Pending timed;
  timed.kernel = kernel.name;
  timed.region = profile.region;
  if (!kernel.lookedUp) {
    kernel.lookedUp = true;
    size_t bytes = 0;
    if (driver()->cuModuleGetGlobal(&kernel.timer, &bytes, kernel.module,
                                    ("__ke_timer_" + kernel.name).c_str()) ||
        bytes != 2 * sizeof(uint64_t))
      kernel.timer = 0;
  }
  // The timer words are reset and read around the launch alone: profiling
  // serializes the call, which the per-launch events need anyway.
  const uint64_t reset[2] = {~uint64_t(0), 0};
  if (kernel.timer) {
    check(driver()->cuStreamSynchronize(stream), "cuStreamSynchronize");
    check(driver()->cuMemcpyHtoD(kernel.timer, reset, sizeof(reset)),
          "resetting the kernel's timer");
    // A copy from pageable memory may return before it lands, on a stream
    // the kernel's non-blocking stream does not wait for.
    check(driver()->cuCtxSynchronize(), "cuCtxSynchronize");
  }
  driver()->cuEventCreate(&timed.start, 0);
  driver()->cuEventCreate(&timed.stop, 0);
  driver()->cuEventRecord(timed.start, stream);
  check(driver()->cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY,
                                 blockZ, sharedBytes, stream, params, extra),
        "cuLaunchKernel");
  driver()->cuEventRecord(timed.stop, stream);
  if (kernel.timer) {
    uint64_t span[2] = {0, 0};
    check(driver()->cuStreamSynchronize(stream), "cuStreamSynchronize");
    check(driver()->cuMemcpyDtoH(span, kernel.timer, sizeof(span)),
          "reading the kernel's timer");
    if (span[1] >= span[0] && span[0] != ~uint64_t(0))
      timed.deviceNs =
          double(span[1] - span[0]) * driver()->timerNanosecondsPerTick;
  }
  profile.pending.push_back(timed);
}

// The host side of ke.probe regions on the GPU (ke-lower-probes
// {runtime=gpu}): kernels launched between start and stop belong to the
// region; their time is measured on the device.
KE_EXPORT void ke_gpu_probe_start(int64_t id) {
  LaunchProfile &profile = launchProfile();
  std::lock_guard<std::mutex> lock(profile.mutex);
  profile.region = int(id);
}

KE_EXPORT void ke_gpu_probe_stop(int64_t) {
  LaunchProfile &profile = launchProfile();
  std::lock_guard<std::mutex> lock(profile.mutex);
  profile.region = -1;
}

KE_EXPORT void *mgpuStreamCreate() { return getKernelStream(); }

KE_EXPORT void mgpuStreamSynchronize(void *stream) {
  if (!driver())
    return;
  {
    // The call's work on the stream ends here (see markCallEnds).
    CallEnd &end = callEnd();
    std::lock_guard<std::mutex> lock(end.mutex);
    if (void *event = end.marker.eventAtWait())
      if (check(driver()->cuEventRecord(event, stream), "cuEventRecord"))
        end.marker.recorded(getLaunchCount());
  }
  check(driver()->cuStreamSynchronize(stream), "cuStreamSynchronize");
}

// The stream is ke's, reused by every call: not destroyed.
KE_EXPORT void mgpuStreamDestroy(void *) {}

KE_EXPORT void mgpuStreamWaitEvent(void *stream, void *event) {
  if (driver())
    check(driver()->cuStreamWaitEvent(stream, event, 0), "cuStreamWaitEvent");
}

KE_EXPORT void *mgpuEventCreate() {
  void *event = nullptr;
  if (driver())
    check(driver()->cuEventCreate(&event, /*CU_EVENT_DISABLE_TIMING=*/2),
          "cuEventCreate");
  return event;
}

KE_EXPORT void mgpuEventDestroy(void *event) {
  if (driver())
    check(driver()->cuEventDestroy(event), "cuEventDestroy");
}

KE_EXPORT void mgpuEventSynchronize(void *event) {
  if (driver())
    check(driver()->cuEventSynchronize(event), "cuEventSynchronize");
}

KE_EXPORT void mgpuEventRecord(void *event, void *stream) {
  if (driver())
    check(driver()->cuEventRecord(event, stream), "cuEventRecord");
}

KE_EXPORT void *mgpuMemAlloc(uint64_t bytes, void *, bool) {
  CUdeviceptr pointer = 0;
  if (driver() && bytes)
    check(driver()->cuMemAlloc(&pointer, bytes), "cuMemAlloc");
  return reinterpret_cast<void *>(pointer);
}

KE_EXPORT void mgpuMemFree(void *pointer, void *) {
  if (driver() && pointer)
    check(driver()->cuMemFree(reinterpret_cast<CUdeviceptr>(pointer)),
          "cuMemFree");
}

KE_EXPORT void mgpuMemcpy(void *destination, void *source, size_t bytes,
                          void *) {
  if (driver())
    check(driver()->cuMemcpy(reinterpret_cast<CUdeviceptr>(destination),
                             reinterpret_cast<CUdeviceptr>(source), bytes),
          "cuMemcpy");
}

KE_EXPORT void mgpuMemset32(void *destination, unsigned value, size_t count,
                            void *) {
  if (driver())
    check(driver()->cuMemsetD32(reinterpret_cast<CUdeviceptr>(destination),
                                value, count),
          "cuMemsetD32");
}

KE_EXPORT void mgpuSetDefaultDevice(int32_t) {}

// nvgpu.tma.create.descriptor's host call: the CUDA driver's tensor map of
// the ranked memref `descriptor` points to, in boxes of `box` elements
// (outermost first), placed in device memory where the kernels read it.
// Maps are kept by their contents: a timed call makes the same ones on
// every run, and a launch may still read the last one.
namespace {
struct TensorMapCache {
  std::mutex mutex;
  std::map<std::vector<uint64_t>, CUdeviceptr> maps;
};
TensorMapCache &tensorMaps() {
  static TensorMapCache cache;
  return cache;
}
} // namespace

KE_EXPORT void *mgpuTensorMapEncodeTiledMemref(int64_t rank, void *descriptor,
                                               int64_t dataType,
                                               int64_t interleave,
                                               int64_t swizzle,
                                               int64_t l2Promotion,
                                               int64_t oobFill,
                                               int64_t *box) {
  std::string error;
  std::optional<TiledTensorMap> tiled =
      describeTiledTensorMap(rank, descriptor, dataType, box, error);
  if (!tiled) {
    noteRuntimeError("mgpuTensorMapEncodeTiledMemref: " + error);
    return nullptr;
  }
  const GPUDriver *gpu = driver();
  if (!gpu || !gpu->cuTensorMapEncodeTiled) {
    noteRuntimeError("TMA tensor maps need the CUDA 12 driver");
    return nullptr;
  }
  std::vector<uint64_t> key = tiled->getKey(int(interleave), int(swizzle),
                                            int(l2Promotion), int(oobFill));
  TensorMapCache &cache = tensorMaps();
  std::lock_guard<std::mutex> lock(cache.mutex);
  if (auto found = cache.maps.find(key); found != cache.maps.end())
    return reinterpret_cast<void *>(found->second);
  // CUtensorMap: 128 opaque bytes, 64-byte aligned.
  struct alignas(64) TensorMap {
    uint64_t opaque[16];
  } map;
  if (!check(gpu->cuTensorMapEncodeTiled(
                 &map, tiled->dataType, tiled->rank, tiled->address,
                 tiled->sizes, tiled->strides, tiled->box,
                 tiled->elementStrides, int(interleave), int(swizzle),
                 int(l2Promotion), int(oobFill)),
             "cuTensorMapEncodeTiled"))
    return nullptr;
  CUdeviceptr onDevice = 0;
  if (!check(gpu->cuMemAlloc(&onDevice, sizeof(map)), "cuMemAlloc") ||
      !check(gpu->cuMemcpyHtoD(onDevice, &map, sizeof(map)), "cuMemcpyHtoD"))
    return nullptr;
  cache.maps.emplace(std::move(key), onDevice);
  return reinterpret_cast<void *>(onDevice);
}

// Host-side temporaries of the lowered code live on the device: only
// kernels touch them. Every call allocates and frees them again, and
// cuMemFree waits for the whole device (softmax spent 200 of 236 us in
// it), so freed blocks are kept for the next allocation of the same size,
// as PyTorch's caching allocator does. Reuse is safe because every call's
// kernels run in order on ke's one stream.
namespace {
struct TemporaryCache {
  std::mutex mutex;
  std::unordered_map<void *, size_t> live;
  std::unordered_multimap<size_t, void *> free;
};
TemporaryCache &temporaries() {
  static TemporaryCache cache;
  return cache;
}
} // namespace

KE_EXPORT void *_mlir_memref_to_llvm_alloc(size_t bytes) {
  TemporaryCache &cache = temporaries();
  std::lock_guard<std::mutex> lock(cache.mutex);
  void *pointer = nullptr;
  auto reusable = cache.free.find(bytes);
  if (reusable != cache.free.end()) {
    pointer = reusable->second;
    cache.free.erase(reusable);
  } else {
    pointer = mgpuMemAlloc(bytes, nullptr, false);
  }
  if (pointer)
    cache.live[pointer] = bytes;
  return pointer;
}

KE_EXPORT void *_mlir_memref_to_llvm_aligned_alloc(size_t, size_t bytes) {
  return _mlir_memref_to_llvm_alloc(bytes); // 256-byte aligned already
}

KE_EXPORT void _mlir_memref_to_llvm_free(void *pointer) {
  TemporaryCache &cache = temporaries();
  std::lock_guard<std::mutex> lock(cache.mutex);
  auto live = cache.live.find(pointer);
  if (live == cache.live.end()) {
    mgpuMemFree(pointer, nullptr);
    return;
  }
  cache.free.emplace(live->second, pointer);
  cache.live.erase(live);
}

void ke::runtime::releaseCachedTemporaries() {
  TemporaryCache &cache = temporaries();
  std::lock_guard<std::mutex> lock(cache.mutex);
  for (auto &[bytes, pointer] : cache.free)
    mgpuMemFree(pointer, nullptr);
  cache.free.clear();
}

void ke::runtime::setLaunchProfiling(bool on) {
  LaunchProfile &profile = launchProfile();
  std::lock_guard<std::mutex> lock(profile.mutex);
  profile.on = on;
}

std::vector<LaunchTime> ke::runtime::takeLaunchProfile() {
  LaunchProfile &profile = launchProfile();
  std::lock_guard<std::mutex> lock(profile.mutex);
  std::vector<LaunchTime> times;
  for (LaunchProfile::Pending &launch : profile.pending) {
    float ms = 0;
    if (driver() && launch.stop) {
      driver()->cuEventSynchronize(launch.stop);
      driver()->cuEventElapsedTime(&ms, launch.start, launch.stop);
      driver()->cuEventDestroy(launch.start);
      driver()->cuEventDestroy(launch.stop);
    }
    times.push_back(
        {launch.kernel, double(ms) * 1e6, launch.deviceNs, launch.region});
  }
  profile.pending.clear();
  return times;
}
