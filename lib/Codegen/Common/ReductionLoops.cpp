//===- ReductionLoops.cpp - reductions reshaped for parallel hardware -----===//

#include "ke/Codegen/ReductionLoops.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

using namespace mlir;

linalg::LinalgOp ke::collapseReductionLoops(RewriterBase &rewriter,
                                            linalg::LinalgOp op) {
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);
  if (!isa<linalg::GenericOp>(op) || !op.hasPureTensorSemantics() ||
      reductions.size() < 2 || op.hasIndexSemantics() ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isProjectedPermutation(); }))
    return nullptr;
  for (auto [index, loop] : llvm::enumerate(reductions))
    if (loop != reductions.front() + index)
      return nullptr;
  ReassociationIndices loops(reductions.begin(), reductions.end());
  if (!linalg::areDimSequencesPreserved(op.getIndexingMapsArray(), {loops}))
    return nullptr;
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::CollapseResult> collapsed =
      linalg::collapseOpIterationDims(op, {loops}, rewriter);
  if (failed(collapsed) || collapsed->collapsedOp.getNumReductionLoops() != 1)
    return nullptr;
  rewriter.replaceOp(op, collapsed->results);
  return collapsed->collapsedOp;
}

int64_t ke::getNumOutputElements(linalg::LinalgOp op) {
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  int64_t outputs = 1;
  for (auto [loop, iterator] : llvm::enumerate(op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::parallel)
      outputs *= bounds[loop];
  return outputs;
}

int64_t ke::getReductionLength(linalg::LinalgOp op) {
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  int64_t length = 1;
  for (auto [loop, iterator] : llvm::enumerate(op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::reduction)
      length *= bounds[loop];
  return length;
}

FailureOr<linalg::SplitReductionResult>
ke::splitReductionIntoChunks(RewriterBase &rewriter, linalg::LinalgOp op,
                             int64_t chunks) {
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);
  if (reductions.size() != 1 || op.hasIndexSemantics() ||
      op->getNumResults() != 1 || op.getNumDpsInits() != 1 || chunks < 2)
    return failure();
  int64_t length = op.getStaticLoopRanges()[reductions.front()];
  if (ShapedType::isDynamic(length) || length % chunks != 0 ||
      length == chunks)
    return failure();
  auto control = [&](linalg::LinalgOp) {
    return linalg::SplitReductionOptions{chunks, 0, /*innerParallel=*/false};
  };
  rewriter.setInsertionPoint(op);
  return linalg::splitReduction(rewriter, op, control);
}
