//===- GPUSchedule.h - the knobs of a kernel's GPU mapping ------*- C++ -*-===//
//
// One definition of the GPU schedule: its defaults (the pipelines', ke-run's
// and the passes' options all start from them) and the one rule every GPU
// pass applies: a knob the function carries as a ke.gpu_* attribute (set by
// the search, measured with that body) beats the pass's option.
//
//===----------------------------------------------------------------------===//

#ifndef KE_CODEGEN_GPUSCHEDULE_H
#define KE_CODEGEN_GPUSCHEDULE_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace ke {

struct GPUScheduleDefaults {
  /// Most threads reducing one row together (0: one thread per output):
  /// an H100 block's limit. Long rows (norms' statistics) ran 1.1-1.5x
  /// faster on 1024 threads than on 256 (KernelBench's BatchNorm: 135 ->
  /// 89 us); a row gets a quarter of its length, so short rows are as before.
  static constexpr int64_t reductionThreads = 1024;
  /// Outputs per block along i and j of GEMM-like contractions staged
  /// through shared memory (0: no staging).
  static constexpr int64_t sharedTile = 64;
  /// Warps per block of staged contractions.
  static constexpr int64_t warps = 4;
  /// Elements per thread of elementwise ops, moved as one vector.
  static constexpr int64_t vectorWidth = 4;
  /// Outputs per block along i and j of contractions on tensor cores
  /// (0: none).
  static constexpr int64_t tensorCoreTile = 128;
  /// Most columns per block of 16-bit GEMMs on Hopper's warpgroup mma
  /// fed by TMA (0: none; they take the mma.sync path).
  static constexpr int64_t warpgroupTile = 256;
  /// Steps of K in flight in contractions staged through shared memory
  /// (SIMT and tensor cores): copies start stages - 1 steps ahead.
  static constexpr int64_t stages = 3;
  /// Blocks per output tile of staged contractions along K (split-K; 0:
  /// as many as fill the grid).
  static constexpr int64_t kSplits = 0;
};

struct GPUSchedule {
  /// Threads per block along the innermost parallel loops (empty: chosen
  /// per loop nest).
  llvm::SmallVector<int64_t, 2> blockTile;
  int64_t reductionThreads = GPUScheduleDefaults::reductionThreads;
  /// Outputs per thread of matmul-like reductions, right-aligned on their
  /// parallel loops (empty: one).
  llvm::SmallVector<int64_t, 2> threadTile;
  int64_t sharedTile = GPUScheduleDefaults::sharedTile;
  int64_t warps = GPUScheduleDefaults::warps;
  int64_t vectorWidth = GPUScheduleDefaults::vectorWidth;
  int64_t tensorCoreTile = GPUScheduleDefaults::tensorCoreTile;
  int64_t warpgroupTile = GPUScheduleDefaults::warpgroupTile;
  /// A pipeline option only (no function attribute yet).
  int64_t stages = GPUScheduleDefaults::stages;
  int64_t kSplits = GPUScheduleDefaults::kSplits;

  /// `options` with every knob `function` carries as an attribute replaced
  /// by the attribute's value.
  static GPUSchedule get(mlir::func::FuncOp function, GPUSchedule options);
};

} // namespace ke

#endif // KE_CODEGEN_GPUSCHEDULE_H
