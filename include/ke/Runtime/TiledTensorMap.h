//===- TiledTensorMap.h - a memref read as the driver's tensor map -*- C++ -*-===//
//
// nvgpu.tma.create.descriptor hands ke-run's runtime a ranked memref
// descriptor and box sizes, outermost first; the CUDA driver's
// cuTensorMapEncodeTiled wants them innermost first, with the outer
// strides in bytes. This is that translation, apart from the driver call.
//
//===----------------------------------------------------------------------===//
#ifndef KE_RUNTIME_TILEDTENSORMAP_H
#define KE_RUNTIME_TILEDTENSORMAP_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ke::runtime {

struct TiledTensorMap {
  static constexpr int kMaxRank = 5;
  /// CUtensorMapDataType's value.
  int dataType = 0;
  unsigned rank = 0;
  /// The first element: the aligned pointer plus the offset.
  void *address = nullptr;
  /// Innermost first; strides of the dimensions after the innermost, in
  /// bytes (the innermost is dense).
  uint64_t sizes[kMaxRank] = {}, strides[kMaxRank] = {};
  unsigned box[kMaxRank] = {}, elementStrides[kMaxRank] = {};

  /// Everything that decides the map's contents, for caching it.
  std::vector<uint64_t> getKey(int interleave, int swizzle, int l2Promotion,
                               int oobFill) const;
};

/// The tensor map of the rank-`rank` memref `descriptor` points to (as
/// MLIR lays descriptors out), in boxes of `box` (outermost first), or
/// nothing with `error` saying why (a rank past 5, an unknown data type).
std::optional<TiledTensorMap> describeTiledTensorMap(int64_t rank,
                                                     const void *descriptor,
                                                     int64_t dataType,
                                                     const int64_t *box,
                                                     std::string &error);

} // namespace ke::runtime

#endif // KE_RUNTIME_TILEDTENSORMAP_H
