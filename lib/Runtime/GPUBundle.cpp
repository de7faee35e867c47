//===- GPUBundle.cpp - a compiled GPU kernel that travels -----------------===//

#include "ke/Runtime/GPUBundle.h"
#include "ke/Runtime/GPUTimingLock.h"
#include "ke/Target/TargetInfo.h"
#include "ke/Runtime/GPUDriver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <map>
#include <sstream>


/// Whether `name` is the registry's target of `kind`.
/// Bounds on what a manifest may describe (ke writes at most rank 8 and
/// tensors far below 2^40 elements).
static constexpr size_t kMaxBundleRank = 16;
static constexpr int64_t kMaxBundleElements = int64_t(1) << 40;

static bool isTargetKind(const std::string &name, ke::TargetKind kind) {
  const ke::TargetInfo *info = ke::lookupTarget(name);
  return info && info->kind == kind;
}
using namespace ke::runtime;

int64_t BundleTensor::getNumElements() const {
  int64_t count = 1;
  for (int64_t extent : shape)
    count *= extent;
  return count;
}

int64_t BundleTensor::getElementBytes() const {
  if (kind == "f64" || kind == "i64")
    return 8;
  if (kind == "f32" || kind == "i32")
    return 4;
  if (kind == "i16" || kind == "f16" || kind == "bf16")
    return 2;
  return 1;
}

std::string BundleManifest::write() const {
  std::ostringstream os;
  os.precision(17);
  os << "ke-gpu-bundle 1\n";
  // Only where it is not the default, so runners older than the key still
  // read NVIDIA bundles.
  if (!isTargetKind(target, ke::TargetKind::NVGPU))
    os << "target " << target << "\n";
  os << "kernel " << kernel << "\ntolerance " << atol << " "
     << rtol << "\nseeds " << seeds << "\n";
  if (!data.empty())
    os << "data " << data << "\n";
  auto tensor = [&](const char *role, const BundleTensor &t) {
    os << role << " " << t.kind << " " << t.shape.size();
    for (int64_t extent : t.shape)
      os << " " << extent;
    os << "\n";
  };
  for (const BundleTensor &t : arguments)
    tensor("arg", t);
  for (const BundleTensor &t : results)
    tensor("result", t);
  for (size_t id = 0; id < regions.size(); ++id)
    if (!regions[id].empty())
      os << "region " << id << " " << regions[id] << "\n";
  return os.str();
}

BundleManifest BundleManifest::read(const std::string &text,
                                    std::string &error) {
  BundleManifest manifest;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::istringstream words(line);
    std::string key;
    words >> key;
    if (key.empty())
      continue;
    if (key == "ke-gpu-bundle") {
      int version = 0;
      words >> version;
      if (version != 1) {
        error = "unsupported bundle version";
        return manifest;
      }
    } else if (key == "target") {
      words >> manifest.target;
      const ke::TargetInfo *info = ke::lookupTarget(manifest.target);
      if (!info || !info->isGPU()) {
        error = "line " + std::to_string(number) + ": unknown target '" +
                manifest.target + "' (nvgpu or amdgpu)";
        return manifest;
      }
    } else if (key == "kernel") {
      words >> manifest.kernel;
    } else if (key == "tolerance") {
      words >> manifest.atol >> manifest.rtol;
    } else if (key == "seeds") {
      words >> manifest.seeds;
    } else if (key == "data") {
      words >> manifest.data;
    } else if (key == "region") {
      size_t id = 0;
      std::string name;
      words >> id >> name;
      if (!words.fail() && id < 4096) {
        if (manifest.regions.size() <= id)
          manifest.regions.resize(id + 1);
        manifest.regions[id] = name;
      }
    } else if (key == "arg" || key == "result") {
      BundleTensor tensor;
      size_t rank = 0;
      words >> tensor.kind >> rank;
      // A manifest is read from disk: its sizes are checked before use.
      if (words.fail() || rank > kMaxBundleRank) {
        error = "line " + std::to_string(number) + ": a tensor of rank " +
                std::to_string(rank) + " (at most " +
                std::to_string(kMaxBundleRank) + ")";
        return manifest;
      }
      tensor.shape.resize(rank);
      int64_t elements = 1;
      for (int64_t &extent : tensor.shape) {
        words >> extent;
        if (words.fail() || extent < 0 ||
            (extent > 0 && elements > kMaxBundleElements / extent)) {
          error = "line " + std::to_string(number) +
                  ": a negative or too large extent";
          return manifest;
        }
        elements *= extent;
      }
      (key == "arg" ? manifest.arguments : manifest.results).push_back(tensor);
    } else {
      error = "line " + std::to_string(number) + ": unknown key '" + key + "'";
      return manifest;
    }
    if (words.fail()) {
      error = "line " + std::to_string(number) + ": malformed";
      return manifest;
    }
  }
  if (manifest.kernel.empty())
    error = "no kernel named";
  return manifest;
}

namespace {
std::string escape(const std::string &text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (static_cast<unsigned char>(c) < 0x20)
      continue;
    out += c;
  }
  return out;
}

bool readFile(const std::string &path, std::string &data) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  data = buffer.str();
  return true;
}

/// IEEE half to float: the runtime builds with g++ alone, without _Float16.
float halfToFloat(uint16_t bits) {
  uint32_t sign = uint32_t(bits >> 15) << 31, exponent = (bits >> 10) & 0x1f,
           mantissa = bits & 0x3ff;
  float magnitude;
  if (exponent == 0)
    magnitude = std::ldexp(float(mantissa), -24);
  else if (exponent == 31)
    magnitude = mantissa ? NAN : INFINITY;
  else
    magnitude = std::ldexp(float(mantissa | 0x400), int(exponent) - 25);
  return sign ? -magnitude : magnitude;
}

double elementAsDouble(const BundleTensor &t, const char *data, int64_t i) {
  if (t.kind == "bf16" || t.kind == "f16") {
    uint16_t bits;
    std::memcpy(&bits, data + 2 * i, 2);
    if (t.kind == "f16")
      return halfToFloat(bits);
    uint32_t widened = uint32_t(bits) << 16;
    float v;
    std::memcpy(&v, &widened, 4);
    return v;
  }
  if (t.kind == "f32") {
    float v;
    std::memcpy(&v, data + 4 * i, 4);
    return v;
  }
  if (t.kind == "f64") {
    double v;
    std::memcpy(&v, data + 8 * i, 8);
    return v;
  }
  if (t.kind == "i64") {
    int64_t v;
    std::memcpy(&v, data + 8 * i, 8);
    return double(v);
  }
  if (t.kind == "i32") {
    int32_t v;
    std::memcpy(&v, data + 4 * i, 4);
    return v;
  }
  if (t.kind == "i16") {
    int16_t v;
    std::memcpy(&v, data + 2 * i, 2);
    return v;
  }
  return static_cast<int8_t>(data[i]);
}

/// allclose with equal NaN/Inf positions for floats, equality for
/// integers (the rule ke-run applies on the CPU). Empty when they match.
std::string compare(const BundleTensor &t, const std::string &actual,
                    const std::string &expected, double atol, double rtol,
                    BundleResult &result) {
  bool isFloat = t.kind[0] == 'f';
  int64_t mismatches = 0, first = -1;
  double firstGot = 0, firstWant = 0;
  for (int64_t i = 0; i < t.getNumElements(); ++i) {
    double got = elementAsDouble(t, actual.data(), i);
    double want = elementAsDouble(t, expected.data(), i);
    bool ok;
    if (isFloat && (std::isnan(want) || std::isinf(want))) {
      ok = std::isnan(want) ? std::isnan(got) : got == want;
    } else if (isFloat) {
      double difference = std::fabs(got - want);
      ok = !std::isnan(got) && difference <= atol + rtol * std::fabs(want);
      result.maxAbsError = std::max(result.maxAbsError, difference);
      if (want != 0)
        result.maxRelError =
            std::max(result.maxRelError, difference / std::fabs(want));
    } else {
      ok = got == want;
    }
    if (!ok) {
      if (first < 0) {
        first = i;
        firstGot = got;
        firstWant = want;
      }
      ++mismatches;
    }
  }
  if (!mismatches)
    return "";
  std::ostringstream os;
  os << mismatches << " of " << t.getNumElements()
     << " elements mismatch; first: element " << first << ": got " << firstGot
     << ", expected " << firstWant;
  return os.str();
}

/// Calls a C-interface function whose parameters are all pointers.
bool callWithPointers(void *function, std::vector<void *> &a) {
  using P = void *;
  switch (a.size()) {
  case 1:
    reinterpret_cast<void (*)(P)>(function)(a[0]);
    return true;
  case 2:
    reinterpret_cast<void (*)(P, P)>(function)(a[0], a[1]);
    return true;
  case 3:
    reinterpret_cast<void (*)(P, P, P)>(function)(a[0], a[1], a[2]);
    return true;
  case 4:
    reinterpret_cast<void (*)(P, P, P, P)>(function)(a[0], a[1], a[2], a[3]);
    return true;
  case 5:
    reinterpret_cast<void (*)(P, P, P, P, P)>(function)(a[0], a[1], a[2], a[3],
                                                        a[4]);
    return true;
  case 6:
    reinterpret_cast<void (*)(P, P, P, P, P, P)>(function)(a[0], a[1], a[2],
                                                           a[3], a[4], a[5]);
    return true;
  case 7:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P)>(function)(
        a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
    return true;
  case 8:
    reinterpret_cast<void (*)(P, P, P, P, P, P, P, P)>(function)(
        a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
    return true;
  default:
    return false;
  }
}
} // namespace

std::vector<BundleResult::RegionTime> BundleResult::getRegionTimes() const {
  // By region id; launches outside every region (-1) come last.
  std::map<int, RegionTime> byId;
  bool timed = false;
  for (const LaunchTime &launch : profile)
    timed |= launch.deviceNs >= 0;
  if (!timed)
    return {};
  for (const LaunchTime &launch : profile) {
    RegionTime &region = byId[launch.region];
    ++region.launches;
    // A kernel the profiling build could not time (warned at compile
    // time) counts with its event time rather than vanishing.
    if (launch.deviceNs >= 0) {
      region.deviceNs += launch.deviceNs;
    } else {
      region.deviceNs += launch.ns;
      ++region.eventTimedLaunches;
    }
  }
  std::vector<RegionTime> regions;
  for (auto &[id, region] : byId) {
    if (id < 0)
      continue;
    region.name = size_t(id) < regionNames.size() && !regionNames[id].empty()
                      ? regionNames[id]
                      : "region " + std::to_string(id);
    regions.push_back(region);
  }
  if (byId.count(-1)) {
    regions.push_back(byId[-1]);
    regions.back().name = "(outside regions)";
  }
  return regions;
}

std::string BundleResult::toJSON() const {
  std::ostringstream os;
  os.precision(17);
  os << "{\"kernel\":\"" << escape(kernel) << "\",\"bundle\":\""
     << escape(bundle) << "\",\"target\":\"" << escape(target) << "\","
     << "\"device\":\"" << escape(device)
     << "\",\"correct\":" << (correct ? "true" : "false")
     << ",\"max_abs_err\":" << maxAbsError
     << ",\"max_rel_err\":" << maxRelError;
  if (runs > 0)
    os << ",\"time_ns\":{\"median\":" << medianNs << ",\"min\":" << minNs
       << ",\"runs\":" << runs << "}";
  else
    os << ",\"time_ns\":null";
  os << ",\"launches_per_call\":" << launchesPerCall
     << ",\"gpu_lock_wait_ms\":" << lockWaitMs;
  os << ",\"time_source\":\"" << (isTargetKind(target, ke::TargetKind::AMDGPU) ? "HIP" : "CUDA")
     << " events on the kernel's stream up to the end of the call's GPU "
        "work, L2 flushed before each run\"";
  if (!profile.empty()) {
    double total = 0;
    for (const LaunchTime &launch : profile)
      total += launch.ns;
    os << ",\"profile\":[";
    for (size_t i = 0; i < profile.size(); ++i) {
      const LaunchTime &launch = profile[i];
      os << (i ? "," : "") << "{\"launch\":" << i << ",\"kernel\":\""
         << escape(launch.kernel) << "\",\"ns\":" << launch.ns
         << ",\"share\":" << (total > 0 ? launch.ns / total : 0);
      if (launch.deviceNs >= 0)
        os << ",\"device_ns\":" << launch.deviceNs;
      if (launch.region >= 0)
        os << ",\"region\":" << launch.region;
      os << "}";
    }
    os << "]";
  }
  std::vector<RegionTime> regions = getRegionTimes();
  if (!regions.empty()) {
    double total = 0;
    for (const RegionTime &region : regions)
      total += region.deviceNs;
    os << ",\"regions\":[";
    for (size_t i = 0; i < regions.size(); ++i)
      os << (i ? "," : "") << "{\"region\":\"" << escape(regions[i].name)
         << "\",\"launches\":" << regions[i].launches
         << ",\"event_timed_launches\":" << regions[i].eventTimedLaunches
         << ",\"device_ns\":" << regions[i].deviceNs << ",\"share\":"
         << (total > 0 ? regions[i].deviceNs / total : 0) << "}";
    os << "],\"regions_time_source\":\"the device's global timer read by "
          "each kernel's blocks (first start to last end), summed per "
          "region\"";
  }
  if (!profileError.empty())
    os << ",\"profile_error\":\"" << escape(profileError) << "\"";
  os << ",\"error\":";
  if (error.empty())
    os << "null";
  else
    os << "\"" << escape(error) << "\"";
  os << "}";
  return os.str();
}

BundleResult ke::runtime::runBundle(const std::string &directory,
                                    double minSeconds, bool profile) {
  BundleResult result;
  result.bundle = directory.substr(directory.find_last_of('/') + 1);
  std::string text, problem;
  if (!readFile(directory + "/bundle.txt", text)) {
    result.error = "bundle: no bundle.txt in " + directory;
    return result;
  }
  BundleManifest manifest = BundleManifest::read(text, problem);
  result.kernel = manifest.kernel;
  result.target = manifest.target;
  if (!problem.empty()) {
    result.error = "bundle: " + problem;
    return result;
  }
  selectGPUVendor(isTargetKind(manifest.target, ke::TargetKind::AMDGPU)
                      ? GPUVendor::AMD
                      : GPUVendor::NVIDIA);
  const GPUDriver *cuda = getGPUDriver(&problem);
  if (!cuda) {
    result.error = "target: " + problem;
    return result;
  }
  char name[256] = {0};
  cuda->cuDeviceGetName(name, sizeof(name), 0);
  result.device = name;
  takeRuntimeError();

  // Loading runs the constructors that load the PTX (mgpuModuleLoadJIT).
  void *library =
      dlopen((directory + "/kernel.so").c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *why = dlerror();
    result.error = std::string("load: ") + (why ? why : "dlopen failed");
    return result;
  }
  std::string loadError = takeRuntimeError();
  if (!loadError.empty()) {
    result.error = "load: " + loadError;
    return result;
  }
  void *entry = dlsym(library, ("_mlir_ciface_" + manifest.kernel).c_str());
  if (!entry) {
    result.error = "load: no _mlir_ciface_" + manifest.kernel;
    return result;
  }

  // From here on the device is used: one ke process at a time, so that no
  // other candidate's check or timing runs beside this one's.
  GPUTimingLock deviceLock;
  result.lockWaitMs = deviceLock.getWaitedMilliseconds();

  // One device buffer per argument and result, described as memrefs.
  std::vector<BundleTensor> tensors = manifest.arguments;
  tensors.insert(tensors.end(), manifest.results.begin(),
                 manifest.results.end());
  std::vector<CUdeviceptr> buffers(tensors.size(), 0);
  std::vector<std::vector<int64_t>> descriptors(tensors.size());
  std::vector<void *> pointers;
  auto release = [&] {
    for (CUdeviceptr buffer : buffers)
      if (buffer)
        cuda->cuMemFree(buffer);
    releaseCachedTemporaries();
  };
  for (size_t i = 0; i < tensors.size(); ++i) {
    int result0 = cuda->cuMemAlloc(
        &buffers[i], std::max<int64_t>(1, tensors[i].getNumBytes()));
    if (result0) {
      result.error = "run: cuMemAlloc: " + describeGPUError(result0);
      release();
      return result;
    }
    std::vector<int64_t> &d = descriptors[i];
    d = {int64_t(buffers[i]), int64_t(buffers[i]), 0};
    for (int64_t extent : tensors[i].shape)
      d.push_back(extent);
    int64_t stride = 1;
    std::vector<int64_t> strides(tensors[i].shape.size());
    for (int64_t k = int64_t(strides.size()) - 1; k >= 0; --k) {
      strides[k] = stride;
      stride *= tensors[i].shape[k];
    }
    d.insert(d.end(), strides.begin(), strides.end());
    pointers.push_back(d.data());
  }
  if (pointers.size() > 8) {
    result.error = "run: kernels with more than 8 arguments and results are "
                   "not supported by the bundle runner";
    release();
    return result;
  }

  std::string dataDirectory =
      manifest.data.empty() ? directory : directory + "/" + manifest.data;
  void *stream = getKernelStream();
  for (int seed = 0; seed < manifest.seeds; ++seed) {
    for (size_t i = 0; i < manifest.arguments.size(); ++i) {
      std::string data;
      std::string path = dataDirectory + "/in-" + std::to_string(seed) + "-" +
                         std::to_string(i) + ".bin";
      if (!readFile(path, data) ||
          int64_t(data.size()) != manifest.arguments[i].getNumBytes()) {
        result.error = "bundle: cannot read " + path;
        release();
        return result;
      }
      cuda->cuMemcpyHtoD(buffers[i], data.data(), data.size());
    }
    // Copies from pageable memory may still be in flight, on a stream the
    // kernel's non-blocking stream does not wait for.
    cuda->cuCtxSynchronize();
    uint64_t launchesBefore = getLaunchCount();
    if (!callWithPointers(entry, pointers)) {
      result.error = "run: unsupported arity";
      release();
      return result;
    }
    cuda->cuCtxSynchronize();
    result.launchesPerCall = int(getLaunchCount() - launchesBefore);
    std::string runError = takeRuntimeError();
    if (!runError.empty()) {
      result.error = "run: " + runError;
      release();
      return result;
    }
    for (size_t r = 0; r < manifest.results.size(); ++r) {
      const BundleTensor &t = manifest.results[r];
      std::string actual(t.getNumBytes(), '\0'), expected;
      cuda->cuMemcpyDtoH(actual.data(), buffers[manifest.arguments.size() + r],
                         actual.size());
      std::string path = dataDirectory + "/expected-" + std::to_string(seed) +
                         "-" + std::to_string(r) + ".bin";
      if (!readFile(path, expected) || expected.size() != actual.size()) {
        result.error = "bundle: cannot read " + path;
        release();
        return result;
      }
      std::string mismatch =
          compare(t, actual, expected, manifest.atol, manifest.rtol, result);
      if (!mismatch.empty()) {
        result.error = "compare: result #" + std::to_string(r) +
                       " differs from the reference with seed index " +
                       std::to_string(seed) + ": " + mismatch;
        release();
        return result;
      }
    }
  }
  result.correct = true;

  // Timing: a 256 MiB memset evicts the 50 MB L2 before each run.
  CUdeviceptr flush = 0;
  size_t flushBytes = size_t(256) << 20;
  cuda->cuMemAlloc(&flush, flushBytes);
  void *start = nullptr, *stop = nullptr, *workEnd = nullptr;
  cuda->cuEventCreate(&start, 0);
  cuda->cuEventCreate(&stop, 0);
  cuda->cuEventCreate(&workEnd, 0);
  std::vector<double> samples;
  double total = 0;
  auto began = std::chrono::steady_clock::now();
  while (samples.size() < 5 ||
         (total < minSeconds * 1e9 && samples.size() < 1000)) {
    if (flush)
      cuda->cuMemsetD8(flush, uint8_t(samples.size()), flushBytes);
    cuda->cuCtxSynchronize();
    // The call ends by waiting for its stream; the time runs to the end
    // of its GPU work (recorded at that wait), as PyTorch's events after
    // its launches do, not to the host's return from the wait; to after
    // the call where it launched past its last wait.
    markCallEnds(workEnd);
    cuda->cuEventRecord(start, stream);
    callWithPointers(entry, pointers);
    cuda->cuEventRecord(stop, stream);
    cuda->cuEventSynchronize(stop);
    float ms = 0;
    cuda->cuEventElapsedTime(&ms, start, callEndMarked() ? workEnd : stop);
    markCallEnds(nullptr);
    samples.push_back(double(ms) * 1e6);
    total += samples.back();
    if (std::chrono::steady_clock::now() - began > std::chrono::seconds(60))
      break;
  }
  std::string timingError = takeRuntimeError();
  if (profile) {
    // The profiling build, where there is one, times its kernels on the
    // device; it computes the same outputs into the same buffers.
    void *profiled = entry;
    std::string profileLibrary = directory + "/kernel-profile.so";
    if (std::ifstream(profileLibrary).good()) {
      void *handle = dlopen(profileLibrary.c_str(), RTLD_NOW | RTLD_LOCAL);
      void *symbol = handle ? dlsym(handle, ("_mlir_ciface_" +
                                             manifest.kernel)
                                                .c_str())
                            : nullptr;
      if (symbol) {
        profiled = symbol;
        result.regionNames = manifest.regions;
      } else {
        const char *why = dlerror();
        result.profileError = "kernel-profile.so: " +
                              std::string(why ? why : "no entry point") +
                              " (launches timed with events only)";
      }
    }
    if (flush)
      cuda->cuMemsetD8(flush, 0, flushBytes);
    cuda->cuCtxSynchronize();
    setLaunchProfiling(true);
    callWithPointers(profiled, pointers);
    cuda->cuCtxSynchronize();
    setLaunchProfiling(false);
    result.profile = takeLaunchProfile();
    // Extra diagnosis: a failing profile loses no measured result.
    std::string profileRunError = takeRuntimeError();
    if (!profileRunError.empty())
      result.profileError += (result.profileError.empty() ? "" : "; ") +
                             profileRunError;
  }
  cuda->cuEventDestroy(start);
  cuda->cuEventDestroy(stop);
  cuda->cuEventDestroy(workEnd);
  if (flush)
    cuda->cuMemFree(flush);
  release();
  if (!timingError.empty()) {
    result.correct = false;
    result.error = "timing: " + timingError;
    return result;
  }
  std::sort(samples.begin(), samples.end());
  result.runs = int(samples.size());
  result.minNs = samples.front();
  result.medianNs = samples[samples.size() / 2];
  return result;
}
