//===- FoldPadsIntoConsumersForGPU.cpp - ke-fold-pads-into-consumers-for-gpu //
//
// A padded input on a GPU is two launches before its consumer runs (a fill
// of the padded buffer, then a copy into its interior) and a buffer as
// large as the input written and read again. A pooling window reads each
// element it needs once anyway; it can read the input itself and take the
// padding value where its window leaves the input.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/LoopInterchange.h"
#include "ke/Codegen/PaddedReads.h"
#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace ke {
#define GEN_PASS_DEF_KEFOLDPADSINTOCONSUMERSFORGPU
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// The padded input the consumer can read itself: a static pad by a value
/// from outside its region, whose only use is `consumer`'s input, while the
/// consumer's other inputs are shapes only (a pooling window's), so the
/// consumer is no contraction whose schedule copies tiles of its operands.
OpOperand *findFoldablePad(linalg::LinalgOp consumer) {
  OpOperand *found = nullptr;
  for (OpOperand *input : consumer.getDpsInputOperands()) {
    auto pad = input->get().getDefiningOp<tensor::PadOp>();
    BlockArgument argument = consumer.getMatchingBlockArgument(input);
    if (!pad) {
      if (!argument.use_empty())
        return nullptr;
      continue;
    }
    if (found || !ke::isStaticConstantPad(pad) || !pad.getResult().hasOneUse())
      return nullptr;
    found = input;
  }
  return found;
}

void foldPad(IRRewriter &rewriter, linalg::GenericOp consumer,
             OpOperand *padded) {
  auto pad = padded->get().getDefiningOp<tensor::PadOp>();
  AffineMap map = consumer.getMatchingIndexingMap(padded);
  unsigned paddedIndex = padded->getOperandNumber();

  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand &operand : consumer->getOpOperands()) {
    if (&operand == padded)
      continue;
    if (consumer.isDpsInput(&operand))
      inputs.push_back(operand.get());
    maps.push_back(consumer.getMatchingIndexingMap(&operand));
  }
  rewriter.setInsertionPoint(consumer);
  auto folded = linalg::GenericOp::create(
      rewriter, consumer.getLoc(), consumer->getResultTypes(), inputs,
      consumer.getDpsInits(), maps, consumer.getIteratorTypesArray());
  Block &oldBody = consumer.getRegion().front();
  Block *body = rewriter.createBlock(&folded.getRegion());
  IRMapping mapping;
  for (BlockArgument argument : oldBody.getArguments()) {
    if (argument.getArgNumber() == paddedIndex)
      continue;
    mapping.map(argument,
                body->addArgument(argument.getType(), argument.getLoc()));
  }
  // The element the window reads, at the padded index its map gives.
  Location loc = pad.getLoc();
  rewriter.setInsertionPointToStart(body);
  SmallVector<Value> loops;
  for (unsigned d = 0; d < consumer.getNumLoops(); ++d)
    loops.push_back(linalg::IndexOp::create(rewriter, loc, d));
  ArrayRef<int64_t> low = pad.getStaticLow();
  SmallVector<Value> unclamped;
  for (auto [d, expression] : llvm::enumerate(map.getResults()))
    unclamped.push_back(affine::AffineApplyOp::create(
        rewriter, loc,
        AffineMap::get(map.getNumDims(), 0, expression - low[d]), loops));
  Value element = ke::readPaddedElement(rewriter, loc, pad, unclamped);
  mapping.map(oldBody.getArgument(paddedIndex), element);
  for (Operation &op : oldBody)
    rewriter.clone(op, mapping);
  rewriter.replaceOp(consumer, folded->getResults());
  rewriter.eraseOp(pad);
}

/// expand_shape(pad(x)) as pad(expand_shape(x)) where every padded
/// dimension expands to itself beside unit dimensions (folding unit
/// dimensions leaves a 1-D pool's pad before the [N, C, 1, W] view the
/// named pool reads); false where it does not.
bool sinkPadBelowExpand(IRRewriter &rewriter, tensor::ExpandShapeOp expand) {
  auto pad = expand.getSrc().getDefiningOp<tensor::PadOp>();
  if (!pad || !pad.getResult().hasOneUse() || !pad.getConstantPaddingValue() ||
      !pad.getSourceType().hasStaticShape() ||
      !expand.getResultType().hasStaticShape() ||
      llvm::any_of(pad.getStaticLow(), ShapedType::isDynamic) ||
      llvm::any_of(pad.getStaticHigh(), ShapedType::isDynamic))
    return false;
  ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
  ArrayRef<int64_t> expandedShape = expand.getResultType().getShape();
  SmallVector<int64_t> newLow(expandedShape.size(), 0),
      newHigh(expandedShape.size(), 0), sourceShape(expandedShape);
  for (auto [d, group] : llvm::enumerate(expand.getReassociationIndices())) {
    if (low[d] == 0 && high[d] == 0)
      continue;
    SmallVector<int64_t> wide;
    for (int64_t e : group)
      if (expandedShape[e] != 1)
        wide.push_back(e);
    if (wide.size() != 1)
      return false;
    newLow[wide[0]] = low[d];
    newHigh[wide[0]] = high[d];
    sourceShape[wide[0]] -= low[d] + high[d];
  }
  rewriter.setInsertionPoint(expand);
  auto sourceType = RankedTensorType::get(
      sourceShape, expand.getResultType().getElementType());
  Value expanded = tensor::ExpandShapeOp::create(
      rewriter, expand.getLoc(), sourceType, pad.getSource(),
      expand.getReassociationIndices());
  Value padding = pad.getConstantPaddingValue();
  if (padding.getParentRegion() == &pad.getRegion())
    padding = rewriter.clone(*padding.getDefiningOp())->getResult(0);
  auto asAttrs = [&](ArrayRef<int64_t> sizes) {
    return llvm::map_to_vector(sizes, [&](int64_t size) -> OpFoldResult {
      return rewriter.getIndexAttr(size);
    });
  };
  auto padded = tensor::PadOp::create(
      rewriter, pad.getLoc(), expand.getResultType(), expanded,
      asAttrs(newLow), asAttrs(newHigh), padding);
  rewriter.replaceOp(expand, padded.getResult());
  rewriter.eraseOp(pad);
  return true;
}

struct FoldPadsIntoConsumersForGPUPass
    : ke::impl::KeFoldPadsIntoConsumersForGPUBase<
          FoldPadsIntoConsumersForGPUPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<tensor::ExpandShapeOp> expands;
    getOperation().walk(
        [&](tensor::ExpandShapeOp expand) { expands.push_back(expand); });
    for (tensor::ExpandShapeOp expand : expands)
      sinkPadBelowExpand(rewriter, expand);
    SmallVector<std::pair<linalg::LinalgOp, unsigned>> folds;
    getOperation().walk([&](linalg::LinalgOp consumer) {
      if (OpOperand *padded = findFoldablePad(consumer))
        folds.push_back({consumer, padded->getOperandNumber()});
    });
    for (auto [consumer, operand] : folds) {
      // Named pooling ops (torch-mlir's 1-D and 2-D pools) as generics.
      FailureOr<linalg::GenericOp> generic =
          ke::asGenericOp(rewriter, consumer);
      if (failed(generic))
        continue;
      foldPad(rewriter, *generic, &(*generic)->getOpOperand(operand));
    }
  }
};
} // namespace
