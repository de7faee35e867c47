//===- LowerLinalgToReferenceLoops.cpp - ke-lower-linalg-to-reference-loops
//===//
//
// The trusted reference is the naive lowering: plain loops, each output
// element computed in the written order. Its parallel dimensions may still
// run on threads without changing one bit of the result, which is what makes
// large references (a 4096^3 GEMM) affordable. And the innermost parallel
// dimension may run inside the reductions: each element still sums in its
// order, but consecutive elements then sit in one vector (C[i][j] +=
// A[i][k] * B[k][j] over j, in registers and in cache) instead of one
// element's chain through memory per step of k.
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

/// The loop order that runs `op`'s innermost parallel loop inside its
/// reductions, or nothing when that would not help: the op has reductions
/// and another parallel loop (left for the threads), and every operand that
/// the innermost parallel loop indexes has it in its innermost dimension
/// only, so consecutive iterations read and write consecutive elements (a
/// transposed B, [N][K], is read best along K as it is).
std::optional<SmallVector<unsigned>>
innermostParallelLoopLast(linalg::LinalgOp op) {
  unsigned parallel = op.getNumParallelLoops(), loops = op.getNumLoops();
  if (parallel < 2 || parallel == loops)
    return std::nullopt;
  unsigned innermost = parallel - 1;
  for (AffineMap map : op.getIndexingMapsArray()) {
    if (!map.isFunctionOfDim(innermost))
      continue;
    unsigned last = map.getNumResults() - 1;
    for (unsigned result = 0; result < last; ++result)
      if (map.getResult(result).isFunctionOfDim(innermost))
        return std::nullopt;
  }
  SmallVector<unsigned> order;
  for (unsigned loop = 0; loop < loops; ++loop)
    if (loop != innermost)
      order.push_back(loop);
  order.push_back(innermost);
  return order;
}

/// The block of columns (the innermost parallel dimension) and of the
/// first reduction that `blockColumnsAndFirstReduction` makes: a block of
/// B, 64 x 64 f32, is 16 KB, and stays in a core's L1.
constexpr int64_t kReferenceBlock = 64;

/// Splits `generic`'s innermost parallel loop and its first reduction loop
/// into blocks of kReferenceBlock, each pair an scf.for around the op on
/// subviews (`generic` is replaced by it), so that every row of C reuses
/// one block of B from the cache. Without it, every row streams all of B
/// through the caches once (M x K x N elements in all; 8192^3 bf16: 1.1
/// TB); a 4096^3 f32 product in C with both loop orders took 5.3 s and 4.2
/// s on this machine's two cores.
/// Each element still adds its terms in their order (the first reduction's
/// blocks outermost, in order): the same bits.
LogicalResult blockColumnsAndFirstReduction(RewriterBase &rewriter,
                                            linalg::GenericOp &generic) {
  unsigned columns = generic.getNumParallelLoops() - 1;
  unsigned firstReduction = columns + 1;
  SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
  SmallVector<int64_t> tileSizes(generic.getNumLoops(), 0);
  for (unsigned loop : {columns, firstReduction})
    if (ShapedType::isDynamic(ranges[loop]) || ranges[loop] > kReferenceBlock)
      tileSizes[loop] = kReferenceBlock;
  if (llvm::all_of(tileSizes, [](int64_t size) { return size == 0; }))
    return success();
  linalg::LinalgTilingOptions options;
  options.setTileSizes(tileSizes);
  rewriter.setInsertionPoint(generic);
  FailureOr<linalg::TiledLinalgOp> tiled =
      linalg::tileLinalgOp(rewriter, generic, options);
  if (failed(tiled))
    return failure();
  rewriter.eraseOp(generic);
  generic = cast<linalg::GenericOp>(tiled->op.getOperation());
  rewriter.setInsertionPoint(generic);
  return success();
}

/// Lowers `generic`, whose loops are its outer parallel loops followed by
/// sequential ones, to an scf.parallel over the `parallel` outer loops
/// around scf.for loops over the rest.
LogicalResult lowerWithOuterParallelLoops(RewriterBase &rewriter,
                                          linalg::GenericOp generic,
                                          unsigned parallel) {
  FailureOr<linalg::LinalgLoops> loops =
      linalg::linalgOpToLoops(rewriter, generic);
  if (failed(loops))
    return failure();
  SmallVector<scf::ForOp> outer;
  for (Operation *loop : llvm::ArrayRef(*loops).take_front(parallel))
    outer.push_back(cast<scf::ForOp>(loop));
  SmallVector<Value> lowerBounds, upperBounds, steps;
  for (scf::ForOp loop : outer) {
    lowerBounds.push_back(loop.getLowerBound());
    upperBounds.push_back(loop.getUpperBound());
    steps.push_back(loop.getStep());
  }
  // The outer loops are perfectly nested: the innermost one's body moves
  // into the parallel loop, its induction variables replaced.
  rewriter.setInsertionPoint(outer.front());
  auto parallelLoop = scf::ParallelOp::create(
      rewriter, outer.front().getLoc(), lowerBounds, upperBounds, steps);
  // A vector of its own: getInductionVars() returns a temporary, which a
  // ValueRange would outlive.
  SmallVector<Value> inductionVariables = parallelLoop.getInductionVars();
  for (auto [loop, inductionVariable] :
       llvm::zip(MutableArrayRef<scf::ForOp>(outer).drop_back(),
                 inductionVariables))
    rewriter.replaceAllUsesWith(loop.getInductionVar(), inductionVariable);
  Block *body = outer.back().getBody();
  rewriter.eraseOp(body->getTerminator());
  rewriter.inlineBlockBefore(body, parallelLoop.getBody()->getTerminator(),
                             ValueRange{inductionVariables.back()});
  rewriter.eraseOp(outer.front());
  return success();
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
      if (std::optional<SmallVector<unsigned>> order =
              parallel ? innermostParallelLoopLast(op) : std::nullopt) {
        unsigned outerParallel = op.getNumParallelLoops() - 1;
        auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
        if (!generic) {
          FailureOr<linalg::GenericOp> generalized =
              linalg::generalizeNamedOp(rewriter, op);
          generic = succeeded(generalized) ? *generalized : nullptr;
        }
        // A named op without a region builder keeps its order.
        if (generic) {
          if (failed(blockColumnsAndFirstReduction(rewriter, generic))) {
            generic->emitError("ke-lower-linalg-to-reference-loops: cannot "
                               "block this op's loops");
            return signalPassFailure();
          }
          if (failed(linalg::interchangeGenericOp(rewriter, generic, *order)) ||
              failed(lowerWithOuterParallelLoops(rewriter, generic,
                                                 outerParallel))) {
            generic->emitError("ke-lower-linalg-to-reference-loops: cannot "
                               "lower this op to loops");
            return signalPassFailure();
          }
          rewriter.eraseOp(generic);
          continue;
        }
      }
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
