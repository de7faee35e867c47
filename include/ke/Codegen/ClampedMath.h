//===- ClampedMath.h - math ops whose operand is clamped to a constant ---===//
//
// exp(min(x, 0)) (ELU, SELU, CELU as front ends decompose them) computes
// exp(0) for every x >= 0. ke-guard-clamped-math branches around such an op
// on vectors whose lanes all sit at the bound; ke-approximate-math leaves
// these ops for it when asked (keep-clamped), so the approximation lands
// in the branch that still needs it.
//
//===----------------------------------------------------------------------===//

#ifndef KE_CODEGEN_CLAMPEDMATH_H
#define KE_CODEGEN_CLAMPEDMATH_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/APFloat.h"

#include <optional>

namespace ke {

/// The constant `value` is clamped to when it is a select between a
/// constant and something else, or a min/max with a constant (scalar, or
/// a splat vector).
std::optional<llvm::APFloat> getClampBound(mlir::Value value);

/// Whether `op` is a math op costly enough to branch around (exp, log,
/// tanh, erf, ...: a polynomial or a libm call, not one instruction) with
/// one float operand clamped to a constant.
bool isClampedCostlyMath(mlir::Operation *op);

} // namespace ke

#endif // KE_CODEGEN_CLAMPEDMATH_H
