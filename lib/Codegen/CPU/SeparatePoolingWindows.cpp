//===- SeparatePoolingWindows.cpp - ke-separate-pooling-windows -----------===//
//
// A pooling op reads each output's window through affine sums of loops
// (oh * stride + kh * dilation), which the vectorizer does not take: it
// stayed scalar (KernelBench's 11 x 11 average pool: 0.93 ms where
// torch.compile takes 0.38; its 3-D max pool, a generic from torch-mlir:
// 11.5 ms against 6.2). A max or a sum over a box is one over its last
// dimension of one over the others, so the op becomes one elementwise
// generic over strided slices per window dimension, outermost first. Each
// reads its operands in loop order and vectorizes along the contiguous
// dimension. Pools are recognized by their indexing maps, so named ops of
// any rank and layout and front ends' generics are the same case.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"
#include "ke/Codegen/StructuredMatchers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseSet.h"

namespace ke {
#define GEN_PASS_DEF_KESEPARATEPOOLINGWINDOWS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// More slices than this per generic are not worth their operands (each is
/// a load stream); such windows stay as they are.
constexpr int64_t kMostWindowSlices = 16;

/// How one dimension of the pooled input is read: `output * stride +
/// window * dilation`, or `output * stride` alone (a dimension that is not
/// pooled, or pooled by a window of one).
struct PooledDimension {
  int64_t stride = 1;
  int64_t dilation = 1;
  int64_t windowSize = 1;
};

/// The pooled input's dimensions, when `op` is a pool: inputs (data,
/// window), one output; the output indexed by parallel loops; the window
/// operand indexed by the reduction loops and only a shape; input
/// dimension i read as output dimension i times a stride plus at most one
/// reduction loop times a dilation, each reduction loop in one dimension.
/// This is what the named pooling ops of every rank and layout are, and
/// what torch-mlir writes as a generic for 3-D pools.
FailureOr<SmallVector<PooledDimension>> getPooledDimensions(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !op.getBlock()->getArgument(1).use_empty())
    return failure();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  AffineMap inputMap = maps[0], windowMap = maps[1], outputMap = maps[2];
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (!outputMap.isProjectedPermutation() ||
      inputMap.getNumResults() != outputMap.getNumResults() ||
      !windowMap.isProjectedPermutation())
    return failure();
  for (AffineExpr result : outputMap.getResults())
    if (iterators[cast<AffineDimExpr>(result).getPosition()] !=
        utils::IteratorType::parallel)
      return failure();
  SmallVector<int64_t> loopSizes = op.getStaticLoopRanges();
  llvm::SmallDenseSet<unsigned> windowLoops;
  for (AffineExpr result : windowMap.getResults()) {
    unsigned loop = cast<AffineDimExpr>(result).getPosition();
    if (iterators[loop] != utils::IteratorType::reduction)
      return failure();
    windowLoops.insert(loop);
  }
  if (static_cast<int64_t>(windowLoops.size()) != op.getNumReductionLoops())
    return failure();

  SmallVector<PooledDimension> dimensions;
  llvm::SmallDenseSet<unsigned> usedWindowLoops;
  for (auto [index, expr] : llvm::enumerate(inputMap.getResults())) {
    unsigned outputLoop = outputMap.getDimPosition(index);
    FailureOr<SmallVector<std::pair<unsigned, int64_t>>> terms =
        ke::getLinearTerms(expr);
    if (failed(terms))
      return failure();
    PooledDimension dimension;
    bool readsOutput = false, readsWindow = false;
    for (auto [loop, coefficient] : *terms) {
      if (loop == outputLoop && !readsOutput) {
        readsOutput = true;
        dimension.stride = coefficient;
      } else if (windowLoops.contains(loop) && !readsWindow &&
                 usedWindowLoops.insert(loop).second) {
        readsWindow = true;
        dimension.dilation = coefficient;
        dimension.windowSize = loopSizes[loop];
      } else {
        return failure();
      }
    }
    if (!readsOutput || ShapedType::isDynamic(dimension.windowSize))
      return failure();
    dimensions.push_back(dimension);
  }
  if (usedWindowLoops.size() != windowLoops.size())
    return failure();
  return dimensions;
}

/// The op's combiner, `combine(out, in)` or `combine(in, out)`, when the
/// body is that one op on one element type, and an associative and
/// commutative one (the separated windows combine in another order).
Operation *getCombiner(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (body->getOperations().size() != 2)
    return nullptr;
  Operation *combiner = &body->front();
  if (!isa<arith::AddFOp, arith::AddIOp, arith::MulFOp, arith::MulIOp,
           arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
           arith::MinNumFOp, arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp,
           arith::MinUIOp, arith::AndIOp, arith::OrIOp, arith::XOrIOp>(
          combiner))
    return nullptr;
  if (body->getTerminator()->getOperand(0) != combiner->getResult(0))
    return nullptr;
  Value in = body->getArgument(0), out = body->getArgument(2);
  bool operandsAreArguments =
      (combiner->getOperand(0) == out && combiner->getOperand(1) == in) ||
      (combiner->getOperand(0) == in && combiner->getOperand(1) == out);
  Type type = in.getType();
  if (!operandsAreArguments || out.getType() != type ||
      combiner->getResult(0).getType() != type)
    return nullptr;
  return combiner;
}

/// An elementwise generic folding `inputs` (all of `init`'s shape) with
/// `combiner` in order: `start` (when given) combined with inputs[0], then
/// inputs[1], ...; with `foldIntoInit` the same from `init`'s elements;
/// else inputs[0] combined with the rest.
Value combineSlices(OpBuilder &builder, Location loc, Operation *combiner,
                    bool accumulatorFirst, ValueRange inputs, Value init,
                    bool foldIntoInit, Value start = nullptr) {
  auto type = cast<RankedTensorType>(init.getType());
  int64_t rank = type.getRank();
  SmallVector<AffineMap> maps(inputs.size() + 1,
                              builder.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      builder, loc, TypeRange{type}, inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange arguments) {
        bool fromFirstInput = !foldIntoInit && !start;
        Value accumulator = start          ? start
                            : foldIntoInit ? arguments.back()
                                           : arguments.front();
        for (Value value :
             arguments.drop_back().drop_front(fromFirstInput ? 1 : 0)) {
          IRMapping mapping;
          mapping.map(combiner->getOperand(0),
                      accumulatorFirst ? accumulator : value);
          mapping.map(combiner->getOperand(1),
                      accumulatorFirst ? value : accumulator);
          accumulator = nested.clone(*combiner, mapping)->getResult(0);
        }
        linalg::YieldOp::create(nested, nestedLoc, accumulator);
      });
  return generic.getResult(0);
}

LogicalResult separate(RewriterBase &rewriter, linalg::LinalgOp op) {
  Operation *combiner = getCombiner(op);
  if (!combiner || !op.hasPureTensorSemantics())
    return failure();
  FailureOr<SmallVector<PooledDimension>> dimensions =
      getPooledDimensions(op);
  if (failed(dimensions))
    return failure();
  Value input = op.getDpsInputOperand(0)->get();
  Value init = op.getDpsInitOperand(0)->get();
  auto inputType = dyn_cast<RankedTensorType>(input.getType());
  auto outputType = dyn_cast<RankedTensorType>(init.getType());
  if (!inputType || !outputType || !inputType.hasStaticShape() ||
      !outputType.hasStaticShape() || outputType.getNumElements() == 0)
    return failure();
  // The window dimensions, outermost first: each becomes one stage. The
  // extent of the input each dimension's later stages read.
  SmallVector<unsigned> stages;
  SmallVector<int64_t> extents;
  int64_t windowElements = 1;
  for (auto [index, dimension] : llvm::enumerate(*dimensions)) {
    int64_t outputSize = outputType.getDimSize(index);
    int64_t extent = (outputSize - 1) * dimension.stride +
                     (dimension.windowSize - 1) * dimension.dilation + 1;
    if (extent > inputType.getDimSize(index) ||
        dimension.windowSize > kMostWindowSlices)
      return failure();
    windowElements *= dimension.windowSize;
    if (dimension.windowSize > 1) {
      stages.push_back(index);
      extents.push_back(extent);
    } else {
      extents.push_back(outputSize);
    }
  }
  if (windowElements < 2)
    return failure();
  bool accumulatorFirst =
      combiner->getOperand(0) == op.getBlock()->getArgument(2);
  int64_t rank = inputType.getRank();
  Location loc = op.getLoc();
  MLIRContext *context = rewriter.getContext();
  rewriter.setInsertionPoint(op);

  // Stage by stage: the current tensor's slices along the stage's
  // dimension, one per window position, stepped by the stride. The first
  // stage also takes the strides of the dimensions without a stage.
  Value current = input;
  SmallVector<int64_t> sizes = extents;
  for (auto [stageIndex, stageDim] : llvm::enumerate(stages)) {
    const PooledDimension &dimension = (*dimensions)[stageDim];
    sizes[stageDim] = outputType.getDimSize(stageDim);
    SmallVector<int64_t> steps(rank, 1);
    for (auto [index, other] : llvm::enumerate(*dimensions))
      if (index == stageDim || (stageIndex == 0 && other.windowSize == 1))
        steps[index] = other.stride;
    SmallVector<Value> slices;
    for (int64_t position = 0; position < dimension.windowSize; ++position) {
      SmallVector<int64_t> offsets(rank, 0);
      offsets[stageDim] = position * dimension.dilation;
      slices.push_back(tensor::ExtractSliceOp::create(
                           rewriter, loc, current,
                           getAsIndexOpFoldResult(context, offsets),
                           getAsIndexOpFoldResult(context, sizes),
                           getAsIndexOpFoldResult(context, steps))
                           .getResult());
    }
    if (stageIndex + 1 < stages.size()) {
      Value empty = tensor::EmptyOp::create(rewriter, loc, sizes,
                                            outputType.getElementType());
      current = combineSlices(rewriter, loc, combiner, accumulatorFirst,
                              slices, empty, /*foldIntoInit=*/false);
      continue;
    }
    // The last stage folds into the op's own output in order. An output
    // filled with a value (-inf, 0: front ends' initial values) starts
    // from that value instead, so the fill is never written and read back.
    Value start;
    if (auto fill = init.getDefiningOp<linalg::FillOp>();
        fill && fill.getInputs()[0].getType() == outputType.getElementType()) {
      start = fill.getInputs()[0];
      init = tensor::EmptyOp::create(rewriter, loc, outputType.getShape(),
                                     outputType.getElementType());
    }
    current = combineSlices(rewriter, loc, combiner, accumulatorFirst, slices,
                            init, /*foldIntoInit=*/!start, start);
  }
  rewriter.replaceOp(op, current);
  return success();
}

struct SeparatePoolingWindowsPass
    : ke::impl::KeSeparatePoolingWindowsBase<SeparatePoolingWindowsPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> pools;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (succeeded(getPooledDimensions(op)))
        pools.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : pools)
      (void)separate(rewriter, op);
  }
};
} // namespace
