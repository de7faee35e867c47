//===- WarpScan.h - a prefix scan per chunk by a warp -----------*- C++ -*-===//
//
// ke-prefix-scans-for-gpu's scan step along the innermost dimension: each
// chunk of a row is scanned by one warp, its lanes reading neighbouring
// 16-byte vectors and combining their totals with shuffles, instead of one
// thread running through the chunk alone.
//
//===----------------------------------------------------------------------===//

#ifndef KE_LIB_CODEGEN_GPU_WARPSCAN_H
#define KE_LIB_CODEGEN_GPU_WARPSCAN_H

#include "ke/Codegen/PrefixScanChains.h"

#include "mlir/IR/Builders.h"

namespace ke::detail {

/// What the warp scan of one chain needs.
struct WarpScanPlan {
  /// The scanned tensor (static shape) and the scan's first step.
  mlir::Value source;
  const ScanStep *step = nullptr;
  /// Each chunk's total, in the accumulator type (the shape of `source`
  /// with its innermost dimension replaced by `chunks`): a warp starts
  /// from the totals of the chunks before its own combined. Null for one
  /// chunk a row, which starts from `identity`.
  mlir::Value totals;
  int64_t chunkLength = 0, chunks = 1;
  /// The type the scan runs in (f64 for float sums and products) and the
  /// combiner's identity in it.
  mlir::Type accumulatorType;
  mlir::TypedAttr identity;
  /// Warps a thread block (each scanning its own chunk).
  int64_t warpsPerBlock = 8;
  /// Whether each row is scanned from its end (chunk c then starts from
  /// the chunks after it).
  bool reverse = false;
};

/// Whether a chain scanning `source` along `dim` in `accumulatorType` can
/// be scanned by warps: the innermost dimension of a static tensor of
/// integers or floats of whole bytes, an accumulator of 32 or 64 bits
/// (what gpu.shuffle's lowerings move, 64 bits as two 32-bit shuffles).
bool canScanByWarps(mlir::Value source, int64_t dim,
                    mlir::Type accumulatorType);

/// The scan of `plan.source`, as a tensor: a `gpu.launch` of a warp per
/// (row, chunk) on the source's buffer, writing a new one.
mlir::Value buildWarpScan(mlir::OpBuilder &builder, mlir::Location loc,
                          const WarpScanPlan &plan);

} // namespace ke::detail

#endif // KE_LIB_CODEGEN_GPU_WARPSCAN_H
