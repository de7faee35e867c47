//===- ApproximateMath.cpp - ke-approximate-math --------------------------===//
//
// libm calls do not vectorize; MLIR's polynomial approximations do. A
// candidate may opt in (schedule knob math=approx); the check against the
// reference decides whether the accuracy is good enough.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace ke {
#define GEN_PASS_DEF_KEAPPROXIMATEMATH
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
struct ApproximateMathPass
    : ke::impl::KeApproximateMathBase<ApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
