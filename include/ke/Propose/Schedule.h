//===- Schedule.h - CPU schedules as transform-dialect scripts --*- C++ -*-===//
//
// A schedule is a set of knobs per linalg op of a payload (in walk order):
// a cache-level tiling (in an optional loop order), a split of the
// reduction into vector partial sums, a register-level tiling, whether the
// register tile is vectorized and how far its innermost loop is unrolled. It renders to a transform-dialect script, so what the
// search did can be replayed with upstream `mlir-opt --transform-interpreter`.
//
//===----------------------------------------------------------------------===//

#ifndef KE_PROPOSE_SCHEDULE_H
#define KE_PROPOSE_SCHEDULE_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace ke::propose {

/// Knobs of one linalg op; one entry per loop. A tile size of 0 leaves the
/// loop untiled at that level.
struct OpSchedule {
  llvm::SmallVector<int64_t> cacheTiles;
  llvm::SmallVector<int64_t> registerTiles;
  bool vectorize = false;
  /// Cache tiles of parallel loops run on threads (scf.forall -> OpenMP).
  bool parallel = false;
  /// Order of the cache-tile loops, outermost first (a permutation of the
  /// op's loops); empty keeps the op's order.
  llvm::SmallVector<int64_t> interchange;
  /// Reduction strategy: non-zero entries (reduction loops only) split that
  /// loop into a loop over chunks of this size accumulating into a partial
  /// tensor of the chunk's shape, combined once after the loop. Vectorized,
  /// the partials stay in vector registers and the loop does no horizontal
  /// reductions.
  llvm::SmallVector<int64_t> splitReduction;
  /// Unroll factor of the innermost register-tile loop (1: none).
  int64_t unroll = 1;

  bool hasSplitReduction() const {
    return llvm::any_of(splitReduction, [](int64_t s) { return s != 0; });
  }
  bool operator==(const OpSchedule &other) const {
    return cacheTiles == other.cacheTiles &&
           registerTiles == other.registerTiles &&
           vectorize == other.vectorize && parallel == other.parallel &&
           interchange == other.interchange &&
           splitReduction == other.splitReduction && unroll == other.unroll;
  }
};

struct Schedule {
  std::vector<OpSchedule> ops;
  /// Polynomial approximations instead of libm for exp, tanh, ... (they
  /// vectorize), written as a leading "math=approx" entry.
  bool approximateMath = false;
  /// Tile-and-fuse: when non-zero, the last linalg op (the one producing the
  /// result) is tiled by this many iterations of its first loop and every
  /// producer is fused into that loop ("fuse=8"); per-op cache tiles are then
  /// not used, and the last op's `p` runs the fused loop on threads.
  int64_t fuseRows = 0;

  /// "c=[64,128,0] r=[4,16,1] v p; c=[8,0] s=[0,32] v; c=[] r=[1,16] v u=4"
  /// (one entry per op; v: vectorize, p: the cache tiles of parallel loops
  /// run on threads, i=[..]: cache loop order, s=[..]: split reduction,
  /// u=N: unroll).
  std::string toString() const;
  static llvm::Expected<Schedule> parse(llvm::StringRef text);
  /// The transform script (a module with @__transform_main). With the ops'
  /// shapes, contractions vectorize straight to vector.contract (then FMAs).
  std::string
  renderTransformScript(llvm::ArrayRef<struct OpShape> shapes = {}) const;
  bool operator==(const Schedule &other) const {
    return ops == other.ops && approximateMath == other.approximateMath &&
           fuseRows == other.fuseRows;
  }
};

/// What the search space is built from: one entry per linalg op of a payload.
struct OpShape {
  std::string name;
  llvm::SmallVector<int64_t> bounds; ///< static trip counts
  llvm::SmallVector<bool> isReduction;
  bool hasParallelLoops() const { return llvm::count(isReduction, false) > 0; }
  /// Loops along which most operand bytes are contiguous, best first.
  llvm::SmallVector<unsigned> contiguousLoops;
  /// Per loop: some operand indexes it in a dimension that is not its
  /// innermost (a vector along it would be a strided read).
  llvm::SmallVector<bool> stridedLoops;
  bool hasBooleans = false; ///< i1 operands: never vectorized
  /// One element type throughout and a non-scalar result: can vectorize to
  /// vector.contract (mixed types and 0-d results do not lower upstream).
  bool uniformTypes = false;
  /// Its body calls math functions (exp, tanh, ...): approximations matter.
  bool hasMath = false;
  unsigned numResults = 1;
  bool hasReductionLoops() const { return llvm::is_contained(isReduction, true); }
};

/// A 2-D convolution the library vectorizes through its 1-D decomposition.
bool isDecomposedConvolution(const OpShape &shape);
/// Whether the library knows how to vectorize this op at all.
bool canVectorize(const OpShape &shape);

/// Prepares `function` for scheduling in place: aggregate ops decomposed and
/// elementwise tensor ops turned into linalg, so every op is a linalg op.
llvm::Error canonicalizeForScheduling(mlir::func::FuncOp function);

/// The linalg ops of a function canonicalized for scheduling.
std::vector<OpShape> describeOps(mlir::func::FuncOp function);

/// Checks a schedule against the op shapes: one entry per op, one tile per
/// loop, tiles dividing the trip counts, register tiles within the cache
/// tiles, vector tiles of at most `maxVectorElements` elements.
llvm::Error verifySchedule(const Schedule &schedule,
                           llvm::ArrayRef<OpShape> shapes,
                           int64_t maxVectorElements = 1024);

/// Applies `schedule` to `function` (canonicalized for scheduling) in place,
/// through the transform interpreter.
llvm::Error applySchedule(mlir::func::FuncOp function,
                          const Schedule &schedule);

/// The transform-interpreter step of applySchedule, on ops already tagged
/// with `ke.op_id` in walk order.
llvm::Error runTransformScript(mlir::func::FuncOp function,
                               const Schedule &schedule);

} // namespace ke::propose

#endif // KE_PROPOSE_SCHEDULE_H
