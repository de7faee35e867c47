//===- TileParallelLoopsForGPU.cpp - thread blocks out of parallel loops --===//
//
// Upstream scf-parallel-loop-tiling applies one list of sizes to every
// loop whatever its rank, so a 1-D loop got 16-thread blocks; this picks
// sizes per loop (and per function, from the search's knob), after
// collapsing loops of more than three dimensions into three.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/GPUSchedule.h"
#include "ke/Codegen/Passes.h"
#include "ke/KeDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/bit.h"

namespace ke {
#define GEN_PASS_DEF_KETILEPARALLELLOOPSFORGPU
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// `sizes` right-aligned on `rank` dimensions, 1 for the outer ones.
SmallVector<int64_t> alignTile(ArrayRef<int64_t> sizes, unsigned rank) {
  SmallVector<int64_t> tile(rank, 1);
  for (unsigned i = 0; i < std::min<size_t>(rank, sizes.size()); ++i)
    tile[rank - 1 - i] = sizes[sizes.size() - 1 - i];
  return tile;
}

/// Threads per block when nothing says otherwise: at least `minBlocks`
/// blocks, to keep every SM of the GPU busy (a 2048-row reduction in
/// 256-thread blocks ran on 8 SMs of 132), at most 256 threads, at least a
/// warp.
SmallVector<int64_t> chooseTile(scf::ParallelOp loop, int64_t minBlocks) {
  unsigned rank = loop.getNumLoops();
  SmallVector<int64_t> trips;
  int64_t total = 1;
  for (auto [lower, upper, step] :
       llvm::zip(loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
    std::optional<int64_t> lo = getConstantIntValue(lower);
    std::optional<int64_t> hi = getConstantIntValue(upper);
    std::optional<int64_t> st = getConstantIntValue(step);
    int64_t trip =
        lo && hi && st && *st > 0 ? (*hi - *lo + *st - 1) / *st : 1024;
    trips.push_back(trip);
    total *= trip;
  }
  int64_t threads = 32;
  while (threads < 256 && total / (threads * 2) >= minBlocks)
    threads *= 2;
  SmallVector<int64_t> tile(rank, 1);
  if (rank == 1) {
    tile[0] = threads;
    return tile;
  }
  // Along x (the innermost loop) up to a warp, the rest along the next
  // loops outward, each given no more threads than it has iterations (a
  // max pool's (n x c, 1, width): 8 threads along the unit loop left 7 of
  // every 8 idle).
  int64_t x = std::min<int64_t>(32, std::max<int64_t>(1, trips.back()));
  tile[rank - 1] = x;
  int64_t remaining = std::max<int64_t>(1, threads / x);
  for (int64_t dim = static_cast<int64_t>(rank) - 2; dim >= 0 && remaining > 1;
       --dim) {
    int64_t size = std::min<int64_t>(
        remaining, static_cast<int64_t>(llvm::bit_ceil(
                       static_cast<uint64_t>(std::max<int64_t>(1, trips[dim])))));
    tile[dim] = size;
    remaining /= size;
  }
  return tile;
}

/// Moves the dimension of `loop` that indexes the innermost (contiguous)
/// dimension of the first buffer its body stores to, if any, to the end:
/// innermost-first mapping puts it on threadIdx.x, so a warp's stores (and
/// its loads of inputs laid out alike) are coalesced. Loops follow the
/// op's iterators, not its output's layout (a depthwise NCHW convolution
/// iterates (n, oh, ow, c), its output is [n][c][oh][ow]).
void moveContiguousDimensionLast(RewriterBase &rewriter, scf::ParallelOp loop) {
  if (!loop.getInitVals().empty())
    return;
  std::optional<unsigned> contiguous;
  loop.getBody()->walk([&](memref::StoreOp store) {
    MemRefType type = store.getMemRefType();
    if (contiguous || type.getRank() == 0 || !type.getLayout().isIdentity())
      return;
    for (auto [dim, iv] : llvm::enumerate(loop.getInductionVars()))
      if (iv == store.getIndices().back())
        contiguous = dim;
  });
  unsigned rank = loop.getNumLoops();
  if (!contiguous || *contiguous + 1 == rank)
    return;
  SmallVector<unsigned> order;
  for (unsigned dim = 0; dim < rank; ++dim)
    if (dim != *contiguous)
      order.push_back(dim);
  order.push_back(*contiguous);
  auto permute = [&](OperandRange values) {
    SmallVector<Value> permuted;
    for (unsigned dim : order)
      permuted.push_back(values[dim]);
    return permuted;
  };
  rewriter.setInsertionPoint(loop);
  auto permuted = scf::ParallelOp::create(
      rewriter, loop.getLoc(), permute(loop.getLowerBound()),
      permute(loop.getUpperBound()), permute(loop.getStep()));
  // The old body's ivs, in its order, from the new loop's.
  SmallVector<Value> ivs(rank);
  for (auto [position, dim] : llvm::enumerate(order))
    ivs[dim] = permuted.getInductionVars()[position];
  Block *body = permuted.getBody();
  rewriter.eraseOp(body->getTerminator());
  rewriter.mergeBlocks(loop.getBody(), body, ivs);
  rewriter.eraseOp(loop);
}

struct TileParallelLoopsForGPUPass
    : ke::impl::KeTileParallelLoopsForGPUBase<TileParallelLoopsForGPUPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    ke::GPUSchedule options;
    options.blockTile.assign(blockTile.begin(), blockTile.end());
    ke::GPUSchedule schedule = ke::GPUSchedule::get(function, options);
    SmallVector<int64_t> sizes(schedule.blockTile.begin(),
                               schedule.blockTile.end());
    auto collectOutermost = [&] {
      SmallVector<scf::ParallelOp> outermost;
      function.walk([&](scf::ParallelOp loop) {
        if (!loop->getParentOfType<scf::ParallelOp>())
          outermost.push_back(loop);
      });
      return outermost;
    };
    // The grid and the block have three dimensions each: loops beyond them
    // would run sequentially in every thread (a 5-D elementwise op over
    // 64 x 16 x 14 x 30 x 30 looped over 64 x 16 in each block, at 33
    // GB/s). The outer ones become one loop.
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp loop : collectOutermost())
      moveContiguousDimensionLast(rewriter, loop);
    bool collapsed = false;
    for (scf::ParallelOp loop : collectOutermost()) {
      unsigned rank = loop.getNumLoops();
      if (rank <= 3)
        continue;
      std::vector<unsigned> outer;
      for (unsigned dim = 0; dim + 2 < rank; ++dim)
        outer.push_back(dim);
      rewriter.setInsertionPoint(loop);
      collapseParallelLoops(rewriter, loop, {outer, {rank - 2}, {rank - 1}});
      collapsed = true;
    }
    // The collapsed bounds are products of constants: folded, so that the
    // block sizes below see the trip counts.
    if (collapsed)
      (void)applyPatternsGreedily(function, FrozenRewritePatternSet());
    for (scf::ParallelOp loop : collectOutermost()) {
      unsigned rank = loop.getNumLoops();
      SmallVector<int64_t> tile =
          sizes.empty() ? chooseTile(loop, minBlocks) : alignTile(sizes, rank);
      if (!sizes.empty() && rank == 1 && sizes.size() > 1) {
        // A 1-D loop takes the whole block along x.
        int64_t threads = 1;
        for (int64_t size : sizes)
          threads *= size;
        tile = {threads};
      }
      scf::tileParallelLoop(loop, tile, /*noMinMaxBounds=*/true);
    }
  }
};
} // namespace
