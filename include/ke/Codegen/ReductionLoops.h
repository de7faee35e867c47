//===- ReductionLoops.h - reductions reshaped for parallel hardware -*- C++ -*-===//
//
// A reduction over a whole tensor, or over a few very long rows, has too
// few outputs to spread over threads or thread blocks and, as front ends
// write it (one loop per dimension), no single loop to split. Both the
// CPU's default schedule and the GPU pipeline reshape such reductions the
// same way: the reduction loops collapsed into one, then split into chunks
// of partial results that are combined after.
//
//===----------------------------------------------------------------------===//

#ifndef KE_CODEGEN_REDUCTIONLOOPS_H
#define KE_CODEGEN_REDUCTIONLOOPS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace ke {
/// Collapses the reduction loops of a linalg.generic on tensors into one
/// when there are several, they are consecutive, every indexing map is a
/// projected permutation reading them as one contiguous run, and the body
/// does not read linalg.index. Returns the collapsed op (`op` is replaced),
/// or null when `op` does not qualify.
mlir::linalg::LinalgOp collapseReductionLoops(mlir::RewriterBase &rewriter,
                                              mlir::linalg::LinalgOp op);

/// Collapses the innermost run of consecutive reduction loops (the run
/// that ends at `op`'s last reduction loop) into one, or the longest tail of
/// it that every operand reads as one contiguous run or not at all (a group
/// norm's per-channel scale reads the channel loop of a (channel, h, w)
/// reduction: h and w collapse). Same conditions as collapseReductionLoops
/// otherwise. Returns the collapsed op (`op` is replaced), or null.
mlir::linalg::LinalgOp
collapseInnermostReductionLoops(mlir::RewriterBase &rewriter,
                                mlir::linalg::LinalgOp op);

/// Collapses the longest tail of loops [first, last] (at least two loops)
/// that every operand of `op` reads as one contiguous run or not at all
/// into one loop. Returns the collapsed op (`op` is replaced), or null when
/// no such tail of two or more loops exists.
mlir::linalg::LinalgOp collapseContiguousTail(mlir::RewriterBase &rewriter,
                                              mlir::linalg::LinalgOp op,
                                              int64_t first, int64_t last);

/// The number of output elements of `op` (the product of its parallel
/// loops' static bounds).
int64_t getNumOutputElements(mlir::linalg::LinalgOp op);

/// The number of iterations of `op`'s reduction loops together (the
/// product of their static bounds): the length of each output's reduction.
int64_t getReductionLength(mlir::linalg::LinalgOp op);

/// Splits the one reduction loop of `op` (static bounds, one result, no
/// linalg.index) into `chunks` chunks: a parallel loop of partial results
/// (outermost in the intermediate result) and the rest of the reduction,
/// then an op reducing the partials. Fails when the loop's length is not a
/// multiple of `chunks` or upstream's splitReduction does not apply (a
/// combiner it does not know).
mlir::FailureOr<mlir::linalg::SplitReductionResult>
splitReductionIntoChunks(mlir::RewriterBase &rewriter,
                         mlir::linalg::LinalgOp op, int64_t chunks);

/// Splits the innermost loop of a reduction whose innermost loop is a
/// reduction loop into `chunks` chunks, whatever other reduction loops it
/// has: a partial op where the chunk is a parallel loop (last in the partial
/// result, filled with the combiner's neutral element) and the rest of the
/// loop a reduction loop, then an op folding the partials into the original
/// output with the same combiner. Inputs that read the loop are reshaped
/// (tensor.expand_shape). Needs a linalg.generic on tensors with static
/// bounds, projected-permutation maps, no linalg.index, and a body that
/// yields `combiner(value, accumulator)` for each result, with a combiner
/// that has a neutral element and is the accumulator's only reader (several
/// results: sibling reductions fused into one op, all of one rank); the
/// loop's length a multiple of `chunks`.
/// With `chunkInnermost`, the chunk is the loop's fastest-varying part
/// (element `i` goes to chunk `i % chunks`): vector lanes that each sum
/// every `chunks`-th element, read contiguously.
mlir::FailureOr<mlir::linalg::SplitReductionResult>
splitInnermostReductionLoop(mlir::RewriterBase &rewriter,
                            mlir::linalg::LinalgOp op, int64_t chunks,
                            bool chunkInnermost = false);

/// Splits the one reduction loop of `op`, wherever it lies (also a reduction
/// over an outer dimension, each output a column), into `chunks` chunks: a
/// partial op whose chunk is a parallel loop (outermost in its results,
/// [chunks, output...]) and an op folding the partials into the original
/// outputs, chunk by chunk, which reduces over an outer loop too. The body
/// folds one value in with a combiner that has a neutral element, or is an
/// arg reduction: that and `index = cmpf(value, total) ? position : index`
/// with the position read by linalg.index of the loop (torch's max with
/// indices, argmax), whose partials keep positions along the whole loop.
/// Needs a linalg.generic on tensors with static bounds and
/// projected-permutation maps (kept dimensions, constant zeros, allowed);
/// the loop's length a multiple of `chunks`.
mlir::FailureOr<mlir::linalg::SplitReductionResult>
splitReductionLoop(mlir::RewriterBase &rewriter,
                        mlir::linalg::LinalgOp op, int64_t chunks);
} // namespace ke

#endif // KE_CODEGEN_REDUCTIONLOOPS_H
