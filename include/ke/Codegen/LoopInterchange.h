//===- LoopInterchange.h - a linalg op's loops in another order -*- C++ -*-===//
//
// Upstream interchanges the loops of a linalg.generic only; named ops
// (depthwise convolutions, matmuls) are generalized first. Schedules that
// reorder loops (the CPU's depthwise convolutions, the GPU's parallel loops
// first) share this.
//
//===----------------------------------------------------------------------===//

#ifndef KE_CODEGEN_LOOPINTERCHANGE_H
#define KE_CODEGEN_LOOPINTERCHANGE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace ke {
/// `op` itself if it is a linalg.generic, else the generic it generalizes to
/// (inserted before it, replacing it); failure where a named op has no
/// region builder.
mlir::FailureOr<mlir::linalg::GenericOp>
asGenericOp(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op);

/// `op` as a linalg.generic whose loop i is its loop `order[i]`, a named op
/// generalized first; failure where a named op has no region builder or
/// `order` is not a permutation (a named op is then left as it is).
mlir::FailureOr<mlir::linalg::GenericOp>
interchangeLoops(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op,
                 llvm::ArrayRef<unsigned> order);
} // namespace ke

#endif // KE_CODEGEN_LOOPINTERCHANGE_H
