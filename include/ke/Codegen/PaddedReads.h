//===- PaddedReads.h - reading a tensor.pad's value without the pad ------===//
//
// A GPU thread can read an element of a padded tensor from the pad's source
// directly: the source at the index less the low padding, clamped so the
// read stays in bounds, or the padding value outside. The GPU passes that
// do away with materialized pads share this.
//
//===----------------------------------------------------------------------===//

#ifndef KE_CODEGEN_PADDEDREADS_H
#define KE_CODEGEN_PADDEDREADS_H

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

namespace ke {

/// Whether `pad` has static shapes and low padding and pads with a constant.
bool isStaticConstantPad(mlir::tensor::PadOp pad);

/// The element of `pad`'s result at the padded index whose per-dimension
/// offsets from the source's origin (the padded index less the low
/// padding, possibly outside the source) are `unclamped`, built at the
/// builder's insertion point from a tensor.extract of the source and, where
/// some dimension is padded, a select of the padding value. `pad` must
/// satisfy isStaticConstantPad.
mlir::Value readPaddedElement(mlir::OpBuilder &builder, mlir::Location loc,
                              mlir::tensor::PadOp pad,
                              mlir::ValueRange unclamped);

} // namespace ke

#endif // KE_CODEGEN_PADDEDREADS_H
