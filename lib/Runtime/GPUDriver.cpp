//===- GPUDriver.cpp - the CUDA driver API, loaded at run time -----------===//

#include "ke/Runtime/GPUDriver.h"

#include <dlfcn.h>
#include <mutex>

using namespace ke::runtime;

namespace {
std::mutex errorMutex;
std::string firstError;

template <typename T>
bool resolve(void *library, T &slot, const char *name, std::string &missing) {
  slot = reinterpret_cast<T>(dlsym(library, name));
  if (!slot)
    missing += std::string(missing.empty() ? "" : ", ") + name;
  return slot != nullptr;
}
} // namespace

std::string ke::runtime::describeGPUError(int result) {
  const GPUDriver *driver = getGPUDriver();
  const char *text = nullptr;
  if (driver && driver->cuGetErrorString)
    driver->cuGetErrorString(result, &text);
  else if (driver && driver->hipGetErrorString)
    text = driver->hipGetErrorString(result);
  return std::string(driver ? driver->api : "GPU") + " error " +
         std::to_string(result) + (text ? ": " : "") + (text ? text : "");
}

void ke::runtime::noteRuntimeError(const std::string &error) {
  std::lock_guard<std::mutex> lock(errorMutex);
  if (firstError.empty())
    firstError = error;
}

std::string ke::runtime::takeRuntimeError() {
  std::lock_guard<std::mutex> lock(errorMutex);
  std::string error;
  error.swap(firstError);
  return error;
}

namespace {
GPUVendor selectedVendor = GPUVendor::NVIDIA;

/// The entry points, by CUDA's name or by the name of HIP's function of the
/// same shape (hipDeviceptr_t is a pointer, the same 64 bits as
/// CUdeviceptr; flag values agree: non-blocking stream 1, event without
/// timing 2).
void resolveEntryPoints(void *library, GPUDriver &driver, GPUVendor vendor,
                        std::string &missing) {
  bool amd = vendor == GPUVendor::AMD;
  auto entry = [&](auto &slot, const char *cuda, const char *hip) {
    resolve(library, slot, amd ? hip : cuda, missing);
  };
  entry(driver.cuInit, "cuInit", "hipInit");
  entry(driver.cuDeviceGet, "cuDeviceGet", "hipDeviceGet");
  entry(driver.cuDeviceGetName, "cuDeviceGetName", "hipDeviceGetName");
  entry(driver.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain",
        "hipDevicePrimaryCtxRetain");
  entry(driver.cuCtxSetCurrent, "cuCtxSetCurrent", "hipCtxSetCurrent");
  entry(driver.cuCtxSynchronize, "cuCtxSynchronize", "hipDeviceSynchronize");
  entry(driver.cuModuleLoadData, "cuModuleLoadData", "hipModuleLoadData");
  entry(driver.cuModuleLoadDataEx, "cuModuleLoadDataEx", "hipModuleLoadDataEx");
  entry(driver.cuModuleUnload, "cuModuleUnload", "hipModuleUnload");
  entry(driver.cuModuleGetFunction, "cuModuleGetFunction",
        "hipModuleGetFunction");
  entry(driver.cuModuleGetGlobal, "cuModuleGetGlobal_v2", "hipModuleGetGlobal");
  entry(driver.cuLaunchKernel, "cuLaunchKernel", "hipModuleLaunchKernel");
  entry(driver.cuFuncSetAttribute, "cuFuncSetAttribute", "hipFuncSetAttribute");
  entry(driver.cuStreamCreate, "cuStreamCreate", "hipStreamCreateWithFlags");
  entry(driver.cuStreamSynchronize, "cuStreamSynchronize",
        "hipStreamSynchronize");
  entry(driver.cuStreamDestroy, "cuStreamDestroy_v2", "hipStreamDestroy");
  entry(driver.cuStreamWaitEvent, "cuStreamWaitEvent", "hipStreamWaitEvent");
  entry(driver.cuEventCreate, "cuEventCreate", "hipEventCreateWithFlags");
  entry(driver.cuEventRecord, "cuEventRecord", "hipEventRecord");
  entry(driver.cuEventSynchronize, "cuEventSynchronize", "hipEventSynchronize");
  entry(driver.cuEventElapsedTime, "cuEventElapsedTime", "hipEventElapsedTime");
  entry(driver.cuEventDestroy, "cuEventDestroy_v2", "hipEventDestroy");
  entry(driver.cuMemAlloc, "cuMemAlloc_v2", "hipMalloc");
  entry(driver.cuMemFree, "cuMemFree_v2", "hipFree");
  entry(driver.cuMemcpyHtoD, "cuMemcpyHtoD_v2", "hipMemcpyHtoD");
  entry(driver.cuMemcpyDtoH, "cuMemcpyDtoH_v2", "hipMemcpyDtoH");
  entry(driver.cuMemcpy, "cuMemcpy", "hipMemcpyDtoD");
  entry(driver.cuMemsetD8, "cuMemsetD8_v2", "hipMemsetD8");
  entry(driver.cuMemsetD32, "cuMemsetD32_v2", "hipMemsetD32");
  // Optional: drivers before CUDA 12 lack it, and only TMA kernels need it
  // (mgpuTensorMapEncodeTiledMemref says so when it is missing).
  if (!amd)
    driver.cuTensorMapEncodeTiled =
        reinterpret_cast<decltype(driver.cuTensorMapEncodeTiled)>(
            dlsym(library, "cuTensorMapEncodeTiled"));
  // The error strings differ in shape: one slot each.
  if (amd)
    resolve(library, driver.hipGetErrorString, "hipGetErrorString", missing);
  else
    resolve(library, driver.cuGetErrorString, "cuGetErrorString", missing);
  if (amd) {
    driver.vendor = GPUVendor::AMD;
    driver.api = "HIP";
    driver.timerNanosecondsPerTick = 10.0; // s_memrealtime: 100 MHz
  }
}

struct LoadedDriver {
  GPUDriver driver;
  std::string failure;
  bool ready = false;
  std::once_flag once;
};

void load(LoadedDriver &loaded, GPUVendor vendor) {
  GPUDriver &driver = loaded.driver;
  bool nvidia = vendor == GPUVendor::NVIDIA;
  // ROCm installs the library under /opt/rocm/lib, often off the search
  // path: try there too.
  // ROCm often ships only the versioned name.
  const char *names[] = {nvidia ? "libcuda.so.1" : "libamdhip64.so",
                         nvidia ? nullptr : "libamdhip64.so.6",
                         nvidia ? nullptr : "libamdhip64.so.7",
                         nvidia ? nullptr : "/opt/rocm/lib/libamdhip64.so"};
  void *library = nullptr;
  std::string why;
  for (const char *name : names) {
    if (!name || library)
      continue;
    library = dlopen(name, RTLD_NOW | RTLD_GLOBAL);
    if (!library && why.empty()) {
      const char *error = dlerror();
      why = error ? error : "not found";
    }
  }
  if (!library) {
    loaded.failure = nvidia ? "cannot load the CUDA driver (libcuda.so.1): "
                            : "cannot load the HIP runtime (libamdhip64.so): ";
    loaded.failure += why;
    return;
  }
  std::string missing;
  resolveEntryPoints(library, driver, vendor, missing);
  if (!missing.empty()) {
    loaded.failure =
        std::string("the ") + driver.api + " library lacks " + missing;
    return;
  }
  int device = 0;
  void *context = nullptr;
  int result = driver.cuInit(0);
  if (result == 0)
    result = driver.cuDeviceGet(&device, 0);
  if (result == 0)
    result = driver.cuDevicePrimaryCtxRetain(&context, device);
  if (result == 0)
    result = driver.cuCtxSetCurrent(context);
  if (result != 0) {
    const char *text = nullptr;
    if (driver.cuGetErrorString)
      driver.cuGetErrorString(result, &text);
    else if (driver.hipGetErrorString)
      text = driver.hipGetErrorString(result);
    loaded.failure =
        std::string(nvidia ? "no usable NVIDIA GPU (" : "no usable AMD GPU (") +
        driver.api + " error " + std::to_string(result) +
        (text ? std::string(": ") + text : std::string()) + ")";
    return;
  }
  loaded.ready = true;
}
} // namespace

void ke::runtime::selectGPUVendor(GPUVendor vendor) { selectedVendor = vendor; }

GPUVendor ke::runtime::getSelectedGPUVendor() { return selectedVendor; }

const GPUDriver *ke::runtime::getGPUDriver(std::string *error) {
  static LoadedDriver drivers[2];
  LoadedDriver &loaded = drivers[selectedVendor == GPUVendor::AMD ? 1 : 0];
  GPUVendor vendor = selectedVendor;
  std::call_once(loaded.once, [&] { load(loaded, vendor); });
  if (!loaded.ready && error)
    *error = loaded.failure;
  return loaded.ready ? &loaded.driver : nullptr;
}

void *ke::runtime::getKernelStream() {
  // One per vendor, made by the first call that needs it.
  static void *streams[2] = {nullptr, nullptr};
  static std::once_flag once[2];
  int index = getSelectedGPUVendor() == GPUVendor::AMD ? 1 : 0;
  std::call_once(once[index], [index] {
    const GPUDriver *driver = getGPUDriver();
    if (driver && driver->cuStreamCreate(&streams[index], /*non-blocking=*/1))
      streams[index] = nullptr;
  });
  return streams[index];
}
