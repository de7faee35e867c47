//===- Schedule.cpp - CPU schedules as transform-dialect scripts ----------===//

#include "ke/Propose/Schedule.h"
#include "ke/Propose/Rewrite.h"

#include "ke/Support/DiagnosticCollector.h"

#include "ke/Transforms/FrontEndCleanup.h"
#include "ke/Transforms/Passes.h"
#include "ke/Transforms/TileAndVectorize.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace ke::propose;

namespace {
constexpr llvm::StringLiteral kOpIdAttr = "ke.op_id";

std::string joinSizes(llvm::ArrayRef<int64_t> sizes) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(sizes, os, ",");
  return text;
}

llvm::Expected<llvm::SmallVector<int64_t>> parseSizes(llvm::StringRef text) {
  llvm::SmallVector<int64_t> sizes;
  text = text.trim();
  if (!text.consume_front("[") || !text.consume_back("]"))
    return llvm::createStringError("expected '[sizes]', found '" + text.str() +
                                   "'");
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef part : parts) {
    int64_t size;
    if (part.trim().getAsInteger(10, size) || size < 0)
      return llvm::createStringError("bad tile size '" + part.str() + "'");
    sizes.push_back(size);
  }
  return sizes;
}
} // namespace

bool ke::propose::isDecomposedConvolution(const OpShape &shape) {
  return !getDecomposedWindowLoops(shape).empty();
}

llvm::SmallVector<unsigned>
ke::propose::getDecomposedWindowLoops(const OpShape &shape) {
  // The loops (oh, kh) whose register tiles must be 1 for upstream's 1-D
  // decomposition: nhwc_hwcf is (n, oh, ow, f, kh, kw, c), nchw_fchw (as
  // PyTorch front ends write convolutions) is (n, f, oh, ow, c, kh, kw).
  if (shape.name == "linalg.conv_2d_nhwc_hwcf")
    return {1, 4};
  if (shape.name == "linalg.conv_2d_nchw_fchw")
    return {2, 5};
  return {};
}

bool ke::propose::canVectorize(const OpShape &shape) {
  if (shape.hasBooleans)
    return false;
  // Other convolutions and poolings need their own decompositions.
  llvm::StringRef name(shape.name);
  if ((name.contains("conv") || name.contains("pooling")) &&
      !isDecomposedConvolution(shape))
    return false;
  return true;
}

std::string Schedule::toString() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (approximateMath)
    os << "math=approx" << (ops.empty() && !fuseRows ? "" : "; ");
  if (fuseRows)
    os << "fuse=" << fuseRows << (ops.empty() ? "" : "; ");
  llvm::interleave(
      ops, os,
      [&](const OpSchedule &op) {
        os << "c=[" << joinSizes(op.cacheTiles) << "] r=["
           << joinSizes(op.registerTiles) << "]";
        if (!op.interchange.empty())
          os << " i=[" << joinSizes(op.interchange) << "]";
        if (op.hasSplitReduction())
          os << " s=[" << joinSizes(op.splitReduction) << "]";
        os << (op.vectorize ? " v" : "") << (op.parallel ? " p" : "");
        if (op.unroll > 1)
          os << " u=" << op.unroll;
        for (const OperandLayout &layout : op.layouts)
          os << " t" << layout.operand << "=[" << joinSizes(layout.permutation)
             << "]";
      },
      "; ");
  return text;
}

llvm::Expected<Schedule> Schedule::parse(llvm::StringRef text) {
  Schedule schedule;
  llvm::SmallVector<llvm::StringRef> entries;
  text.split(entries, ';', -1, /*KeepEmpty=*/true);
  if (text.trim().empty())
    return schedule;
  for (llvm::StringRef entry : entries) {
    if (entry.trim() == "math=approx" && schedule.ops.empty() &&
        !schedule.approximateMath) {
      schedule.approximateMath = true;
      continue;
    }
    llvm::StringRef fuse = entry.trim();
    if (fuse.consume_front("fuse=") && schedule.ops.empty()) {
      if (fuse.getAsInteger(10, schedule.fuseRows) || schedule.fuseRows <= 0)
        return llvm::createStringError("bad fuse entry '" + entry.str() + "'");
      continue;
    }
    OpSchedule op;
    llvm::SmallVector<llvm::StringRef> fields;
    entry.trim().split(fields, ' ', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef field : fields) {
      if (field == "v") {
        op.vectorize = true;
      } else if (field == "p") {
        op.parallel = true;
      } else if (field.consume_front("c=")) {
        auto sizes = parseSizes(field);
        if (!sizes)
          return sizes.takeError();
        op.cacheTiles = *sizes;
      } else if (field.consume_front("r=")) {
        auto sizes = parseSizes(field);
        if (!sizes)
          return sizes.takeError();
        op.registerTiles = *sizes;
      } else if (field.consume_front("i=")) {
        auto order = parseSizes(field);
        if (!order)
          return order.takeError();
        op.interchange = *order;
      } else if (field.consume_front("s=")) {
        auto sizes = parseSizes(field);
        if (!sizes)
          return sizes.takeError();
        op.splitReduction = *sizes;
      } else if (field.size() > 1 && field[0] == 't' &&
                 llvm::isDigit(field[1])) {
        OperandLayout layout;
        auto [operand, permutation] = field.drop_front().split('=');
        if (operand.getAsInteger(10, layout.operand))
          return llvm::createStringError("bad layout field '" + field.str() +
                                         "' (expected tK=[permutation])");
        auto order = parseSizes(permutation);
        if (!order)
          return order.takeError();
        layout.permutation = *order;
        op.layouts.push_back(layout);
      } else if (field.consume_front("u=")) {
        if (field.getAsInteger(10, op.unroll) || op.unroll < 1)
          return llvm::createStringError("bad unroll factor '" + field.str() +
                                         "'");
      } else {
        return llvm::createStringError("unknown schedule field '" +
                                       field.str() + "' in '" + text.str() +
                                       "'");
      }
    }
    schedule.ops.push_back(op);
  }
  return schedule;
}

std::string
Schedule::renderTransformScript(llvm::ArrayRef<OpShape> shapes) const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "module attributes {transform.with_named_sequence} {\n"
     << "  transform.named_sequence @__transform_main("
        "%root: !transform.any_op {transform.readonly}) {\n";
  // Returns how many loops the tiling made (`<result>_loops#k` each).
  auto tile = [&](llvm::StringRef handle, llvm::ArrayRef<int64_t> sizes,
                  llvm::StringRef result,
                  llvm::ArrayRef<int64_t> interchange = {}) -> int64_t {
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
  };
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
    std::string cached = llvm::formatv("%cache{0}", index);
    std::string tiled = llvm::formatv("%tile{0}", index);
    if (op.parallel && !op.cacheTiles.empty() && index < shapes.size()) {
      // Parallel loops' cache tiles on threads, then reductions' in order.
      const OpShape &shape = shapes[index];
      llvm::SmallVector<int64_t> threaded, ordered;
      for (auto [loop, size] : llvm::enumerate(op.cacheTiles)) {
        bool reduction =
            loop < shape.isReduction.size() && shape.isReduction[loop];
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
      tile(forall, ordered, cached);
    } else {
      tile(handle, op.cacheTiles, cached, op.interchange);
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
    int64_t registerLoops = tile(cached, op.registerTiles, tiled);
    if (op.vectorize) {
      bool contraction = index < shapes.size() && shapes[index].uniformTypes &&
                         !op.hasSplitReduction();
      if (index < shapes.size() && isDecomposedConvolution(shapes[index])) {
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
      os << "    transform.loop.unroll " << tiled << "_loops#"
         << registerLoops - 1 << " {factor = " << op.unroll
         << "} : !transform.any_op\n";
  }
  // Contractions to FMAs, loop-invariant accumulators out of the reduction
  // loops, and the usual cleanup.
  os << "    %func = transform.structured.match ops{[\"func.func\"]} in %root "
        ": (!transform.any_op) -> !transform.any_op\n"
     << "    transform.apply_patterns to %func {\n"
     << "      transform.apply_patterns.vector.lower_contraction "
        "lowering_strategy = \"outerproduct\"\n"
     << "      transform.apply_patterns.vector.lower_outerproduct\n"
     << "      transform.apply_patterns.vector.transfer_permutation_patterns\n"
     << "      transform.apply_patterns.canonicalization\n"
     << "      transform.apply_patterns.tensor.fold_tensor_subset_ops\n"
     << "    } : !transform.any_op\n"
     << "    transform.apply_cse to %func : !transform.any_op\n"
     << "    %loops = transform.structured.match ops{[\"scf.for\"]} in %func "
        ": (!transform.any_op) -> !transform.any_op\n"
     << "    transform.foreach %loops : !transform.any_op {\n"
     << "    ^bb0(%loop: !transform.any_op):\n"
     << "      transform.loop.hoist_loop_invariant_subsets %loop : "
        "!transform.any_op\n"
     << "    }\n"
     // Hoisting leaves extract/insert pairs that, uncleaned, make
     // bufferization copy every cache tile.
     << "    transform.apply_patterns to %func {\n"
     << "      transform.apply_patterns.canonicalization\n"
     << "      transform.apply_patterns.tensor.fold_tensor_subset_ops\n"
     << "    } : !transform.any_op\n"
     << "    transform.apply_cse to %func : !transform.any_op\n"
     << (approximateMath
             ? "    %approximated = transform.apply_registered_pass "
               "\"ke-approximate-math\" to %func : (!transform.any_op) -> "
               "!transform.any_op\n"
             : "")
     << "    transform.yield\n"
     << "  }\n"
     << "}\n";
  return text;
}

llvm::Error ke::propose::canonicalizeForScheduling(func::FuncOp function,
                                                   std::string *skipped) {
  MLIRContext *context = function.getContext();
  // One step at a time: a step that fails on this kernel is undone and
  // skipped (and reported), so the kernel can still be searched without it.
  static constexpr llvm::StringLiteral kSteps[] = {
      "ke-decompose-aggregates", "convert-elementwise-to-linalg",
      ke::kFrontEndCleanupPipeline, "ke-extract-index-operands",
      "canonicalize"};
  std::string notes;
  for (llvm::StringRef step : kSteps) {
    ke::DiagnosticCollector diagnostics(context);
    PassManager pm(context, func::FuncOp::getOperationName());
    std::string errors;
    llvm::raw_string_ostream errorStream(errors);
    if (failed(parsePassPipeline(step, pm, errorStream)))
      return llvm::createStringError("cannot build the pipeline: " + errors);
    auto backup = cast<func::FuncOp>(function->clone());
    if (failed(pm.run(function)) || failed(verify(function))) {
      function.getBody().dropAllReferences();
      function.getBody().getBlocks().clear();
      function.getBody().takeBody(backup.getBody());
      if (!skipped) {
        backup.erase();
        return llvm::createStringError("cannot prepare the payload: " + step +
                                       ": " + diagnostics.str());
      }
      notes += (step + " skipped: " +
                llvm::StringRef(diagnostics.str()).trim().split('\n').first +
                "; ")
                   .str();
    }
    backup.erase();
  }
  if (skipped)
    *skipped = llvm::StringRef(notes).rtrim("; ").str();
  return llvm::Error::success();
}

std::vector<OpShape> ke::propose::describeOps(func::FuncOp function) {
  std::vector<OpShape> shapes;
  function.walk([&](linalg::LinalgOp op) {
    OpShape shape;
    shape.name = op->getName().getStringRef().str();
    shape.bounds = op.getStaticLoopRanges();
    for (utils::IteratorType iterator : op.getIteratorTypesArray())
      shape.isReduction.push_back(iterator == utils::IteratorType::reduction);
    // Rank loops by the operand bytes they index contiguously.
    llvm::SmallVector<int64_t> contiguous(shape.bounds.size(), 0);
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = dyn_cast<ShapedType>(operand.get().getType());
      if (!type || !type.hasStaticShape())
        continue;
      if (type.getElementType().isInteger(1))
        shape.hasBooleans = true;
      if (type.getRank() == 0)
        continue;
      AffineMap map = op.getMatchingIndexingMap(&operand);
      if (auto dim = dyn_cast<AffineDimExpr>(map.getResults().back()))
        contiguous[dim.getPosition()] += type.getNumElements();
    }
    Type elementType = op->getNumResults()
                           ? getElementTypeOrSelf(op->getResult(0).getType())
                           : Type();
    shape.numResults = op->getNumResults();
    auto loopsOf = [&](OpOperand *operand) {
      llvm::SmallVector<int64_t> loops;
      for (AffineExpr result :
           op.getMatchingIndexingMap(operand).getResults()) {
        auto dim = dyn_cast<AffineDimExpr>(result);
        loops.push_back(dim ? static_cast<int64_t>(dim.getPosition()) : -1);
      }
      return loops;
    };
    for (OpOperand *input : op.getDpsInputOperands())
      shape.inputLoops.push_back(loopsOf(input));
    for (OpOperand &init : op.getDpsInitsMutable())
      shape.outputLoops.push_back(loopsOf(&init));
    shape.uniformTypes =
        op->getNumResults() == 1 &&
        cast<ShapedType>(op->getResult(0).getType()).getRank() > 0 &&
        llvm::all_of(op->getOperands(), [&](Value operand) {
          return getElementTypeOrSelf(operand.getType()) == elementType;
        });
    op->walk([&](Operation *nested) {
      if (nested->getDialect() &&
          nested->getDialect()->getNamespace() == "math")
        shape.hasMath = true;
    });
    for (unsigned loop = 0; loop < shape.bounds.size(); ++loop)
      shape.contiguousLoops.push_back(loop);
    llvm::stable_sort(shape.contiguousLoops, [&](unsigned a, unsigned b) {
      return contiguous[a] > contiguous[b];
    });
    shapes.push_back(shape);
  });
  return shapes;
}

llvm::Error ke::propose::verifySchedule(const Schedule &schedule,
                                        llvm::ArrayRef<OpShape> shapes,
                                        int64_t maxVectorElements) {
  if (schedule.ops.size() != shapes.size())
    return llvm::createStringError(
        llvm::formatv("the schedule has {0} entries for {1} linalg ops",
                      schedule.ops.size(), shapes.size()));
  if (schedule.fuseRows) {
    const OpShape &root = shapes.back();
    if (shapes.size() < 2 || root.bounds.empty() || root.isReduction[0] ||
        root.bounds[0] % schedule.fuseRows != 0)
      return llvm::createStringError(llvm::formatv(
          "fuse={0} needs a last op whose first loop is parallel and divided "
          "by {0}",
          schedule.fuseRows));
  }
  for (auto [index, op] : llvm::enumerate(schedule.ops)) {
    const OpShape &shape = shapes[index];
    size_t loops = shape.bounds.size();
    if ((!op.cacheTiles.empty() && op.cacheTiles.size() != loops) ||
        (!op.registerTiles.empty() && op.registerTiles.size() != loops) ||
        (!op.splitReduction.empty() && op.splitReduction.size() != loops))
      return llvm::createStringError(llvm::formatv(
          "op #{0} ({1}) has {2} loops", index, shape.name, loops));
    if (!op.interchange.empty()) {
      llvm::SmallVector<int64_t> sorted(op.interchange);
      llvm::sort(sorted);
      bool permutation = sorted.size() == loops;
      for (size_t loop = 0; permutation && loop < loops; ++loop)
        permutation = sorted[loop] == static_cast<int64_t>(loop);
      if (!permutation)
        return llvm::createStringError(llvm::formatv(
            "op #{0}: i=[...] must order all {1} loops", index, loops));
      if (op.cacheTiles.empty() || op.parallel)
        return llvm::createStringError(llvm::formatv(
            "op #{0}: i=[...] orders cache tiles run in sequence (c=[...] "
            "without p)",
            index));
    }
    if (op.unroll > 16 ||
        (op.unroll > 1 &&
         llvm::all_of(op.registerTiles, [](int64_t s) { return s == 0; })))
      return llvm::createStringError(llvm::formatv(
          "op #{0}: u={1} needs a register tile loop and at most 16 copies",
          index, op.unroll));
    for (auto [position, layout] : llvm::enumerate(op.layouts)) {
      if (layout.operand < 0 ||
          layout.operand >= static_cast<int64_t>(shape.inputLoops.size()))
        return llvm::createStringError(
            llvm::formatv("op #{0}: t{1}=[...]: {2} has {3} inputs", index,
                          layout.operand, shape.name, shape.inputLoops.size()));
      for (const OperandLayout &earlier :
           llvm::ArrayRef(op.layouts).take_front(position))
        if (earlier.operand == layout.operand)
          return llvm::createStringError(llvm::formatv(
              "op #{0}: input {1} has two layouts", index, layout.operand));
      if (llvm::any_of(shape.bounds, ShapedType::isDynamic))
        return llvm::createStringError(llvm::formatv(
            "op #{0}: t{1}=[...] needs static shapes", index, layout.operand));
      llvm::ArrayRef<int64_t> dims = shape.inputLoops[layout.operand];
      if (llvm::is_contained(dims, -1) || dims.size() < 2)
        return llvm::createStringError(llvm::formatv(
            "op #{0}: t{1}=[...] needs an input of rank 2 or more indexed by "
            "plain loops",
            index, layout.operand));
      if (!isPermutationVector(layout.permutation) ||
          layout.permutation.size() != dims.size() ||
          llvm::is_sorted(layout.permutation))
        return llvm::createStringError(llvm::formatv(
            "op #{0}: t{1}=[...] must reorder all {2} dimensions of the input",
            index, layout.operand, dims.size()));
      if (schedule.fuseRows)
        return llvm::createStringError(llvm::formatv(
            "op #{0}: no t{1}=[...] with fuse (the fused loop would copy the "
            "input on every iteration)",
            index, layout.operand));
      if (isDecomposedConvolution(shape))
        return llvm::createStringError(llvm::formatv(
            "op #{0}: {1} keeps its layout (it is vectorized through its 1-D "
            "decomposition)",
            index, shape.name));
    }
    if (op.hasSplitReduction() && isDecomposedConvolution(shape))
      return llvm::createStringError(llvm::formatv(
          "op #{0}: {1} is vectorized through its 1-D decomposition, not split",
          index, shape.name));
    if (op.hasSplitReduction() && shape.numResults != 1)
      return llvm::createStringError(llvm::formatv(
          "op #{0}: a split reduction needs an op with one result", index));
    int64_t vectorElements = 1;
    for (size_t loop = 0; loop < loops; ++loop) {
      int64_t bound = shape.bounds[loop];
      int64_t cache = op.cacheTiles.empty() ? 0 : op.cacheTiles[loop];
      int64_t reg = op.registerTiles.empty() ? 0 : op.registerTiles[loop];
      int64_t split = op.splitReduction.empty() ? 0 : op.splitReduction[loop];
      int64_t outer = cache ? cache : bound;
      if (schedule.fuseRows && loop == 0 && bound % schedule.fuseRows == 0)
        outer = std::min(outer, schedule.fuseRows);
      if (cache && bound % cache != 0)
        return llvm::createStringError(
            llvm::formatv("op #{0}: cache tile {1} does not divide loop {2} "
                          "of {3} iterations",
                          index, cache, loop, bound));
      if (split && !shape.isReduction[loop])
        return llvm::createStringError(llvm::formatv(
            "op #{0}: s=[...] splits reduction loops only (loop {1} is "
            "parallel)",
            index, loop));
      if (split && outer % split != 0)
        return llvm::createStringError(
            llvm::formatv("op #{0}: split {1} does not divide {2} (loop {3})",
                          index, split, outer, loop));
      if (split)
        outer = split; // the split op's loop
      if (reg && outer % reg != 0)
        return llvm::createStringError(
            llvm::formatv("op #{0}: register tile {1} does not divide {2} "
                          "(loop {3})",
                          index, reg, outer, loop));
      vectorElements *= reg ? reg : outer;
    }
    if (op.vectorize && shape.hasBooleans)
      return llvm::createStringError(llvm::formatv(
          "op #{0}: ops on i1 are not vectorized (LLVM packs i1 vectors)",
          index));
    bool fusedRoot = schedule.fuseRows && index + 1 == schedule.ops.size();
    if (op.parallel && !fusedRoot &&
        (op.cacheTiles.empty() || !shape.hasParallelLoops()))
      return llvm::createStringError(llvm::formatv(
          "op #{0}: 'p' needs cache tiles on a parallel loop", index));
    if (schedule.fuseRows && !op.cacheTiles.empty())
      return llvm::createStringError(llvm::formatv(
          "op #{0}: no cache tiles with fuse (the fused loop is the cache "
          "tiling)",
          index));
    if (op.vectorize && !canVectorize(shape))
      return llvm::createStringError(
          llvm::formatv("op #{0}: {1} cannot be vectorized by the library",
                        index, shape.name));
    if (llvm::SmallVector<unsigned> window = getDecomposedWindowLoops(shape);
        op.vectorize && !window.empty() &&
        (op.registerTiles.size() != 7 || op.registerTiles[window[0]] != 1 ||
         op.registerTiles[window[1]] != 1))
      return llvm::createStringError(llvm::formatv(
          "op #{0}: a vectorized {1} needs register tiles of 1 on oh (loop "
          "{2}) and kh (loop {3})",
          index, shape.name, window[0], window[1]));
    if (op.vectorize && vectorElements > maxVectorElements)
      return llvm::createStringError(llvm::formatv(
          "op #{0}: a register tile of {1} elements is too large to vectorize",
          index, vectorElements));
  }
  return llvm::Error::success();
}

namespace {
/// An entry the script leaves untouched (its layouts are already applied).
OpSchedule neutralEntry(const OpSchedule &entry) {
  OpSchedule neutral;
  neutral.cacheTiles.assign(entry.cacheTiles.size(), 0);
  neutral.registerTiles.assign(entry.registerTiles.size(), 0);
  neutral.layouts = entry.layouts;
  return neutral;
}

/// Runs the script of `schedule` on a copy of `function`, to learn whether it
/// applies without touching the function.
llvm::Error tryOnCopy(func::FuncOp function, const Schedule &schedule,
                      llvm::ArrayRef<OpShape> shapes) {
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(function.getLoc());
  auto copy = cast<func::FuncOp>(function->clone());
  scratch->push_back(copy);
  return applyTransformScript(copy, schedule.renderTransformScript(shapes));
}

/// The gist of a transform error: its first line, without the location.
std::string firstLine(llvm::StringRef text) {
  llvm::StringRef line = text.trim().split('\n').first;
  line.consume_front("the transform script does not apply: ");
  if (line.starts_with("loc(")) {
    if (size_t at = line.find("): "); at != llvm::StringRef::npos)
      line = line.drop_front(at + 3);
  }
  return line.size() > 120 ? (line.take_front(117) + "...").str() : line.str();
}
} // namespace

llvm::Error ke::propose::applySchedule(func::FuncOp function,
                                       const Schedule &schedule,
                                       std::string *fallbacks) {
  MLIRContext *context = function.getContext();
  // The script is rendered for the ops as described before the relayout:
  // it keeps their loops, only their operands' maps change.
  std::vector<OpShape> shapes = describeOps(function);
  int64_t index = 0;
  function.walk([&](linalg::LinalgOp op) {
    op->setAttr(kOpIdAttr,
                IntegerAttr::get(IntegerType::get(context, 64), index++));
  });
  relayoutInputs(function, schedule);
  auto untag = [&] {
    function.walk([&](Operation *op) { op->removeAttr(kOpIdAttr); });
  };

  // A schedule that fails on some ops still applies to the others: those
  // fall back to the default schedule, and the caller is told which.
  Schedule applied = schedule;
  llvm::SmallVector<int64_t> fallen;
  std::string notes;
  if (llvm::Error whole = tryOnCopy(function, applied, shapes)) {
    std::string wholeMessage = llvm::toString(std::move(whole));
    if (applied.fuseRows) {
      applied.fuseRows = 0;
      notes += "fuse dropped; ";
    }
    for (size_t op = 0; op < applied.ops.size(); ++op) {
      Schedule alone = applied;
      for (size_t other = 0; other < alone.ops.size(); ++other)
        if (other != op)
          alone.ops[other] = neutralEntry(alone.ops[other]);
      if (llvm::Error error = tryOnCopy(function, alone, shapes)) {
        std::string name = op < shapes.size() ? shapes[op].name : "?";
        std::string message = llvm::toString(std::move(error));
        notes += llvm::formatv("op #{0} ({1}) on the default schedule: {2}; ",
                               op, name, firstLine(message));
        applied.ops[op] = neutralEntry(applied.ops[op]);
        fallen.push_back(op);
      }
    }
    if (notes.empty() || tryOnCopy(function, applied, shapes)) {
      untag();
      return llvm::createStringError(wholeMessage);
    }
  }
  llvm::Error error = runTransformScript(function, applied, shapes);
  if (!error && !fallen.empty()) {
    SmallVector<linalg::LinalgOp> ops;
    function.walk([&](linalg::LinalgOp op) {
      auto id = op->getAttrOfType<IntegerAttr>(kOpIdAttr);
      if (id && llvm::is_contained(fallen, id.getInt()))
        ops.push_back(op);
    });
    IRRewriter rewriter(context);
    for (linalg::LinalgOp op : ops)
      ke::tileAndVectorizeOp(rewriter, op, ke::kDefaultVectorWidth);
  }
  // Untag on every path, before verifying: the result must stand alone.
  untag();
  if (error)
    return error;
  ke::DiagnosticCollector diagnostics(context);
  if (failed(verify(function)))
    return llvm::createStringError("the scheduled payload does not verify: " +
                                   diagnostics.str());
  if (fallbacks && !notes.empty())
    *fallbacks = llvm::StringRef(notes).rtrim("; ").str();
  return llvm::Error::success();
}

llvm::Error ke::propose::runTransformScript(func::FuncOp function,
                                            const Schedule &schedule,
                                            llvm::ArrayRef<OpShape> shapes) {
  std::string script = schedule.renderTransformScript(shapes);
  if (llvm::Error error = applyTransformScript(function, script))
    return llvm::createStringError("schedule '" + schedule.toString() +
                                   "': " + llvm::toString(std::move(error)));
  return llvm::Error::success();
}
