//===- CudaDriver.cpp - the CUDA driver API, loaded at run time -----------===//

#include "ke/Runtime/CudaDriver.h"

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

std::string ke::runtime::describeCudaError(int result) {
  const CudaDriver *driver = getCudaDriver();
  const char *text = nullptr;
  if (driver && driver->cuGetErrorString)
    driver->cuGetErrorString(result, &text);
  return "CUDA error " + std::to_string(result) + (text ? ": " : "") +
         (text ? text : "");
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

const CudaDriver *ke::runtime::getCudaDriver(std::string *error) {
  static CudaDriver driver;
  static std::string failure;
  static bool ready = false;
  static std::once_flag once;
  std::call_once(once, [] {
    void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!library) {
      const char *why = dlerror();
      failure = std::string("cannot load the CUDA driver (libcuda.so.1): ") +
                (why ? why : "not found");
      return;
    }
    std::string missing;
    resolve(library, driver.cuInit, "cuInit", missing);
    resolve(library, driver.cuDeviceGet, "cuDeviceGet", missing);
    resolve(library, driver.cuDeviceGetName, "cuDeviceGetName", missing);
    resolve(library, driver.cuDevicePrimaryCtxRetain,
            "cuDevicePrimaryCtxRetain", missing);
    resolve(library, driver.cuCtxSetCurrent, "cuCtxSetCurrent", missing);
    resolve(library, driver.cuCtxSynchronize, "cuCtxSynchronize", missing);
    resolve(library, driver.cuModuleLoadData, "cuModuleLoadData", missing);
    resolve(library, driver.cuModuleLoadDataEx, "cuModuleLoadDataEx", missing);
    resolve(library, driver.cuModuleUnload, "cuModuleUnload", missing);
    resolve(library, driver.cuModuleGetFunction, "cuModuleGetFunction",
            missing);
    resolve(library, driver.cuModuleGetGlobal, "cuModuleGetGlobal_v2",
            missing);
    resolve(library, driver.cuLaunchKernel, "cuLaunchKernel", missing);
    resolve(library, driver.cuStreamCreate, "cuStreamCreate", missing);
    resolve(library, driver.cuStreamSynchronize, "cuStreamSynchronize",
            missing);
    resolve(library, driver.cuStreamDestroy, "cuStreamDestroy_v2", missing);
    resolve(library, driver.cuStreamWaitEvent, "cuStreamWaitEvent", missing);
    resolve(library, driver.cuEventCreate, "cuEventCreate", missing);
    resolve(library, driver.cuEventRecord, "cuEventRecord", missing);
    resolve(library, driver.cuEventSynchronize, "cuEventSynchronize", missing);
    resolve(library, driver.cuEventElapsedTime, "cuEventElapsedTime", missing);
    resolve(library, driver.cuEventDestroy, "cuEventDestroy_v2", missing);
    resolve(library, driver.cuMemAlloc, "cuMemAlloc_v2", missing);
    resolve(library, driver.cuMemFree, "cuMemFree_v2", missing);
    resolve(library, driver.cuMemcpyHtoD, "cuMemcpyHtoD_v2", missing);
    resolve(library, driver.cuMemcpyDtoH, "cuMemcpyDtoH_v2", missing);
    resolve(library, driver.cuMemcpy, "cuMemcpy", missing);
    resolve(library, driver.cuMemsetD8, "cuMemsetD8_v2", missing);
    resolve(library, driver.cuMemsetD32, "cuMemsetD32_v2", missing);
    resolve(library, driver.cuGetErrorString, "cuGetErrorString", missing);
    if (!missing.empty()) {
      failure = "the CUDA driver lacks " + missing;
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
      driver.cuGetErrorString(result, &text);
      failure = "no usable NVIDIA GPU (CUDA error " + std::to_string(result) +
                (text ? std::string(": ") + text : std::string()) + ")";
      return;
    }
    ready = true;
  });
  if (!ready && error)
    *error = failure;
  return ready ? &driver : nullptr;
}

void *ke::runtime::getKernelStream() {
  static void *stream = nullptr;
  static std::once_flag once;
  std::call_once(once, [] {
    const CudaDriver *driver = getCudaDriver();
    if (driver && driver->cuStreamCreate(&stream, /*CU_STREAM_NON_BLOCKING=*/1))
      stream = nullptr;
  });
  return stream;
}
