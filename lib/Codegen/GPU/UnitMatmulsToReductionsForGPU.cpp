//===- UnitMatmulsToReductionsForGPU.cpp --------------------------------===//
//
// ke-unit-matmuls-to-reductions-for-gpu.
//
// A matmul with one row (a Linear layer at batch 1) or one column (a matrix
// times a vector) is a matrix-vector product: each output a dot product
// along K, the matrix read once. Staged as a GEMM it filled one row of each
// 64 x 64 block tile, so few blocks ran and split-K made up for them; as a
// generic, linalg-fold-unit-extent-dims drops the unit loop and the rest is
// a row reduction, which ke-distribute-reductions-for-gpu gives a block of
// threads per output, reading the matrix's rows coalesced.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace ke {
#define GEN_PASS_DEF_KEUNITMATMULSTOREDUCTIONSFORGPU
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// Whether `matmul` has a static unit row or column extent and a reduction
/// of at least `leastSteps`.
bool isMatrixVectorProduct(linalg::MatmulOp matmul, int64_t leastSteps) {
  SmallVector<int64_t> bounds = matmul.getStaticLoopRanges();
  // (m, n, k), whatever the operands' indexing maps.
  if (bounds.size() != 3 || ShapedType::isDynamicShape(bounds) ||
      !matmul.hasPureTensorSemantics())
    return false;
  return (bounds[0] == 1 || bounds[1] == 1) && bounds[2] >= leastSteps;
}

struct UnitMatmulsToReductionsForGPUPass
    : ke::impl::KeUnitMatmulsToReductionsForGPUBase<
          UnitMatmulsToReductionsForGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::MatmulOp> matmuls;
    getOperation().walk([&](linalg::MatmulOp matmul) {
      if (isMatrixVectorProduct(matmul, leastSteps))
        matmuls.push_back(matmul);
    });
    IRRewriter rewriter(&getContext());
    // One that does not generalize stays a matmul, staged as before.
    for (linalg::MatmulOp matmul : matmuls) {
      rewriter.setInsertionPoint(matmul);
      (void)linalg::generalizeNamedOp(rewriter, matmul);
    }
  }
};
} // namespace
