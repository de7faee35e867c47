//===- Schedule.cpp - CPU schedules: text form and validation -------------===//
//
// The schedule model: a schedule printed and parsed in its text form
// ("c=[64,128,0] r=[4,16,1] v p; ..."), which ops the library vectorizes,
// and the check of a schedule against the shapes of a payload's ops.
// Rendering to a transform script is in ScheduleScript.cpp, applying it to a
// function in ScheduleApplication.cpp.
//
//===----------------------------------------------------------------------===//

#include "ke/Propose/Schedule.h"
#include "ScheduleDetail.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using namespace ke::propose;
using ke::propose::detail::joinSizes;

std::string ke::propose::detail::joinSizes(llvm::ArrayRef<int64_t> sizes) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(sizes, os, ",");
  return text;
}

namespace {
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
  if (shape.hasBooleans || shape.nonMonotoneIndexing)
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
    if (shape.nonMonotoneIndexing &&
        (op.vectorize || op.hasSplitReduction() ||
         llvm::any_of(op.cacheTiles, [](int64_t s) { return s != 0; }) ||
         llvm::any_of(op.registerTiles, [](int64_t s) { return s != 0; })))
      return llvm::createStringError(llvm::formatv(
          "op #{0}: its indexing maps use mod or floordiv, which tiling "
          "cannot slice: only an empty entry (plain loops) applies",
          index));
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
