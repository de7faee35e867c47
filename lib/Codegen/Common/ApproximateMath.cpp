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
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
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
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
