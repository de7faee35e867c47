//===- ScheduleScript.cpp - a schedule as a transform-dialect script ------===//
//
// Renders a schedule to the transform script that applies it: per op
// (matched by its `ke.op_id`), fusion, cache tiling (on threads for `p`),
// split reduction, register tiling, vectorization and unrolling, then the
// contraction lowering, hoisting and cleanup of the whole function.
//
//===----------------------------------------------------------------------===//

#include "ScheduleDetail.h"
#include "ke/Propose/Schedule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace ke::propose;
using ke::propose::detail::joinSizes;
using ke::propose::detail::kOpIdAttr;

/// Tiling of one loop level: `<result>, <result>_loops:N = tile_using_for`,
/// or a cast when no loop is tiled. Returns how many loops it made.
static int64_t renderTiling(llvm::raw_ostream &os, llvm::StringRef handle,
                            llvm::ArrayRef<int64_t> sizes,
                            llvm::StringRef result,
                            llvm::ArrayRef<int64_t> interchange = {}) {
  int64_t loops = llvm::count_if(sizes, [](int64_t s) { return s != 0; });
  if (loops == 0) {
    os << "    " << result << " = transform.cast " << handle
       << " : !transform.any_op to !transform.any_op\n";
    return 0;
  }
  os << "    " << result << ", " << result << "_loops:" << loops
     << " = transform.structured.tile_using_for " << handle << " tile_sizes ["
     << joinSizes(sizes) << "]";
  if (!interchange.empty())
    os << " interchange = [" << joinSizes(interchange) << "]";
  os << " : (!transform.any_op) -> (!transform.any_op";
  for (int64_t i = 0; i < loops; ++i)
    os << ", !transform.any_op";
  os << ")\n";
  return loops;
}

void ke::propose::detail::renderOpSteps(llvm::raw_ostream &os,
                                        const OpSchedule &op,
                                        const OpShape *shape,
                                        llvm::StringRef handle,
                                        int64_t index) {
  std::string cached = llvm::formatv("%cache{0}", index);
  std::string tiled = llvm::formatv("%tile{0}", index);
  if (op.parallel && !op.cacheTiles.empty() && shape) {
    // Parallel loops' cache tiles on threads, then reductions' in order.
    llvm::SmallVector<int64_t> threaded, ordered;
    for (auto [loop, size] : llvm::enumerate(op.cacheTiles)) {
      bool reduction =
          loop < shape->isReduction.size() && shape->isReduction[loop];
      threaded.push_back(reduction ? 0 : size);
      ordered.push_back(reduction ? size : 0);
    }
    std::string forall = llvm::formatv("%forall{0}", index);
    if (llvm::any_of(threaded, [](int64_t size) { return size != 0; })) {
      os << "    " << forall << ", " << forall
         << "_loop = transform.structured.tile_using_forall " << handle
         << " tile_sizes [" << joinSizes(threaded)
         << "] : (!transform.any_op) -> (!transform.any_op, "
            "!transform.any_op)\n";
    } else {
      os << "    " << forall << " = transform.cast " << handle
         << " : !transform.any_op to !transform.any_op\n";
    }
    renderTiling(os, forall, ordered, cached);
  } else {
    renderTiling(os, handle, op.cacheTiles, cached, op.interchange);
  }
  std::string combined;
  if (op.hasSplitReduction()) {
    // Partial results of the chunk's shape accumulate in the loop; the
    // combining op reduces them once, after it.
    llvm::SmallVector<int64_t> dims;
    for (auto [loop, size] : llvm::enumerate(op.splitReduction))
      if (size)
        dims.push_back(loop);
    std::string split = llvm::formatv("%split{0}", index);
    combined = llvm::formatv("%combine{0}", index);
    os << "    %fill" << index << ", " << split << ", " << combined
       << ", %splitloop" << index
       << " = transform.structured.tile_reduction_using_for " << cached
       << " reduction_dims = [" << joinSizes(dims) << "] by tile_sizes = ["
       << joinSizes(op.splitReduction)
       << "] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, "
          "!transform.any_op, !transform.any_op)\n";
    cached = split;
  }
  int64_t registerLoops = renderTiling(os, cached, op.registerTiles, tiled);
  // The loops keep the tiling's name when the tile is renamed below.
  std::string tileLoops = tiled + "_loops";
  if (op.vectorize) {
    bool contraction = shape && shape->uniformTypes &&
                       !op.hasSplitReduction();
    if (shape && isDecomposedConvolution(*shape)) {
      // A 2-D convolution vectorizes as the 1-D convolution it decomposes
      // to once its oh and kh register tiles are 1.
      os << "    " << tiled << "_1d = transform.structured.decompose "
         << tiled << " : (!transform.any_op) -> !transform.any_op\n";
      tiled += "_1d";
      contraction = false;
    }
    os << "    transform.structured.vectorize " << tiled
       << (contraction ? " {create_named_contraction, vectorize_nd_extract}"
                       : " {vectorize_nd_extract}")
       << " : !transform.any_op\n";
    if (!combined.empty())
      os << "    transform.structured.vectorize " << combined
         << " : !transform.any_op\n";
  }
  if (op.unroll > 1 && registerLoops > 0)
    os << "    transform.loop.unroll " << tileLoops << "#"
       << registerLoops - 1 << " {factor = " << op.unroll
       << "} : !transform.any_op\n";
}

void ke::propose::detail::renderFunctionCleanup(llvm::raw_ostream &os,
                                                llvm::StringRef func) {
  // Contractions to FMAs, loop-invariant accumulators out of the reduction
  // loops, and the usual cleanup.
  os << "    transform.apply_patterns to " << func << " {\n"
     << "      transform.apply_patterns.vector.lower_contraction "
        "lowering_strategy = \"outerproduct\"\n"
     << "      transform.apply_patterns.vector.lower_outerproduct\n"
     << "      transform.apply_patterns.vector.transfer_permutation_patterns\n"
     << "      transform.apply_patterns.canonicalization\n"
     << "      transform.apply_patterns.tensor.fold_tensor_subset_ops\n"
     << "    } : !transform.any_op\n"
     << "    transform.apply_cse to " << func << " : !transform.any_op\n"
     << "    %loops = transform.structured.match ops{[\"scf.for\"]} in " << func
     << " : (!transform.any_op) -> !transform.any_op\n"
     << "    transform.foreach %loops : !transform.any_op {\n"
     << "    ^bb0(%loop: !transform.any_op):\n"
     << "      transform.loop.hoist_loop_invariant_subsets %loop : "
        "!transform.any_op\n"
     << "    }\n"
     // Hoisting leaves extract/insert pairs that, uncleaned, make
     // bufferization copy every cache tile.
     << "    transform.apply_patterns to " << func << " {\n"
     << "      transform.apply_patterns.canonicalization\n"
     << "      transform.apply_patterns.tensor.fold_tensor_subset_ops\n"
     << "    } : !transform.any_op\n"
     << "    transform.apply_cse to " << func << " : !transform.any_op\n";
}

std::string
Schedule::renderTransformScript(llvm::ArrayRef<OpShape> shapes) const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "module attributes {transform.with_named_sequence} {\n"
     << "  transform.named_sequence @__transform_main("
        "%root: !transform.any_op {transform.readonly}) {\n";
  if (fuseRows && !ops.empty()) {
    size_t last = ops.size() - 1;
    size_t loops = last < shapes.size() ? shapes[last].bounds.size()
                                        : ops[last].registerTiles.size();
    llvm::SmallVector<int64_t> sizes(std::max<size_t>(loops, 1), 0);
    sizes[0] = fuseRows;
    os << "    %fuse_root = transform.structured.match attributes{" << kOpIdAttr
       << " = " << last
       << " : i64} in %root : (!transform.any_op) -> !transform.any_op\n"
       << "    %fused, %fused_loop = transform.structured.fuse %fuse_root "
          "tile_sizes ["
       << joinSizes(sizes) << "] {apply_cleanup"
       << (ops[last].parallel ? ", use_forall" : "")
       << "} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)\n"
       << "    %fuse_func = transform.structured.match ops{[\"func.func\"]} in "
          "%root : (!transform.any_op) -> !transform.any_op\n"
       << "    transform.apply_patterns to %fuse_func {\n"
       << "      transform.apply_patterns.canonicalization\n"
       << "    } : !transform.any_op\n"
       << "    transform.apply_cse to %fuse_func : !transform.any_op\n";
  }
  for (auto [index, op] : llvm::enumerate(ops)) {
    std::string handle = llvm::formatv("%op{0}", index);
    os << "    " << handle << " = transform.structured.match attributes{"
       << kOpIdAttr << " = " << index
       << " : i64} in %root : (!transform.any_op) -> !transform.any_op\n";
    detail::renderOpSteps(os, op, index < shapes.size() ? &shapes[index] : nullptr,
                          handle, index);
  }
  os << "    %func = transform.structured.match ops{[\"func.func\"]} in %root "
        ": (!transform.any_op) -> !transform.any_op\n";
  detail::renderFunctionCleanup(os, "%func");
  // Every candidate gets the default lowering's clamped-math guard (ELU's
  // exp(min(x, 0)) skipped on vectors of positive lanes), so the search
  // compares schedules, not the guard's presence; after vectorization and
  // before the approximations, as in ke-lower-cpu.
  os << "    %guarded = transform.apply_registered_pass "
        "\"ke-guard-clamped-math\" to %func : (!transform.any_op) -> "
        "!transform.any_op\n"
     << (approximateMath
             ? "    %approximated = transform.apply_registered_pass "
               "\"ke-approximate-math\" to %guarded : (!transform.any_op) -> "
               "!transform.any_op\n"
             : "")
     << "    transform.yield\n"
     << "  }\n"
     << "}\n";
  return text;
}
