//===- FilterPanels.cpp - convolution filters packed into panels ----------===//
//
// Part of ke-tile-and-vectorize's convolution schedule (see FilterPanels.h).
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/FilterPanels.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace {
/// Whether `slice` takes all of its source.
bool isWholeSlice(tensor::ExtractSliceOp slice) {
  return slice.getSourceType() == slice.getResultType() &&
         llvm::all_of(slice.getMixedOffsets(),
                      [](OpFoldResult offset) {
                        return isConstantIntValue(offset, 0);
                      }) &&
         llvm::all_of(slice.getMixedStrides(), [](OpFoldResult stride) {
           return isConstantIntValue(stride, 1);
         });
}

/// The outermost scf.forall around `op`, if any.
scf::ForallOp getOutermostForall(Operation *op) {
  scf::ForallOp outermost;
  for (auto forall = op->getParentOfType<scf::ForallOp>(); forall;
       forall = forall->getParentOfType<scf::ForallOp>())
    outermost = forall;
  return outermost;
}
} // namespace

std::optional<ke::FilterPanels>
ke::packFilterIntoPanels(RewriterBase &rewriter, linalg::LinalgOp conv,
                         int64_t width) {
  if (!isa<linalg::Conv1DNwcWcfOp, linalg::Conv2DNhwcHwcfOp,
           linalg::Conv3DNdhwcDhwcfOp>(conv.getOperation()) ||
      width < 1)
    return std::nullopt;
  Value filter = conv.getDpsInputOperand(1)->get();
  auto filterType = dyn_cast<RankedTensorType>(filter.getType());
  if (!filterType || !filterType.hasStaticShape())
    return std::nullopt;
  int64_t rank = filterType.getRank();
  int64_t channels = filterType.getDimSize(rank - 1);
  if (channels % width != 0 || channels / width < 2)
    return std::nullopt;

  // Whole slices (a thread chunk's view of a filter no chunk cuts) are read
  // through, so the packing can move out of the threads' loop.
  Value source = filter;
  while (auto slice = source.getDefiningOp<tensor::ExtractSliceOp>()) {
    if (!isWholeSlice(slice))
      break;
    source = slice.getSource();
  }
  scf::ForallOp forall = getOutermostForall(conv);
  bool outsideThreads =
      forall && source.getParentRegion()->isAncestor(forall->getParentRegion());
  if (outsideThreads) {
    rewriter.setInsertionPoint(forall);
  } else {
    rewriter.setInsertionPoint(conv);
    source = filter;
  }

  // [.., C, F] -> [.., C, F / width, width] (free) -> [F / width, .., C,
  // width] (the copy).
  Location loc = conv.getLoc();
  SmallVector<int64_t> splitShape(filterType.getShape());
  splitShape.back() = channels / width;
  splitShape.push_back(width);
  SmallVector<ReassociationIndices> reassociation;
  for (int64_t dim = 0; dim + 1 < rank; ++dim)
    reassociation.push_back({dim});
  reassociation.push_back({rank - 1, rank});
  Value split = tensor::ExpandShapeOp::create(
      rewriter, loc,
      RankedTensorType::get(splitShape, filterType.getElementType()), source,
      reassociation);
  SmallVector<int64_t> permutation = {rank - 1};
  for (int64_t dim = 0; dim + 1 < rank; ++dim)
    permutation.push_back(dim);
  permutation.push_back(rank);
  SmallVector<int64_t> panelShape;
  for (int64_t dim : permutation)
    panelShape.push_back(splitShape[dim]);
  Value init = tensor::EmptyOp::create(rewriter, loc, panelShape,
                                       filterType.getElementType());
  auto packing =
      linalg::TransposeOp::create(rewriter, loc, split, init, permutation);
  return FilterPanels{packing->getResult(0),
                      cast<linalg::LinalgOp>(packing.getOperation()), width};
}

LogicalResult ke::readFilterFromPanel(RewriterBase &rewriter,
                                      linalg::LinalgOp tiledConv,
                                      const FilterPanels &panels) {
  OpOperand *filterOperand = tiledConv.getDpsInputOperand(1);
  auto slice = filterOperand->get().getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice)
    return failure();
  auto sliceType = slice.getResultType();
  auto panelType = cast<RankedTensorType>(panels.panels.getType());
  int64_t rank = sliceType.getRank();
  // One panel's worth: every dimension whole but the channels, `width` of
  // those, at unit strides.
  if (slice.getSourceType().getRank() != rank ||
      !sliceType.hasStaticShape() ||
      sliceType.getDimSize(rank - 1) != panels.width ||
      panelType.getRank() != rank + 1 ||
      !llvm::all_of(slice.getMixedStrides(), [](OpFoldResult stride) {
        return isConstantIntValue(stride, 1);
      }))
    return failure();
  SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
  for (int64_t dim = 0; dim + 1 < rank; ++dim)
    if (!isConstantIntValue(offsets[dim], 0) ||
        sliceType.getDimSize(dim) != panelType.getDimSize(dim + 1))
      return failure();

  rewriter.setInsertionPoint(tiledConv);
  Location loc = tiledConv.getLoc();
  AffineExpr channel = rewriter.getAffineDimExpr(0);
  OpFoldResult panel = affine::makeComposedFoldedAffineApply(
      rewriter, loc, channel.floorDiv(panels.width), {offsets.back()});
  SmallVector<OpFoldResult> panelOffsets(rank + 1, rewriter.getIndexAttr(0));
  panelOffsets.front() = panel;
  SmallVector<OpFoldResult> panelSizes = {rewriter.getIndexAttr(1)};
  for (int64_t size : sliceType.getShape())
    panelSizes.push_back(rewriter.getIndexAttr(size));
  SmallVector<OpFoldResult> panelStrides(rank + 1, rewriter.getIndexAttr(1));
  Value read = tensor::ExtractSliceOp::create(rewriter, loc, sliceType,
                                              panels.panels, panelOffsets,
                                              panelSizes, panelStrides);
  rewriter.modifyOpInPlace(tiledConv, [&] { filterOperand->set(read); });
  return success();
}
