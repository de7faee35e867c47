//===- PadsToCopies.cpp - ke-pads-to-copies -------------------------------===//
//
// Bufferization writes a tensor.pad as a fill and a memref.copy of the
// source into the fill's interior: a strided copy, lowered as scalar loops
// after every schedule ran (KernelBench's 1-D max pool spent 2.8 of 5.5 ms
// there). As a linalg.copy into the interior on tensors, the copy is an op
// the schedule tiles and vectorizes like any other, and bufferization still
// writes it in place.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace ke {
#define GEN_PASS_DEF_KEPADSTOCOPIES
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
LogicalResult rewritePad(RewriterBase &rewriter, tensor::PadOp pad) {
  auto sourceType = dyn_cast<RankedTensorType>(pad.getSource().getType());
  RankedTensorType resultType = pad.getResultType();
  Value padding = pad.getConstantPaddingValue();
  if (!padding || !sourceType || !sourceType.hasStaticShape() ||
      !resultType.hasStaticShape() || pad.getNofold())
    return failure();
  // Static low padding only: the interior's offsets.
  SmallVector<OpFoldResult> offsets = pad.getMixedLowPad();
  if (llvm::any_of(offsets, [](OpFoldResult offset) {
        return !getConstantIntValue(offset);
      }))
    return failure();
  Location loc = pad.getLoc();
  rewriter.setInsertionPoint(pad);
  // The padding value must be available here (a constant, or defined above).
  if (auto *definingOp = padding.getDefiningOp();
      definingOp && definingOp->getBlock() == pad.getBody())
    return failure();
  Value empty = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                        resultType.getElementType());
  Value filled =
      linalg::FillOp::create(rewriter, loc, padding, empty).getResult(0);
  SmallVector<OpFoldResult> sizes, strides;
  for (int64_t size : sourceType.getShape()) {
    sizes.push_back(rewriter.getIndexAttr(size));
    strides.push_back(rewriter.getIndexAttr(1));
  }
  Value interior = tensor::ExtractSliceOp::create(rewriter, loc, filled,
                                                  offsets, sizes, strides);
  Value copied =
      linalg::CopyOp::create(rewriter, loc, pad.getSource(), interior)
          .getResult(0);
  rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(pad, copied, filled,
                                                     offsets, sizes, strides);
  return success();
}

struct PadsToCopiesPass
    : ke::impl::KePadsToCopiesBase<PadsToCopiesPass> {
  void runOnOperation() override {
    SmallVector<tensor::PadOp> pads;
    getOperation().walk([&](tensor::PadOp pad) { pads.push_back(pad); });
    IRRewriter rewriter(&getContext());
    for (tensor::PadOp pad : pads)
      (void)rewritePad(rewriter, pad);
  }
};
} // namespace
