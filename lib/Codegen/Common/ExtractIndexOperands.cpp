//===- ExtractIndexOperands.cpp - ke-extract-index-operands ---------------===//
//
// A gather written as a linalg.generic takes its row indices as an input
// operand and reads the table with tensor.extract in the body. The
// vectorizer cannot tell that such an operand's value is the same for
// every lane of the vector loop, so each vector becomes a vector.gather;
// read with tensor.extract at linalg.index values instead, the index is
// provably invariant and the row is one contiguous load (the bench's
// gather: 84 -> 22 us at 2 threads). An embedding bag's indices vary along
// its innermost loop (the bag), but its rows are read along another one,
// which becomes the vector loop.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallBitVector.h"

namespace ke {
#define GEN_PASS_DEF_KEEXTRACTINDEXOPERANDS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// The loops along which the body reads a tensor contiguously: the last
/// index of a `tensor.extract` is `linalg.index` of that loop.
llvm::SmallBitVector getContiguouslyReadLoops(linalg::GenericOp op) {
  llvm::SmallBitVector loops(op.getNumLoops());
  op.getRegion().walk([&](tensor::ExtractOp extract) {
    if (extract.getIndices().empty())
      return;
    if (auto index =
            extract.getIndices().back().getDefiningOp<linalg::IndexOp>())
      loops.set(index.getDim());
  });
  return loops;
}

/// Whether `input` of `op` only feeds index casts and is the same along a
/// loop that can carry the vector: the innermost one, or one the body reads
/// a table contiguously along.
bool isIndexOperand(linalg::GenericOp op, OpOperand *input,
                    const llvm::SmallBitVector &contiguousLoops) {
  if (!isa<RankedTensorType>(input->get().getType()))
    return false;
  AffineMap map = op.getMatchingIndexingMap(input);
  if (!map.isProjectedPermutation())
    return false;
  bool invariantAlongAVectorLoop =
      !map.isFunctionOfDim(op.getNumLoops() - 1) ||
      llvm::any_of(contiguousLoops.set_bits(), [&](unsigned loop) {
        return !map.isFunctionOfDim(loop);
      });
  if (!invariantAlongAVectorLoop)
    return false;
  BlockArgument argument = op.getMatchingBlockArgument(input);
  return !argument.use_empty() &&
         llvm::all_of(argument.getUsers(), [](Operation *user) {
           return isa<arith::IndexCastOp, arith::IndexCastUIOp>(user);
         });
}

/// Whether the operands left after dropping `inputs` still index every loop:
/// linalg derives the loop bounds from the operands' shapes, so a loop that
/// only the dropped operand indexed would be left without a bound.
bool keepsEveryLoopBounded(linalg::GenericOp op,
                           ArrayRef<OpOperand *> inputs) {
  llvm::SmallBitVector bounded(op.getNumLoops());
  for (OpOperand &operand : op->getOpOperands()) {
    if (llvm::is_contained(inputs, &operand))
      continue;
    for (AffineExpr result : op.getMatchingIndexingMap(&operand).getResults())
      if (auto dim = dyn_cast<AffineDimExpr>(result))
        bounded.set(dim.getPosition());
  }
  return bounded.all();
}

/// `op` with `inputs` read in the body instead of through their block
/// arguments. Each is dropped unless it alone bounds a loop (an embedding
/// bag's indices bound the bag loop); a kept one's argument goes unused.
void extractInBody(IRRewriter &rewriter, linalg::GenericOp op,
                   ArrayRef<OpOperand *> inputs) {
  Block &body = op.getRegion().front();
  rewriter.setInsertionPointToStart(&body);
  SmallVector<unsigned> dropped;
  for (OpOperand *input : inputs) {
    AffineMap map = op.getMatchingIndexingMap(input);
    SmallVector<Value> indices;
    for (AffineExpr result : map.getResults())
      indices.push_back(linalg::IndexOp::create(
          rewriter, op.getLoc(), cast<AffineDimExpr>(result).getPosition()));
    Value element =
        tensor::ExtractOp::create(rewriter, op.getLoc(), input->get(), indices);
    BlockArgument argument = op.getMatchingBlockArgument(input);
    rewriter.replaceAllUsesWith(argument, element);
  }
  SmallVector<OpOperand *> droppedOperands;
  for (OpOperand *input : inputs) {
    droppedOperands.push_back(input);
    if (keepsEveryLoopBounded(op, droppedOperands))
      dropped.push_back(input->getOperandNumber());
    else
      droppedOperands.pop_back();
  }
  if (dropped.empty())
    return;
  SmallVector<Value> keptInputs;
  SmallVector<AffineMap> keptMaps;
  for (OpOperand &operand : op->getOpOperands()) {
    if (llvm::is_contained(dropped, operand.getOperandNumber()))
      continue;
    keptMaps.push_back(op.getMatchingIndexingMap(&operand));
    if (op.isDpsInput(&operand))
      keptInputs.push_back(operand.get());
  }
  rewriter.setInsertionPoint(op);
  auto replacement = linalg::GenericOp::create(
      rewriter, op.getLoc(), op.getResultTypes(), keptInputs, op.getDpsInits(),
      keptMaps, op.getIteratorTypesArray());
  rewriter.inlineRegionBefore(op.getRegion(), replacement.getRegion(),
                              replacement.getRegion().end());
  for (unsigned index : llvm::reverse(dropped))
    replacement.getRegion().front().eraseArgument(index);
  rewriter.replaceOp(op, replacement.getResults());
}

struct ExtractIndexOperandsPass
    : ke::impl::KeExtractIndexOperandsBase<ExtractIndexOperandsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp op) { generics.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : generics) {
      llvm::SmallBitVector contiguousLoops = getContiguouslyReadLoops(op);
      SmallVector<OpOperand *> inputs;
      for (OpOperand *input : op.getDpsInputOperands())
        if (isIndexOperand(op, input, contiguousLoops))
          inputs.push_back(input);
      if (!inputs.empty())
        extractInBody(rewriter, op, inputs);
    }
  }
};
} // namespace
