//===- StructuredMatchers.h - reading linalg ops' maps and bodies ---------===//
//
// Questions several passes ask of a structured op: which loops an indexing
// expression sums (a convolution's or a pool's window, o * s + k * d), and
// whether its body is exactly a multiply-accumulate of two inputs.
//
//===----------------------------------------------------------------------===//

#ifndef KE_CODEGEN_STRUCTUREDMATCHERS_H
#define KE_CODEGEN_STRUCTUREDMATCHERS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/SmallVector.h"

#include <utility>

namespace ke {

/// `expr` as (loop, coefficient) terms; fails on anything that is not a sum
/// of loops times positive constants (no offsets: front ends pad
/// explicitly).
mlir::FailureOr<llvm::SmallVector<std::pair<unsigned, int64_t>>>
getLinearTerms(mlir::AffineExpr expr);

/// Whether `op`'s body is exactly acc + a * b for its inputs `a` and `b`
/// (either order, each possibly widened by an `arith.extf` first) and its
/// one output acc, nothing else: an input of zero then adds nothing.
bool isMultiplyAccumulateBody(mlir::linalg::LinalgOp op, unsigned a,
                              unsigned b);

} // namespace ke

#endif // KE_CODEGEN_STRUCTUREDMATCHERS_H
