//===- FuseSiblingReductions.cpp - ke-fuse-sibling-reductions -------------===//
//
// Front ends compute a norm's statistics as separate reductions over the
// same input: torch-mlir's group norm sums its input once in f32 (the mean
// it normalizes with) and once more in f64 (the mean its variance is taken
// around). Each reduction is a sweep of the input through memory, and these
// kernels are bound by memory, so two reductions over the same input with
// the same loops become one generic with both results: one sweep.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"

namespace ke {
#define GEN_PASS_DEF_KEFUSESIBLINGREDUCTIONS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// Whether `op` reads or writes a tensor of i1. The CPU schedule never
/// vectorizes such an op (LLVM packs vectors of i1 into bits while memory
/// holds a byte per i1): fused with one, a reduction that vectorizes on its
/// own would run scalar (KernelBench's attention: its rows' max fused with
/// their "all -inf" mask, 3.3 of its 10 ms).
bool hasBooleanOperand(linalg::GenericOp op) {
  auto isBoolean = [](Value value) {
    return getElementTypeOrSelf(value.getType()).isInteger(1);
  };
  return llvm::any_of(op->getOperands(), isBoolean) ||
         llvm::any_of(op->getResults(), isBoolean);
}

/// Whether `first` and `second` are reductions over the same loops that read
/// a common input the same way: fusing them saves a sweep of that input.
/// Not when either has i1 operands (hasBooleanOperand).
bool areSiblingReductions(linalg::GenericOp first, linalg::GenericOp second) {
  if (!first.hasPureTensorSemantics() || !second.hasPureTensorSemantics() ||
      hasBooleanOperand(first) || hasBooleanOperand(second) ||
      first.getNumReductionLoops() == 0 ||
      first.getIteratorTypesArray() != second.getIteratorTypesArray())
    return false;
  SmallVector<int64_t> firstRanges = first.getStaticLoopRanges();
  if (firstRanges != second.getStaticLoopRanges() ||
      llvm::any_of(firstRanges, ShapedType::isDynamic))
    return false;
  for (OpOperand *firstInput : first.getDpsInputOperands())
    for (OpOperand *secondInput : second.getDpsInputOperands())
      if (firstInput->get() == secondInput->get() &&
          first.getMatchingIndexingMap(firstInput) ==
              second.getMatchingIndexingMap(secondInput))
        return true;
  return false;
}

/// Whether `later` reads, directly or through ops of the same block, a
/// result of `earlier`.
bool dependsOn(linalg::GenericOp later, linalg::GenericOp earlier) {
  BackwardSliceOptions options;
  options.inclusive = false;
  options.filter = [&](Operation *op) {
    return op->getBlock() == earlier->getBlock() &&
           !op->isBeforeInBlock(earlier);
  };
  SetVector<Operation *> slice;
  (void)getBackwardSlice(later.getOperation(), &slice, options);
  return slice.contains(earlier.getOperation());
}

/// One generic computing both ops' results, at `first`'s place; inputs that
/// both read the same way are read once.
linalg::GenericOp fuse(RewriterBase &rewriter, linalg::GenericOp first,
                       linalg::GenericOp second) {
  SmallVector<Value> inputs;
  SmallVector<AffineMap> inputMaps;
  auto addInput = [&](OpOperand *operand, linalg::GenericOp op) {
    AffineMap map = op.getMatchingIndexingMap(operand);
    for (auto [index, input] : llvm::enumerate(inputs))
      if (input == operand->get() && inputMaps[index] == map)
        return static_cast<unsigned>(index);
    inputs.push_back(operand->get());
    inputMaps.push_back(map);
    return static_cast<unsigned>(inputs.size() - 1);
  };
  SmallVector<unsigned> firstInputs, secondInputs;
  for (OpOperand *operand : first.getDpsInputOperands())
    firstInputs.push_back(addInput(operand, first));
  for (OpOperand *operand : second.getDpsInputOperands())
    secondInputs.push_back(addInput(operand, second));

  SmallVector<Value> inits(first.getOutputs());
  llvm::append_range(inits, second.getOutputs());
  SmallVector<AffineMap> maps = inputMaps;
  for (OpOperand &init : first.getDpsInitsMutable())
    maps.push_back(first.getMatchingIndexingMap(&init));
  for (OpOperand &init : second.getDpsInitsMutable())
    maps.push_back(second.getMatchingIndexingMap(&init));
  SmallVector<Type> resultTypes(first->getResultTypes());
  llvm::append_range(resultTypes, second->getResultTypes());

  rewriter.setInsertionPoint(first);
  auto fused = linalg::GenericOp::create(
      rewriter, first.getLoc(), resultTypes, inputs, inits, maps,
      first.getIteratorTypesArray());
  Block *body = rewriter.createBlock(&fused.getRegion());
  for (Value value : llvm::concat<Value>(inputs, inits))
    body->addArgument(getElementTypeOrSelf(value.getType()), fused.getLoc());

  // Each op's body cloned with its arguments mapped to the fused block's;
  // the yields concatenated.
  SmallVector<Value> yielded;
  unsigned initOffset = inputs.size();
  auto cloneBody = [&](linalg::GenericOp op, ArrayRef<unsigned> inputIndices,
                       unsigned firstInit) {
    IRMapping mapping;
    Block *source = op.getBody();
    for (auto [index, argument] :
         llvm::enumerate(source->getArguments().take_front(
             op.getNumDpsInputs())))
      mapping.map(argument, body->getArgument(inputIndices[index]));
    for (auto [index, argument] : llvm::enumerate(
             source->getArguments().drop_front(op.getNumDpsInputs())))
      mapping.map(argument, body->getArgument(firstInit + index));
    for (Operation &nested : source->without_terminator())
      rewriter.clone(nested, mapping);
    for (Value value : source->getTerminator()->getOperands())
      yielded.push_back(mapping.lookupOrDefault(value));
  };
  rewriter.setInsertionPointToStart(body);
  cloneBody(first, firstInputs, initOffset);
  cloneBody(second, secondInputs, initOffset + first.getNumDpsInits());
  linalg::YieldOp::create(rewriter, fused.getLoc(), yielded);

  // The count is read before `first` is erased.
  unsigned firstResults = first->getNumResults();
  rewriter.replaceOp(first, fused.getResults().take_front(firstResults));
  rewriter.replaceOp(second, fused.getResults().drop_front(firstResults));
  return fused;
}

/// Fuses the first pair of siblings found (the second op's operands moved
/// above the first when they do not depend on it).
bool fuseOnePair(RewriterBase &rewriter, func::FuncOp function) {
  SmallVector<linalg::GenericOp> generics;
  function.walk([&](linalg::GenericOp op) { generics.push_back(op); });
  for (linalg::GenericOp first : generics) {
    for (linalg::GenericOp second : generics) {
      if (first == second || first->getBlock() != second->getBlock() ||
          !first->isBeforeInBlock(second) ||
          !areSiblingReductions(first, second) || dependsOn(second, first))
        continue;
      if (failed(moveOperationDependencies(rewriter, second, first)))
        continue;
      fuse(rewriter, first, second);
      return true;
    }
  }
  return false;
}

struct FuseSiblingReductionsPass
    : ke::impl::KeFuseSiblingReductionsBase<FuseSiblingReductionsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    while (fuseOnePair(rewriter, getOperation())) {
    }
  }
};
} // namespace
