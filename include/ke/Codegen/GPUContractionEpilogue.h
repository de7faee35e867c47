//===- GPUContractionEpilogue.h - ops fused into stores -*- C++ -*-===//
//
// A GPU contraction kernel (staged through shared memory, or on tensor
// cores) holds its outputs in registers until it stores them. An
// elementwise op right after it that reads the output (a bias add, an
// activation, a scaling) can run on those registers instead of as a
// kernel of its own that reads the output back from memory.
//
//===----------------------------------------------------------------------===//

#ifndef KE_CODEGEN_GPUCONTRACTIONEPILOGUE_H
#define KE_CODEGEN_GPUCONTRACTIONEPILOGUE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace ke {

/// The elementwise op a contraction kernel can take into its stores.
struct GPUContractionEpilogue {
  mlir::linalg::GenericOp op;
  /// Whether the contraction's output must still be stored too (read
  /// after the epilogue, or not a temporary of this function).
  bool storeOutput = true;

  explicit operator bool() const { return static_cast<bool>(op); }

  /// The epilogue's value at the output element `at` where the
  /// contraction's result there is `result`: its body on `result` and its
  /// other inputs' elements at `at`.
  mlir::Value apply(mlir::OpBuilder &builder, mlir::Location loc,
                    mlir::Value contractionOutput, mlir::Value result,
                    mlir::ValueRange at) const;
  /// The buffer the epilogue writes.
  mlir::Value written() const;
};

/// The epilogue `contraction` (a linalg op on buffers, one output) can take
/// into its stores: the next op in its block, a linalg.generic with only
/// parallel loops, as many as the output has dimensions, reading that
/// output through an identity map, writing one output through an identity
/// map (the same buffer or another), its other inputs any memrefs that are
/// not views of the output, its body plain arithmetic (no linalg.index, no
/// memory access). None when there is no such op.
GPUContractionEpilogue
findGPUContractionEpilogue(mlir::linalg::LinalgOp contraction);

} // namespace ke

#endif // KE_CODEGEN_GPUCONTRACTIONEPILOGUE_H
