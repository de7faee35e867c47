//===- DistributeReductionsForGPU.cpp - reductions spread over the GPU ----===//
//
// Mapped as parallel loops, a reduction runs sequentially in one thread per
// output element, and an outer reduction loop stays on the host around one
// launch per iteration. This pass rewrites each linalg reduction on buffers
// with one of five strategies, one file each: runs of row ops over the same
// rows in one kernel (FusedRows.cpp), rows reduced by thread blocks
// (RowsByBlocks.cpp) or, when short, by warps (RowsByWarps.cpp), column
// sums folded with atomics
// (ColumnsWithAtomics.cpp), and for every other reduction the outputs
// accumulated in registers (RegisterAccumulation.cpp). The match they
// share is in Matchers.cpp; this file picks the strategy.
//
//===----------------------------------------------------------------------===//

#include "ke/KeDialect.h"
#include "ke/Codegen/GPUSchedule.h"
#include "ke/Codegen/Passes.h"

#include "ke/Codegen/LinalgOnBuffers.h"
#include "ke/Codegen/ReductionLoops.h"
#include "Reductions.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace ke {
#define GEN_PASS_DEF_KEDISTRIBUTEREDUCTIONSFORGPU
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;
using namespace ke::gpu_reductions;
using ke::detail::findInitializingFill;

namespace {
/// Rows shorter than this many elements (a warp) are not given a block.
constexpr int64_t kMinRowLength = 32;
/// Warps (rows) per block of the warp-per-row strategy.
constexpr int64_t kWarpRowsPerBlock = 4;

struct DistributeReductionsForGPUPass
    : ke::impl::KeDistributeReductionsForGPUBase<
          DistributeReductionsForGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    // The function's knobs (set by the search) win over the options.
    func::FuncOp function = getOperation();
    ke::GPUSchedule options;
    options.reductionThreads = maxThreads;
    options.threadTile.assign(threadTile.begin(), threadTile.end());
    ke::GPUSchedule schedule = ke::GPUSchedule::get(function, options);
    int64_t rowThreads = schedule.reductionThreads;
    SmallVector<int64_t> outputsPerThread(schedule.threadTile.begin(),
                                          schedule.threadTile.end());
    // Runs of row reductions and elementwise ops over the same rows: one
    // kernel each.
    // Not for rows shorter than a warp: a group norm's groups of 4 took
    // 131072 blocks with 4 busy threads each.
    if (rowThreads > 0 && fuseRows)
      for (const FusedRows &run : findFusedRows(function))
        if (run.rowLength >= kMinRowLength)
          distributeFusedRows(run, rowThreads);
    SmallVector<RowReduction> distributed, accumulated;
    // A row shorter than a warp would leave most of its block idle (a
    // group norm over groups of 4 channels: 131072 rows of 4); one thread
    // per row accumulating in registers does better.
    auto isShortRow = [](const RowReduction &reduction) {
      return reduction.isRow() &&
             ke::getReductionLength(reduction.op) < kMinRowLength;
    };
    getOperation().walk([&](linalg::LinalgOp op) {
      std::optional<RowReduction> reduction;
      if (rowThreads > 0 && (reduction = matchRowReduction(op)) &&
          !isShortRow(*reduction))
        distributed.push_back(*reduction);
      else if ((reduction = matchAccumulation(op)) &&
               op.getNumParallelLoops() > 0)
        accumulated.push_back(*reduction);
    });
    // Column sums add atomically into the filled output: they keep it.
    // Register accumulation starts each output (an argmax's two) from its
    // own fill.
    auto useFills = [](RowReduction &reduction) {
      for (unsigned init = 0, e = reduction.op.getNumDpsInits(); init < e;
           ++init) {
        linalg::FillOp fill = findInitializingFill(reduction.op, init);
        // One buffer given as two outputs: its fill is erased once.
        if (llvm::is_contained(reduction.fills, fill))
          fill = {};
        reduction.fills.push_back(fill);
      }
    };
    for (RowReduction &reduction : distributed)
      if (reduction.isRow())
        useFills(reduction);
    for (RowReduction &reduction : accumulated)
      useFills(reduction);
    for (const RowReduction &reduction : distributed) {
      linalg::LinalgOp op = reduction.op;
      if (reduction.isRow() && op.getNumParallelLoops() > 0 &&
          ke::getReductionLength(op) <= warpRowLength)
        distributeByWarps(reduction, kWarpRowsPerBlock);
      else if (reduction.isRow())
        distribute(reduction, rowThreads);
      else
        distributeColumns(reduction);
    }
    for (const RowReduction &reduction : accumulated)
      accumulateInRegisters(reduction, outputsPerThread);
    for (const RowReduction &reduction :
         llvm::concat<const RowReduction>(distributed, accumulated))
      for (linalg::FillOp fill : reduction.fills)
        if (fill)
          fill->erase();
  }
};
} // namespace
