//===- ConvertElements.h - a float tensor in another precision -*- C++ -*-===//
//
// Passes that compute in another float precision than their operands (a
// contraction's 16-bit inputs in f32, a long sum in f64) convert whole
// tensors first or after: one parallel generic that extends or truncates
// every element.
//
//===----------------------------------------------------------------------===//

#ifndef KE_CODEGEN_CONVERTELEMENTS_H
#define KE_CODEGEN_CONVERTELEMENTS_H

#include "mlir/IR/PatternMatch.h"

namespace ke {
/// `tensor` (a ranked tensor of floats) with every element converted to the
/// float type `element`: `arith.extf` where it is wider, `arith.truncf`
/// where it is narrower, in a parallel linalg.generic into a new
/// tensor.empty, built at the rewriter's insertion point.
mlir::Value convertElements(mlir::RewriterBase &rewriter, mlir::Location loc,
                            mlir::Value tensor, mlir::Type element);
} // namespace ke

#endif // KE_CODEGEN_CONVERTELEMENTS_H
