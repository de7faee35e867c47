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
Value transpose(OpBuilder &builder, Location loc, Value value,
                ArrayRef<int64_t> permutation) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (int64_t dim : permutation)
    shape.push_back(type.getDimSize(dim));
  Value init =
      tensor::EmptyOp::create(builder, loc, shape, type.getElementType());
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

template <typename ChannelsLastOp>
LogicalResult toChannelsLast(RewriterBase &rewriter, linalg::LinalgOp conv,
                             const ChannelsLast &permutations) {
  if (!conv.hasPureTensorSemantics() || conv->getNumResults() != 1)
    return failure();
  for (Value operand : conv->getOperands())
    if (!cast<ShapedType>(operand.getType()).hasStaticShape())
      return failure();
  Location loc = conv.getLoc();
  rewriter.setInsertionPoint(conv);
  Value input = transpose(rewriter, loc, conv.getDpsInputs()[0],
                          permutations.input);
  Value filter = transpose(rewriter, loc, conv.getDpsInputs()[1],
                           permutations.filter);
  Value init = transpose(rewriter, loc, conv.getDpsInits()[0],
                         permutations.input);
  SmallVector<NamedAttribute> attributes;
  for (StringRef name : {"strides", "dilations"})
    if (Attribute value = conv->getAttr(name))
      attributes.push_back(rewriter.getNamedAttr(name, value));
  auto channelsLast = ChannelsLastOp::create(
      rewriter, loc, TypeRange{init.getType()}, ValueRange{input, filter},
      ValueRange{init}, attributes);
  rewriter.replaceOp(conv, transpose(rewriter, loc, channelsLast->getResult(0),
                                     permutations.result));
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
              linalg::Conv3DNcdhwFcdhwOp, linalg::DepthwiseConv2DNchwChwOp>(
              op))
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
      else if (isa<linalg::Conv3DNcdhwFcdhwOp>(conv))
        (void)toChannelsLast<linalg::Conv3DNdhwcDhwcfOp>(rewriter, conv,
                                                          getChannelsLast(3));
      else if (cast<ShapedType>(conv.getDpsInputs()[0].getType())
                   .getDimSize(1) >= minDepthwiseChannels)
        (void)toChannelsLast<linalg::DepthwiseConv2DNhwcHwcOp>(
            rewriter, conv, getDepthwiseChannelsLast(2));
    }
  }
};
} // namespace
