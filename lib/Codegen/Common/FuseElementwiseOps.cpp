//===- FuseElementwiseOps.cpp - ke-fuse-elementwise-ops -------------------===//
//
// Upstream's elementwise fusion, minus the fusions that recompute: a
// producer fused into a consumer that reads it along fewer loops than it has
// is evaluated once per iteration of the other loops (attention's softmax
// fused into P x V ran its division 128 times per element).
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <set>

namespace ke {
#define GEN_PASS_DEF_KEFUSEELEMENTWISEOPS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// Whether recomputing `producer`'s payload per use costs next to nothing:
/// data movement (a broadcast, a transpose, a cast) or one cheap op. Math
/// functions and divisions are never cheap.
bool isCheapToRecompute(linalg::GenericOp producer) {
  int64_t ops = 0;
  for (Operation &op : producer.getBody()->without_terminator()) {
    if (isa<linalg::IndexOp>(op) || op.hasTrait<OpTrait::ConstantLike>())
      continue;
    if (isa<math::MathDialect>(op.getDialect()) ||
        isa<arith::DivFOp, arith::DivSIOp, arith::DivUIOp, arith::RemFOp,
            arith::RemSIOp, arith::RemUIOp, arith::CeilDivSIOp,
            arith::FloorDivSIOp>(op))
      return false;
    ++ops;
  }
  return ops <= 1;
}

/// Whether every loop of `fused`'s consumer indexes the operand: each of
/// its elements is read once.
bool readsAlongEveryLoop(OpOperand *fused) {
  auto consumer = cast<linalg::LinalgOp>(fused->getOwner());
  AffineMap map = consumer.getMatchingIndexingMap(fused);
  llvm::SmallBitVector used(consumer.getNumLoops());
  for (AffineExpr result : map.getResults())
    for (unsigned loop = 0; loop < consumer.getNumLoops(); ++loop)
      if (result.isFunctionOfDim(loop))
        used.set(loop);
  return used.all();
}

/// Upstream's rule (a producer with one use, so nothing is computed for
/// two consumers), and no recomputation of expensive producers.
bool shouldFuse(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  auto consumer = dyn_cast<linalg::LinalgOp>(fused->getOwner());
  auto generic = dyn_cast<linalg::GenericOp>(producer);
  if (!consumer || !generic)
    return true;
  return readsAlongEveryLoop(fused) || isCheapToRecompute(generic);
}

/// Gives each consumer of a cheap elementwise producer (a cast, one add)
/// its own copy when every consumer is a generic that reads each of its
/// elements once: fused into each, the producer's result is never written
/// out (a group norm's f64 copy of its input, 25 MB, read by two
/// reductions). Upstream's fusion of a producer with several uses keeps its
/// result as an extra result of the fused op, still written.
bool duplicateCheapProducers(func::FuncOp function) {
  SmallVector<linalg::GenericOp> producers;
  function.walk([&](linalg::GenericOp generic) {
    if (generic->getNumResults() != 1 || generic->hasOneUse() ||
        generic->use_empty() ||
        generic.getNumParallelLoops() != generic.getNumLoops() ||
        !isCheapToRecompute(generic))
      return;
    bool consumersReadOnce = llvm::all_of(
        generic->getResult(0).getUses(), [](OpOperand &use) {
          auto consumer = dyn_cast<linalg::GenericOp>(use.getOwner());
          return consumer && consumer.isDpsInput(&use) &&
                 readsAlongEveryLoop(&use);
        });
    if (consumersReadOnce)
      producers.push_back(generic);
  });
  OpBuilder builder(function.getContext());
  for (linalg::GenericOp producer : producers) {
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : producer->getResult(0).getUses())
      uses.push_back(&use);
    builder.setInsertionPoint(producer);
    for (OpOperand *use : llvm::drop_begin(uses))
      use->set(builder.clone(*producer)->getResult(0));
  }
  return !producers.empty();
}

/// Rewrites as the generics they are each `linalg.broadcast` that only
/// generics read, and every `linalg.transpose`, so that they fuse with
/// other generics (upstream fuses generics only) and unit dimensions fold
/// out of them. A convolution's bias, broadcast to NCHW and then transposed
/// to the channels-last layout, was written out twice (16 MB each in
/// KernelBench's Conv2d + HardSwish + ReLU) instead of once; a transpose
/// that only moves a unit dimension (torch-mlir's 4-D tensor by matrix
/// product) copied 12 MB.
void generalizeDataMovementOps(func::FuncOp function) {
  SmallVector<linalg::LinalgOp> ops;
  function.walk([&](linalg::LinalgOp op) {
    if (isa<linalg::TransposeOp>(op))
      ops.push_back(op);
    else if (isa<linalg::BroadcastOp>(op) && !op->use_empty() &&
             llvm::all_of(op->getUsers(), [](Operation *user) {
               return isa<linalg::GenericOp>(user);
             }))
      ops.push_back(op);
  });
  IRRewriter rewriter(function.getContext());
  for (linalg::LinalgOp op : ops) {
    rewriter.setInsertionPoint(op);
    (void)linalg::generalizeNamedOp(rewriter, op);
  }
}

bool hasOneUse(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  return producer && producer->hasOneUse();
}

/// Whether reshaping `contraction`'s operand or result indexed by `map` with
/// `reassociation` (one group per dimension of it) would split the
/// contraction's column loop (its output's innermost) or a reduction loop
/// into several loops.
bool splitsColumnsOrReduction(linalg::LinalgOp contraction, AffineMap map,
                              ArrayRef<ReassociationIndices> reassociation) {
  AffineMap outputMap =
      contraction.getMatchingIndexingMap(contraction.getDpsInitOperand(0));
  auto column = dyn_cast<AffineDimExpr>(
      outputMap.getResult(outputMap.getNumResults() - 1));
  SmallVector<utils::IteratorType> iterators =
      contraction.getIteratorTypesArray();
  for (auto [dim, group] : llvm::enumerate(reassociation)) {
    if (group.size() < 2 || dim >= map.getNumResults())
      continue;
    auto loop = dyn_cast<AffineDimExpr>(map.getResult(dim));
    if (!loop || (column && loop.getPosition() == column.getPosition()) ||
        iterators[loop.getPosition()] == utils::IteratorType::reduction)
      return true;
  }
  return false;
}

/// Upstream's rule for folding a reshape into the linalg op beside it, except
/// where it would split a contraction's columns or reduction: a group norm's
/// view of a Linear's features as groups x channels, folded into the matmul,
/// left it 4-wide columns that no register block or packing fits
/// (KernelBench's Gemm+GroupNorm ran its GEMM in 0.76 s). Splitting its rows
/// (batches of an einsum) is harmless and still folds.
bool shouldFoldReshape(OpOperand *fused) {
  if (!hasOneUse(fused))
    return false;
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(fused->getOwner())) {
    auto contraction = fused->get().getDefiningOp<linalg::LinalgOp>();
    if (contraction && linalg::isaContractionOpInterface(contraction))
      return !splitsColumnsOrReduction(
          contraction,
          contraction.getIndexingMapMatchingResult(
              cast<OpResult>(fused->get())),
          expand.getReassociationIndices());
  }
  auto contraction = dyn_cast<linalg::LinalgOp>(fused->getOwner());
  if (contraction && linalg::isaContractionOpInterface(contraction))
    if (auto collapse = fused->get().getDefiningOp<tensor::CollapseShapeOp>())
      return !splitsColumnsOrReduction(
          contraction, contraction.getMatchingIndexingMap(fused),
          collapse.getReassociationIndices());
  return true;
}

/// expand_shape(collapse_shape(x)) between elementwise ops that is no
/// single reshape (a group norm's [N, G, C/G*H*W] view back to [N, C, H,
/// W]) as collapse_shape(expand_shape(x)) through the shape both refine
/// ([N, G, C/G, H, W]): the
/// expand then folds into x's producer and the collapse into the consumer,
/// so the two elementwise ops on either side fuse. Static shapes whose
/// groups have no unit dimensions, and whose cut points form a chain of
/// divisors, only.
struct SwapExpandOfCollapse : OpRewritePattern<tensor::ExpandShapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExpandShapeOp expand,
                                PatternRewriter &rewriter) const override {
    auto collapse = expand.getSrc().getDefiningOp<tensor::CollapseShapeOp>();
    if (!collapse || !collapse->hasOneUse())
      return failure();
    // Between elementwise ops only: propagated into a convolution's
    // neighbourhood (a group norm's view of a convolution's output, read by
    // reductions), the reshapes split its channels and its tiles (KernelBench's
    // Conv2d + GroupNorm: 37 to 61 ms).
    auto isElementwise = [](Operation *op) {
      auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
      return generic &&
             generic.getNumParallelLoops() == generic.getNumLoops();
    };
    if (!isElementwise(collapse.getSrc().getDefiningOp()) ||
        expand->use_empty() ||
        !llvm::all_of(expand->getUsers(), isElementwise))
      return failure();
    auto sourceType = cast<RankedTensorType>(collapse.getSrcType());
    auto middleType = cast<RankedTensorType>(collapse.getResultType());
    auto targetType = cast<RankedTensorType>(expand.getResultType());
    if (!sourceType.hasStaticShape() || !targetType.hasStaticShape())
      return failure();
    SmallVector<ReassociationIndices> sourceGroups =
        collapse.getReassociationIndices();
    SmallVector<ReassociationIndices> targetGroups =
        expand.getReassociationIndices();
    // Per middle dimension: the refined sizes, and which of them each
    // source and target dimension covers.
    SmallVector<int64_t> refined;
    SmallVector<ReassociationIndices> sourceToRefined(sourceType.getRank()),
        targetToRefined(targetType.getRank());
    bool differs = false;
    for (int64_t d = 0; d < middleType.getRank(); ++d) {
      // Cut points: prefix products of either factorization.
      auto cuts = [](ArrayRef<int64_t> sizes, ArrayRef<int64_t> group,
                     std::set<int64_t> &into) {
        int64_t product = 1;
        for (int64_t dim : group) {
          // Unit dimensions add no cut, empty ones divide by zero.
          if (sizes[dim] == 0 || (sizes[dim] == 1 && group.size() > 1))
            return false;
          product *= sizes[dim];
          into.insert(product);
        }
        return true;
      };
      std::set<int64_t> sourceCuts, targetCuts, all;
      if (!cuts(sourceType.getShape(), sourceGroups[d], sourceCuts) ||
          !cuts(targetType.getShape(), targetGroups[d], targetCuts))
        return failure();
      differs |= sourceCuts != targetCuts;
      all.insert(sourceCuts.begin(), sourceCuts.end());
      all.insert(targetCuts.begin(), targetCuts.end());
      int64_t previous = 1;
      size_t sourceIndex = 0, targetIndex = 0;
      for (int64_t cut : all) {
        if (cut % previous != 0)
          return failure();
        refined.push_back(cut / previous);
        int64_t position = static_cast<int64_t>(refined.size()) - 1;
        sourceToRefined[sourceGroups[d][sourceIndex]].push_back(position);
        targetToRefined[targetGroups[d][targetIndex]].push_back(position);
        if (sourceCuts.count(cut))
          ++sourceIndex;
        if (targetCuts.count(cut))
          ++targetIndex;
        previous = cut;
      }
    }
    // A single reshape already: canonicalization composes those.
    if (!differs || refined.size() == static_cast<size_t>(sourceType.getRank()) ||
        refined.size() == static_cast<size_t>(targetType.getRank()))
      return failure();
    auto refinedType =
        RankedTensorType::get(refined, sourceType.getElementType());
    Value expanded = tensor::ExpandShapeOp::create(
        rewriter, expand.getLoc(), refinedType, collapse.getSrc(),
        sourceToRefined);
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        expand, targetType, expanded, targetToRefined);
    return success();
  }
};

struct FuseElementwiseOpsPass
    : ke::impl::KeFuseElementwiseOpsBase<FuseElementwiseOpsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    generalizeDataMovementOps(getOperation());
    RewritePatternSet patterns(context);
    linalg::populateElementwiseOpsFusionPatterns(patterns, shouldFuse);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns,
                                                    shouldFoldReshape);
    patterns.add<SwapExpandOfCollapse>(context);
    linalg::populateConstantFoldLinalgOperations(patterns, hasOneUse);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    FrozenRewritePatternSet frozen(std::move(patterns));
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true);
    // Fusion makes new cheap producers with several readers-once (a batch
    // norm's transpose back to NCHW, read by two f64 reductions once their
    // casts fused in): duplicate and fuse again until nothing changes.
    constexpr int kMaxRounds = 4;
    for (int round = 0; round < kMaxRounds; ++round) {
      if (!duplicateCheapProducers(getOperation()) && round > 0)
        break;
      if (failed(applyPatternsGreedily(getOperation(), frozen, config)))
        return signalPassFailure();
    }
  }
};
} // namespace
