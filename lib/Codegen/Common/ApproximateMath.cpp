//===- ApproximateMath.cpp - ke-approximate-math --------------------------===//
//
// libm calls do not vectorize; MLIR's polynomial approximations do. A
// candidate may opt in (schedule knob math=approx); the check against the
// reference decides whether the accuracy is good enough.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/ClampedMath.h"
#include "ke/Codegen/Passes.h"
#include "ke/Codegen/RationalErf.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>
#include <limits>

namespace ke {
#define GEN_PASS_DEF_KEAPPROXIMATEMATH
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// Marks a logarithm whose input is already scaled out of the denormals.
constexpr llvm::StringLiteral kDenormalSafe = "ke.denormal_safe";

/// Upstream's log and log2 approximations read the exponent field, which a
/// denormal does not hold (log of 1e-40 comes out 1.4 off): a positive
/// denormal is scaled by 2^24 first, and 24 * log(2) taken off again.
template <typename LogOp>
struct ScaleDenormalsBeforeLog : OpRewritePattern<LogOp> {
  ScaleDenormalsBeforeLog(MLIRContext *context, double log2Scale)
      : OpRewritePattern<LogOp>(context, /*benefit=*/2),
        log2Scale(log2Scale) {}

  LogicalResult matchAndRewrite(LogOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (op->hasAttr(kDenormalSafe) || !getElementTypeOrSelf(type).isF32())
      return failure();
    Location loc = op.getLoc();
    auto constant = [&](float value) -> Value {
      return createScalarOrSplatConstant(rewriter, loc, type,
                                                APFloat(value));
    };
    Value x = op.getOperand();
    Value positive = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OGT, x, constant(0.0f));
    Value belowNormal =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OLT, x,
                              constant(std::numeric_limits<float>::min()));
    Value denormal = arith::AndIOp::create(rewriter, loc, positive, belowNormal);
    Value scaled = arith::SelectOp::create(
        rewriter, loc, denormal,
        arith::MulFOp::create(rewriter, loc, x, constant(16777216.0f)), x);
    auto log = LogOp::create(rewriter, loc, scaled, op.getFastmath());
    log->setAttr(kDenormalSafe, rewriter.getUnitAttr());
    Value corrected = arith::SubFOp::create(
        rewriter, loc, log, constant(static_cast<float>(24 * log2Scale)));
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, denormal, corrected, log);
    return success();
  }

  /// log(2) in the op's base.
  double log2Scale;
};

struct ApproximateMathPass
    : ke::impl::KeApproximateMathBase<ApproximateMathPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    auto approximated = [&](StringRef name) {
      return ops.empty() || llvm::is_contained(ops, name.str());
    };
    if (approximated("log"))
      patterns.add<ScaleDenormalsBeforeLog<math::LogOp>>(&getContext(),
                                                         std::log(2.0));
    if (approximated("log2"))
      patterns.add<ScaleDenormalsBeforeLog<math::Log2Op>>(&getContext(), 1.0);
    if (approximated("erf"))
      ke::populateRationalErfPattern(patterns);
    if (ops.empty()) {
      populateMathPolynomialApproximationPatterns(patterns);
    } else {
      // Upstream's predicates see full names ("math.exp"), ops holds "exp".
      auto selected = [&](StringRef name) {
        name.consume_front("math.");
        return llvm::is_contained(ops, name.str());
      };
      populateMathF32ExpansionPatterns(patterns, selected);
      populateMathPolynomialApproximationPatterns(patterns, selected);
      // Upstream's predicate-driven set leaves these two out.
      if (selected("math.erf"))
        populatePolynomialApproximateErfPattern(patterns);
      if (selected("math.erfc"))
        populatePolynomialApproximateErfcPattern(patterns);
    }
    if (!keepClamped) {
      if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
        return signalPassFailure();
      return;
    }
    // Everything but the clamped ops, and what the rewrites create.
    SmallVector<Operation *> rewritten;
    getOperation().walk([&](Operation *op) {
      if (!ke::isClampedCostlyMath(op))
        rewritten.push_back(op);
    });
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    if (failed(applyOpPatternsGreedily(rewritten, std::move(patterns), config)))
      return signalPassFailure();
  }
};
} // namespace
