//===- FoldReshapesIntoInitializers.cpp - ke-fold-reshapes-into-initializers =//
//
// `linalg-fold-unit-extent-dims` drops a broadcast's unit dimensions but not
// a convolution's, so a 3-D transposed convolution's phases (outputs
// [1, D, H, W, C]) start from one bias broadcast [D, H, W, C] read through a
// tensor.expand_shape. Through the reshape the schedule cannot compute the
// broadcast inside each phase's tiles: it is a pass of its own, copied once
// per phase that writes over it, and the phases' reshaped empty tensors stop
// bufferization from writing each phase in place in the output. Recomputing
// the broadcast in the reshaped shape (a generic of the consumer's rank over
// a reshaped tensor.empty, itself an empty tensor of that shape) removes
// both.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"
#include "ke/Codegen/TileAndVectorize.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace ke {
#define GEN_PASS_DEF_KEFOLDRESHAPESINTOINITIALIZERS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
struct FoldReshapesIntoInitializersPass
    : ke::impl::KeFoldReshapesIntoInitializersBase<
          FoldReshapesIntoInitializersPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // Only a data-movement generic (a broadcast) under an expand_shape that
    // initializes outputs: a transposing copy read by a group norm's
    // [N, G, C/G, ...] view, expanded too, made the convolution before it
    // 2x slower (KernelBench's Conv2d + GroupNorm + Scale + MaxPool).
    linalg::populateFoldReshapeOpsByExpansionPatterns(
        patterns, [](OpOperand *fused) {
          Operation *producer = fused->get().getDefiningOp();
          auto expand = dyn_cast<tensor::ExpandShapeOp>(fused->getOwner());
          return expand && isa_and_nonnull<linalg::GenericOp>(producer) &&
                 ke::isDataMovementInitializer(producer) &&
                 llvm::all_of(expand->getUses(), [](OpOperand &use) {
                   auto consumer =
                       dyn_cast<DestinationStyleOpInterface>(use.getOwner());
                   return consumer && consumer.isDpsInit(&use);
                 });
        });
    tensor::populateFoldTensorEmptyPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
