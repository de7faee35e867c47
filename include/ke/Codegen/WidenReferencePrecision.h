//===- WidenReferencePrecision.h - the reference in f64 ---------*- C++ -*-===//
//
// A reference that sums in f32, in its loop order, rounds as much as the
// kernels it judges: over a long reduction its own error passes the f32
// tolerance (a 65536-term row sum: 8e-4). The evaluation computes such
// kernels a second time in f64 and judges candidates against that.
//
//===----------------------------------------------------------------------===//

#ifndef KE_CODEGEN_WIDENREFERENCEPRECISION_H
#define KE_CODEGEN_WIDENREFERENCEPRECISION_H

#include "mlir/Support/LLVM.h"

#include <cstdint>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace ke {
/// Rewrites `function`'s body to compute in f64 wherever it computed in
/// f32 (values, tensors, constants), keeping its signature: f32 arguments
/// are extended on entry, f32 results truncated on return. Fails, with the
/// function left partly rewritten (work on a copy), where the body holds an
/// op that is not valid on f64 (a bitcast to i32) or a constant it cannot
/// convert; diagnostics of that failure go to the caller's handler.
mlir::LogicalResult widenF32ToF64(mlir::func::FuncOp function);

/// The most terms any one output element of a linalg op on floats in
/// `function` sums (the product of its reduction loops' static trip
/// counts); 0 without such ops.
int64_t getLongestFloatReduction(mlir::func::FuncOp function);
} // namespace ke

#endif // KE_CODEGEN_WIDENREFERENCEPRECISION_H
