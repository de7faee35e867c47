//===- GPUBundleTest.cpp - bundle manifests and GPU region profiles -------===//

#include "ke/Runtime/GPUBundle.h"

#include <gtest/gtest.h>

using namespace ke::runtime;

namespace {

TEST(GPUBundleTest, ManifestKeepsRegionNames) {
  BundleManifest manifest;
  manifest.kernel = "softmax";
  manifest.arguments.push_back({"f32", {4, 8}});
  manifest.results.push_back({"f32", {4, 8}});
  manifest.regions = {"0:linalg.fill", "1:linalg.generic"};
  std::string error;
  BundleManifest read = BundleManifest::read(manifest.write(), error);
  ASSERT_EQ(error, "");
  EXPECT_EQ(read.kernel, "softmax");
  EXPECT_EQ(read.regions, manifest.regions);
  EXPECT_EQ(read.arguments.size(), 1u);
  EXPECT_EQ(read.results[0].shape, (std::vector<int64_t>{4, 8}));
}

// NVIDIA bundles carry no target line (runners older than the key read
// them); AMD ones do.
TEST(GPUBundleTest, ManifestNamesOnlyANonDefaultTarget) {
  BundleManifest manifest;
  manifest.kernel = "k";
  EXPECT_EQ(manifest.write().find("target"), std::string::npos);
  manifest.target = "amdgpu";
  std::string error;
  EXPECT_EQ(BundleManifest::read(manifest.write(), error).target, "amdgpu");
  EXPECT_EQ(error, "");
  BundleManifest::read("ke-gpu-bundle 1\ntarget tpu\nkernel k\n", error);
  EXPECT_EQ(error, "line 2: unknown target 'tpu' (nvgpu or amdgpu)");
}

TEST(GPUBundleTest, ManifestRejectsUnknownKeys) {
  std::string error;
  BundleManifest::read("ke-gpu-bundle 1\nkernel k\nregoin 0 x\n", error);
  EXPECT_EQ(error, "line 3: unknown key 'regoin'");
}

// Launches add up per region in region order, by their device time; the
// ones outside every region come last; a launch the profiling build left
// untimed counts with its event time (and is counted as such); a profile
// without any device timer (a build without ke-time-gpu-kernels) makes no
// regions.
TEST(GPUBundleTest, RegionTimesSumDeviceTimePerRegion) {
  BundleResult result;
  result.regionNames = {"0:linalg.fill", "1:linalg.matmul", ""};
  result.profile = {{"k", 900, 500, 1}, {"k", 300, 100, -1}, {"k", 800, 250, 1},
                    {"k", 100, 50, 0},  {"k", 700, -1, 2},   {"k", 60, 20, 2}};
  std::vector<BundleResult::RegionTime> regions = result.getRegionTimes();
  ASSERT_EQ(regions.size(), 4u);
  EXPECT_EQ(regions[0].name, "0:linalg.fill");
  EXPECT_EQ(regions[0].deviceNs, 50);
  EXPECT_EQ(regions[1].name, "1:linalg.matmul");
  EXPECT_EQ(regions[1].deviceNs, 750);
  EXPECT_EQ(regions[1].launches, 2);
  EXPECT_EQ(regions[1].eventTimedLaunches, 0);
  EXPECT_EQ(regions[2].name, "region 2"); // unnamed in the manifest
  EXPECT_EQ(regions[2].deviceNs, 720);
  EXPECT_EQ(regions[2].launches, 2);
  EXPECT_EQ(regions[2].eventTimedLaunches, 1);
  EXPECT_EQ(regions[3].name, "(outside regions)");
  EXPECT_EQ(regions[3].deviceNs, 100);

  std::string json = result.toJSON();
  EXPECT_NE(json.find("\"regions\":[{\"region\":\"0:linalg.fill\""),
            std::string::npos);
  EXPECT_NE(json.find("\"device_ns\":500,\"region\":1}"), std::string::npos);
}

TEST(GPUBundleTest, NoRegionsWithoutDeviceTimers) {
  BundleResult result;
  result.profile = {{"k", 900, -1, -1}, {"k", 300, -1, -1}};
  EXPECT_TRUE(result.getRegionTimes().empty());
  EXPECT_EQ(result.toJSON().find("\"regions\""), std::string::npos);
}

TEST(GPUBundleTest, ResultSaysLaunchesAndLockWait) {
  BundleResult result;
  result.kernel = "k";
  result.launchesPerCall = 3;
  result.lockWaitMs = 1.5;
  std::string json = result.toJSON();
  EXPECT_NE(json.find("\"launches_per_call\":3"), std::string::npos) << json;
  EXPECT_NE(json.find("\"gpu_lock_wait_ms\":1.5"), std::string::npos) << json;
}
TEST(GPUBundleTest, ManifestRefusesImpossibleSizes) {
  // Found by the parser fuzzer: a rank of 2e9 asked for a 16 GB shape.
  std::string error;
  BundleManifest::read("ke-gpu-bundle 1\nkernel k\narg f32 2000000000 1\n",
                       error);
  EXPECT_NE(error.find("rank 2000000000"), std::string::npos) << error;
  error.clear();
  BundleManifest::read("ke-gpu-bundle 1\nkernel k\narg f32 2 -4 8\n", error);
  EXPECT_NE(error.find("negative or too large extent"), std::string::npos)
      << error;
  error.clear();
  BundleManifest::read(
      "ke-gpu-bundle 1\nkernel k\narg f32 3 1048576 1048576 1048576\n",
      error);
  EXPECT_NE(error.find("too large"), std::string::npos) << error;
}

TEST(GPUBundleTest, SixteenBitFloatsTakeTwoBytes) {
  // Bundles of bf16/f16 kernels read two bytes per element (tensor-core
  // GEMMs); a wrong size would misread every input and result.
  for (const char *kind : {"f16", "bf16", "i16"}) {
    BundleTensor tensor{kind, {3, 5}};
    EXPECT_EQ(tensor.getElementBytes(), 2) << kind;
  }
  EXPECT_EQ((BundleTensor{"f32", {1}}.getElementBytes()), 4);
}
} // namespace
