//===- StructuredMatchers.cpp - reading linalg ops' maps and bodies -------===//

#include "ke/Codegen/StructuredMatchers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

FailureOr<SmallVector<std::pair<unsigned, int64_t>>>
ke::getLinearTerms(AffineExpr expr) {
  SmallVector<std::pair<unsigned, int64_t>> terms;
  SmallVector<AffineExpr> pending = {expr};
  while (!pending.empty()) {
    AffineExpr term = pending.pop_back_val();
    if (auto sum = dyn_cast<AffineBinaryOpExpr>(term);
        sum && sum.getKind() == AffineExprKind::Add) {
      pending.push_back(sum.getLHS());
      pending.push_back(sum.getRHS());
      continue;
    }
    int64_t coefficient = 1;
    if (auto product = dyn_cast<AffineBinaryOpExpr>(term);
        product && product.getKind() == AffineExprKind::Mul) {
      auto constant = dyn_cast<AffineConstantExpr>(product.getRHS());
      if (!constant || constant.getValue() < 1)
        return failure();
      coefficient = constant.getValue();
      term = product.getLHS();
    }
    auto dim = dyn_cast<AffineDimExpr>(term);
    if (!dim)
      return failure();
    terms.push_back({dim.getPosition(), coefficient});
  }
  return terms;
}

/// The block argument `value` is, through at most one `arith.extf`.
static BlockArgument stripExtension(Value value) {
  if (auto ext = value.getDefiningOp<arith::ExtFOp>())
    value = ext.getIn();
  return dyn_cast<BlockArgument>(value);
}

bool ke::isMultiplyAccumulateBody(linalg::LinalgOp op, unsigned a, unsigned b) {
  if (op.getNumDpsInits() != 1)
    return false;
  Block *body = op.getBlock();
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || yield.getNumOperands() != 1)
    return false;
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || add->getBlock() != body)
    return false;
  BlockArgument accumulator = op.getRegionOutputArgs().front();
  Value product = add.getLhs() == accumulator   ? add.getRhs()
                  : add.getRhs() == accumulator ? add.getLhs()
                                                : Value();
  auto multiply = product ? product.getDefiningOp<arith::MulFOp>() : nullptr;
  if (!multiply || multiply->getBlock() != body || !product.hasOneUse())
    return false;
  BlockArgument lhs = stripExtension(multiply.getLhs()),
                rhs = stripExtension(multiply.getRhs());
  BlockArgument aArg = op.getMatchingBlockArgument(op.getDpsInputOperand(a)),
                bArg = op.getMatchingBlockArgument(op.getDpsInputOperand(b));
  if (!lhs || !rhs ||
      !((lhs == aArg && rhs == bArg) || (lhs == bArg && rhs == aArg)))
    return false;
  // The extensions, the product, the add and the yield; nothing else.
  int64_t bodyOps = std::distance(body->begin(), body->end());
  int64_t extensions =
      isa_and_nonnull<arith::ExtFOp>(multiply.getLhs().getDefiningOp()) +
      isa_and_nonnull<arith::ExtFOp>(multiply.getRhs().getDefiningOp());
  return bodyOps == 3 + extensions;
}
