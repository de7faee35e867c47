//===- TiledTensorMapTest.cpp - memrefs read as the driver's tensor maps --===//

#include "ke/Runtime/TiledTensorMap.h"

#include "gtest/gtest.h"

#include <cstdint>

using ke::runtime::describeTiledTensorMap;
using ke::runtime::TiledTensorMap;

namespace {
/// A rank-2 memref descriptor as MLIR lays it out.
struct Descriptor2D {
  char *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
};
constexpr int64_t kBFloat16 = 9; // CU_TENSOR_MAP_DATA_TYPE_BFLOAT16

TEST(TiledTensorMapTest, DimensionsInnermostFirstStridesInBytes) {
  static char buffer[64];
  // A 4096 x 1024 bf16 matrix whose view starts 8 elements in, read in
  // boxes of 128 rows by 64 columns.
  Descriptor2D descriptor{buffer, buffer, 8, {4096, 1024}, {1024, 1}};
  int64_t box[2] = {128, 64};
  std::string error;
  std::optional<TiledTensorMap> map =
      describeTiledTensorMap(2, &descriptor, kBFloat16, box, error);
  ASSERT_TRUE(map) << error;
  EXPECT_EQ(map->address, buffer + 16);
  EXPECT_EQ(map->rank, 2u);
  EXPECT_EQ(map->sizes[0], 1024u);
  EXPECT_EQ(map->sizes[1], 4096u);
  EXPECT_EQ(map->strides[0], 2048u); // a row of 1024 bf16
  EXPECT_EQ(map->box[0], 64u);
  EXPECT_EQ(map->box[1], 128u);
  EXPECT_EQ(map->elementStrides[0], 1u);
  EXPECT_EQ(map->elementStrides[1], 1u);
  // The cache tells maps apart by everything the driver reads.
  std::vector<uint64_t> key = map->getKey(0, 3, 3, 0);
  box[0] = 64;
  std::optional<TiledTensorMap> smaller =
      describeTiledTensorMap(2, &descriptor, kBFloat16, box, error);
  ASSERT_TRUE(smaller);
  EXPECT_NE(smaller->getKey(0, 3, 3, 0), key);
  EXPECT_NE(map->getKey(0, 2, 3, 0), key);
}

TEST(TiledTensorMapTest, RefusesRanksAndTypesTheDriverLacks) {
  Descriptor2D descriptor{};
  int64_t box[2] = {1, 1};
  std::string error;
  EXPECT_FALSE(describeTiledTensorMap(6, &descriptor, kBFloat16, box, error));
  EXPECT_EQ(error, "a TMA tensor map has 1 to 5 dimensions, not 6");
  EXPECT_FALSE(describeTiledTensorMap(2, &descriptor, 13, box, error));
  EXPECT_EQ(error, "unknown TMA data type 13");
}
} // namespace
