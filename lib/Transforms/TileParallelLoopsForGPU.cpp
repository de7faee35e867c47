//===- TileParallelLoopsForGPU.cpp - thread blocks out of parallel loops --===//
//
// Upstream scf-parallel-loop-tiling applies one list of sizes to every
// loop whatever its rank, so a 1-D loop got 16-thread blocks; this picks
// sizes per loop (and per function, from the search's knob).
//
//===----------------------------------------------------------------------===//

#include "ke/KeDialect.h"
#include "ke/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"

namespace ke {
#define GEN_PASS_DEF_KETILEPARALLELLOOPSFORGPU
#include "ke/Transforms/Passes.h.inc"
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

struct TileParallelLoopsForGPUPass
    : ke::impl::KeTileParallelLoopsForGPUBase<TileParallelLoopsForGPUPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    SmallVector<int64_t> sizes(blockTile.begin(), blockTile.end());
    if (auto knob = function->getAttrOfType<DenseI64ArrayAttr>(
            ke::KeDialect::kGPUBlockTileAttrName))
      sizes.assign(knob.asArrayRef().begin(), knob.asArrayRef().end());
    if (sizes.empty())
      sizes = {8, 32}; // 256 threads; 1-D loops get 256 along x below
    SmallVector<scf::ParallelOp> outermost;
    function.walk([&](scf::ParallelOp loop) {
      if (!loop->getParentOfType<scf::ParallelOp>())
        outermost.push_back(loop);
    });
    for (scf::ParallelOp loop : outermost) {
      unsigned rank = loop.getNumLoops();
      SmallVector<int64_t> tile = alignTile(sizes, rank);
      if (rank == 1 && sizes.size() > 1) {
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
