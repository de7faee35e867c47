//===- PaddingTaps.h - convolution taps that read only zeros ----*- C++ -*-===//
//
// A transposed convolution of stride 1 is a convolution over its input
// padded with kernel - 1 zeros on each side, and a convolution's own
// padding is zeros too. Where the kernel is large against the image
// (KernelBench's 5 x 5 x 5 kernel over 16 x 16 x 32 voxels) most taps of
// the border outputs read only those zeros: 43 % of that problem's
// multiply-adds. Once the convolution is tiled, each filter-window loop can
// run over just the taps whose input window meets the data.
//
//===----------------------------------------------------------------------===//

#ifndef KE_CODEGEN_PADDINGTAPS_H
#define KE_CODEGEN_PADDINGTAPS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>
#include <utility>

namespace ke {
/// Per dimension, the half-open range [low, high) of indices outside which
/// every element of a tensor is zero (low == high: all of it).
using NonzeroBox = llvm::SmallVector<std::pair<int64_t, int64_t>>;

/// The box outside which `value` is known to be zero: a fill with zero or a
/// zero splat (an empty box), a static insert_slice into such a tensor, a
/// zero tensor.pad, or a copy of one of those through a permutation (a
/// channels-last transpose). Nothing when nothing is known.
std::optional<NonzeroBox> getNonzeroBox(mlir::Value value);

/// Narrows the filter-window loops among `reductionLoops` (scf.for loops of
/// step 1 around `tile`, tiles of the reduction loops of a convolution whose
/// body adds its input, or its input times another value, to its output) to
/// the taps whose input window meets the nonzero box of the convolution's
/// input: a skipped tap would only add products of zeros. That takes 0 * x
/// to be 0, as PyTorch does by never multiplying padding: a filter holding
/// an infinity or a NaN no longer makes the border outputs NaN. `tile` reads
/// its input through unit-stride extract_slices whose offsets grow with the
/// loop's induction variable. Only dimensions with at least 1/16 of padding
/// are narrowed: a narrowed loop's bounds are only known at run time. Returns
/// how many loops were narrowed; loops that do not match stay as they are.
unsigned
skipTapsReadingOnlyPadding(mlir::RewriterBase &rewriter,
                           mlir::linalg::LinalgOp tile,
                           llvm::ArrayRef<mlir::scf::ForOp> reductionLoops);
} // namespace ke

#endif // KE_CODEGEN_PADDINGTAPS_H
