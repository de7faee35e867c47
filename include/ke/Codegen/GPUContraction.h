//===- GPUContraction.h - linalg ops read as C += A B on buffers -*- C++
//-*-===//
//
// The GPU rewrites of GEMM-like ops (shared-memory staging, tensor cores)
// read an op the same way: as a matrix product over groups of loops. This
// is that reading, and the index helpers both rewrites build launches with.
//
//===----------------------------------------------------------------------===//

#ifndef KE_CODEGEN_GPUCONTRACTION_H
#define KE_CODEGEN_GPUCONTRACTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace ke {

/// A linalg op read as C[M x N] += A[M x K] B[K x N] over groups of loops:
/// one f32 output indexed by plain loops, static bounds, a body of
/// arithmetic on the inputs folded into the output by an add, every input a
/// buffer other than the output. The columns are the loops of the inputs
/// that read the output's innermost loop (B-like), the rows those of the
/// other inputs (A-like), the batches the parallel loops every input reads;
/// K is all reduction loops. A matmul is (i | j | k), a conv_2d_nhwc
/// (n, oh, ow | f | kh, kw, c), batch_matmul (i | j | k) per batch b.
struct GPUContraction {
  mlir::linalg::LinalgOp op;
  /// The add folding the body's value into the accumulator.
  mlir::Operation *combiner = nullptr;
  llvm::SmallVector<unsigned> rowLoops, columnLoops, reductionLoops, batchLoops;
  int64_t rows = 1, columns = 1, depth = 1, batches = 1;
  /// Per input: whether it is A-like (read along the rows).
  llvm::SmallVector<bool> alongRows;
  /// A linalg.fill of the output right before the op: its value starts
  /// the accumulators and the fill goes away.
  mlir::linalg::FillOp fill;
  /// Or a linalg.broadcast into the output right before the op (a bias):
  /// the accumulators start from its input and the broadcast goes away.
  mlir::linalg::BroadcastOp broadcast;
};

/// `op` read as a contraction, or nothing when it is not one.
std::optional<GPUContraction> matchGPUContraction(mlir::linalg::LinalgOp op);

namespace detail {

/// The index arithmetic the contraction rewrites build launches with.
class IndexMath {
public:
  IndexMath(mlir::OpBuilder &builder, mlir::Location loc)
      : builder(builder), loc(loc) {}
  mlir::Value constant(int64_t value) const;
  mlir::Value add(mlir::Value a, mlir::Value b) const;
  /// `a` + `b`; `a` itself for 0.
  mlir::Value add(mlir::Value a, int64_t b) const;
  mlir::Value mul(mlir::Value a, int64_t b) const;
  /// `index` < `bound`, unsigned.
  mlir::Value below(mlir::Value index, int64_t bound) const;
  /// `a` and `b`, either of which may be null (no condition).
  mlir::Value both(mlir::Value a, mlir::Value b) const;

private:
  mlir::OpBuilder &builder;
  mlir::Location loc;
};

/// Writes the ivs of `loops` (bounds `bounds`) that the flat index
/// `linear` stands for into `ivs` (row-major over `loops`).
void scatterIvs(mlir::OpBuilder &builder, mlir::Location loc,
                mlir::Value linear, llvm::ArrayRef<unsigned> loops,
                llvm::ArrayRef<int64_t> bounds,
                llvm::SmallVectorImpl<mlir::Value> &ivs);

/// The element of `memref` at `indices` where `inside` holds, zero
/// elsewhere (an scf.if around the load); a plain load when `inside` is
/// null.
mlir::Value loadOrZero(mlir::OpBuilder &builder, mlir::Location loc,
                       mlir::Value memref, mlir::ValueRange indices,
                       mlir::Value inside);

/// A vector of `type` from `memref` at `indices` where `inside` holds,
/// zeros elsewhere; `alignment` is what the load may assume.
mlir::Value loadVectorOrZero(mlir::OpBuilder &builder, mlir::Location loc,
                             mlir::VectorType type, mlir::Value memref,
                             mlir::ValueRange indices, mlir::Value inside,
                             llvm::MaybeAlign alignment = {});

/// `then` under `condition`, or unconditionally when there is none.
void emitGuarded(mlir::OpBuilder &builder, mlir::Location loc,
                 mlir::Value condition, llvm::function_ref<void()> then);

} // namespace detail
} // namespace ke

#endif // KE_CODEGEN_GPUCONTRACTION_H
