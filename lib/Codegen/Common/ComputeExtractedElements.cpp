//===- ComputeExtractedElements.cpp - ke-compute-extracted-elements -------===//
//
// A loss picks one element per row out of a log-softmax that front ends
// write in full (torch-mlir's cross entropy: x - max - log(sum(exp)) over
// the whole batch, then a tensor.extract at each target). Computing the
// picked elements where they are extracted skips the full tensor.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace ke {
#define GEN_PASS_DEF_KECOMPUTEEXTRACTEDELEMENTS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// How often `op` runs: the product of the static iteration counts of the
/// linalg ops whose bodies hold it; nullopt inside any other region (a
/// loop of unknown trip count) or a linalg op with dynamic bounds.
std::optional<int64_t> countExecutions(Operation *op) {
  int64_t count = 1;
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (isa<func::FuncOp>(parent))
      return count;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(parent);
    if (!linalgOp)
      return std::nullopt;
    for (int64_t bound : linalgOp.getStaticLoopRanges()) {
      if (ShapedType::isDynamic(bound))
        return std::nullopt;
      count *= bound;
    }
  }
  return std::nullopt;
}

/// Whether every element of `producer`'s results is cheaper computed where
/// it is extracted: all its results are read by tensor.extract only, its
/// loops are parallel and static, each result's indexing map is a
/// permutation (an element's indices give its loop indices), its body has
/// no side effects, and all extractions together run at most half as often
/// as the producer has iterations: then most elements are never read. (A
/// flip reading every element once would only move the work into its
/// gather, and out of the reach of passes that match the producer, such as
/// the prefix scans'.)
bool isComputedWhereExtracted(linalg::GenericOp producer) {
  if (!producer.hasPureTensorSemantics() ||
      producer.getNumReductionLoops() != 0)
    return false;
  SmallVector<int64_t> bounds = producer.getStaticLoopRanges();
  int64_t iterations = 1;
  for (int64_t bound : bounds) {
    if (ShapedType::isDynamic(bound))
      return false;
    iterations *= bound;
  }
  for (OpOperand &init : producer.getDpsInitsMutable())
    if (!producer.getMatchingIndexingMap(&init).isPermutation())
      return false;
  for (Operation &op : producer.getBody()->without_terminator())
    if (!isMemoryEffectFree(&op) || op.getNumRegions() != 0)
      return false;
  int64_t extractions = 0;
  for (Operation *user : producer->getUsers()) {
    if (!isa<tensor::ExtractOp>(user))
      return false;
    std::optional<int64_t> count = countExecutions(user);
    if (!count)
      return false;
    extractions += *count;
  }
  return extractions > 0 && 2 * extractions <= iterations;
}

/// Replaces a tensor.extract of an elementwise generic's result by the
/// generic's body at that element: its operands' elements extracted at the
/// element's loop indices, `linalg.index` replaced by them.
struct ComputeExtractedElement : OpRewritePattern<tensor::ExtractOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExtractOp extract,
                                PatternRewriter &rewriter) const override {
    auto result = dyn_cast<OpResult>(extract.getTensor());
    auto producer =
        result ? dyn_cast<linalg::GenericOp>(result.getOwner()) : nullptr;
    if (!producer || !isComputedWhereExtracted(producer))
      return failure();
    Location loc = extract.getLoc();
    OpOperand *init = producer.getDpsInitOperand(result.getResultNumber());
    // The element's loop indices: its indices through the inverse of the
    // result's permutation map.
    AffineMap toLoops =
        inversePermutation(producer.getMatchingIndexingMap(init));
    SmallVector<Value> loops;
    for (AffineExpr expr : toLoops.getResults())
      loops.push_back(
          extract.getIndices()[cast<AffineDimExpr>(expr).getPosition()]);
    IRMapping mapping;
    Block *body = producer.getBody();
    for (OpOperand &operand : producer->getOpOperands()) {
      Value value = operand.get();
      BlockArgument argument = producer.getMatchingBlockArgument(&operand);
      if (!isa<RankedTensorType>(value.getType())) {
        mapping.map(argument, value);
        continue;
      }
      // Block arguments nothing reads (an init's) cost nothing.
      if (argument.use_empty())
        continue;
      SmallVector<Value> indices;
      for (AffineExpr expr :
           producer.getMatchingIndexingMap(&operand).getResults())
        indices.push_back(affine::makeComposedAffineApply(
                              rewriter, loc,
                              AffineMap::get(loops.size(), 0, expr),
                              getAsOpFoldResult(loops))
                              .getResult());
      mapping.map(argument,
                  tensor::ExtractOp::create(rewriter, loc, value, indices));
    }
    for (Operation &op : body->without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(op)) {
        mapping.map(index.getResult(), loops[index.getDim()]);
        continue;
      }
      rewriter.clone(op, mapping);
    }
    Value element = mapping.lookupOrDefault(
        body->getTerminator()->getOperand(result.getResultNumber()));
    rewriter.replaceOp(extract, element);
    return success();
  }
};

struct ComputeExtractedElementsPass
    : ke::impl::KeComputeExtractedElementsBase<ComputeExtractedElementsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ComputeExtractedElement>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
