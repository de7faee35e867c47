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
struct PadsToGenericsForGPUPass
    : ke::impl::KePadsToGenericsForGPUBase<PadsToGenericsForGPUPass> {
  void runOnOperation() override {
    SmallVector<tensor::PadOp> pads;
    getOperation().walk([&](tensor::PadOp pad) {
      if (ke::isStaticConstantPad(pad))
        pads.push_back(pad);
    });
    IRRewriter rewriter(&getContext());
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
