//===- SplitReductionsForGPU.cpp - ke-split-reductions-for-gpu ------------===//
//
// The GPU maps a reduction's outputs to thread blocks: a reduction to a
// scalar is one block (one thread, with several reduction loops), however
// long. Collapsing its loops and splitting it into chunks gives it many.
//
//===----------------------------------------------------------------------===//

#include "DistributeReductionsForGPU/Reductions.h"
#include "ke/Codegen/Passes.h"
#include "ke/Codegen/ReductionLoops.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <algorithm>

namespace ke {
#define GEN_PASS_DEF_KESPLITREDUCTIONSFORGPU
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
struct SplitReductionsForGPUPass
    : ke::impl::KeSplitReductionsForGPUBase<SplitReductionsForGPUPass> {
  using Base::Base;

  /// A reduction along an outer loop gives each output one thread, which
  /// walks its column: an argmax over the middle dimension of 2 x 1024 x 2047
  /// is 4094 threads reading 16 MB, far too few to keep the memory busy. Its
  /// loop is split into chunks of at least `min-column-chunk` elements until
  /// outputs x chunks reach `column-threads`, and into no more chunks than
  /// each has elements: the fold walks the chunks of each column the same
  /// way (a column sum of 65536 x 4 in 2048 chunks would leave 4 threads
  /// 2048 partials each; in 256, 256).
  /// Fewer chunks would not pay for the fold's extra launch (a min over 64
  /// channels of 2 x 126 x 126 pixels, 31752 threads already, in 2).
  static constexpr int64_t kFewestColumnChunks = 4;

  /// Combiners with a GPU atomic (column sums, signed integer max/min) are
  /// left to `ke-distribute-reductions-for-gpu`, which spreads them over
  /// threads already, each folding its chunk in with an atomic, in one
  /// launch.
  void splitColumns(RewriterBase &rewriter, linalg::LinalgOp op) {
    if (op.getNumReductionLoops() != 1)
      return;
    Operation *combiner =
        op.getBlock()->getTerminator()->getOperand(0).getDefiningOp();
    if (op->getNumResults() == 1 && combiner &&
        ke::gpu_reductions::atomicKind(combiner))
      return;
    SmallVector<unsigned> reductions;
    op.getReductionDims(reductions);
    int64_t outputs = ke::getNumOutputElements(op);
    int64_t length = op.getStaticLoopRanges()[reductions.front()];
    for (int64_t count = std::min(columnThreads / std::max<int64_t>(outputs, 1),
                                  length / minColumnChunk);
         count >= kFewestColumnChunks; --count)
      if (length % count == 0 && count * count <= length) {
        (void)ke::splitReductionLoop(rewriter, op, count);
        return;
      }
  }

  void runOnOperation() override {
    if (blocks < 2 || minChunk < 1 || columnThreads < 1 || minColumnChunk < 1 ||
        minSplitLength < 0) {
      getOperation()->emitError()
          << "ke-split-reductions-for-gpu: blocks must be at least 2, "
             "min-chunk, column-threads and min-column-chunk positive and "
             "min-split-length not negative (got "
          << blocks.getValue() << ", " << minChunk.getValue() << ", "
          << columnThreads.getValue() << ", " << minColumnChunk.getValue()
          << " and " << minSplitLength.getValue() << ")";
      return signalPassFailure();
    }
    SmallVector<linalg::LinalgOp> reductions;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && op.getNumReductionLoops() > 0 &&
          llvm::none_of(op.getStaticLoopRanges(), ShapedType::isDynamic))
        reductions.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : reductions) {
      // The innermost run of reduction loops into one (all of them when
      // they are consecutive and the operands allow it; a norm's
      // statistics over (n, h, w) per channel: h and w).
      if (linalg::LinalgOp collapsed =
              ke::collapseInnermostReductionLoops(rewriter, op))
        op = collapsed;
      SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
      if (iterators.back() != utils::IteratorType::reduction) {
        splitColumns(rewriter, op);
        continue;
      }
      int64_t outputs = ke::getNumOutputElements(op);
      int64_t length = op.getStaticLoopRanges().back();
      int64_t total = ke::getReductionLength(op);
      // Short reductions stay whole: one block reads them faster than the
      // partials' second launch pays back, and whole they can share a
      // kernel with the ops around them (a softmax over one row of 2048:
      // with a Linear layer at batch 1: 10 launches split, 2 whole).
      if (outputs * 2 > blocks || total < minSplitLength)
        continue;
      // The most chunks within the blocks, each long enough and all of the
      // same length (a divisor of the loop: a batch norm over 31 x 31 x 63
      // elements splits in 7); other reduction loops stay in every chunk.
      int64_t chunks = 1;
      for (int64_t count = std::min(blocks / outputs, length / 2); count >= 2;
           --count)
        if (length % count == 0 && total / count >= minChunk) {
          chunks = count;
          break;
        }
      if (chunks < 2)
        continue;
      // An arg reduction has no neutral pair to start partials from in
      // place; its partials keep positions instead.
      if (failed(ke::splitInnermostReductionLoop(rewriter, op, chunks)) &&
          op->getNumResults() == 2)
        (void)ke::splitReductionLoop(rewriter, op, chunks);
    }
  }
};
} // namespace
