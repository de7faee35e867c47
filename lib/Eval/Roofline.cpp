//===- Roofline.cpp - cached peaks and the bound of a kernel --------------===//

#include "ke/Eval/Roofline.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace ke::eval;

std::string ke::eval::getHostCpuName() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos)
        return llvm::StringRef(line).drop_front(colon + 1).trim().str();
    }
  }
  return "unknown";
}

/// $KE_CACHE_DIR, else $XDG_CACHE_HOME/ke, else $HOME/.cache/ke.
static llvm::SmallString<256> getCacheDirectory() {
  llvm::SmallString<256> dir;
  if (const char *explicitDir = std::getenv("KE_CACHE_DIR")) {
    dir = explicitDir;
  } else if (const char *xdg = std::getenv("XDG_CACHE_HOME")) {
    dir = xdg;
    llvm::sys::path::append(dir, "ke");
  } else {
    const char *home = std::getenv("HOME");
    dir = home ? home : "/tmp";
    llvm::sys::path::append(dir, ".cache", "ke");
  }
  return dir;
}

std::string ke::eval::getPeaksCachePath(unsigned threads) {
  llvm::SmallString<256> path = getCacheDirectory();
  llvm::sys::path::append(path,
                          "peaks-t" + std::to_string(threads) + ".json");
  return std::string(path);
}

std::string ke::eval::getGPUPeaksCachePath(llvm::StringRef device) {
  std::string slug;
  for (char c : device)
    slug += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  llvm::SmallString<256> path = getCacheDirectory();
  llvm::sys::path::append(path, "gpu-peaks-" + slug + ".json");
  return std::string(path);
}

llvm::Expected<MachinePeaks> ke::eval::loadPeaks(llvm::StringRef path) {
  return loadPeaks(path, getHostCpuName());
}

llvm::Expected<MachinePeaks> ke::eval::loadPeaks(llvm::StringRef path,
                                                 llvm::StringRef machine) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError(buffer.getError(), "cannot read '%s'",
                                   path.str().c_str());
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json)
    return json.takeError();
  const llvm::json::Object *object = json->getAsObject();
  MachinePeaks peaks;
  std::optional<double> gflops, gbps;
  std::optional<int64_t> threads;
  std::optional<llvm::StringRef> cpu, isa;
  if (object) {
    gflops = object->getNumber("gflops");
    gbps = object->getNumber("gbps");
    threads = object->getInteger("threads");
    cpu = object->getString("cpu");
    isa = object->getString("isa");
  }
  if (!gflops || !gbps || !threads || !cpu || *gflops <= 0 || *gbps <= 0)
    return llvm::createStringError(std::errc::invalid_argument,
                                   "'%s' is not a ke peaks file",
                                   path.str().c_str());
  if (*cpu != machine)
    return llvm::createStringError(std::errc::invalid_argument,
                                   "'%s' was measured on another machine",
                                   path.str().c_str());
  peaks.gflops = *gflops;
  peaks.gbps = *gbps;
  peaks.threads = static_cast<unsigned>(*threads);
  peaks.cpu = cpu->str();
  peaks.isa = isa ? isa->str() : "";
  return peaks;
}

llvm::Error ke::eval::savePeaks(const MachinePeaks &peaks,
                                llvm::StringRef path) {
  if (std::error_code ec =
          llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path)))
    return llvm::createStringError(ec, "cannot create the cache directory");
  // Write-then-rename so concurrent ke-run processes never read half a file.
  std::string temporary = (path + "." + std::to_string(getpid())).str();
  {
    std::error_code ec;
    llvm::raw_fd_ostream out(temporary, ec);
    if (ec)
      return llvm::createStringError(ec, "cannot write '%s'",
                                     temporary.c_str());
    out << llvm::json::Value(llvm::json::Object{{"gflops", peaks.gflops},
                                                {"gbps", peaks.gbps},
                                                {"threads", peaks.threads},
                                                {"cpu", peaks.cpu},
                                                {"isa", peaks.isa}})
        << "\n";
  }
  if (std::error_code ec = llvm::sys::fs::rename(temporary, path))
    return llvm::createStringError(ec, "cannot write '%s'", path.str().c_str());
  return llvm::Error::success();
}

MachinePeaks ke::eval::getOrCalibratePeaks(unsigned threads) {
  std::string path = getPeaksCachePath(threads);
  llvm::Expected<MachinePeaks> cached = loadPeaks(path);
  if (cached)
    return *cached;
  llvm::consumeError(cached.takeError());
  MachinePeaks peaks = calibrate(threads);
  // A cache we cannot write only costs a re-measurement next time.
  llvm::consumeError(savePeaks(peaks, path));
  return peaks;
}

llvm::StringRef ke::eval::getBoundName(Bound bound) {
  switch (bound) {
  case Bound::Compute:
    return "compute";
  case Bound::Memory:
    return "memory";
  case Bound::Latency:
    return "latency";
  }
  return "?";
}

Bound ke::eval::classifyBound(double flops, double bytes,
                              const MachinePeaks &peaks) {
  double computeNs = flops / peaks.gflops; // GFLOP/s == flop/ns
  double memoryNs = bytes / peaks.gbps;    // GB/s == byte/ns
  if (std::max(computeNs, memoryNs) < kLatencyThresholdNs)
    return Bound::Latency;
  return computeNs >= memoryNs ? Bound::Compute : Bound::Memory;
}
