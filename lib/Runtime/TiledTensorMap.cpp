//===- TiledTensorMap.cpp - a memref read as the driver's tensor map ------===//

#include "ke/Runtime/TiledTensorMap.h"

#include <iterator>

using namespace ke::runtime;

namespace {
/// CUtensorMapDataType's element sizes, by its value.
constexpr uint64_t kElementBytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
} // namespace

std::vector<uint64_t> TiledTensorMap::getKey(int interleave, int swizzle,
                                             int l2Promotion,
                                             int oobFill) const {
  std::vector<uint64_t> key = {rank,
                               reinterpret_cast<uint64_t>(address),
                               uint64_t(dataType),
                               uint64_t(interleave),
                               uint64_t(swizzle),
                               uint64_t(l2Promotion),
                               uint64_t(oobFill)};
  for (unsigned i = 0; i < rank; ++i)
    key.insert(key.end(), {sizes[i], strides[i], box[i]});
  return key;
}

std::optional<TiledTensorMap>
ke::runtime::describeTiledTensorMap(int64_t rank, const void *descriptor,
                                    int64_t dataType, const int64_t *box,
                                    std::string &error) {
  if (rank < 1 || rank > TiledTensorMap::kMaxRank) {
    error = "a TMA tensor map has 1 to 5 dimensions, not " +
            std::to_string(rank);
    return std::nullopt;
  }
  if (dataType < 0 || dataType >= int64_t(std::size(kElementBytes))) {
    error = "unknown TMA data type " + std::to_string(dataType);
    return std::nullopt;
  }
  // A ranked memref descriptor: allocated and aligned pointers, offset,
  // then rank sizes and rank strides (in elements).
  struct Header {
    char *allocated, *aligned;
    int64_t offset;
  };
  const auto *header = static_cast<const Header *>(descriptor);
  const auto *sizesAndStrides = reinterpret_cast<const int64_t *>(header + 1);
  uint64_t elementBytes = kElementBytes[dataType];
  TiledTensorMap map;
  map.dataType = int(dataType);
  map.rank = unsigned(rank);
  map.address = header->aligned + header->offset * elementBytes;
  for (int64_t i = 0; i < rank; ++i) {
    map.sizes[i] = sizesAndStrides[rank - 1 - i];
    map.box[i] = unsigned(box[rank - 1 - i]);
    map.elementStrides[i] = 1;
    if (i + 1 < rank)
      map.strides[i] = sizesAndStrides[2 * rank - 2 - i] * elementBytes;
  }
  return map;
}
