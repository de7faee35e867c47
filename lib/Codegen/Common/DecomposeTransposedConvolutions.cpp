//===- DecomposeTransposedConvolutions.cpp - sub-pixel convolutions -------===//
//
// Front ends lower a transposed convolution with stride s to a convolution
// over the input spread out with s - 1 zeros between elements (a
// tensor.insert_slice with strides into a zero fill): (s^n - 1) / s^n of
// its multiply-adds read a zero, 7 of 8 for a 3-D stride of 2. Along each
// spatial dimension, the outputs of one phase (o mod s) read the input
// through the same taps, so the convolution splits into s^n dense ones,
// each over the input itself with a strided slice of the kernel, writing
// a strided slice of the output ("sub-pixel" convolution).
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include <numeric>

namespace ke {
#define GEN_PASS_DEF_KEDECOMPOSETRANSPOSEDCONVOLUTIONS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// How one output phase of one spatial dimension reads the input.
struct Phase {
  /// Outputs o = phase + stride * q, q < outputs.
  int64_t outputs = 0;
  /// Taps k = firstTap + tapStep * m, m < taps (0: every output of the
  /// phase reads only zeros).
  int64_t firstTap = 0, tapStep = 1, taps = 0;
  /// Input index of output q and tap m: base + q + dilation * m.
  int64_t base = 0, dilation = 1;
};

int64_t floorMod(int64_t value, int64_t modulus) {
  return ((value % modulus) + modulus) % modulus;
}

/// Output o reads spread[o + dilation * k] = input[(o + dilation * k -
/// offset) / stride] when that is a whole number, else a zero.
Phase analyzePhase(int64_t phase, int64_t stride, int64_t offset,
                   int64_t dilation, int64_t kernel, int64_t outputSize) {
  Phase result;
  result.outputs =
      phase < outputSize ? (outputSize - phase + stride - 1) / stride : 0;
  int64_t common = std::gcd(dilation, stride);
  result.tapStep = stride / common;
  result.dilation = dilation / common;
  for (int64_t k = 0; k < kernel; ++k) {
    if (floorMod(phase + dilation * k - offset, stride) != 0)
      continue;
    result.firstTap = k;
    result.taps = (kernel - 1 - k) / result.tapStep + 1;
    result.base = (phase + dilation * k - offset) / stride;
    break;
  }
  return result;
}

template <typename ConvOp>
LogicalResult decompose(RewriterBase &rewriter, ConvOp conv) {
  if (!conv.hasPureTensorSemantics())
    return failure();
  Value spread = conv.getInputs()[0], filter = conv.getInputs()[1],
        init = conv.getOutputs()[0];
  // A grouped convolution reads the spread input with its channels split
  // into groups (tensor.expand_shape after the insert).
  auto expand = spread.template getDefiningOp<tensor::ExpandShapeOp>();
  auto insert = (expand ? expand.getSrc() : spread)
                    .template getDefiningOp<tensor::InsertSliceOp>();
  if (!insert)
    return failure();
  auto fill = insert.getDest().template getDefiningOp<linalg::FillOp>();
  if (!fill || !matchPattern(fill.getInputs()[0], m_AnyZeroFloat()))
    return failure();
  Value input = insert.getSource();
  auto inputType = dyn_cast<RankedTensorType>(input.getType());
  auto insertedType = dyn_cast<RankedTensorType>(insert.getType());
  auto spreadType = dyn_cast<RankedTensorType>(spread.getType());
  auto filterType = dyn_cast<RankedTensorType>(filter.getType());
  auto outputType = dyn_cast<RankedTensorType>(init.getType());
  if (!inputType || !insertedType || !spreadType || !filterType ||
      !outputType || !inputType.hasStaticShape() ||
      !spreadType.hasStaticShape() || !filterType.hasStaticShape() ||
      !outputType.hasStaticShape() ||
      ShapedType::isDynamicShape(insert.getStaticOffsets()) ||
      ShapedType::isDynamicShape(insert.getStaticStrides()) ||
      inputType.getRank() != insertedType.getRank())
    return failure();
  SmallVector<int64_t> convStrides(conv.getStrides().template getValues<int64_t>());
  SmallVector<int64_t> dilations(conv.getDilations().template getValues<int64_t>());
  int64_t rank = spreadType.getRank();
  int64_t spatial = static_cast<int64_t>(dilations.size());
  // Batch, groups and channels come first and are copied whole.
  int64_t leading = rank - spatial;
  int64_t insertedLeading = insertedType.getRank() - spatial;
  if (leading < 0 || insertedLeading < 0)
    return failure();
  ArrayRef<int64_t> insertOffsets = insert.getStaticOffsets();
  ArrayRef<int64_t> insertStrides = insert.getStaticStrides();
  for (int64_t d = 0; d < insertedLeading; ++d)
    if (insertOffsets[d] != 0 || insertStrides[d] != 1 ||
        inputType.getDimSize(d) != insertedType.getDimSize(d))
      return failure();
  // Offsets and strides of the insert along the convolution's dimensions.
  SmallVector<int64_t> offsets(leading, 0), strides(leading, 1);
  llvm::append_range(offsets, insertOffsets.drop_front(insertedLeading));
  llvm::append_range(strides, insertStrides.drop_front(insertedLeading));
  if (expand) {
    // Only the leading dimensions may be split.
    SmallVector<ReassociationIndices> groups =
        expand.getReassociationIndices();
    for (int64_t d = insertedLeading; d < insertedType.getRank(); ++d)
      if (groups[d].size() != 1)
        return failure();
  }
  if (llvm::any_of(convStrides, [](int64_t s) { return s != 1; }) ||
      llvm::all_of(ArrayRef<int64_t>(strides).drop_front(leading),
                   [](int64_t s) { return s == 1; }))
    return failure();

  // The phases of every spatial dimension, then every combination.
  int64_t filterLeading = filterType.getRank() - spatial;
  SmallVector<SmallVector<Phase>> phases(spatial);
  for (int64_t i = 0; i < spatial; ++i)
    for (int64_t phase = 0; phase < strides[leading + i]; ++phase)
      phases[i].push_back(analyzePhase(
          phase, strides[leading + i], offsets[leading + i], dilations[i],
          filterType.getDimSize(filterLeading + i), outputType.getDimSize(leading + i)));

  Location loc = conv.getLoc();
  rewriter.setInsertionPoint(conv);
  if (expand) {
    SmallVector<int64_t> expandedShape(spreadType.getShape());
    for (int64_t i = 0; i < spatial; ++i)
      expandedShape[leading + i] = inputType.getDimSize(insertedLeading + i);
    input = tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get(expandedShape,
                                             inputType.getElementType()),
        input, expand.getReassociationIndices());
    inputType = cast<RankedTensorType>(input.getType());
  }
  Type elementType = inputType.getElementType();
  Value zero = arith::ConstantOp::create(rewriter, loc,
                                         rewriter.getZeroAttr(elementType));
  auto vectorAttr = [&](ArrayRef<int64_t> values) {
    return DenseIntElementsAttr::get(
        VectorType::get({static_cast<int64_t>(values.size())},
                        rewriter.getI64Type()),
        values);
  };
  // Every output belongs to one phase. When every phase with outputs has
  // taps, all outputs are written by a phase and the init's value is never
  // read through the result: the phases go into a new tensor instead of
  // over a filled or broadcast one (a pass over the output saved).
  bool everyPhaseComputed = llvm::all_of(phases, [](ArrayRef<Phase> dim) {
    return llvm::all_of(
        dim, [](const Phase &p) { return p.outputs == 0 || p.taps > 0; });
  });
  // Every phase reads the input padded with zeros by at most these amounts
  // on each side: one pad serves them all, each phase reading its window
  // of it (one copy of the input instead of one per phase).
  SmallVector<int64_t> sharedLow(rank, 0), sharedHigh(rank, 0);
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t size = inputType.getDimSize(leading + i);
    for (const Phase &p : phases[i]) {
      if (p.outputs == 0 || p.taps == 0)
        continue;
      int64_t last = p.base + p.outputs - 1 + p.dilation * (p.taps - 1);
      sharedLow[leading + i] = std::max(sharedLow[leading + i], -p.base);
      sharedHigh[leading + i] =
          std::max(sharedHigh[leading + i], last - (size - 1));
    }
  }
  auto indexAttrs = [&](ArrayRef<int64_t> values) {
    SmallVector<OpFoldResult> attrs;
    for (int64_t value : values)
      attrs.push_back(rewriter.getIndexAttr(value));
    return attrs;
  };
  Value source = input;
  if (llvm::any_of(sharedLow, [](int64_t v) { return v > 0; }) ||
      llvm::any_of(sharedHigh, [](int64_t v) { return v > 0; })) {
    SmallVector<int64_t> paddedShape;
    for (int64_t d = 0; d < rank; ++d)
      paddedShape.push_back(inputType.getDimSize(d) + sharedLow[d] +
                            sharedHigh[d]);
    source = tensor::PadOp::create(
        rewriter, loc, RankedTensorType::get(paddedShape, elementType), input,
        indexAttrs(sharedLow), indexAttrs(sharedHigh), zero);
  }
  Value result =
      everyPhaseComputed
          ? Value(tensor::EmptyOp::create(rewriter, loc, outputType.getShape(),
                                          outputType.getElementType()))
          : init;
  SmallVector<int64_t> combination(spatial, 0);
  while (true) {
    SmallVector<const Phase *> chosen;
    bool empty = false, readsZeros = false;
    for (int64_t i = 0; i < spatial; ++i) {
      chosen.push_back(&phases[i][combination[i]]);
      empty |= chosen.back()->outputs == 0;
      readsZeros |= chosen.back()->taps == 0;
    }
    // Outputs that read only zeros keep their initial value (the bias).
    if (!empty && !readsZeros) {
      // Leading dimensions whole.
      SmallVector<OpFoldResult> outOffsets(leading, rewriter.getIndexAttr(0)),
          outSizes, outStrides(leading, rewriter.getIndexAttr(1));
      SmallVector<OpFoldResult> tapOffsets(filterLeading,
                                           rewriter.getIndexAttr(0)),
          tapSizes, tapStrides(filterLeading, rewriter.getIndexAttr(1));
      SmallVector<int64_t> readSizes;
      SmallVector<int64_t> readOffsets(leading, 0);
      for (int64_t d = 0; d < leading; ++d) {
        outSizes.push_back(rewriter.getIndexAttr(outputType.getDimSize(d)));
        readSizes.push_back(inputType.getDimSize(d));
      }
      for (int64_t d = 0; d < filterLeading; ++d)
        tapSizes.push_back(rewriter.getIndexAttr(filterType.getDimSize(d)));
      SmallVector<int64_t> phaseDilations;
      for (int64_t i = 0; i < spatial; ++i) {
        const Phase &p = *chosen[i];
        int64_t stride = strides[leading + i];
        outOffsets.push_back(rewriter.getIndexAttr(combination[i]));
        outSizes.push_back(rewriter.getIndexAttr(p.outputs));
        outStrides.push_back(rewriter.getIndexAttr(stride));
        tapOffsets.push_back(rewriter.getIndexAttr(p.firstTap));
        tapSizes.push_back(rewriter.getIndexAttr(p.taps));
        tapStrides.push_back(rewriter.getIndexAttr(p.tapStep));
        // Input read: base .. base + outputs - 1 + dilation * (taps - 1),
        // in the shared pad's coordinates.
        int64_t first = p.base;
        int64_t last = p.base + p.outputs - 1 + p.dilation * (p.taps - 1);
        readOffsets.push_back(first + sharedLow[leading + i]);
        readSizes.push_back(last - first + 1);
        phaseDilations.push_back(p.dilation);
      }
      Value read = tensor::ExtractSliceOp::create(
          rewriter, loc, source, indexAttrs(readOffsets),
          indexAttrs(readSizes), indexAttrs(SmallVector<int64_t>(rank, 1)));
      Value taps = tensor::ExtractSliceOp::create(rewriter, loc, filter,
                                                  tapOffsets, tapSizes,
                                                  tapStrides);
      // The phase's outputs are a strided slice of the output; the
      // convolution writes them to a dense tensor of their own (strided
      // stores do not vectorize), started from the init's value where
      // that is a fill or a broadcast of a bias (the same arithmetic as
      // before), else from zero with the init added after.
      SmallVector<int64_t> phaseShape(
          outputType.getShape().take_front(leading));
      for (const Phase *p : chosen)
        phaseShape.push_back(p->outputs);
      Value empty =
          tensor::EmptyOp::create(rewriter, loc, phaseShape, elementType);
      bool addInit = false;
      Value phaseInit;
      if (auto initFill = init.getDefiningOp<linalg::FillOp>()) {
        phaseInit = linalg::FillOp::create(rewriter, loc,
                                           initFill.getInputs()[0], empty)
                        .getResult(0);
      } else if (auto broadcast = init.getDefiningOp<linalg::BroadcastOp>();
                 broadcast && llvm::all_of(llvm::seq<int64_t>(leading, rank),
                                           [&](int64_t d) {
                                             return llvm::is_contained(
                                                 broadcast.getDimensions(), d);
                                           })) {
        phaseInit = linalg::BroadcastOp::create(rewriter, loc,
                                                broadcast.getInput(), empty,
                                                broadcast.getDimensions())
                        ->getResult(0);
      } else {
        phaseInit =
            linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
        addInit = true;
      }
      auto phaseConv = ConvOp::create(
          rewriter, loc, TypeRange{empty.getType()}, ValueRange{read, taps},
          ValueRange{phaseInit}, vectorAttr(SmallVector<int64_t>(spatial, 1)),
          vectorAttr(phaseDilations));
      Value phaseResult = phaseConv->getResult(0);
      if (addInit) {
        Value initSlice = tensor::ExtractSliceOp::create(
            rewriter, loc, init, outOffsets, outSizes, outStrides);
        AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
        SmallVector<AffineMap> maps(3, identity);
        phaseResult =
            linalg::GenericOp::create(
                rewriter, loc, TypeRange{empty.getType()},
                ValueRange{initSlice, phaseResult}, ValueRange{empty}, maps,
                SmallVector<utils::IteratorType>(
                    rank, utils::IteratorType::parallel),
                [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
                  linalg::YieldOp::create(
                      nested, nestedLoc,
                      arith::AddFOp::create(nested, nestedLoc, args[0],
                                            args[1])
                          .getResult());
                })
                .getResult(0);
      }
      result = tensor::InsertSliceOp::create(rewriter, loc, phaseResult,
                                             result, outOffsets, outSizes,
                                             outStrides);
    }
    // Next combination (odometer over the spatial dimensions).
    int64_t i = spatial - 1;
    while (i >= 0 && ++combination[i] == strides[leading + i]) {
      combination[i] = 0;
      --i;
    }
    if (i < 0)
      break;
  }
  rewriter.replaceOp(conv, result);
  return success();
}

struct DecomposeTransposedConvolutionsPass
    : ke::impl::KeDecomposeTransposedConvolutionsBase<
          DecomposeTransposedConvolutionsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> convs;
    getOperation().walk([&](Operation *op) {
      if (isa<linalg::Conv1DNcwFcwOp, linalg::Conv2DNchwFchwOp,
              linalg::Conv3DNcdhwFcdhwOp, linalg::Conv2DNgchwGfchwOp,
              linalg::Conv2DNgchwFgchwOp>(op))
        convs.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : convs) {
      if (auto conv = dyn_cast<linalg::Conv1DNcwFcwOp>(op))
        (void)decompose(rewriter, conv);
      else if (auto conv = dyn_cast<linalg::Conv2DNchwFchwOp>(op))
        (void)decompose(rewriter, conv);
      else if (auto conv = dyn_cast<linalg::Conv3DNcdhwFcdhwOp>(op))
        (void)decompose(rewriter, conv);
      else if (auto conv = dyn_cast<linalg::Conv2DNgchwGfchwOp>(op))
        (void)decompose(rewriter, conv);
      else if (auto conv = dyn_cast<linalg::Conv2DNgchwFgchwOp>(op))
        (void)decompose(rewriter, conv);
    }
  }
};
} // namespace
