//===- Reductions.h - what the GPU reduction rewrites share -----*- C++ -*-===//
//
// ke-distribute-reductions-for-gpu has one file per strategy (rows by
// thread blocks, columns with atomics, register accumulation, fused runs
// of rows). They start from the same match and emit the reduction's body
// the same way; this private header declares that shared part (in
// Matchers.cpp) and the entry of each strategy.
//
//===----------------------------------------------------------------------===//

#ifndef KE_LIB_TRANSFORMS_DISTRIBUTEREDUCTIONSFORGPU_REDUCTIONS_H
#define KE_LIB_TRANSFORMS_DISTRIBUTEREDUCTIONSFORGPU_REDUCTIONS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace ke::gpu_reductions {

//===----------------------------------------------------------------------===//
// Shared matching (Matchers.cpp)
//===----------------------------------------------------------------------===//

/// The gpu.all_reduce operation that combines like `combiner`, if any.
std::optional<mlir::gpu::AllReduceOperation>
allReduceKind(mlir::Operation *combiner);

/// A reduction the rewrite handles: static bounds, one result, reduction
/// loops that include the innermost loop (a row), or exactly one outer
/// reduction loop whose combiner has an atomic (a column), inputs read once
/// or once per output element (not contractions), a body that folds one
/// value into the output with a combiner gpu.all_reduce knows, f32, f64 or
/// i32 elements.
struct RowReduction {
  mlir::linalg::LinalgOp op;
  /// Null for a body that is not one combiner (register accumulation only).
  mlir::Operation *combiner = nullptr;
  mlir::gpu::AllReduceOperation kind;
  mlir::TypedAttr identity;
  /// The last reduction loop: the innermost loop (rows: a block per output
  /// element), or an outer one (columns: see distributeColumns).
  unsigned reductionLoop = 0;
  unsigned numLoops = 0;
  bool isRow() const { return reductionLoop + 1 == numLoops; }
  /// The linalg.fill that initializes each output just before the op (null
  /// where there is none): the rewrite starts from its value and the fill
  /// (a kernel launch of its own) goes away.
  llvm::SmallVector<mlir::linalg::FillOp, 1> fills;
  /// The value output `init` starts from: its fill's, or null (read it).
  mlir::Value fillValue(unsigned init = 0) const {
    if (init >= fills.size() || !fills[init])
      return {};
    mlir::linalg::FillOp fill = fills[init]; // getInputs() is not const
    return fill.getInputs().front();
  }
};

/// The atomic that folds a partial into the output like `combiner`, for
/// the combiners GPUs have native atomics for.
std::optional<mlir::arith::AtomicRMWKind> atomicKind(mlir::Operation *combiner);

/// A reduction with static bounds and outputs independent of the reduction
/// loops. Its `combiner` is set when the body folds one value into the one
/// output: `yield combiner(f(inputs), accumulator)` with the accumulator
/// used once.
/// Every form of the rewrite starts from this; with a parallel loop and
/// nothing more, it is the register accumulation. A reduction to a scalar
/// (no parallel loop) is a row of one block.
std::optional<RowReduction> matchAccumulation(mlir::linalg::LinalgOp op);

/// A reduction the thread-block rewrites take (see RowReduction): a row
/// (isRow) or a column (an outer reduction loop with an atomic).
std::optional<RowReduction> matchRowReduction(mlir::linalg::LinalgOp op);

//===----------------------------------------------------------------------===//
// Shared emitting (Matchers.cpp)
//===----------------------------------------------------------------------===//

/// Threads per row: a quarter of the row, 32 to `limit`, a power of two.
int64_t chooseThreads(int64_t rowLength, int64_t limit);

/// Clones the body of `reduction.op` at `ivs` (loads of its inputs, the
/// ops before the combiner) and returns the value it folds in.
mlir::Value emitElement(mlir::OpBuilder &builder, mlir::Location loc,
                        const RowReduction &reduction, mlir::ValueRange ivs);

/// Clones the whole body of `op` at `ivs` with `accumulators` for its
/// output arguments and returns the values it yields (a body without a
/// single combiner).
llvm::SmallVector<mlir::Value> emitBody(mlir::OpBuilder &builder,
                                        mlir::Location loc,
                                        mlir::linalg::LinalgOp op,
                                        mlir::ValueRange ivs,
                                        mlir::ValueRange accumulators);

/// The ivs of `op`'s loops in its order: the parallel loops' from `rowIvs`,
/// the reduction loops' from `reductionIvs`.
llvm::SmallVector<mlir::Value> interleaveIvs(mlir::linalg::LinalgOp op,
                                             mlir::ValueRange rowIvs,
                                             mlir::ValueRange reductionIvs);

/// `op`'s static loop bounds split into its parallel loops' (the rows) and
/// its reduction loops', each in loop order.
void splitLoopBounds(mlir::linalg::LinalgOp op,
                     llvm::SmallVectorImpl<int64_t> &rowShape,
                     llvm::SmallVectorImpl<int64_t> &reductionShape);

/// `combiner` of `reduction` applied to (lhs, rhs).
mlir::Value combine(mlir::OpBuilder &builder, const RowReduction &reduction,
                    mlir::Value lhs, mlir::Value rhs);

/// `element` folded into `partial` with the operands in the body's order
/// (the accumulator where the combiner had it).
mlir::Value fold(mlir::OpBuilder &builder, const RowReduction &reduction,
                 mlir::Value partial, mlir::Value element);

/// A launch with one block per row of `rowShape` and `threads` threads on
/// x, the builder inside it.
struct RowLaunch {
  mlir::Value thread;
  llvm::SmallVector<mlir::Value> rowIvs;
};
RowLaunch launchPerRow(mlir::OpBuilder &builder, mlir::Location loc,
                       llvm::ArrayRef<int64_t> rowShape, int64_t threads);

//===----------------------------------------------------------------------===//
// The strategies, one file each
//===----------------------------------------------------------------------===//

/// Rows by thread blocks (RowsByBlocks.cpp): a block of at most
/// `threadLimit` threads per output element striding over the linearized
/// reduction loops, gpu.all_reduce across it.
/// Erases the op.
void distribute(const RowReduction &reduction, int64_t threadLimit);

/// Rows by warps (RowsByWarps.cpp): a warp per output element, rows of
/// `rowsPerBlock` warps to a block, lanes striding over the linearized
/// reduction loops, a shuffle butterfly across the warp. Erases the op.
void distributeByWarps(const RowReduction &reduction, int64_t rowsPerBlock);

/// Columns with atomics (ColumnsWithAtomics.cpp): chunks of the outer
/// reduction loop folded per thread, added to the output atomically.
/// Erases the op.
void distributeColumns(const RowReduction &reduction);

/// Register accumulation (RegisterAccumulation.cpp): an scf.parallel over
/// tiles of `threadTile` outputs whose reduction loops carry them in
/// registers. Erases the op.
void accumulateInRegisters(const RowReduction &reduction,
                           llvm::ArrayRef<int64_t> threadTile);

//===----------------------------------------------------------------------===//
// Fused rows (FusedRows.cpp)
//===----------------------------------------------------------------------===//

/// A run of ops over the same rows that one thread block per row can do in
/// one kernel: row reductions along the innermost loop and elementwise ops
/// over (row, column) that read whole inputs or one value per row (softmax:
/// max, exp(x - max), sum, divide). Every op strides over the columns the
/// same way, so a thread reads only elements it wrote itself, and the
/// reductions' all-reduces are the only synchronization. Row values
/// reduced in the run stay in registers for the ops after.
struct FusedRows {
  llvm::SmallVector<mlir::linalg::LinalgOp> ops;
  /// Per op: its reduction (rows), or nullopt (elementwise).
  llvm::SmallVector<std::optional<RowReduction>, 4> reductions;
  /// Per op: elementwise over the rows alone (layernorm's mean = sum / n),
  /// computed by every thread from registers.
  llvm::SmallVector<bool> perRow;
  llvm::SmallVector<int64_t> rowShape;
  int64_t rowLength = 0;
  /// Fills that initialize the reductions' outputs (folded, then erased).
  llvm::SmallVector<mlir::Operation *> fills;
};

/// Runs of fusable ops in the function's body, in order, each with a row
/// reduction (attention: scale, max, exp, sum, divide). Allocations,
/// constants, fills and deallocations of buffers the run does not use are
/// skipped (the kernel runs where the run's last op was); a fill inside a
/// run must initialize one of its reductions, or the run is dropped.
llvm::SmallVector<FusedRows, 1> findFusedRows(mlir::func::FuncOp function);

/// One kernel for `run`: a block per row, the ops in order.
/// Erases the ops and the fills they fold.
void distributeFusedRows(const FusedRows &run, int64_t threadLimit);

} // namespace ke::gpu_reductions

#endif // KE_LIB_TRANSFORMS_DISTRIBUTEREDUCTIONSFORGPU_REDUCTIONS_H
