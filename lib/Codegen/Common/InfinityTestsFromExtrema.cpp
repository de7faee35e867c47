//===- InfinityTestsFromExtrema.cpp - ke-infinity-tests-from-extrema ------===//
//
// torch-mlir's attention and masked softmax ask, per row, whether every
// score is -inf (an and-reduction of `x == -inf` on i1, beside the row's
// max). Reductions on i1 vectorize on no target and cost a pass over the
// scores of their own; `max(x) == -inf` says the same from the max the
// softmax computes anyway.
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
#define GEN_PASS_DEF_KEINFINITYTESTSFROMEXTREMA
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// The infinity `value` is (a float constant), or nullopt.
std::optional<APFloat> getInfinity(Value value) {
  FloatAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) || !attr.getValue().isInfinity())
    return std::nullopt;
  return attr.getValue();
}

/// The constant a linalg.fill writes into `init`, if any.
Attribute getFillValue(Value init) {
  auto fill = init.getDefiningOp<linalg::FillOp>();
  Attribute value;
  if (!fill || !matchPattern(fill.getInputs()[0], m_Constant(&value)))
    return nullptr;
  return value;
}

/// An and-reduction of `x == inf` (x the op's one input, or it extended to
/// a wider float; `inf` either sign) starting from true: the sign of the
/// infinity it tests for, or nullopt.
std::optional<bool> matchAllInfinite(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0 ||
      !getElementTypeOrSelf(op.getResult(0).getType()).isInteger(1))
    return std::nullopt;
  auto start = dyn_cast_or_null<IntegerAttr>(
      getFillValue(op.getDpsInitOperand(0)->get()));
  if (!start || !start.getValue().isOne())
    return std::nullopt;
  Block &body = op.getRegion().front();
  BlockArgument element = body.getArgument(0), accumulator = body.getArgument(1);
  if (!isa<FloatType>(element.getType()))
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto conjunction = yield.getOperand(0).getDefiningOp<arith::AndIOp>();
  if (!conjunction)
    return std::nullopt;
  Value test = conjunction.getLhs() == accumulator ? conjunction.getRhs()
               : conjunction.getRhs() == accumulator ? conjunction.getLhs()
                                                     : Value();
  auto compare = test ? test.getDefiningOp<arith::CmpFOp>() : nullptr;
  if (!compare || compare.getPredicate() != arith::CmpFPredicate::OEQ)
    return std::nullopt;
  // Exactly the conversion, the test and the and: nothing else in the body.
  auto isElement = [&](Value value) {
    if (auto extension = value.getDefiningOp<arith::ExtFOp>())
      value = extension.getIn();
    return value == element;
  };
  std::optional<APFloat> infinity = getInfinity(compare.getRhs());
  if (!infinity || !isElement(compare.getLhs())) {
    infinity = getInfinity(compare.getLhs());
    if (!infinity || !isElement(compare.getRhs()))
      return std::nullopt;
  }
  if (body.getOperations().size() > 4)
    return std::nullopt;
  return infinity->isNegative();
}

/// Whether `op` is a NaN-propagating max (min) reduction of `input` over
/// `test`'s loops into an output of the same indexing, starting from -inf
/// (+inf): what the infinity test can be read from.
bool isExtremumLike(linalg::GenericOp op, linalg::GenericOp test,
                    bool negative) {
  if (op == test || op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getDpsInputs()[0] != test.getDpsInputs()[0] ||
      op.getIndexingMapsArray() != test.getIndexingMapsArray() ||
      op.getIteratorTypesArray() != test.getIteratorTypesArray())
    return false;
  auto start =
      dyn_cast_or_null<FloatAttr>(getFillValue(op.getDpsInitOperand(0)->get()));
  if (!start || !start.getValue().isInfinity() ||
      start.getValue().isNegative() != negative)
    return false;
  Block &body = op.getRegion().front();
  if (body.getOperations().size() != 2 ||
      body.getArgument(0).getType() != body.getArgument(1).getType())
    return false;
  Operation *combiner = &body.front();
  if (!(negative ? isa<arith::MaximumFOp>(combiner)
                 : isa<arith::MinimumFOp>(combiner)))
    return false;
  return llvm::is_contained(combiner->getOperands(), body.getArgument(0)) &&
         llvm::is_contained(combiner->getOperands(), body.getArgument(1)) &&
         body.getTerminator()->getOperand(0) == combiner->getResult(0);
}

/// The max (min) of the test's input over its loops: a sibling's result, or
/// a new reduction.
Value getExtremum(RewriterBase &rewriter, linalg::GenericOp test,
                  bool negative) {
  Value input = test.getDpsInputs()[0];
  for (Operation *user : input.getUsers())
    if (auto sibling = dyn_cast<linalg::GenericOp>(user))
      if (isExtremumLike(sibling, test, negative) &&
          sibling->isBeforeInBlock(test))
        return sibling.getResult(0);
  Location loc = test.getLoc();
  auto elementType =
      cast<FloatType>(cast<ShapedType>(input.getType()).getElementType());
  auto shape = cast<ShapedType>(test.getResult(0).getType()).getShape();
  Value empty = tensor::EmptyOp::create(rewriter, loc, shape, elementType);
  Value start = arith::ConstantOp::create(
      rewriter, loc,
      rewriter.getFloatAttr(elementType,
                            APFloat::getInf(elementType.getFloatSemantics(),
                                            negative)));
  Value filled = linalg::FillOp::create(rewriter, loc, start, empty).getResult(0);
  auto extremum = linalg::GenericOp::create(
      rewriter, loc, filled.getType(), input, filled,
      test.getIndexingMapsArray(), test.getIteratorTypesArray(),
      [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
        Value combined =
            negative ? arith::MaximumFOp::create(b, bodyLoc, args[0], args[1])
                           .getResult()
                     : arith::MinimumFOp::create(b, bodyLoc, args[0], args[1])
                           .getResult();
        linalg::YieldOp::create(b, bodyLoc, combined);
      });
  return extremum.getResult(0);
}

struct InfinityTestsFromExtremaPass
    : ke::impl::KeInfinityTestsFromExtremaBase<InfinityTestsFromExtremaPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, bool>> tests;
    getOperation().walk([&](linalg::GenericOp op) {
      if (std::optional<bool> negative = matchAllInfinite(op))
        tests.push_back({op, *negative});
    });
    IRRewriter rewriter(&getContext());
    for (auto [test, negative] : tests) {
      rewriter.setInsertionPoint(test);
      Value extremum = getExtremum(rewriter, test, negative);
      auto type = cast<RankedTensorType>(extremum.getType());
      auto elementType = cast<FloatType>(type.getElementType());
      Location loc = test.getLoc();
      Value infinity = arith::ConstantOp::create(
          rewriter, loc,
          rewriter.getFloatAttr(
              elementType,
              APFloat::getInf(elementType.getFloatSemantics(), negative)));
      Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                            rewriter.getI1Type());
      AffineMap identity = rewriter.getMultiDimIdentityMap(type.getRank());
      auto result = linalg::GenericOp::create(
          rewriter, loc, empty.getType(), extremum, empty,
          SmallVector<AffineMap>{identity, identity},
          SmallVector<utils::IteratorType>(type.getRank(),
                                           utils::IteratorType::parallel),
          [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
            Value equal = arith::CmpFOp::create(
                b, bodyLoc, arith::CmpFPredicate::OEQ, args[0], infinity);
            linalg::YieldOp::create(b, bodyLoc, equal);
          });
      rewriter.replaceOp(test, result.getResults());
    }
  }
};
} // namespace
