//===- TileAndVectorize.h - ke's default CPU schedule of one op -*- C++ -*-===//
//
// The default, search-free schedule of one linalg op: tile it down to one
// vector of work along its best-suited loop and vectorize the tile. The
// ke-tile-and-vectorize pass applies it to every op; the transform library
// falls back to it for an op its own schedule cannot handle.
//
//===----------------------------------------------------------------------===//

#ifndef KE_TRANSFORMS_TILEANDVECTORIZE_H
#define KE_TRANSFORMS_TILEANDVECTORIZE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace ke {
/// The default schedule's vector width (ke-run's and ke-lower-cpu's): the
/// floor of the search and the fallback of ops a schedule cannot handle use
/// it too.
inline constexpr int64_t kDefaultVectorWidth = 8;

/// Whether an indexing map of `op` uses mod or floordiv/ceildiv (as im2col
/// does). Tiling takes each operand's slice from its map at the tile's
/// bounds, which is wrong for maps that are not monotone: such ops are
/// never tiled.
bool hasNonMonotoneIndexing(mlir::linalg::LinalgOp op);

/// Whether `producer` initializes an output by data movement alone: a fill,
/// a broadcast, or a generic without reduction loops that yields one of its
/// inputs' elements (a bias broadcast into a channels-last layout).
bool isDataMovementInitializer(mlir::Operation *producer);

/// The vector registers a register block's accumulators share: how many
/// there are and how many bits each holds. The defaults are AVX-512's (32 of
/// 512 bits), the ISA the blocks were tuned on; an AVX2 host has 16 of 256,
/// and blocks sized for AVX-512 spill there (ke-lower-cpu passes the
/// host's).
struct VectorRegisterFile {
  int64_t count = 32;
  int64_t bits = 512;
};

/// The host's vector register file: 32 registers of 512 bits with AVX-512,
/// 16 of 256 with AVX, 16 of 128 with SSE alone (x86), 32 of 128 on AArch64.
VectorRegisterFile getHostVectorRegisterFile();

/// Applies the default schedule to `op` in place. Ops it does not apply to
/// (buffers, i1 operands, no loop divisible by `vectorWidth`, indexing maps
/// that are not monotone) are left as
/// they are; a tile that does not vectorize stays a scalar tile.
void tileAndVectorizeOp(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op,
                        int64_t vectorWidth,
                        VectorRegisterFile registers = VectorRegisterFile());
} // namespace ke

#endif // KE_TRANSFORMS_TILEANDVECTORIZE_H
