//===- RooflineTest.cpp - bound classification and the peaks cache --------===//

#include "ke/Eval/Roofline.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

using namespace ke::eval;

namespace {
MachinePeaks makePeaks() {
  MachinePeaks peaks;
  peaks.gflops = 100.0; // flop/ns
  peaks.gbps = 10.0;    // byte/ns: ridge at 10 flop/byte
  peaks.cpu = getHostCpuName();
  return peaks;
}

TEST(RooflineTest, ClassifiesByArithmeticIntensity) {
  MachinePeaks peaks = makePeaks();
  // 2 GFLOP over 8 MB: 250 flop/byte, far right of the ridge.
  EXPECT_EQ(classifyBound(2e9, 8e6, peaks), Bound::Compute);
  // 16 MFLOP over 64 MB: 0.25 flop/byte.
  EXPECT_EQ(classifyBound(16e6, 64e6, peaks), Bound::Memory);
}

TEST(RooflineTest, TinyKernelsAreLatencyBound) {
  EXPECT_EQ(classifyBound(1000, 1000, makePeaks()), Bound::Latency);
}

TEST(RooflineTest, PeaksCacheRoundTrips) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ke-peaks", dir));
  llvm::SmallString<128> path(dir);
  llvm::sys::path::append(path, "peaks.json");
  MachinePeaks peaks = makePeaks();
  peaks.threads = 2;
  ASSERT_FALSE(bool(savePeaks(peaks, path)));
  llvm::Expected<MachinePeaks> loaded = loadPeaks(path);
  ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
  EXPECT_EQ(loaded->gflops, 100.0);
  EXPECT_EQ(loaded->gbps, 10.0);
  EXPECT_EQ(loaded->threads, 2u);
  llvm::sys::fs::remove_directories(dir);
}

TEST(RooflineTest, ForeignCacheIsRefused) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("ke-peaks", "json", path));
  MachinePeaks peaks = makePeaks();
  peaks.cpu = "some other cpu";
  ASSERT_FALSE(bool(savePeaks(peaks, path)));
  llvm::Expected<MachinePeaks> loaded = loadPeaks(path);
  EXPECT_FALSE(bool(loaded));
  llvm::consumeError(loaded.takeError());
  llvm::sys::fs::remove(path);
}
TEST(RooflineTest, GPUPeaksAreCachedPerDevice) {
  EXPECT_NE(getGPUPeaksCachePath("NVIDIA H100 80GB HBM3"),
            getGPUPeaksCachePath("NVIDIA A100-SXM4-40GB"));
  EXPECT_NE(getGPUPeaksCachePath("NVIDIA H100 80GB HBM3")
                .find("gpu-peaks-NVIDIA-H100-80GB-HBM3.json"),
            std::string::npos);
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("ke-gpu-peaks", "json", path));
  MachinePeaks peaks = makePeaks();
  peaks.cpu = "NVIDIA H100 80GB HBM3";
  ASSERT_FALSE(bool(savePeaks(peaks, path)));
  llvm::Expected<MachinePeaks> same = loadPeaks(path, "NVIDIA H100 80GB HBM3");
  ASSERT_TRUE(bool(same));
  EXPECT_EQ(same->gbps, peaks.gbps);
  llvm::Expected<MachinePeaks> other = loadPeaks(path, "NVIDIA A100-SXM4-40GB");
  EXPECT_FALSE(bool(other));
  llvm::consumeError(other.takeError());
  llvm::sys::fs::remove(path);
}
} // namespace
