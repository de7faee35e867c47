//===- PadsToGenericsForGPU.cpp - ke-pads-to-generics-for-gpu -------------===//
//
// Bufferized, a tensor.pad is a fill of the padded buffer and a copy of the
// source into its interior: two launches, the interior written twice. A
// generic over the padded shape whose every element is read from the
// source or is the padding value writes it once, in one launch.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/PaddedReads.h"
#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace ke {
#define GEN_PASS_DEF_KEPADSTOGENERICSFORGPU
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// insert_slice(x into fill(c)) with unit strides, the fill used only
/// there, as the tensor.pad of x by c it is (a front end's padding for a
/// transposed convolution with stride 1); false where it is not one.
bool insertIntoFillAsPad(IRRewriter &rewriter, tensor::InsertSliceOp insert) {
  auto fill = insert.getDest().getDefiningOp<linalg::FillOp>();
  RankedTensorType sourceType = insert.getSourceType();
  RankedTensorType type = insert.getType();
  if (!fill || !fill->hasOneUse() || !fill.hasPureTensorSemantics() ||
      !sourceType.hasStaticShape() || !type.hasStaticShape() ||
      sourceType.getRank() != type.getRank() ||
      ShapedType::isDynamicShape(insert.getStaticOffsets()) ||
      llvm::any_of(insert.getStaticStrides(),
                   [](int64_t stride) { return stride != 1; }))
    return false;
  SmallVector<OpFoldResult> low, high;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    int64_t offset = insert.getStaticOffsets()[d];
    low.push_back(rewriter.getIndexAttr(offset));
    high.push_back(rewriter.getIndexAttr(type.getDimSize(d) - offset -
                                         sourceType.getDimSize(d)));
  }
  rewriter.setInsertionPoint(insert);
  auto pad = tensor::PadOp::create(rewriter, insert.getLoc(), type,
                                   insert.getSource(), low, high,
                                   fill.getInputs().front());
  rewriter.replaceOp(insert, pad.getResult());
  rewriter.eraseOp(fill);
  return true;
}

struct PadsToGenericsForGPUPass
    : ke::impl::KePadsToGenericsForGPUBase<PadsToGenericsForGPUPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<tensor::InsertSliceOp> inserts;
    getOperation().walk(
        [&](tensor::InsertSliceOp insert) { inserts.push_back(insert); });
    for (tensor::InsertSliceOp insert : inserts)
      insertIntoFillAsPad(rewriter, insert);
    SmallVector<tensor::PadOp> pads;
    getOperation().walk([&](tensor::PadOp pad) {
      if (ke::isStaticConstantPad(pad))
        pads.push_back(pad);
    });
    for (tensor::PadOp pad : pads) {
      Location loc = pad.getLoc();
      RankedTensorType type = pad.getResultType();
      int64_t rank = type.getRank();
      rewriter.setInsertionPoint(pad);
      Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                            type.getElementType());
      auto generic = linalg::GenericOp::create(
          rewriter, loc, TypeRange{type}, ValueRange{}, ValueRange{empty},
          SmallVector<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
          SmallVector<utils::IteratorType>(rank,
                                           utils::IteratorType::parallel),
          [&](OpBuilder &nested, Location nestedLoc, ValueRange) {
            SmallVector<Value> unclamped;
            for (int64_t d = 0; d < rank; ++d) {
              Value index = linalg::IndexOp::create(nested, nestedLoc, d);
              if (int64_t low = pad.getStaticLow()[d])
                index = arith::SubIOp::create(
                    nested, nestedLoc, index,
                    arith::ConstantIndexOp::create(nested, nestedLoc, low));
              unclamped.push_back(index);
            }
            linalg::YieldOp::create(
                nested, nestedLoc,
                ke::readPaddedElement(nested, nestedLoc, pad, unclamped));
          });
      rewriter.replaceOp(pad, generic->getResults());
    }
  }
};
} // namespace
