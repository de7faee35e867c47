//===- LowerLinalgToReferenceLoops.cpp - ke-lower-linalg-to-reference-loops
//===//
//
// The trusted reference is the naive lowering: plain loops, each output
// element computed in the written order. Its parallel dimensions may still
// run on threads without changing one bit of the result, which is what makes
// large references (a 4096^3 GEMM) affordable.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace ke {
#define GEN_PASS_DEF_KELOWERLINALGTOREFERENCELOOPS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// True if running the op's parallel dimensions concurrently computes
/// exactly what sequential loops do: the parallel dimensions come first (so
/// one scf.parallel holds them all), and every output element is written by
/// one parallel iteration only.
bool hasIndependentParallelIterations(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumParallelLoops() == 0)
    return false;
  if (op->getParentOfType<scf::ParallelOp>() ||
      op->getParentOfType<scf::ForallOp>() ||
      op->getParentOfType<omp::ParallelOp>())
    return false;
  unsigned parallel = op.getNumParallelLoops();
  for (auto [index, iterator] : llvm::enumerate(op.getIteratorTypesArray()))
    if ((index < parallel) != (iterator == utils::IteratorType::parallel))
      return false;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    if (!map.isProjectedPermutation())
      return false;
    for (unsigned dim = 0; dim < parallel; ++dim)
      if (!map.isFunctionOfDim(dim))
        return false;
  }
  return true;
}

struct LowerLinalgToReferenceLoopsPass
    : ke::impl::KeLowerLinalgToReferenceLoopsBase<
          LowerLinalgToReferenceLoopsPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op.hasPureBufferSemantics())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      bool parallel = hasIndependentParallelIterations(op);
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::LinalgLoops> loops =
          parallel ? linalg::linalgOpToParallelLoops(rewriter, op)
                   : linalg::linalgOpToLoops(rewriter, op);
      if (failed(loops)) {
        op->emitError("ke-lower-linalg-to-reference-loops: cannot lower "
                      "this op to loops");
        return signalPassFailure();
      }
      rewriter.eraseOp(op);
    }
  }
};
} // namespace
