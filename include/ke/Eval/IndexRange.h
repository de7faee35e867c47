//===- IndexRange.h - valid ranges of index inputs, inferred ----*- C++ -*-===//
//
// An integer input that a kernel uses as an index (class labels, embedding
// ids) must hold valid indices, or the reference itself reads out of bounds.
// `ke.range` says so explicitly; where it is missing, the range is inferred
// from how the reference uses the argument.
//
//===----------------------------------------------------------------------===//

#ifndef KE_EVAL_INDEXRANGE_H
#define KE_EVAL_INDEXRANGE_H

#include "ke/Eval/KernelSignature.h"

#include <optional>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace ke::eval {

/// The exclusive upper bound of argument `index` of `function` when it is
/// used as an index: its values flow (through casts, selects, reshapes and
/// the bodies of linalg ops) into index positions of `tensor.extract` on
/// statically shaped tensors; the bound is the smallest such dimension.
std::optional<int64_t> inferIndexBound(mlir::func::FuncOp function,
                                       unsigned index);

/// Gives every integer argument of `signature` without a range the range
/// [0, bound) inferred from `reference`; returns the arguments it gave one.
llvm::SmallVector<unsigned> inferIndexRanges(mlir::func::FuncOp reference,
                                             KernelSignature &signature);

} // namespace ke::eval

#endif // KE_EVAL_INDEXRANGE_H
