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

struct FuseElementwiseOpsPass
    : ke::impl::KeFuseElementwiseOpsBase<FuseElementwiseOpsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    linalg::populateElementwiseOpsFusionPatterns(patterns, shouldFuse);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, hasOneUse);
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
