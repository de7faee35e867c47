//===- RankReduceContractions.cpp - ke-rank-reduce-contractions -----------===//
//
// A batch_matmul with one batch (torch.matmul of a 4-D tensor by a matrix)
// is a matmul; the CPU schedule's register-blocked matmul path only sees it
// as one once the unit dimension is gone. Upstream's rank-reducing patterns
// are not used: they also turn a one-row matmul into a vecmat, which the
// CPU schedule runs 15x slower than the matmul it was.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace ke {
#define GEN_PASS_DEF_KERANKREDUCECONTRACTIONS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// The [batch * rows, columns] view of a [1, rows, columns] tensor.
Value dropBatch(PatternRewriter &rewriter, Location loc, Value value) {
  return tensor::CollapseShapeOp::create(
      rewriter, loc, value, SmallVector<ReassociationIndices>{{0, 1}, {2}});
}

/// linalg.batch_matmul (default maps) of one batch, on tensors ->
/// collapse_shape, linalg.matmul, expand_shape.
struct BatchOfOneToMatmul : OpRewritePattern<linalg::BatchMatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::BatchMatmulOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.hasUserDefinedMaps())
      return rewriter.notifyMatchFailure(op, "not on tensors, or transposed");
    for (Value operand : op->getOperands()) {
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type || type.getRank() != 3 || type.getDimSize(0) != 1)
        return rewriter.notifyMatchFailure(op, "not a batch of one");
    }
    Location loc = op.getLoc();
    Value lhs = dropBatch(rewriter, loc, op.getDpsInputs()[0]);
    Value rhs = dropBatch(rewriter, loc, op.getDpsInputs()[1]);
    Value init = dropBatch(rewriter, loc, op.getDpsInits()[0]);
    // A cast is given at creation: the builder makes the body from it
    // (setting the attribute after would leave a signed body). Without one,
    // the default (signed) is the batch_matmul's too.
    SmallVector<Type> resultTypes = {init.getType()};
    SmallVector<Value> inputs = {lhs, rhs}, outputs = {init};
    linalg::MatmulOp matmul =
        op.getCastAttr()
            ? linalg::MatmulOp::create(rewriter, loc, resultTypes, inputs,
                                       outputs, op.getCastAttr())
            : linalg::MatmulOp::create(rewriter, loc, resultTypes, inputs,
                                       outputs);
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, op.getResultTypes()[0], matmul.getResult(0),
        SmallVector<ReassociationIndices>{{0, 1}, {2}});
    return success();
  }
};

struct RankReduceContractionsPass
    : ke::impl::KeRankReduceContractionsBase<RankReduceContractionsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<BatchOfOneToMatmul>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
