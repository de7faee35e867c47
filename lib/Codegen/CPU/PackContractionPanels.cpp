//===- PackContractionPanels.cpp - ke-pack-contraction-panels -------------===//
//
// A register-blocked contraction reads its B operand one short row of a
// column block per step of k. In B's own layout those rows lie a whole
// matrix row apart (4 KiB for N = 1024: every one in the same L1 set), so the
// column block never stays in cache while the row blocks sweep it. Packed
// once into panels, [N / P][K][P], each column block is one contiguous,
// sequentially read array.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace ke {
#define GEN_PASS_DEF_KEPACKCONTRACTIONPANELS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// What packing one contraction needs: which input is B, the loop of the
/// output's columns (n), and the loops B's panels keep.
struct PanelPlan {
  unsigned bIndex;
  unsigned columnLoop;
  /// B's loops in the order of the packed operand's dimensions, with the
  /// column loop standing for the panel index (n / P); the lane within the
  /// panel (n mod P) is the packed operand's last dimension, not listed.
  SmallVector<unsigned> packedLoops;
};

/// The outermost scf.forall around `op` that `b` is defined outside of: its
/// chunks (a fused row chain's, attention's) all read the same B, packed
/// once before it instead of once per chunk. Null when there is none.
scf::ForallOp getOutermostInvariantForall(Operation *op, Value b) {
  scf::ForallOp outermost;
  for (auto forall = op->getParentOfType<scf::ForallOp>(); forall;
       forall = forall->getParentOfType<scf::ForallOp>()) {
    if (!forall.isDefinedOutsideOfLoop(b))
      break;
    outermost = forall;
  }
  return outermost;
}

/// Iterations of the scf.foralls from `op`'s parent out to `outermost`
/// (their static trip counts; 1 for a dynamic one).
int64_t getChunksAround(Operation *op, scf::ForallOp outermost) {
  int64_t chunks = 1;
  if (!outermost)
    return chunks;
  for (auto forall = op->getParentOfType<scf::ForallOp>(); forall;
       forall = forall->getParentOfType<scf::ForallOp>()) {
    for (auto [lower, upper, step] :
         llvm::zip(forall.getStaticLowerBound(), forall.getStaticUpperBound(),
                   forall.getStaticStep()))
      if (!ShapedType::isDynamic(lower) && !ShapedType::isDynamic(upper) &&
          !ShapedType::isDynamic(step) && step > 0)
        chunks *= llvm::divideCeil(upper - lower, step);
    if (forall == outermost)
      break;
  }
  return chunks;
}

/// The plan for `op`, or nothing when it is not a contraction worth packing:
/// one result, two inputs of its element type, static shapes, indexing maps
/// that are plain loop indices, an output whose columns (its innermost loop)
/// are read by exactly one input (B) and whose other loops give at least
/// `minRows` rows that reuse each panel (with the chunks of the scf.foralls
/// around it that B is defined outside of), and a column count that
/// `panelWidth` divides. B already in panels (its innermost loop the
/// columns, exactly `panelWidth` of them) is left alone.
std::optional<PanelPlan> planPanels(linalg::LinalgOp op, int64_t panelWidth,
                                    int64_t minRows) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumDpsInputs() != 2 || op->getNumResults() != 1 ||
      !linalg::isaContractionOpInterface(op) || op.hasIndexSemantics())
    return std::nullopt;
  Type elementType = getElementTypeOrSelf(op->getResult(0).getType());
  if (!isa<FloatType>(elementType) ||
      llvm::any_of(op->getOperands(), [&](Value operand) {
        return getElementTypeOrSelf(operand.getType()) != elementType;
      }))
    return std::nullopt;
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  if (llvm::any_of(bounds, ShapedType::isDynamic))
    return std::nullopt;
  for (AffineMap map : op.getIndexingMapsArray())
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/false))
      return std::nullopt;

  AffineMap outputMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (outputMap.getNumResults() < 2)
    return std::nullopt;
  PanelPlan plan;
  plan.columnLoop = outputMap.getDimPosition(outputMap.getNumResults() - 1);
  SmallVector<unsigned> readers;
  for (OpOperand *input : op.getDpsInputOperands())
    if (op.getMatchingIndexingMap(input).isFunctionOfDim(plan.columnLoop))
      readers.push_back(input->getOperandNumber());
  if (readers.size() != 1)
    return std::nullopt;
  plan.bIndex = readers.front();
  AffineMap bMap = op.getMatchingIndexingMap(&op->getOpOperand(plan.bIndex));

  int64_t columns = bounds[plan.columnLoop];
  if (columns % panelWidth != 0 ||
      (bMap.getDimPosition(bMap.getNumResults() - 1) == plan.columnLoop &&
       columns == panelWidth))
    return std::nullopt;
  int64_t rows = 1;
  for (unsigned result = 0; result < outputMap.getNumResults(); ++result) {
    unsigned loop = outputMap.getDimPosition(result);
    if (!bMap.isFunctionOfDim(loop))
      rows *= bounds[loop];
  }
  rows *= getChunksAround(
      op, getOutermostInvariantForall(op, op->getOperand(plan.bIndex)));
  if (rows < minRows)
    return std::nullopt;

  // Panels: B's other parallel loops (batches) outermost, then the panel
  // index, then the reduction loops, then (implicitly) the lane.
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (unsigned result = 0; result < bMap.getNumResults(); ++result) {
    unsigned loop = bMap.getDimPosition(result);
    if (loop != plan.columnLoop &&
        iterators[loop] == utils::IteratorType::parallel)
      plan.packedLoops.push_back(loop);
  }
  plan.packedLoops.push_back(plan.columnLoop);
  for (unsigned result = 0; result < bMap.getNumResults(); ++result) {
    unsigned loop = bMap.getDimPosition(result);
    if (iterators[loop] == utils::IteratorType::reduction)
      plan.packedLoops.push_back(loop);
  }
  return plan;
}

/// The source and indexing of a copy that only permutes (front ends'
/// `linalg.transpose` of a Linear's weight): the map from the copy's
/// result indices to its source's, when `value` is such a copy used once.
std::optional<std::pair<Value, AffineMap>> lookThroughPermutation(Value value) {
  auto copy = value.getDefiningOp<linalg::LinalgOp>();
  if (!copy || !value.hasOneUse() || !copy.hasPureTensorSemantics() ||
      copy.getNumDpsInputs() != 1 || copy.getNumDpsInits() != 1 ||
      copy.getNumParallelLoops() != copy.getNumLoops())
    return std::nullopt;
  Block *body = copy.getBlock();
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || body->getOperations().size() != 1 ||
      yield.getNumOperands() != 1 ||
      yield.getOperand(0) != body->getArgument(0))
    return std::nullopt;
  AffineMap outputMap = copy.getMatchingIndexingMap(copy.getDpsInitOperand(0));
  AffineMap inputMap = copy.getMatchingIndexingMap(copy.getDpsInputOperand(0));
  if (!outputMap.isPermutation() ||
      !inputMap.isProjectedPermutation(/*allowZeroInResults=*/false))
    return std::nullopt;
  return std::make_pair(copy.getDpsInputOperand(0)->get(),
                        inputMap.compose(inversePermutation(outputMap)));
}

/// B copied into panels: a permutation of B with its column dimension split
/// into (panel, lane) by a free reshape, so the copy's maps stay plain loop
/// indices and it vectorizes. A transpose producing B is read through:
/// packing is a copy already, a second one would only cost a pass.
Value packB(OpBuilder &builder, Location loc, linalg::LinalgOp op,
            const PanelPlan &plan, int64_t panelWidth) {
  MLIRContext *context = builder.getContext();
  Value b = op->getOperand(plan.bIndex);
  AffineMap bMap = op.getMatchingIndexingMap(&op->getOpOperand(plan.bIndex));
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  unsigned rank = plan.packedLoops.size() + 1;

  SmallVector<int64_t> shape;
  for (unsigned loop : plan.packedLoops)
    shape.push_back(loop == plan.columnLoop ? bounds[loop] / panelWidth
                                            : bounds[loop]);
  shape.push_back(panelWidth);
  Type elementType = getElementTypeOrSelf(b.getType());
  Value init = tensor::EmptyOp::create(builder, loc, shape, elementType);

  // The dimension of B each dimension of the source holds.
  Value source = b;
  SmallVector<unsigned> bDims;
  if (auto permuted = lookThroughPermutation(b)) {
    source = permuted->first;
    for (unsigned result = 0; result < permuted->second.getNumResults();
         ++result)
      bDims.push_back(permuted->second.getDimPosition(result));
  } else {
    for (unsigned dim = 0; dim < bMap.getNumResults(); ++dim)
      bDims.push_back(dim);
  }

  // The source read at (packed position of its loop), its column dimension
  // split into (panel, lane).
  auto sourceType = cast<RankedTensorType>(source.getType());
  SmallVector<int64_t> splitShape;
  SmallVector<ReassociationIndices> reassociation;
  SmallVector<AffineExpr> indices;
  bool split = false;
  for (auto [dim, bDim] : llvm::enumerate(bDims)) {
    unsigned loop = bMap.getDimPosition(bDim);
    unsigned position =
        llvm::find(plan.packedLoops, loop) - plan.packedLoops.begin();
    int64_t size = sourceType.getDimSize(dim);
    reassociation.emplace_back();
    reassociation.back().push_back(splitShape.size());
    indices.push_back(getAffineDimExpr(position, context));
    if (loop != plan.columnLoop) {
      splitShape.push_back(size);
      continue;
    }
    split = true;
    splitShape.append({size / panelWidth, panelWidth});
    reassociation.back().push_back(splitShape.size() - 1);
    indices.push_back(getAffineDimExpr(rank - 1, context));
  }
  if (split)
    source = tensor::ExpandShapeOp::create(
        builder, loc,
        RankedTensorType::get(splitShape, sourceType.getElementType()), source,
        reassociation);
  AffineMap readMap = AffineMap::get(rank, 0, indices, context);
  AffineMap writeMap = AffineMap::getMultiDimIdentityMap(rank, context);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             builder, loc, TypeRange{init.getType()}, ValueRange{source},
             ValueRange{init}, ArrayRef<AffineMap>{readMap, writeMap},
             iterators,
             [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
               linalg::YieldOp::create(nested, nestedLoc, args[0]);
             })
      ->getResult(0);
}

/// `op` rewritten on panels: its column loop becomes the panel index and a
/// new innermost loop the lane; the output is viewed as [..., N / P, P] (a
/// free reshape) and B read from its panels.
void packContraction(IRRewriter &rewriter, linalg::LinalgOp op,
                     const PanelPlan &plan, int64_t panelWidth) {
  MLIRContext *context = rewriter.getContext();
  Location loc = op.getLoc();
  Operation *bProducer = op->getOperand(plan.bIndex).getDefiningOp();
  scf::ForallOp invariant =
      getOutermostInvariantForall(op, op->getOperand(plan.bIndex));
  rewriter.setInsertionPoint(invariant ? invariant.getOperation()
                                       : op.getOperation());
  Value panels = packB(rewriter, loc, op, plan, panelWidth);
  rewriter.setInsertionPoint(op);

  unsigned loops = op.getNumLoops();
  AffineExpr lane = getAffineDimExpr(loops, context);
  auto widen = [&](AffineMap map) {
    return AffineMap::get(loops + 1, 0, map.getResults(), context);
  };

  // The output, its columns split into (panel, lane).
  Value init = op.getDpsInitOperand(0)->get();
  auto initType = cast<RankedTensorType>(init.getType());
  int64_t outputRank = initType.getRank();
  SmallVector<int64_t> splitShape(initType.getShape());
  splitShape.back() /= panelWidth;
  splitShape.push_back(panelWidth);
  SmallVector<ReassociationIndices> reassociation;
  for (int64_t dim = 0; dim + 1 < outputRank; ++dim)
    reassociation.push_back({dim});
  reassociation.push_back({outputRank - 1, outputRank});
  auto splitType = RankedTensorType::get(splitShape, initType.getElementType());
  // A filled output is filled in the split shape instead, so the default
  // schedule still sees the fill and starts its accumulators from it.
  auto fill = init.getDefiningOp<linalg::FillOp>();
  Value splitInit = tensor::ExpandShapeOp::create(
      rewriter, loc, splitType, fill ? fill.getOutputs()[0] : init,
      reassociation);
  if (fill)
    splitInit =
        linalg::FillOp::create(rewriter, loc, fill.getInputs()[0], splitInit)
            ->getResult(0);

  SmallVector<AffineMap> maps;
  SmallVector<Value> inputs;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (input->getOperandNumber() != plan.bIndex) {
      inputs.push_back(input->get());
      maps.push_back(widen(op.getMatchingIndexingMap(input)));
      continue;
    }
    inputs.push_back(panels);
    SmallVector<AffineExpr> results;
    for (unsigned loop : plan.packedLoops)
      results.push_back(getAffineDimExpr(loop, context));
    results.push_back(lane);
    maps.push_back(AffineMap::get(loops + 1, 0, results, context));
  }
  AffineMap outputMap =
      widen(op.getMatchingIndexingMap(op.getDpsInitOperand(0)));
  maps.push_back(outputMap.insertResult(lane, outputMap.getNumResults()));
  // A named contraction (its body is a multiply-add of one element type), so
  // the default schedule vectorizes it to vector.contract and FMAs.
  auto packed = linalg::ContractOp::create(
      rewriter, loc, TypeRange{splitType}, inputs, ValueRange{splitInit},
      rewriter.getAffineMapArrayAttr(maps));
  Value result = tensor::CollapseShapeOp::create(
      rewriter, loc, initType, packed->getResult(0), reassociation);
  rewriter.replaceOp(op, result);
  // A transpose read through is dead now; left, the default schedule would
  // still tile it.
  if (bProducer && isOpTriviallyDead(bProducer))
    rewriter.eraseOp(bProducer);
}

struct PackContractionPanelsPass
    : ke::impl::KePackContractionPanelsBase<PackContractionPanelsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (panelWidth < 1 || minRows < 1) {
      getOperation().emitError()
          << "ke-pack-contraction-panels: panel-width and min-rows must be "
             "positive, found "
          << static_cast<int64_t>(panelWidth) << " and "
          << static_cast<int64_t>(minRows);
      return signalPassFailure();
    }
    SmallVector<std::pair<linalg::LinalgOp, PanelPlan>> work;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (std::optional<PanelPlan> plan = planPanels(op, panelWidth, minRows))
        work.emplace_back(op, std::move(*plan));
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, plan] : work)
      packContraction(rewriter, op, plan, panelWidth);
  }
};
} // namespace
