//===- KernelHeapTest.cpp - the heap JIT-compiled kernels allocate from ---===//

#include "ke/Eval/KernelHeap.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <cstring>

using namespace ke::eval;

namespace {
class KernelHeapTest : public ::testing::Test {
protected:
  void SetUp() override {
    setKernelHeapReuse(true);
    releaseKernelHeapCache();
  }
  void TearDown() override {
    setKernelHeapReuse(true);
    releaseKernelHeapCache();
  }
};
} // namespace

TEST_F(KernelHeapTest, LargeBlockIsReusedForTheSameSize) {
  KernelHeapStatistics before = getKernelHeapStatistics();
  void *first = allocateFromKernelHeap(64, 1 << 20);
  ASSERT_NE(first, nullptr);
  std::memset(first, 1, 1 << 20);
  freeToKernelHeap(first);
  EXPECT_EQ(getKernelHeapStatistics().keptBytes, size_t(1) << 20);
  // A size within the same page reuses the block.
  void *second = allocateFromKernelHeap(16, (1 << 20) - 100);
  EXPECT_EQ(second, first);
  KernelHeapStatistics after = getKernelHeapStatistics();
  EXPECT_EQ(after.reusedAllocations - before.reusedAllocations, 1u);
  EXPECT_EQ(after.systemAllocations - before.systemAllocations, 1u);
  EXPECT_EQ(after.keptBytes, 0u);
  freeToKernelHeap(second);
}

TEST_F(KernelHeapTest, OtherSizesAndLargerAlignmentsGetTheirOwnBlocks) {
  void *block = allocateFromKernelHeap(64, 1 << 20);
  freeToKernelHeap(block);
  void *larger = allocateFromKernelHeap(64, 2 << 20);
  EXPECT_NE(larger, block);
  void *aligned = allocateFromKernelHeap(4096, 1 << 20);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(aligned) % 4096, 0u);
  // The kept block was 64-aligned only by contract: reused only if it
  // happens to satisfy the larger alignment, which the heap does not assume.
  EXPECT_EQ(getKernelHeapStatistics().keptBytes, size_t(1) << 20);
  freeToKernelHeap(larger);
  freeToKernelHeap(aligned);
}

TEST_F(KernelHeapTest, SmallBlocksAndSystemModeAreNotKept) {
  void *small = allocateFromKernelHeap(16, 1000);
  ASSERT_NE(small, nullptr);
  freeToKernelHeap(small);
  EXPECT_EQ(getKernelHeapStatistics().keptBytes, 0u);

  setKernelHeapReuse(false);
  void *large = allocateFromKernelHeap(64, 1 << 20);
  freeToKernelHeap(large);
  EXPECT_EQ(getKernelHeapStatistics().keptBytes, 0u);
  freeToKernelHeap(nullptr);
}

TEST_F(KernelHeapTest, ReleaseReturnsKeptBlocks) {
  freeToKernelHeap(allocateFromKernelHeap(64, 1 << 20));
  freeToKernelHeap(allocateFromKernelHeap(64, 3 << 20));
  EXPECT_EQ(getKernelHeapStatistics().keptBytes, size_t(4) << 20);
  releaseKernelHeapCache();
  EXPECT_EQ(getKernelHeapStatistics().keptBytes, 0u);
}

TEST_F(KernelHeapTest, ReusedBlocksArePoisonedUnlessTurnedOff) {
  constexpr size_t kBytes = 1 << 20;
  auto *block = static_cast<unsigned char *>(allocateFromKernelHeap(64, kBytes));
  std::memset(block, 0, kBytes);
  freeToKernelHeap(block);
  auto *again = static_cast<unsigned char *>(allocateFromKernelHeap(64, kBytes));
  ASSERT_EQ(again, block);
  EXPECT_EQ(again[0], 0xff);
  EXPECT_EQ(again[kBytes - 1], 0xff);
  std::memset(again, 0, kBytes);
  freeToKernelHeap(again);
  setKernelHeapPoison(false);
  auto *unpoisoned =
      static_cast<unsigned char *>(allocateFromKernelHeap(64, kBytes));
  setKernelHeapPoison(true);
  ASSERT_EQ(unpoisoned, block);
  EXPECT_EQ(unpoisoned[0], 0);
  freeToKernelHeap(unpoisoned);
}

TEST_F(KernelHeapTest, OverflowingSizesFail) {
  // An overflowed size computation fails as malloc would, rather than
  // wrapping to a tiny block when rounded to pages.
  EXPECT_EQ(allocateFromKernelHeap(64, SIZE_MAX - 4), nullptr);
  EXPECT_EQ(allocateFromKernelHeap(16, SIZE_MAX), nullptr);
}
