//===- HostRuntimeTest.cpp - ke's own memrefCopy --------------------------===//

#include "gtest/gtest.h"

#include <cstdint>
#include <numeric>
#include <vector>

extern "C" void memrefCopy(int64_t elementSize, void *source, void *target);

namespace {
/// A rank-2 memref descriptor and the unranked view memrefCopy takes.
struct Descriptor2D {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
};
struct Unranked {
  int64_t rank;
  void *descriptor;
};
} // namespace

TEST(HostRuntimeTest, CopiesAStridedWindowIntoAContiguousBuffer) {
  // A 3x4 window at offset 5 of a 6x8 row-major buffer: rows 8 apart.
  std::vector<float> big(48);
  std::iota(big.begin(), big.end(), 0.0f);
  std::vector<float> small(12, -1.0f);
  Descriptor2D from{big.data(), big.data(), 5, {3, 4}, {8, 1}};
  Descriptor2D to{small.data(), small.data(), 0, {3, 4}, {4, 1}};
  Unranked source{2, &from}, target{2, &to};
  memrefCopy(sizeof(float), &source, &target);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      EXPECT_EQ(small[i * 4 + j], big[5 + i * 8 + j]) << i << "," << j;
}

TEST(HostRuntimeTest, CopiesATransposedView) {
  std::vector<float> input = {1, 2, 3, 4, 5, 6}; // 2x3
  std::vector<float> output(6, 0.0f);             // 3x2
  // The input read as its transpose: sizes 3x2, strides 1 and 3.
  Descriptor2D from{input.data(), input.data(), 0, {3, 2}, {1, 3}};
  Descriptor2D to{output.data(), output.data(), 0, {3, 2}, {2, 1}};
  Unranked source{2, &from}, target{2, &to};
  memrefCopy(sizeof(float), &source, &target);
  EXPECT_EQ(output, (std::vector<float>{1, 4, 2, 5, 3, 6}));
}
