//===- DivisionsToReciprocals.cpp - ke-divisions-to-reciprocals -----------===//
//
// A softmax divides every element of a row by the row's sum, a norm by its
// deviation: one division per element by a value shared along the row. A
// vector division costs several multiplications (AVX-512: vdivps zmm, about
// 8 % of the bench's attention), so the shared divisors are inverted once
// and the elements multiplied by their inverse, as PyTorch's softmax does.
// A constant divisor (GELU's sqrt(2)) is inverted at compile time.
// The product is within 1.5 ulp of the quotient, not bit-identical: the
// CPU pipeline runs this with its approximate math only.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace ke {
#define GEN_PASS_DEF_KEDIVISIONSTORECIPROCALS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// The input of `op` whose every use in the body is the divisor of an
/// arith.divf, and that each element of which `minReuse` iterations or
/// more divide by (it is not indexed by loops of that many iterations), or
/// null. Statically shaped float tensors only.
OpOperand *findSharedDivisor(linalg::GenericOp op, int64_t minReuse) {
  if (!op.hasPureTensorSemantics() || op.hasDynamicShape())
    return nullptr;
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    if (!type || !isa<FloatType>(type.getElementType()))
      continue;
    BlockArgument argument = op.getMatchingBlockArgument(input);
    if (argument.use_empty() ||
        llvm::any_of(argument.getUses(), [](OpOperand &use) {
          auto divide = dyn_cast<arith::DivFOp>(use.getOwner());
          return !divide || use.getOperandNumber() != 1;
        }))
      continue;
    AffineMap map = op.getMatchingIndexingMap(input);
    int64_t reuse = 1;
    for (unsigned loop = 0; loop < bounds.size(); ++loop)
      if (!map.isFunctionOfDim(loop))
        reuse *= bounds[loop];
    if (reuse >= minReuse)
      return input;
  }
  return nullptr;
}

/// 1 / `divisor`, elementwise, as a tensor of its shape.
Value createReciprocals(OpBuilder &builder, Location loc, Value divisor) {
  auto type = cast<RankedTensorType>(divisor.getType());
  Value init = tensor::EmptyOp::create(builder, loc, type.getShape(),
                                       type.getElementType());
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(type.getRank(), builder.getContext());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             builder, loc, TypeRange{type}, ValueRange{divisor},
             ValueRange{init}, ArrayRef<AffineMap>{identity, identity},
             iterators,
             [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
               Value one = arith::ConstantOp::create(
                   nested, nestedLoc,
                   nested.getFloatAttr(type.getElementType(), 1.0));
               Value inverse =
                   arith::DivFOp::create(nested, nestedLoc, one, args[0]);
               linalg::YieldOp::create(nested, nestedLoc, inverse);
             })
      ->getResult(0);
}

/// 1 / the constant `divisor` (a float or a splat), rounded once to its
/// element type, or null where that is not a normal number.
TypedAttr getConstantReciprocal(Value divisor) {
  Attribute attribute;
  if (!matchPattern(divisor, m_Constant(&attribute)))
    return nullptr;
  FloatAttr scalar = dyn_cast<FloatAttr>(attribute);
  auto splat = dyn_cast<SplatElementsAttr>(attribute);
  if (splat)
    scalar = dyn_cast<FloatAttr>(splat.getSplatValue<Attribute>());
  if (!scalar)
    return nullptr;
  APFloat reciprocal(scalar.getValue().getSemantics(), 1);
  reciprocal.divide(scalar.getValue(), APFloat::rmNearestTiesToEven);
  if (!reciprocal.isNormal())
    return nullptr;
  auto reciprocalAttr = FloatAttr::get(scalar.getType(), reciprocal);
  if (splat)
    return SplatElementsAttr::get(splat.getType(), reciprocalAttr);
  return reciprocalAttr;
}

/// Rewrites each division by a constant as a product with its reciprocal.
void multiplyByConstantReciprocals(func::FuncOp function) {
  IRRewriter rewriter(function.getContext());
  function.walk([&](arith::DivFOp divide) {
    TypedAttr reciprocal = getConstantReciprocal(divide.getRhs());
    if (!reciprocal)
      return;
    rewriter.setInsertionPoint(divide);
    Value inverse =
        arith::ConstantOp::create(rewriter, divide.getLoc(), reciprocal);
    rewriter.replaceOpWithNewOp<arith::MulFOp>(
        divide, divide.getLhs(), inverse, divide.getFastmathAttr());
  });
}

struct DivisionsToReciprocalsPass
    : ke::impl::KeDivisionsToReciprocalsBase<DivisionsToReciprocalsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (minReuse < 2) {
      getOperation().emitError()
          << "ke-divisions-to-reciprocals: min-reuse must be at least 2, got "
          << static_cast<int64_t>(minReuse);
      return signalPassFailure();
    }
    multiplyByConstantReciprocals(getOperation());
    SmallVector<std::pair<linalg::GenericOp, OpOperand *>> work;
    getOperation().walk([&](linalg::GenericOp op) {
      if (OpOperand *divisor = findSharedDivisor(op, minReuse))
        work.emplace_back(op, divisor);
    });
    IRRewriter rewriter(&getContext());
    for (auto [op, divisor] : work) {
      rewriter.setInsertionPoint(op);
      Value reciprocals =
          createReciprocals(rewriter, op.getLoc(), divisor->get());
      BlockArgument argument = op.getMatchingBlockArgument(divisor);
      rewriter.modifyOpInPlace(op, [&] { divisor->set(reciprocals); });
      for (OpOperand &use : llvm::make_early_inc_range(argument.getUses())) {
        auto divide = cast<arith::DivFOp>(use.getOwner());
        rewriter.setInsertionPoint(divide);
        rewriter.replaceOpWithNewOp<arith::MulFOp>(
            divide, divide.getLhs(), argument, divide.getFastmathAttr());
      }
    }
  }
};
} // namespace
