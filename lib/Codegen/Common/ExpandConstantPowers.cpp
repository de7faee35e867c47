//===- ExpandConstantPowers.cpp - ke-expand-constant-powers ---------------===//
//
// x.pow(2) from a front end is a libm call per element; x*x vectorizes.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>
#include <limits>

namespace ke {
#define GEN_PASS_DEF_KEEXPANDCONSTANTPOWERS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// The exponent when it is a constant (scalar or splat) float.
std::optional<double> getConstantExponent(Value exponent) {
  Attribute attr;
  if (!matchPattern(exponent, m_Constant(&attr)))
    return std::nullopt;
  if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    attr = splat.getSplatValue<Attribute>();
  if (auto value = dyn_cast<FloatAttr>(attr))
    return value.getValueAsDouble();
  return std::nullopt;
}

/// The integer exponent of a math.fpowi when it is a constant (scalar or
/// splat), as a double.
std::optional<double> getConstantExponent(math::FPowIOp op) {
  Attribute attr;
  if (!matchPattern(op.getRhs(), m_Constant(&attr)))
    return std::nullopt;
  if (auto splat = dyn_cast<SplatElementsAttr>(attr))
    attr = splat.getSplatValue<Attribute>();
  if (auto value = dyn_cast<IntegerAttr>(attr))
    return static_cast<double>(value.getValue().getSExtValue());
  return std::nullopt;
}
std::optional<double> getConstantExponent(math::PowFOp op) {
  return getConstantExponent(op.getRhs());
}

/// math.powf and math.fpowi (torch-mlir's x.pow(2) with an integer
/// exponent: on NVIDIA GPUs it reached libdevice with an i64 exponent and
/// computed x^0, so MSELoss read 1).
template <typename PowerOp>
struct ExpandConstantPower : OpRewritePattern<PowerOp> {
  using OpRewritePattern<PowerOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(PowerOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<double> exponent = getConstantExponent(op);
    if (!exponent)
      return failure();
    Location loc = op.getLoc();
    Value x = op.getLhs();
    Type type = op.getType();
    arith::FastMathFlags flags = op.getFastmath();
    auto constant = [&](double value) -> Value {
      auto element = cast<FloatType>(getElementTypeOrSelf(type));
      bool losesInfo;
      APFloat converted(value);
      converted.convert(element.getFloatSemantics(),
                        APFloat::rmNearestTiesToEven, &losesInfo);
      return createScalarOrSplatConstant(rewriter, loc, type,
                                                converted);
    };
    auto multiply = [&](Value a, Value b) -> Value {
      return arith::MulFOp::create(rewriter, loc, a, b, flags);
    };
    auto reciprocal = [&](Value a) -> Value {
      return arith::DivFOp::create(rewriter, loc, constant(1.0), a, flags);
    };
    // pow(-inf, +-0.5) is +inf and +0; the square root's is NaN.
    auto atNegativeInfinity = [&](Value root, double value) -> Value {
      Value isNegativeInfinity = arith::CmpFOp::create(
          rewriter, loc, arith::CmpFPredicate::OEQ, x,
          constant(-std::numeric_limits<double>::infinity()));
      return arith::SelectOp::create(rewriter, loc, isNegativeInfinity,
                                     constant(value), root);
    };
    Value result;
    if (*exponent == 0.0)
      result = constant(1.0);
    else if (*exponent == 1.0)
      result = x;
    else if (*exponent == 2.0)
      result = multiply(x, x);
    else if (*exponent == 3.0)
      result = multiply(multiply(x, x), x);
    else if (*exponent == -1.0)
      result = reciprocal(x);
    else if (*exponent == -2.0)
      result = reciprocal(multiply(x, x));
    else if (*exponent == 0.5)
      result = atNegativeInfinity(math::SqrtOp::create(rewriter, loc, x, flags),
                                  std::numeric_limits<double>::infinity());
    else if (*exponent == -0.5)
      result =
          atNegativeInfinity(math::RsqrtOp::create(rewriter, loc, x, flags), 0.0);
    else
      return failure();
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ExpandConstantPowersPass
    : ke::impl::KeExpandConstantPowersBase<ExpandConstantPowersPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandConstantPower<math::PowFOp>,
                 ExpandConstantPower<math::FPowIOp>>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
