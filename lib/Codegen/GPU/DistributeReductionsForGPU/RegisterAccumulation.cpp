//===- RegisterAccumulation.cpp - outputs accumulated in registers --------===//
//
// The reductions the thread-block rewrites do not take (contractions,
// convolutions, several reduction loops, 64-bit elements, an argmax's two
// results) still should not load and store their outputs in every
// iteration, as convert-linalg-to-parallel-loops makes them do: here each
// thread keeps a tile of outputs in registers across the reduction loops.
//
//===----------------------------------------------------------------------===//

#include "Reductions.h"

#include "ke/Codegen/LinalgOnBuffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <algorithm>

using namespace mlir;
using ke::detail::applyMap;

namespace ke::gpu_reductions {

/// One thread per output tile (an scf.parallel the block tiling maps)
/// folding the reduction loops into registers and storing once. What
/// convert-linalg-to-parallel-loops makes instead loads and stores the
/// output in every iteration (the buffers may alias, so LLVM keeps them).
/// `threadTile`, right-aligned on the parallel loops (sizes that do not
/// divide a loop become 1), gives each thread a tile of outputs: the
/// loads of one reduction iteration are the same for a row or a column of
/// the tile, and LLVM merges them (no store in between), so a 4x4 tile of
/// a matmul loads 8 values for 16 FMAs instead of 32.
void accumulateInRegisters(const RowReduction &reduction,
                           ArrayRef<int64_t> threadTile) {
  linalg::LinalgOp op = reduction.op;
  Location loc = op.getLoc();
  OpBuilder builder(op);
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  SmallVector<int64_t> parallelBounds;
  SmallVector<Value> reductionUpper;
  for (auto [bound, iterator] : llvm::zip(bounds, iterators)) {
    if (iterator == utils::IteratorType::reduction)
      reductionUpper.push_back(constant(bound));
    else
      parallelBounds.push_back(bound);
  }
  SmallVector<int64_t> steps(parallelBounds.size(), 1);
  for (size_t i = 0; i < std::min(threadTile.size(), steps.size()); ++i) {
    size_t loop = steps.size() - 1 - i;
    int64_t size = threadTile[threadTile.size() - 1 - i];
    if (size > 0 && parallelBounds[loop] % size == 0)
      steps[loop] = size;
  }
  // The tile's offsets, row-major, and the loop-ordered ivs of each.
  SmallVector<SmallVector<int64_t>> offsets = {{}};
  for (int64_t step : steps) {
    SmallVector<SmallVector<int64_t>> next;
    for (const SmallVector<int64_t> &prefix : offsets)
      for (int64_t offset = 0; offset < step; ++offset) {
        next.push_back(prefix);
        next.back().push_back(offset);
      }
    offsets = std::move(next);
  }
  Value zero = constant(0), one = constant(1);
  SmallVector<Value> parallelZeros(parallelBounds.size(), zero), parallelUpper,
      parallelSteps, reductionZeros(reductionUpper.size(), zero),
      reductionOnes(reductionUpper.size(), one);
  // Unit steps over tiles (corner = index x tile): upstream's tiling of
  // parallel loops guards non-unit steps wrongly (it scales the inner
  // index by the step twice; a conv2d lost outputs that way).
  for (int64_t bound : parallelBounds)
    parallelUpper.push_back(constant(bound));
  for (auto [upper, bound, step] :
       llvm::zip(parallelUpper, parallelBounds, steps)) {
    upper = constant(bound / step);
    parallelSteps.push_back(one);
  }
  auto merge = [&](ValueRange parallel, ValueRange reductions) {
    return interleaveIvs(op, parallel, reductions);
  };
  // Accumulators point-major, one per output of the op.
  unsigned numInits = op.getNumDpsInits();
  scf::ParallelOp::create(
      builder, loc, parallelZeros, parallelUpper, parallelSteps,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange tileIndex) {
        SmallVector<Value> corner;
        for (auto [index, step] : llvm::zip(tileIndex, steps))
          corner.push_back(
              step == 1 ? index
                        : arith::MulIOp::create(nested, nestedLoc, index,
                                                arith::ConstantIndexOp::create(
                                                    nested, nestedLoc, step)));
        // Parallel ivs of every output of the thread's tile.
        SmallVector<SmallVector<Value>> points;
        for (const SmallVector<int64_t> &offset : offsets) {
          SmallVector<Value> point;
          for (auto [iv, delta] : llvm::zip(corner, offset))
            point.push_back(delta == 0 ? iv
                                       : arith::AddIOp::create(
                                             nested, nestedLoc, iv,
                                             arith::ConstantIndexOp::create(
                                                 nested, nestedLoc, delta)));
          points.push_back(point);
        }
        SmallVector<SmallVector<Value>> outputIndices;
        SmallVector<Value> initial;
        for (const SmallVector<Value> &point : points)
          for (OpOperand &init : op.getDpsInitsMutable()) {
            outputIndices.push_back(
                applyMap(nested, nestedLoc, op.getMatchingIndexingMap(&init),
                         merge(point, reductionZeros)));
            Value start = reduction.fillValue(init.getOperandNumber() -
                                              op.getNumDpsInputs());
            if (!start)
              start = memref::LoadOp::create(nested, nestedLoc, init.get(),
                                             outputIndices.back());
            initial.push_back(start);
          }
        scf::LoopNest nest = scf::buildLoopNest(
            nested, nestedLoc, reductionZeros, reductionUpper, reductionOnes,
            initial,
            [&](OpBuilder &inner, Location innerLoc, ValueRange reductions,
                ValueRange accumulators) -> scf::ValueVector {
              scf::ValueVector next;
              for (auto [index, point] : llvm::enumerate(points)) {
                SmallVector<Value> ivs = merge(point, reductions);
                if (!reduction.combiner) {
                  llvm::append_range(
                      next, emitBody(inner, innerLoc, op, ivs,
                                     accumulators.slice(index * numInits,
                                                        numInits)));
                  continue;
                }
                Value element = emitElement(inner, innerLoc, reduction, ivs);
                next.push_back(
                    fold(inner, reduction, accumulators[index], element));
              }
              return next;
            });
        for (auto [index, result] : llvm::enumerate(nest.results))
          memref::StoreOp::create(
              nested, nestedLoc, result,
              op.getDpsInitOperand(index % numInits)->get(),
              outputIndices[index]);
      });
  op->erase();
}

} // namespace ke::gpu_reductions
