//===- IndexRange.cpp - valid ranges of index inputs, inferred ------------===//

#include "ke/Eval/IndexRange.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

std::optional<int64_t> ke::eval::inferIndexBound(func::FuncOp function,
                                                 unsigned index) {
  std::optional<int64_t> bound;
  auto note = [&](int64_t size) {
    bound = bound ? std::min(*bound, size) : size;
  };
  SmallVector<Value> work{function.getArgument(index)};
  llvm::DenseSet<Value> visited;
  while (!work.empty()) {
    Value value = work.pop_back_val();
    if (!visited.insert(value).second)
      continue;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(user)) {
        // Inputs flow into the body; what it yields flows out.
        if (linalgOp.isDpsInput(&use))
          work.push_back(linalgOp.getMatchingBlockArgument(&use));
        continue;
      }
      if (isa<linalg::YieldOp>(user)) {
        Operation *parent = user->getParentOp();
        if (use.getOperandNumber() < parent->getNumResults())
          work.push_back(parent->getResult(use.getOperandNumber()));
        continue;
      }
      if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
              arith::ExtUIOp, arith::TruncIOp, tensor::ExpandShapeOp,
              tensor::CollapseShapeOp, tensor::ExtractSliceOp, tensor::CastOp>(
              user)) {
        work.push_back(user->getResult(0));
        continue;
      }
      if (auto select = dyn_cast<arith::SelectOp>(user)) {
        if (use.getOperandNumber() != 0)
          work.push_back(select.getResult());
        continue;
      }
      if (auto extract = dyn_cast<tensor::ExtractOp>(user)) {
        if (use.getOperandNumber() == 0) {
          work.push_back(extract.getResult()); // an element of the input
          continue;
        }
        RankedTensorType type = extract.getTensor().getType();
        unsigned position = use.getOperandNumber() - 1;
        if (!type.isDynamicDim(position))
          note(type.getDimSize(position));
      }
    }
  }
  return bound;
}

llvm::SmallVector<unsigned>
ke::eval::inferIndexRanges(func::FuncOp reference, KernelSignature &signature) {
  llvm::SmallVector<unsigned> inferred;
  for (auto [index, spec] : llvm::enumerate(signature.arguments)) {
    bool integer =
        spec.kind == ElementKind::I8 || spec.kind == ElementKind::I16 ||
        spec.kind == ElementKind::I32 || spec.kind == ElementKind::I64;
    if (!integer || spec.range || index >= reference.getNumArguments())
      continue;
    if (std::optional<int64_t> bound = inferIndexBound(reference, index)) {
      // Narrow types hold only so many indices.
      int64_t representable = spec.kind == ElementKind::I8    ? 128
                              : spec.kind == ElementKind::I16 ? 32768
                                                              : *bound;
      int64_t hi = std::min(*bound, representable);
      if (hi <= 0)
        continue;
      spec.range = std::make_pair(int64_t(0), hi);
      inferred.push_back(index);
    }
  }
  return inferred;
}
