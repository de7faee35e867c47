//===- FrontEndCleanup.h - front-end IR before scheduling ---*- C++ -*-===//
//
// Front ends (torch-mlir) write one linalg.generic per PyTorch op, keep the
// unit dimensions of keepdim reductions, and compute an argmax beside every
// max reduction (a second result nobody reads, which does not vectorize).
// Both ke's default lowering and the search's payload clean that up first,
// with the same upstream passes.
//
//===----------------------------------------------------------------------===//

#ifndef KE_CODEGEN_FRONTENDCLEANUP_H
#define KE_CODEGEN_FRONTENDCLEANUP_H

#include "llvm/ADT/StringRef.h"

namespace ke {
/// Pass-pipeline text on func.func: a batch_matmul of one batch as a matmul,
/// elementwise fusion (producers with one use only, so nothing is computed
/// twice; it also drops unused results), unit-dimension folding,
/// canonicalization.
inline constexpr llvm::StringLiteral kFrontEndCleanupPipeline =
    "ke-expand-constant-powers,ke-rank-reduce-contractions,"
    "linalg-fuse-elementwise-ops,linalg-fold-unit-extent-dims,canonicalize";
/// The CPU's: no fusion that recomputes an expensive producer per iteration
/// of loops it does not depend on (ke-fuse-elementwise-ops), and unit
/// dimensions folded before fusion as well (a group norm's [N, G, 1]
/// statistics otherwise keep its normalization and scale apart), named
/// contractions without their unit dimensions (a batch of one is a matmul),
/// and elements only extracted computed where they are. Not on the GPU: there
/// KernelBench's cross entropy went from 74 to 88 us with it (its pick
/// runs on one thread, now with a log and three gathers per row). GPU kernels
/// keep upstream's fusion until the change is measured there.
inline constexpr llvm::StringLiteral kCPUFrontEndCleanupPipeline =
    "ke-expand-constant-powers,linalg-fold-unit-extent-dims,"
    "ke-rank-reduce-contractions,ke-fuse-elementwise-ops,"
    "ke-compute-extracted-elements,linalg-fold-unit-extent-dims,canonicalize";
} // namespace ke

#endif // KE_CODEGEN_FRONTENDCLEANUP_H
