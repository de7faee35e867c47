//===- SplitReductionsForGPU.cpp - ke-split-reductions-for-gpu ------------===//
//
// The GPU maps a reduction's outputs to thread blocks: a reduction to a
// scalar is one block (one thread, with several reduction loops), however
// long. Collapsing its loops and splitting it into chunks gives it many.
//
//===----------------------------------------------------------------------===//

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

  void runOnOperation() override {
    if (blocks < 2 || minChunk < 1) {
      getOperation()->emitError()
          << "ke-split-reductions-for-gpu: blocks must be at least 2 and "
             "min-chunk positive (got "
          << blocks.getValue() << " and " << minChunk.getValue() << ")";
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
      if (iterators.back() != utils::IteratorType::reduction)
        continue;
      int64_t outputs = ke::getNumOutputElements(op);
      int64_t length = op.getStaticLoopRanges().back();
      int64_t total = ke::getReductionLength(op);
      if (outputs * 2 > blocks)
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
      (void)ke::splitInnermostReductionLoop(rewriter, op, chunks);
    }
  }
};
} // namespace
