//===- FuseElementwiseOps.cpp - ke-fuse-elementwise-ops -------------------===//
//
// Upstream's elementwise fusion, minus the fusions that recompute: a
// producer fused into a consumer that reads it along fewer loops than it has
// is evaluated once per iteration of the other loops (attention's softmax
// fused into P x V ran its division 128 times per element).
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace ke {
#define GEN_PASS_DEF_KEFUSEELEMENTWISEOPS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// Whether recomputing `producer`'s payload per use costs next to nothing:
/// data movement (a broadcast, a transpose, a cast) or one cheap op. Math
/// functions and divisions are never cheap.
bool isCheapToRecompute(linalg::GenericOp producer) {
  int64_t ops = 0;
  for (Operation &op : producer.getBody()->without_terminator()) {
    if (isa<linalg::IndexOp>(op) || op.hasTrait<OpTrait::ConstantLike>())
      continue;
    if (isa<math::MathDialect>(op.getDialect()) ||
        isa<arith::DivFOp, arith::DivSIOp, arith::DivUIOp, arith::RemFOp,
            arith::RemSIOp, arith::RemUIOp, arith::CeilDivSIOp,
            arith::FloorDivSIOp>(op))
      return false;
    ++ops;
  }
  return ops <= 1;
}

/// Upstream's rule (a producer with one use, so nothing is computed for
/// two consumers), and no recomputation of expensive producers.
bool shouldFuse(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  auto consumer = dyn_cast<linalg::LinalgOp>(fused->getOwner());
  auto generic = dyn_cast<linalg::GenericOp>(producer);
  if (!consumer || !generic)
    return true;
  // Every loop of the consumer indexes the operand: each element is read
  // once, whatever the producer costs.
  AffineMap map = consumer.getMatchingIndexingMap(fused);
  llvm::SmallBitVector used(consumer.getNumLoops());
  for (AffineExpr result : map.getResults())
    for (unsigned loop = 0; loop < consumer.getNumLoops(); ++loop)
      if (result.isFunctionOfDim(loop))
        used.set(loop);
  return used.all() || isCheapToRecompute(generic);
}

bool hasOneUse(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  return producer && producer->hasOneUse();
}

/// Whether reshaping `contraction`'s operand or result indexed by `map` with
/// `reassociation` (one group per dimension of it) would split the
/// contraction's column loop (its output's innermost) or a reduction loop
/// into several loops.
bool splitsColumnsOrReduction(linalg::LinalgOp contraction, AffineMap map,
                              ArrayRef<ReassociationIndices> reassociation) {
  AffineMap outputMap =
      contraction.getMatchingIndexingMap(contraction.getDpsInitOperand(0));
  auto column = dyn_cast<AffineDimExpr>(
      outputMap.getResult(outputMap.getNumResults() - 1));
  SmallVector<utils::IteratorType> iterators =
      contraction.getIteratorTypesArray();
  for (auto [dim, group] : llvm::enumerate(reassociation)) {
    if (group.size() < 2 || dim >= map.getNumResults())
      continue;
    auto loop = dyn_cast<AffineDimExpr>(map.getResult(dim));
    if (!loop || (column && loop.getPosition() == column.getPosition()) ||
        iterators[loop.getPosition()] == utils::IteratorType::reduction)
      return true;
  }
  return false;
}

/// Upstream's rule for folding a reshape into the linalg op beside it, except
/// where it would split a contraction's columns or reduction: a group norm's
/// view of a Linear's features as groups x channels, folded into the matmul,
/// left it 4-wide columns that no register block or packing fits
/// (KernelBench's Gemm+GroupNorm ran its GEMM in 0.76 s). Splitting its rows
/// (batches of an einsum) is harmless and still folds.
bool shouldFoldReshape(OpOperand *fused) {
  if (!hasOneUse(fused))
    return false;
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(fused->getOwner())) {
    auto contraction = fused->get().getDefiningOp<linalg::LinalgOp>();
    if (contraction && linalg::isaContractionOpInterface(contraction))
      return !splitsColumnsOrReduction(
          contraction,
          contraction.getIndexingMapMatchingResult(
              cast<OpResult>(fused->get())),
          expand.getReassociationIndices());
  }
  auto contraction = dyn_cast<linalg::LinalgOp>(fused->getOwner());
  if (contraction && linalg::isaContractionOpInterface(contraction))
    if (auto collapse = fused->get().getDefiningOp<tensor::CollapseShapeOp>())
      return !splitsColumnsOrReduction(
          contraction, contraction.getMatchingIndexingMap(fused),
          collapse.getReassociationIndices());
  return true;
}

struct FuseElementwiseOpsPass
    : ke::impl::KeFuseElementwiseOpsBase<FuseElementwiseOpsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    linalg::populateElementwiseOpsFusionPatterns(patterns, shouldFuse);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns,
                                                    shouldFoldReshape);
    linalg::populateConstantFoldLinalgOperations(patterns, hasOneUse);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config)))
      return signalPassFailure();
  }
};
} // namespace
