//===- FoldTransposesIntoPoolsForGPU.cpp - ke-fold-transposes-into-pools-for-gpu
//
// torch-mlir writes a 3-D pool on NCDHW as a transpose to NDHWC, a
// channels-last pool and a transpose back. On a GPU each transpose is a
// launch and a pass over the tensor, and the pad before the first one
// stays a launch of its own too: the pool window can read the input and
// write the output in their own layouts through its indexing maps.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/LoopInterchange.h"
#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace ke {
#define GEN_PASS_DEF_KEFOLDTRANSPOSESINTOPOOLSFORGPU
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// Whether `op` is a pooling window: one input read and at least one only
/// for its shape (the window's; a plain reduction keeps the layout its
/// schedule was chosen for), one output, no contraction whose staged
/// copies would want a layout of their own.
bool isPoolingWindow(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0)
    return false;
  int64_t read = 0, shapes = 0;
  for (OpOperand *input : op.getDpsInputOperands())
    (op.getMatchingBlockArgument(input).use_empty() ? shapes : read) += 1;
  return read == 1 && shapes >= 1;
}

/// The input that `op` reads (not only for its shape) and a linalg.transpose
/// makes, or null.
OpOperand *findTransposedInput(linalg::LinalgOp op) {
  for (OpOperand *input : op.getDpsInputOperands())
    if (!op.getMatchingBlockArgument(input).use_empty() &&
        input->get().getDefiningOp<linalg::TransposeOp>())
      return input;
  return nullptr;
}

/// The transpose that is the only use of `op`'s result while `op`'s init
/// is a fill used by `op` alone (the fill can then be made in the
/// transposed shape), or null.
linalg::TransposeOp findTransposedResult(linalg::LinalgOp op) {
  Value result = op->getResult(0);
  auto fill = op.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
  if (!result.hasOneUse() || !fill || !fill->hasOneUse())
    return nullptr;
  auto transpose = dyn_cast<linalg::TransposeOp>(*result.getUsers().begin());
  if (!transpose || !transpose.getInit().getType().hasStaticShape())
    return nullptr;
  return transpose;
}

/// `map`'s results permuted so that result p is `map`'s result
/// `order[p]`.
AffineMap permuteResults(AffineMap map, ArrayRef<int64_t> order) {
  SmallVector<AffineExpr> results;
  for (int64_t position : order)
    results.push_back(map.getResult(position));
  return AffineMap::get(map.getNumDims(), 0, results, map.getContext());
}

/// `pool` (a generic) reading the transpose's source at the transposed
/// input's place and writing the transposed result where set; it replaces
/// the pool, and the transposed result, whose users read it instead.
void foldTransposes(IRRewriter &rewriter, linalg::GenericOp pool,
                    OpOperand *transposedInput,
                    linalg::TransposeOp transposedResult) {
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *input : pool.getDpsInputOperands()) {
    AffineMap map = pool.getMatchingIndexingMap(input);
    if (input != transposedInput) {
      inputs.push_back(input->get());
      maps.push_back(map);
      continue;
    }
    // transposed[j] = source[k] with k[perm[i]] = j[i]: the source's
    // dimension p is read at the map's result inverse(perm)[p].
    auto transpose = input->get().getDefiningOp<linalg::TransposeOp>();
    inputs.push_back(transpose.getInput());
    maps.push_back(permuteResults(
        map, invertPermutationVector(transpose.getPermutation())));
  }
  OpOperand *init = pool.getDpsInitOperand(0);
  AffineMap outputMap = pool.getMatchingIndexingMap(init);
  Value output = init->get();
  rewriter.setInsertionPoint(pool);
  if (transposedResult) {
    // result[j] = pool[k] with j[i] = k[perm[i]].
    outputMap = permuteResults(outputMap, transposedResult.getPermutation());
    auto fill = output.getDefiningOp<linalg::FillOp>();
    auto type = cast<RankedTensorType>(transposedResult.getInit().getType());
    Value empty = tensor::EmptyOp::create(rewriter, fill.getLoc(),
                                          type.getShape(),
                                          type.getElementType());
    output = linalg::FillOp::create(rewriter, fill.getLoc(),
                                    fill.getDpsInputs()[0], empty)
                 .getResult(0);
  }
  maps.push_back(outputMap);
  auto folded = linalg::GenericOp::create(
      rewriter, pool.getLoc(), TypeRange{output.getType()}, inputs,
      ValueRange{output}, maps, pool.getIteratorTypesArray());
  rewriter.inlineRegionBefore(pool.getRegion(), folded.getRegion(),
                              folded.getRegion().begin());
  if (transposedResult) {
    rewriter.replaceOp(transposedResult, folded->getResults());
    rewriter.eraseOp(pool);
  } else {
    rewriter.replaceOp(pool, folded->getResults());
  }
  // The loops in the output's order, the window's after them: the GPU's
  // threads take the innermost parallel loop, which must be the output's
  // (and the input's) contiguous one for the accesses to coalesce.
  SmallVector<unsigned> order;
  for (AffineExpr result : folded.getIndexingMapsArray().back().getResults())
    if (auto dim = dyn_cast<AffineDimExpr>(result))
      order.push_back(dim.getPosition());
  for (unsigned loop = 0; loop < folded.getNumLoops(); ++loop)
    if (!llvm::is_contained(order, loop))
      order.push_back(loop);
  (void)ke::interchangeLoops(rewriter, folded, order);
}

struct FoldTransposesIntoPoolsForGPUPass
    : ke::impl::KeFoldTransposesIntoPoolsForGPUBase<
          FoldTransposesIntoPoolsForGPUPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> pools;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isPoolingWindow(op) &&
          (findTransposedInput(op) || findTransposedResult(op)))
        pools.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : pools) {
      linalg::TransposeOp transposedResult = findTransposedResult(op);
      FailureOr<linalg::GenericOp> pool = ke::asGenericOp(rewriter, op);
      if (failed(pool))
        continue;
      foldTransposes(rewriter, *pool, findTransposedInput(*pool),
                     transposedResult);
    }
  }
};
} // namespace
