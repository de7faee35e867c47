//===- GPUSharedSlices.h - a contraction's inputs through shared memory -*- C++
//-*-===//
//
// Both GPU rewrites of contractions (SIMT staging, tensor cores) walk K in
// steps and give each step's slice of every input a place in shared
// memory, copied by the whole block a few steps ahead of its use. This is
// that part: the slices' layout, their buffers, the copies of one step and
// the pipelined loop over the steps. What each rewrite computes from the
// slices is its own.
//
//===----------------------------------------------------------------------===//

#ifndef KE_CODEGEN_GPUSHAREDSLICES_H
#define KE_CODEGEN_GPUSHAREDSLICES_H

#include "ke/Codegen/GPUContraction.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <optional>

namespace ke {

/// Shared memory a block may have statically; more is dynamic, opted in to
/// at launch.
constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;

/// An input's flat offset at the loops' ivs, split into the part its
/// reduction loops give and the rest: a convolution's input at
/// (n, c, oh + kh, ow + kw) is at n·CHW + oh·W + ow plus c·HW + kh·W + kw.
/// The rest does not change from step to step (LLVM hoists it out of the
/// loop over K), so a step's copy only works out its K part, in 32 bits
/// where that fits: working out the whole index per copy (two mixed-radix
/// splits of 64-bit integers) took more instructions than the math.
struct SplitOffset {
  /// The flat offset of the loops other than the reductions (the
  /// constant term included), over all loops.
  mlir::AffineExpr rest;
  /// Per reduction loop, in `reductionLoops` order: its coefficient.
  llvm::SmallVector<int64_t> reductionCoefficients;
  /// Whether the K part fits in 32 bits: coefficients non-negative, the
  /// largest offset below 2^31.
  bool fits32 = false;
  /// Whether the reduction loops run over consecutive strides (a filter's
  /// c, kh, kw; a matmul's k): the K part is k times the innermost
  /// coefficient, no splitting of k needed.
  bool linear = false;
};

/// How one input reaches shared memory: `width` elements per copy along its
/// innermost dimension, which follows K or the input's side, into a slice
/// laid out the same way ([line][k] or [k][line]), so that copies are
/// contiguous on both ends.
struct SharedSlice {
  unsigned position = 0;
  bool alongRows = false;
  /// Whether the copies run along K, the input's innermost dimension
  /// following a reduction loop (the longer one where it also follows a
  /// line loop): the slice is [stage][line][k], otherwise
  /// [stage][k][line].
  bool kInnermost = false;
  /// Elements per copy: 16 bytes where the input allows it.
  int64_t width = 1;
  /// The slice's row length in elements, padding included.
  int64_t stride = 0;
  /// The buffer of all stages, once the launch exists.
  mlir::Value buffer;
  /// Where the input's flat offset is a sum of loops times constants: its
  /// split into a line part and a K part.
  std::optional<SplitOffset> split;
  /// With `split`, the input as one dimension, once the launch exists:
  /// copies add a part that stays the same from step to step and the
  /// step's K part.
  mlir::Value flatInput;
  /// Where set (fillReductionTables), the K part of every k in shared
  /// memory (i32), read instead of splitting k per copy.
  mlir::Value reductionOffsets;
};

/// The shape of a contraction's walk through shared memory.
struct SharedStaging {
  /// Outputs per block along the rows and along the columns.
  int64_t rowTile = 0, columnTile = 0;
  /// Reduction iterations per step.
  int64_t stepK = 0;
  /// Steps in flight: copies of a step start stages - 1 steps ahead.
  int64_t stages = 1;
  /// Padding of [k][line] rows in bytes, a multiple of 16 so that every
  /// row starts 16-byte aligned ([line][k] rows get 16 bytes).
  int64_t linePaddingBytes = 16;
  /// Copies that can go straight to shared memory do (cp.async, NVIDIA).
  bool asyncCopies = true;
  /// Inputs whose K part splits k read it from a table in shared memory
  /// (reductionTableTypes); off where the table would cost a stage.
  bool reductionTables = true;
  /// Blocks sharing one output tile, each over its own consecutive
  /// steps of K (split-K); it divides K's steps.
  int64_t kSplits = 1;

  /// Steps of K each block walks.
  int64_t stepsPerBlock(int64_t depth) const {
    return llvm::divideCeil(depth, stepK) / kSplits;
  }

  /// The block's outputs along `slice`'s side.
  int64_t tileAlong(const SharedSlice &slice) const {
    return slice.alongRows ? rowTile : columnTile;
  }
};

/// Input `position` of `contraction`'s slice plan.
SharedSlice planSharedSlice(const GPUContraction &contraction,
                            unsigned position, const SharedStaging &staging);

/// The buffer type of `slice`: [stages][lines][stride] in workgroup memory.
mlir::MemRefType sharedSliceType(const GPUContraction &contraction,
                                 const SharedSlice &slice,
                                 const SharedStaging &staging);

/// Bytes of shared memory one stage of `slices` takes.
int64_t sharedStageBytes(const GPUContraction &contraction,
                         llvm::ArrayRef<SharedSlice> slices,
                         const SharedStaging &staging);

/// The dynamic shared memory a launch of `slices` needs: null when they fit
/// in static memory (workgroup attributions of `sharedSliceType`).
mlir::Value dynamicSharedBytes(mlir::OpBuilder &builder, mlir::Location loc,
                               const GPUContraction &contraction,
                               llvm::ArrayRef<SharedSlice> slices,
                               const SharedStaging &staging);

/// Sets every slice's buffer inside `launch`: its workgroup attributions,
/// or views into its dynamic shared memory.
void bindSharedSlices(mlir::OpBuilder &builder, mlir::Location loc,
                      mlir::gpu::LaunchOp launch,
                      const GPUContraction &contraction,
                      llvm::MutableArrayRef<SharedSlice> slices,
                      const SharedStaging &staging);

/// The most K a table of K parts covers (16 KB of shared memory).
constexpr int64_t kMostReductionTableEntries = 4096;

/// The workgroup buffers (memref<K x i32>) of the inputs of `slices` whose
/// K part splits k in mixed radix (a convolution's input at c, kh, kw:
/// c·HW + kh·W + kw): one table per such input, in slice order, so that
/// a copy reads its K part instead of working it out (a division and a
/// remainder per loop but the outermost). None when `staging` has tables
/// off.
llvm::SmallVector<mlir::MemRefType>
reductionTableTypes(const GPUContraction &contraction,
                    llvm::ArrayRef<SharedSlice> slices,
                    const SharedStaging &staging);

/// Bytes of shared memory the tables of `slices` take.
int64_t reductionTableBytes(const GPUContraction &contraction,
                            llvm::ArrayRef<SharedSlice> slices,
                            const SharedStaging &staging);

/// Fills `tables` (buffers of `reductionTableTypes`, in order; none: the
/// copies split k themselves) with the block's `threads` threads, waits
/// for all of them, and points the slices at their tables.
void fillReductionTables(mlir::OpBuilder &builder, mlir::Location loc,
                         const GPUContraction &contraction,
                         llvm::MutableArrayRef<SharedSlice> slices,
                         mlir::ValueRange tables, mlir::Value linearThread,
                         int64_t threads);

/// Where a block is: the loops' ivs it fixes (batches), its first row and
/// column, its first k (null: 0; a split of K starts further in), and its
/// thread among `threads`.
struct BlockPosition {
  llvm::SmallVector<mlir::Value> base;
  mlir::Value firstRow, firstColumn, linearThread;
  int64_t threads = 0;
  mlir::Value firstK;
};

/// Emits the loop over the block's steps of `staging.stepK` (from
/// `block.firstK`, `staging.stepsPerBlock` of them): each step's copies of
/// every slice started `staging.stages` - 1 steps ahead, a wait and a
/// barrier, `compute(stage, accumulators)` (the step's math from the slices
/// at `stage`, updating the loop-carried `accumulators`), and a barrier
/// before a stage is overwritten. Returns the loop; the builder is left
/// after it.
mlir::scf::ForOp buildStagedSteps(
    mlir::OpBuilder &builder, mlir::Location loc,
    const GPUContraction &contraction, llvm::ArrayRef<SharedSlice> slices,
    const SharedStaging &staging, const BlockPosition &block,
    mlir::ValueRange initial,
    llvm::function_ref<void(mlir::Value stage,
                            llvm::SmallVectorImpl<mlir::Value> &accumulators)>
        compute);

} // namespace ke

#endif // KE_CODEGEN_GPUSHAREDSLICES_H
