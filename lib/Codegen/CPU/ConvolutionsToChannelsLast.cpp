//===- ConvolutionsToChannelsLast.cpp - ke-convolutions-to-channels-last --===//
//
// Channels-first convolutions vectorize badly on CPUs (see the pass
// description); the transposes that make them channels-last cost one pass
// over each operand and are often fused or folded away.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace ke {
#define GEN_PASS_DEF_KECONVOLUTIONSTOCHANNELSLAST
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// `value` with its dimensions permuted: result dimension i is `value`'s
/// dimension `permutation[i]`. A generic rather than `linalg.transpose`, so
/// elementwise fusion can merge it with its producer (torch-mlir's filter
/// flip) or consumer (a bias or activation after the convolution); a fill
/// is filled again in the new layout instead.
/// The transpose writes into `init` where one is given (a slice of a grouped
/// convolution's output), else into a new tensor.
Value transpose(OpBuilder &builder, Location loc, Value value,
                ArrayRef<int64_t> permutation, Value init = {}) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape = applyPermutation(type.getShape(), permutation);
  // A padded value is the padding of its transposed source, so that
  // convolutions over differently padded copies of one input (a transposed
  // convolution's phases) share one transpose of it after CSE.
  auto pad = value.getDefiningOp<tensor::PadOp>();
  if (!init && pad && pad.getConstantPaddingValue() &&
      pad.getSourceType().hasStaticShape() &&
      pad.getResultType().hasStaticShape()) {
    // A constant yielded from inside the region is cloned out of it.
    Value padValue = pad.getConstantPaddingValue();
    if (padValue.getParentRegion() == &pad.getRegion())
      padValue = builder.clone(*padValue.getDefiningOp())->getResult(0);
    Value source = transpose(builder, loc, pad.getSource(), permutation);
    return tensor::PadOp::create(
        builder, loc, RankedTensorType::get(shape, type.getElementType()),
        source, applyPermutation(pad.getMixedLowPad(), permutation),
        applyPermutation(pad.getMixedHighPad(), permutation), padValue,
        pad.getNofold());
  }
  // A slice likewise (a phase's read of the padded input).
  if (auto slice = value.getDefiningOp<tensor::ExtractSliceOp>();
      !init && slice && slice.getSourceType().getRank() == type.getRank() &&
      slice.getSourceType().hasStaticShape()) {
    Value source = transpose(builder, loc, slice.getSource(), permutation);
    return tensor::ExtractSliceOp::create(
        builder, loc, source,
        applyPermutation(slice.getMixedOffsets(), permutation),
        applyPermutation(slice.getMixedSizes(), permutation),
        applyPermutation(slice.getMixedStrides(), permutation));
  }
  if (!init)
    init = tensor::EmptyOp::create(builder, loc, shape, type.getElementType());
  if (auto fill = value.getDefiningOp<linalg::FillOp>())
    return linalg::FillOp::create(builder, loc, fill.getInputs()[0], init)
        ->getResult(0);
  MLIRContext *context = builder.getContext();
  int64_t rank = type.getRank();
  // Result (d0, ..., dn) reads the input at the dimensions it came from.
  SmallVector<AffineExpr> inputIndices(rank);
  for (auto [result, source] : llvm::enumerate(permutation))
    inputIndices[source] = getAffineDimExpr(result, context);
  AffineMap inputMap = AffineMap::get(rank, 0, inputIndices, context);
  AffineMap outputMap = AffineMap::getMultiDimIdentityMap(rank, context);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             builder, loc, TypeRange{init.getType()}, ValueRange{value},
             ValueRange{init}, ArrayRef<AffineMap>{inputMap, outputMap},
             iterators,
             [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
               linalg::YieldOp::create(nested, nestedLoc, args[0]);
             })
      ->getResult(0);
}

/// The permutations that make a convolution channels-last: of its input,
/// its filter (to (k..., c, f)), and of the result back.
struct ChannelsLast {
  SmallVector<int64_t> input, filter, result;
};

/// For `spatial` spatial dimensions: (n, c, s...) to (n, s..., c), (f, c, k...)
/// to (k..., c, f), and (n, s..., f) back to (n, f, s...).
ChannelsLast getChannelsLast(int64_t spatial) {
  ChannelsLast permutations;
  permutations.input.push_back(0);
  for (int64_t d = 0; d < spatial; ++d) {
    permutations.input.push_back(2 + d);
    permutations.filter.push_back(2 + d);
  }
  permutations.input.push_back(1);
  permutations.filter.append({1, 0});
  permutations.result = {0, spatial + 1};
  for (int64_t d = 0; d < spatial; ++d)
    permutations.result.push_back(1 + d);
  return permutations;
}

/// A depthwise filter has no output-channel dimension: (c, k...) to
/// (k..., c).
ChannelsLast getDepthwiseChannelsLast(int64_t spatial) {
  ChannelsLast permutations = getChannelsLast(spatial);
  permutations.filter.clear();
  for (int64_t d = 0; d < spatial; ++d)
    permutations.filter.push_back(1 + d);
  permutations.filter.push_back(0);
  return permutations;
}

/// A convolution's strides and dilations, for the same convolution in
/// another layout.
SmallVector<NamedAttribute> getWindowAttributes(Operation *conv) {
  SmallVector<NamedAttribute> attributes;
  for (StringRef name : {"strides", "dilations"})
    if (Attribute value = conv->getAttr(name))
      attributes.push_back(
          NamedAttribute(StringAttr::get(conv->getContext(), name), value));
  return attributes;
}

bool hasStaticTensorOperands(linalg::LinalgOp conv) {
  if (!conv.hasPureTensorSemantics() || conv->getNumResults() != 1)
    return false;
  return llvm::all_of(conv->getOperands(), [](Value operand) {
    return cast<ShapedType>(operand.getType()).hasStaticShape();
  });
}

/// The channels-last form of a convolution of `input` and `filter` into
/// `init` with `windowAttributes` (strides, dilations), its result transposed
/// back into `resultInit` where one is given.
template <typename ChannelsLastOp>
Value buildChannelsLast(RewriterBase &rewriter, Location loc, Value input,
                        Value filter, Value init,
                        ArrayRef<NamedAttribute> windowAttributes,
                        const ChannelsLast &permutations,
                        Value resultInit = {}) {
  Value channelsLastInput = transpose(rewriter, loc, input, permutations.input);
  Value channelsLastFilter =
      transpose(rewriter, loc, filter, permutations.filter);
  Value channelsLastInit = transpose(rewriter, loc, init, permutations.input);
  auto channelsLast = ChannelsLastOp::create(
      rewriter, loc, TypeRange{channelsLastInit.getType()},
      ValueRange{channelsLastInput, channelsLastFilter},
      ValueRange{channelsLastInit}, windowAttributes);
  return transpose(rewriter, loc, channelsLast->getResult(0),
                   permutations.result, resultInit);
}

template <typename ChannelsLastOp>
LogicalResult toChannelsLast(RewriterBase &rewriter, linalg::LinalgOp conv,
                             const ChannelsLast &permutations) {
  if (!hasStaticTensorOperands(conv))
    return failure();
  rewriter.setInsertionPoint(conv);
  rewriter.replaceOp(conv, buildChannelsLast<ChannelsLastOp>(
                              rewriter, conv.getLoc(), conv.getDpsInputs()[0],
                              conv.getDpsInputs()[1], conv.getDpsInits()[0],
                              getWindowAttributes(conv), permutations));
  return success();
}

/// Group `group`'s slice of `value` along `groupDim`, that dimension dropped.
Value extractGroup(OpBuilder &builder, Location loc, Value value,
                   int64_t groupDim, int64_t group) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), builder.getIndexAttr(0));
  offsets[groupDim] = builder.getIndexAttr(group);
  SmallVector<OpFoldResult> sizes =
      getAsIndexOpFoldResult(builder.getContext(), type.getShape());
  sizes[groupDim] = builder.getIndexAttr(1);
  SmallVector<OpFoldResult> strides(type.getRank(), builder.getIndexAttr(1));
  SmallVector<int64_t> shape(type.getShape());
  shape.erase(shape.begin() + groupDim);
  auto sliceType = RankedTensorType::get(shape, type.getElementType());
  return tensor::ExtractSliceOp::create(builder, loc, sliceType, value,
                                        offsets, sizes, strides);
}

/// A grouped 2-D convolution (`conv_2d_ngchw_{gfchw,fgchw}`: input (n, g, c,
/// h, w), output (n, g, f, oh, ow), the filter's group dimension
/// `filterGroupDim`) as one channels-last convolution per group, each written
/// into its group's slice of the output. Vectorized as it is, the grouped
/// form runs along its output width with a transpose per tile (KernelBench's
/// 4-group transposed convolution: 5x slower than torch.compile).
LogicalResult splitGroups(RewriterBase &rewriter, linalg::LinalgOp conv,
                          int64_t filterGroupDim, int64_t maxGroups) {
  if (!hasStaticTensorOperands(conv))
    return failure();
  Value input = conv.getDpsInputs()[0], filter = conv.getDpsInputs()[1];
  Value init = conv.getDpsInits()[0];
  auto initType = cast<RankedTensorType>(init.getType());
  int64_t groups = initType.getDimSize(1);
  if (groups > maxGroups)
    return failure();
  Location loc = conv.getLoc();
  rewriter.setInsertionPoint(conv);
  auto fill = init.getDefiningOp<linalg::FillOp>();
  // A filled init is filled again per group; the groups' results then
  // overwrite a new tensor rather than the fill.
  Value result = fill ? Value(tensor::EmptyOp::create(
                            rewriter, loc, initType.getShape(),
                            initType.getElementType()))
                      : init;
  for (int64_t group = 0; group < groups; ++group) {
    Value resultSlice = extractGroup(rewriter, loc, result, 1, group);
    Value groupInit;
    if (fill) {
      auto groupType = cast<RankedTensorType>(resultSlice.getType());
      Value empty = tensor::EmptyOp::create(rewriter, loc, groupType.getShape(),
                                            groupType.getElementType());
      groupInit =
          linalg::FillOp::create(rewriter, loc, fill.getInputs()[0], empty)
              ->getResult(0);
    } else {
      // The running result holds the init's value in the groups not yet
      // written: reading it there keeps bufferization from copying the init.
      groupInit = extractGroup(rewriter, loc, result, 1, group);
    }
    // Named values: the order of function arguments' evaluation (and of
    // the ops they create) is unspecified.
    Value groupInput = extractGroup(rewriter, loc, input, 1, group);
    Value groupFilter =
        extractGroup(rewriter, loc, filter, filterGroupDim, group);
    Value groupResult = buildChannelsLast<linalg::Conv2DNhwcHwcfOp>(
        rewriter, loc, groupInput, groupFilter, groupInit,
        getWindowAttributes(conv), getChannelsLast(2), resultSlice);
    auto slice = resultSlice.getDefiningOp<tensor::ExtractSliceOp>();
    result = tensor::InsertSliceOp::create(
        rewriter, loc, groupResult, result, slice.getMixedOffsets(),
        slice.getMixedSizes(), slice.getMixedStrides());
  }
  rewriter.replaceOp(conv, result);
  return success();
}

struct ConvolutionsToChannelsLastPass
    : ke::impl::KeConvolutionsToChannelsLastBase<
          ConvolutionsToChannelsLastPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> convs;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isa<linalg::Conv1DNcwFcwOp, linalg::Conv2DNchwFchwOp,
              linalg::Conv3DNcdhwFcdhwOp, linalg::DepthwiseConv2DNchwChwOp,
              linalg::Conv2DNgchwGfchwOp, linalg::Conv2DNgchwFgchwOp>(op))
        convs.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp conv : convs) {
      if (isa<linalg::Conv1DNcwFcwOp>(conv))
        (void)toChannelsLast<linalg::Conv1DNwcWcfOp>(rewriter, conv,
                                                      getChannelsLast(1));
      else if (isa<linalg::Conv2DNchwFchwOp>(conv))
        (void)toChannelsLast<linalg::Conv2DNhwcHwcfOp>(rewriter, conv,
                                                        getChannelsLast(2));
      else if (isa<linalg::Conv2DNgchwGfchwOp>(conv))
        (void)splitGroups(rewriter, conv, /*filterGroupDim=*/0, maxGroups);
      else if (isa<linalg::Conv2DNgchwFgchwOp>(conv))
        (void)splitGroups(rewriter, conv, /*filterGroupDim=*/1, maxGroups);
      else if (isa<linalg::Conv3DNcdhwFcdhwOp>(conv))
        (void)toChannelsLast<linalg::Conv3DNdhwcDhwcfOp>(rewriter, conv,
                                                          getChannelsLast(3));
      else if (cast<ShapedType>(conv.getDpsInputs()[0].getType())
                   .getDimSize(1) >= minDepthwiseChannels &&
               minDepthwiseChannels > 0)
        (void)toChannelsLast<linalg::DepthwiseConv2DNhwcHwcOp>(
            rewriter, conv, getDepthwiseChannelsLast(2));
    }
  }
};
} // namespace
