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

/// NCHW input to NHWC, FCHW filter to HWCF, and the NHWC result back.
constexpr int64_t kInputToNHWC[] = {0, 2, 3, 1};
constexpr int64_t kFilterToHWCF[] = {2, 3, 1, 0};
constexpr int64_t kResultToNCHW[] = {0, 3, 1, 2};

LogicalResult toChannelsLast(RewriterBase &rewriter,
                             linalg::Conv2DNchwFchwOp conv) {
  if (!conv.hasPureTensorSemantics() || conv->getNumResults() != 1)
    return failure();
  for (Value operand : conv->getOperands())
    if (!cast<ShapedType>(operand.getType()).hasStaticShape())
      return failure();
  Location loc = conv.getLoc();
  rewriter.setInsertionPoint(conv);
  Value input = transpose(rewriter, loc, conv.getInputs()[0], kInputToNHWC);
  Value filter = transpose(rewriter, loc, conv.getInputs()[1], kFilterToHWCF);
  Value init = transpose(rewriter, loc, conv.getOutputs()[0], kInputToNHWC);
  SmallVector<NamedAttribute> attributes;
  for (StringRef name : {"strides", "dilations"})
    if (Attribute value = conv->getAttr(name))
      attributes.push_back(rewriter.getNamedAttr(name, value));
  auto channelsLast = linalg::Conv2DNhwcHwcfOp::create(
      rewriter, loc, TypeRange{init.getType()}, ValueRange{input, filter},
      ValueRange{init}, attributes);
  rewriter.replaceOp(conv, transpose(rewriter, loc, channelsLast->getResult(0),
                                     kResultToNCHW));
  return success();
}

struct ConvolutionsToChannelsLastPass
    : ke::impl::KeConvolutionsToChannelsLastBase<
          ConvolutionsToChannelsLastPass> {
  void runOnOperation() override {
    SmallVector<linalg::Conv2DNchwFchwOp> convs;
    getOperation().walk(
        [&](linalg::Conv2DNchwFchwOp conv) { convs.push_back(conv); });
    IRRewriter rewriter(&getContext());
    for (linalg::Conv2DNchwFchwOp conv : convs)
      (void)toChannelsLast(rewriter, conv);
  }
};
} // namespace
