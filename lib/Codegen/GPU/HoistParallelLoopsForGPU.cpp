//===- HoistParallelLoopsForGPU.cpp - ke-hoist-parallel-loops-for-gpu -----===//
//
// convert-linalg-to-parallel-loops makes one scf.parallel (the GPU's grid)
// of a linalg op's leading parallel loops only: a parallel loop after a
// reduction loop runs sequentially inside each thread. An argmax over the
// middle dimension of a 2 x 1024 x 2047 tensor ran on 2 threads. Moving the
// parallel loops first keeps every output element's reduction in its
// order, so results are the same bits.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/LoopInterchange.h"
#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace ke {
#define GEN_PASS_DEF_KEHOISTPARALLELLOOPSFORGPU
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// The loop order with the parallel loops first, each group in its order;
/// empty when no parallel loop follows a reduction loop.
SmallVector<unsigned> parallelLoopsFirst(linalg::LinalgOp op) {
  SmallVector<unsigned> parallel, reduction;
  for (auto [loop, iterator] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (iterator != utils::IteratorType::reduction)
      parallel.push_back(loop);
    else
      reduction.push_back(loop);
  }
  if (reduction.empty() || parallel.empty() ||
      parallel.back() < reduction.front())
    return {};
  parallel.append(reduction);
  return parallel;
}

struct HoistParallelLoopsForGPUPass
    : ke::impl::KeHoistParallelLoopsForGPUBase<HoistParallelLoopsForGPUPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (!parallelLoopsFirst(op).empty())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    // A named op without a region builder is left as it is.
    for (linalg::LinalgOp op : ops)
      (void)ke::interchangeLoops(rewriter, op, parallelLoopsFirst(op));
  }
};
} // namespace
