//===- RationalErf.cpp - erf as one rational function ---------------------===//
//
// The coefficients minimize the largest relative error on [0, 4] with the
// first P coefficient held at 2/sqrt(pi) (scripts/fit-rational-erf.py:
// 6.8e-8 in exact arithmetic; evaluated in f32 by Horner's rule with fused
// multiply-adds as below and clamped to [-1, 1], within 3.1e-7).
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/RationalErf.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace {
/// P's coefficients of x, x^3, ..., x^13 (as powers of x^2 after x).
constexpr float kNumerator[] = {
    1.128379225730896f,     0.20553575456142426f,  0.05131188780069351f,
    0.003920253366231918f,  1.4539228868670762e-4f, -1.931616225192556e-6f,
    1.9091821457095648e-8f};
/// Q's coefficients of 1, x^2, ..., x^8.
constexpr float kDenominator[] = {1.0f, 0.5154832601547241f,
                                  0.1173105388879776f, 0.014819466508924961f,
                                  0.0010033262660726905f};
/// erf(4) rounds to 1 in f32; beyond it the function is flat.
constexpr float kSaturation = 4.0f;

struct RationalErf : OpRewritePattern<math::ErfOp> {
  RationalErf(MLIRContext *context)
      : OpRewritePattern<math::ErfOp>(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(math::ErfOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return rewriter.notifyMatchFailure(op, "not f32");
    Location loc = op.getLoc();
    auto constant = [&](float value) -> Value {
      return createScalarOrSplatConstant(rewriter, loc, type, APFloat(value));
    };
    // x > 4 ? 4 : x (and the same below): a NaN compares false and passes
    // through, and the form is one min/max instruction on x86.
    auto clamp = [&](Value x, float bound) {
      Value upper = constant(bound), lower = constant(-bound);
      Value above = arith::CmpFOp::create(
          rewriter, loc, arith::CmpFPredicate::OGT, x, upper);
      x = arith::SelectOp::create(rewriter, loc, above, upper, x);
      Value below = arith::CmpFOp::create(
          rewriter, loc, arith::CmpFPredicate::OLT, x, lower);
      return arith::SelectOp::create(rewriter, loc, below, lower, x)
          .getResult();
    };
    Value x = clamp(op.getOperand(), kSaturation);
    Value square = arith::MulFOp::create(rewriter, loc, x, x);
    auto horner = [&](ArrayRef<float> coefficients) {
      Value sum = constant(coefficients.back());
      for (float coefficient : llvm::reverse(coefficients.drop_back()))
        sum = math::FmaOp::create(rewriter, loc, sum, square,
                                  constant(coefficient));
      return sum;
    };
    Value numerator =
        arith::MulFOp::create(rewriter, loc, horner(kNumerator), x);
    Value quotient = arith::DivFOp::create(rewriter, loc, numerator,
                                           horner(kDenominator));
    // Near 4 the rounded quotient overshoots 1 by an ulp or two; code that
    // relies on |erf| <= 1 (sqrt(1 - erf)) must not see it.
    rewriter.replaceOp(op, clamp(quotient, 1.0f));
    return success();
  }
};
} // namespace

void ke::populateRationalErfPattern(RewritePatternSet &patterns) {
  patterns.add<RationalErf>(patterns.getContext());
}
