//===- SeparatePoolingWindows.cpp - ke-separate-pooling-windows -----------===//
//
// A 2-D pooling op reads each output's window through affine sums of loops
// (oh * stride + kh), which the vectorizer does not take: it stayed scalar
// (KernelBench's 11 x 11 average pool: 0.93 ms where torch.compile takes
// 0.38). A max or a sum over a rectangle is one over its columns of one over
// its rows, so the op becomes two elementwise generics over strided slices:
// the rows' combination for every input column, then the columns'. Both
// read their operands in loop order and vectorize along the contiguous
// dimension.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace ke {
#define GEN_PASS_DEF_KESEPARATEPOOLINGWINDOWS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// More slices than this per generic are not worth their operands (each is
/// a load stream); such windows stay as they are.
constexpr int64_t kMostWindowSlices = 16;

/// Where a pooling op's spatial dimensions are.
struct PoolingLayout {
  unsigned rowDim;
  unsigned columnDim;
};

std::optional<PoolingLayout> getPoolingLayout(linalg::LinalgOp op) {
  if (isa<linalg::PoolingNchwSumOp, linalg::PoolingNchwMaxOp>(op))
    return PoolingLayout{2, 3};
  if (isa<linalg::PoolingNhwcSumOp, linalg::PoolingNhwcMaxOp,
          linalg::PoolingNhwcMinOp, linalg::PoolingNhwcMaxUnsignedOp,
          linalg::PoolingNhwcMinUnsignedOp>(op))
    return PoolingLayout{1, 2};
  return std::nullopt;
}

/// The op's combiner, `combine(out, in)` or `combine(in, out)`, when the
/// body is that one op on one element type.
Operation *getCombiner(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (body->getOperations().size() != 2)
    return nullptr;
  Operation *combiner = &body->front();
  if (combiner->getNumOperands() != 2 || combiner->getNumResults() != 1 ||
      body->getTerminator()->getOperand(0) != combiner->getResult(0))
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

LogicalResult separate(RewriterBase &rewriter, linalg::LinalgOp op,
                       PoolingLayout layout) {
  Operation *combiner = getCombiner(op);
  if (!combiner || !op.hasPureTensorSemantics())
    return failure();
  Value input = op.getDpsInputOperand(0)->get();
  Value window = op.getDpsInputOperand(1)->get();
  Value init = op.getDpsInitOperand(0)->get();
  auto inputType = dyn_cast<RankedTensorType>(input.getType());
  auto windowType = dyn_cast<RankedTensorType>(window.getType());
  auto outputType = dyn_cast<RankedTensorType>(init.getType());
  if (!inputType || !windowType || !outputType ||
      !inputType.hasStaticShape() || !windowType.hasStaticShape() ||
      !outputType.hasStaticShape() || windowType.getRank() != 2)
    return failure();
  // An empty input or output (valid IR) would make the slices' sizes
  // negative or out of bounds.
  auto isEmpty = [](RankedTensorType type) { return type.getNumElements() == 0; };
  if (isEmpty(inputType) || isEmpty(windowType) || isEmpty(outputType))
    return failure();
  auto strides = op->getAttrOfType<DenseIntElementsAttr>("strides");
  auto dilations = op->getAttrOfType<DenseIntElementsAttr>("dilations");
  if (!strides || !dilations)
    return failure();
  SmallVector<int64_t> stride(strides.getValues<int64_t>());
  SmallVector<int64_t> dilation(dilations.getValues<int64_t>());
  int64_t windowRows = windowType.getDimSize(0);
  int64_t windowColumns = windowType.getDimSize(1);
  if (windowRows * windowColumns < 2 || windowRows > kMostWindowSlices ||
      windowColumns > kMostWindowSlices)
    return failure();
  bool accumulatorFirst =
      combiner->getOperand(0) == op.getBlock()->getArgument(2);
  int64_t rank = inputType.getRank();
  int64_t outputColumns = outputType.getDimSize(layout.columnDim);
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);

  // Slices of `source` with `sizes`, stepping `step` along `dim` from
  // `offset`, one per window position along `dim`.
  auto slicesAlong = [&](Value source, ArrayRef<int64_t> sizes, unsigned dim,
                         int64_t count, int64_t spacing,
                         ArrayRef<int64_t> steps) {
    SmallVector<Value> slices;
    for (int64_t position = 0; position < count; ++position) {
      SmallVector<int64_t> offsets(rank, 0);
      offsets[dim] = position * spacing;
      MLIRContext *context = rewriter.getContext();
      slices.push_back(tensor::ExtractSliceOp::create(
                           rewriter, loc, source,
                           getAsIndexOpFoldResult(context, offsets),
                           getAsIndexOpFoldResult(context, sizes),
                           getAsIndexOpFoldResult(context, steps))
                           .getResult());
    }
    return slices;
  };

  // Rows first: for every input column the columns' stage reads, the
  // window's rows combined (skipped for a window of one row).
  Value rows = input;
  SmallVector<int64_t> columnSteps(rank, 1);
  columnSteps[layout.columnDim] = stride[1];
  if (windowRows > 1) {
    SmallVector<int64_t> sizes(outputType.getShape());
    sizes[layout.columnDim] =
        (outputColumns - 1) * stride[1] + (windowColumns - 1) * dilation[1] + 1;
    SmallVector<int64_t> steps(rank, 1);
    steps[layout.rowDim] = stride[0];
    SmallVector<Value> slices = slicesAlong(input, sizes, layout.rowDim,
                                            windowRows, dilation[0], steps);
    Value empty = tensor::EmptyOp::create(rewriter, loc, sizes,
                                          outputType.getElementType());
    rows = combineSlices(rewriter, loc, combiner, accumulatorFirst, slices,
                         empty, /*foldIntoInit=*/false);
  } else {
    columnSteps[layout.rowDim] = stride[0];
  }
  // Then the columns, folded into the op's own output in order. An output
  // filled with a value (-inf, 0: front ends' initial values) starts from
  // that value instead, so the fill is never written and read back.
  SmallVector<Value> slices =
      slicesAlong(rows, outputType.getShape(), layout.columnDim, windowColumns,
                  dilation[1], columnSteps);
  Value start;
  if (auto fill = init.getDefiningOp<linalg::FillOp>();
      fill && fill.getInputs()[0].getType() == outputType.getElementType()) {
    start = fill.getInputs()[0];
    init = tensor::EmptyOp::create(rewriter, loc, outputType.getShape(),
                                   outputType.getElementType());
  }
  Value result =
      combineSlices(rewriter, loc, combiner, accumulatorFirst, slices, init,
                    /*foldIntoInit=*/!start, start);
  rewriter.replaceOp(op, result);
  return success();
}

struct SeparatePoolingWindowsPass
    : ke::impl::KeSeparatePoolingWindowsBase<SeparatePoolingWindowsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, PoolingLayout>> pools;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (std::optional<PoolingLayout> layout = getPoolingLayout(op))
        pools.push_back({op, *layout});
    });
    IRRewriter rewriter(&getContext());
    for (auto [op, layout] : pools)
      (void)separate(rewriter, op, layout);
  }
};
} // namespace
