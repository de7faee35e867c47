//===- Schedule.h - CPU schedules as transform-dialect scripts --*- C++ -*-===//
//
// A schedule is a set of knobs per linalg op of a payload (in walk order):
// the layout of its inputs, a cache-level tiling (in an optional loop
// order), a split of the reduction into vector partial sums, a
// register-level tiling, whether the register tile is vectorized and how
// far its innermost loop is unrolled. The tilings render to a
// transform-dialect script, so what the search did can be replayed with
// upstream `mlir-opt --transform-interpreter` on the relaid payload.
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

/// An input operand read through a transposed copy: the copy's dimension i
/// is the operand's dimension permutation[i] (linalg.transpose). Moving the
/// vector loop's dimension innermost turns strided vector reads of a reused
/// operand (attention's K in Q x K^T) into contiguous ones, for one pass
/// over the operand.
struct OperandLayout {
  int64_t operand = 0; ///< index among the op's inputs
  llvm::SmallVector<int64_t> permutation;
  bool operator==(const OperandLayout &other) const {
    return operand == other.operand && permutation == other.permutation;
  }
};

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
  /// Inputs copied into another layout before the op ("t1=[1,0]").
  llvm::SmallVector<OperandLayout> layouts;

  bool hasSplitReduction() const {
    return llvm::any_of(splitReduction, [](int64_t s) { return s != 0; });
  }
  bool operator==(const OpSchedule &other) const {
    return cacheTiles == other.cacheTiles &&
           registerTiles == other.registerTiles &&
           vectorize == other.vectorize && parallel == other.parallel &&
           interchange == other.interchange &&
           splitReduction == other.splitReduction && unroll == other.unroll &&
           layouts == other.layouts;
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
  /// u=N: unroll, tK=[..]: input K read through a transposed copy).
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
  bool hasBooleans = false; ///< i1 operands: never vectorized
  /// An indexing map uses mod or floordiv (im2col): never tiled, since
  /// tiling would take the wrong slices of its operands.
  bool nonMonotoneIndexing = false;
  /// One element type throughout and a non-scalar result: can vectorize to
  /// vector.contract (mixed types and 0-d results do not lower upstream).
  bool uniformTypes = false;
  /// Its body calls math functions (exp, tanh, ...): approximations matter.
  bool hasMath = false;
  /// Its inputs are what NVIDIA tensor cores take: f16 or bf16, or f32 in a
  /// kernel that allows TF32 (`ke.precision = "tf32"`).
  bool tensorCoreInputs = false;
  unsigned numResults = 1;
  /// Per input operand, the loop each of its dimensions is indexed by (-1:
  /// not a plain loop index).
  llvm::SmallVector<llvm::SmallVector<int64_t>> inputLoops;
  /// The same for the outputs (inits).
  llvm::SmallVector<llvm::SmallVector<int64_t>> outputLoops;
  bool hasReductionLoops() const { return llvm::is_contained(isReduction, true); }
};

/// A 2-D convolution the library vectorizes through its 1-D decomposition.
bool isDecomposedConvolution(const OpShape &shape);
/// The window loops of such a convolution (its oh and kh) that the
/// decomposition needs register tiles of 1 on; empty for other ops.
llvm::SmallVector<unsigned> getDecomposedWindowLoops(const OpShape &shape);
/// Whether the library knows how to vectorize this op at all.
bool canVectorize(const OpShape &shape);

/// The target a payload is prepared for. On the CPU, front-end prefix scans
/// are replaced by vector code first (ke-vectorize-prefix-scans), which no
/// schedule touches, and NCHW convolutions become NHWC ones between
/// transposes (ke-convolutions-to-channels-last); GPU payloads keep both.
enum class PayloadTarget { CPU, GPU };

/// Prepares `function` for scheduling in place: aggregate ops decomposed and
/// elementwise tensor ops turned into linalg, so every op is a linalg op
/// (but the CPU's vectorized scans). With `skipped`, a step that fails is
/// undone and left out instead, and `skipped` says which and why (empty when
/// every step ran).
llvm::Error canonicalizeForScheduling(mlir::func::FuncOp function,
                                      PayloadTarget target,
                                      std::string *skipped = nullptr);

/// The linalg ops of a function canonicalized for scheduling.
std::vector<OpShape> describeOps(mlir::func::FuncOp function);

/// Checks a schedule against the op shapes: one entry per op, one tile per
/// loop, tiles dividing the trip counts, register tiles within the cache
/// tiles, vector tiles of at most `maxVectorElements` elements.
llvm::Error verifySchedule(const Schedule &schedule,
                           llvm::ArrayRef<OpShape> shapes,
                           int64_t maxVectorElements = 1024);

/// Applies `schedule` to `function` (canonicalized for scheduling) in place,
/// through the transform interpreter. Ops whose entry does not apply fall back
/// to ke's default schedule (and a failing `fuse` is dropped) while the rest
/// of the schedule still applies; `fallbacks`, when given, says which and why
/// (empty when the schedule applied whole). Fails when nothing is left to
/// fall back on.
llvm::Error applySchedule(mlir::func::FuncOp function, const Schedule &schedule,
                          std::string *fallbacks = nullptr);

/// The layout step of applySchedule, on ops tagged with `ke.op_id`: every
/// input with a `tK=[perm]` knob is read through a linalg.transpose copy
/// (left untagged: the script does not schedule it).
void relayoutInputs(mlir::func::FuncOp function, const Schedule &schedule);

/// The transform-interpreter step of applySchedule, on ops already tagged
/// with `ke.op_id` in walk order and relaid out; `shapes` describes them.
llvm::Error runTransformScript(mlir::func::FuncOp function,
                               const Schedule &schedule,
                               llvm::ArrayRef<OpShape> shapes);

} // namespace ke::propose

#endif // KE_PROPOSE_SCHEDULE_H
