//===- ScheduleFeatures.cpp - what predicts a schedule's speed ------------===//

#include "ke/Search/ScheduleFeatures.h"

#include <algorithm>
#include <cmath>
#include <unistd.h>

using namespace ke;
using namespace ke::search;

CacheSizes CacheSizes::detect() {
  CacheSizes sizes;
#if defined(_SC_LEVEL1_DCACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE)
  long l1 = sysconf(_SC_LEVEL1_DCACHE_SIZE);
  long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (l1 > 0)
    sizes.l1 = static_cast<double>(l1);
  if (l2 > 0)
    sizes.l2 = static_cast<double>(l2);
#endif
  return sizes;
}

llvm::ArrayRef<llvm::StringLiteral> ke::search::getScheduleFeatureNames() {
  static const llvm::StringLiteral names[kNumScheduleFeatures] = {
      "vectorized",         "threaded",          "log2_register_tile",
      "log2_vector_length", "log2_vector_regs",  "log2_spill",
      "log2_footprint_l1",  "footprint_over_l2", "log2_unroll",
      "split_reduction",    "interchanged",      "relaid_inputs",
      "strided_vector",     "horizontal_vector", "fused",
      "approximate_math",   "log2_tiles_per_thread", "log2_cache_tiles"};
  return names;
}

namespace {
double log2Of(double value) { return std::log2(std::max(1.0, value)); }

/// Bytes an operand's block touches: the tile of each loop indexing it.
double operandBytes(llvm::ArrayRef<int64_t> loops,
                    llvm::ArrayRef<double> tiles) {
  double elements = 1.0;
  for (int64_t loop : loops)
    if (loop >= 0 && static_cast<size_t>(loop) < tiles.size())
      elements *= tiles[loop];
  return 4.0 * elements;
}
} // namespace

ScheduleFeatures ke::search::extractScheduleFeatures(
    const propose::Schedule &schedule,
    llvm::ArrayRef<propose::OpShape> shapes, unsigned threads,
    const CacheSizes &caches) {
  ScheduleFeatures features{};
  double totalWork = 0.0;
  std::vector<double> work(shapes.size(), 1.0);
  for (auto [i, shape] : llvm::enumerate(shapes)) {
    for (int64_t bound : shape.bounds)
      work[i] *= std::max<int64_t>(1, bound);
    totalWork += work[i];
  }
  if (totalWork <= 0.0 || schedule.ops.size() != shapes.size())
    return features;

  for (auto [i, shape] : llvm::enumerate(shapes)) {
    const propose::OpSchedule &op = schedule.ops[i];
    double weight = work[i] / totalWork;
    size_t loops = shape.bounds.size();
    std::vector<double> registerTile(loops, 1.0), cacheTile(loops, 1.0);
    for (size_t l = 0; l < loops; ++l) {
      double bound = static_cast<double>(std::max<int64_t>(1, shape.bounds[l]));
      if (l < op.registerTiles.size() && op.registerTiles[l] > 0)
        registerTile[l] = static_cast<double>(op.registerTiles[l]);
      cacheTile[l] = bound;
      if (schedule.fuseRows > 0 && l == 0)
        cacheTile[l] = std::min(bound, static_cast<double>(schedule.fuseRows));
      else if (schedule.fuseRows == 0 && l < op.cacheTiles.size() &&
               op.cacheTiles[l] > 0)
        cacheTile[l] = static_cast<double>(op.cacheTiles[l]);
    }
    bool vectorized = op.vectorize && propose::canVectorize(shape);
    // The vector runs along the innermost loop with a register tile.
    std::optional<size_t> vectorLoop;
    for (size_t l = loops; l-- > 0;)
      if (registerTile[l] > 1.0) {
        vectorLoop = l;
        break;
      }
    double tileElements = 1.0;
    for (double tile : registerTile)
      tileElements *= tile;
    // 16 f32 lanes a register (AVX-512), 32 registers.
    double vectorRegs = tileElements / 16.0;
    bool threaded = op.parallel && threads > 1 && schedule.fuseRows == 0;

    double footprint = 0.0;
    for (llvm::ArrayRef<int64_t> operand : shape.inputLoops)
      footprint += operandBytes(operand, cacheTile);
    for (llvm::ArrayRef<int64_t> operand : shape.outputLoops)
      footprint += operandBytes(operand, cacheTile);
    double cacheTiles = 1.0, parallelTiles = 1.0;
    for (size_t l = 0; l < loops; ++l) {
      double count = std::ceil(
          static_cast<double>(std::max<int64_t>(1, shape.bounds[l])) /
          cacheTile[l]);
      cacheTiles *= count;
      if (!shape.isReduction[l])
        parallelTiles *= count;
    }

    features[0] += weight * vectorized;
    features[1] += weight * threaded;
    features[2] += weight * log2Of(tileElements);
    if (vectorized && vectorLoop)
      features[3] += weight * log2Of(registerTile[*vectorLoop]);
    features[4] += weight * log2Of(vectorRegs);
    features[5] += weight * log2Of(vectorRegs / 32.0);
    features[6] += weight * std::clamp(std::log2(std::max(footprint, 4.0) /
                                                 caches.l1),
                                       -8.0, 8.0);
    features[7] += weight * (footprint > caches.l2);
    features[8] += weight * log2Of(static_cast<double>(op.unroll));
    features[9] += weight * op.hasSplitReduction();
    features[10] += weight * !op.interchange.empty();
    features[11] += weight * static_cast<double>(op.layouts.size());
    if (vectorized && vectorLoop && !shape.contiguousLoops.empty())
      features[12] += weight * (shape.contiguousLoops.front() != *vectorLoop);
    if (vectorized && vectorLoop && shape.isReduction[*vectorLoop])
      features[13] += weight * !op.hasSplitReduction();
    if (threaded)
      features[16] += weight * std::clamp(std::log2(parallelTiles / threads),
                                          -4.0, 8.0);
    features[17] += weight * log2Of(cacheTiles);
  }
  features[14] = schedule.fuseRows > 0;
  features[15] = schedule.approximateMath &&
                 llvm::any_of(shapes, [](const propose::OpShape &shape) {
                   return shape.hasMath;
                 });
  return features;
}
