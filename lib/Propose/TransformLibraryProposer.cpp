//===- TransformLibraryProposer.cpp - the built-in proposer ---------------===//
//
// The space, per linalg op: a register tile per loop (the vector loop takes a
// multiple of the vector width, other parallel loops small unroll factors,
// reductions 1-4), an optional cache tile per loop (a multiple of the
// register tile) in an optional loop order, an unroll factor, vectorization
// on or off, and for reductions along the vector loop a split into vector
// partial sums (then the cache tiles cut the rows and the split op is
// vectorized whole), and for reused inputs read across rows by the vector
// a transposed copy. Only tiles that divide the
// trip counts are drawn, so every register tile has a static shape.
//
//===----------------------------------------------------------------------===//

#include "ke/Propose/TransformLibraryProposer.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace ke::propose;

namespace {
/// The loop a register tile vectorizes along: the most contiguous loop whose
/// trip count the width divides.
std::optional<unsigned> findVectorLoop(const OpShape &shape, int64_t width) {
  for (unsigned loop : shape.contiguousLoops)
    if (shape.bounds[loop] % width == 0)
      return loop;
  return std::nullopt;
}

/// Whether `schedule` passes verifySchedule (the reason is not needed here:
/// an invalid draw is simply drawn again).
bool isValid(const Schedule &schedule, llvm::ArrayRef<OpShape> shapes) {
  if (llvm::Error error = verifySchedule(schedule, shapes)) {
    llvm::consumeError(std::move(error));
    return false;
  }
  return true;
}

/// Inputs worth reading through a transposed copy for a vector along
/// `vectorLoop`: reused across some loop (the copy is paid once, not per
/// use) and indexing the vector loop in an outer dimension. Each copy moves
/// that dimension innermost.
llvm::SmallVector<OperandLayout> findTransposableInputs(const OpShape &shape,
                                                        unsigned vectorLoop) {
  llvm::SmallVector<OperandLayout> layouts;
  for (auto [operand, dims] : llvm::enumerate(shape.inputLoops)) {
    auto *position = llvm::find(dims, static_cast<int64_t>(vectorLoop));
    bool plainLoops = !llvm::is_contained(dims, -1) && dims.size() >= 2;
    bool reused = dims.size() < shape.bounds.size();
    if (!plainLoops || !reused || position == dims.end() ||
        position + 1 == dims.end())
      continue;
    OperandLayout layout;
    layout.operand = operand;
    int64_t innermost = position - dims.begin();
    for (int64_t dim = 0; dim < static_cast<int64_t>(dims.size()); ++dim)
      if (dim != innermost)
        layout.permutation.push_back(dim);
    layout.permutation.push_back(innermost);
    layouts.push_back(layout);
  }
  return layouts;
}

/// The loop along which a contraction's accumulators are vectors: the
/// output's innermost, when it is parallel and holds whole vectors.
std::optional<unsigned> findAccumulatorLoop(const OpShape &shape,
                                            int64_t width) {
  if (shape.outputLoops.size() != 1 || shape.outputLoops[0].empty())
    return std::nullopt;
  int64_t loop = shape.outputLoops[0].back();
  if (loop < 0 || shape.isReduction[loop] || shape.bounds[loop] % width != 0)
    return std::nullopt;
  return loop;
}

/// Whether a vector along `vectorLoop` reads or writes some operand across
/// rows, once the inputs in `layouts` are read through their copies.
bool hasStridedVectorAccess(const OpShape &shape, unsigned vectorLoop,
                            llvm::ArrayRef<OperandLayout> layouts) {
  auto strided = [&](llvm::ArrayRef<int64_t> dims) {
    return llvm::is_contained(dims.drop_back(),
                              static_cast<int64_t>(vectorLoop));
  };
  for (auto [operand, dims] : llvm::enumerate(shape.inputLoops)) {
    bool relaid = llvm::any_of(layouts, [&](const OperandLayout &layout) {
      return layout.operand == static_cast<int64_t>(operand);
    });
    if (!relaid && strided(dims))
      return true;
  }
  return llvm::any_of(shape.outputLoops, strided);
}

template <typename Generator>
int64_t pick(llvm::ArrayRef<int64_t> choices, Generator &generator) {
  std::uniform_int_distribution<size_t> index(0, choices.size() - 1);
  return choices[index(generator)];
}

/// Drops knobs that lost what they act on: a loop order without sequential
/// cache tiles, an unroll without register-tile loops.
void dropDanglingKnobs(OpSchedule &op) {
  if (op.cacheTiles.empty() || op.parallel)
    op.interchange.clear();
  if (llvm::all_of(op.registerTiles, [](int64_t s) { return s == 0; }))
    op.unroll = 1;
}
} // namespace

Schedule TransformLibraryProposer::makeDefaultSchedule(
    llvm::ArrayRef<OpShape> shapes) const {
  Schedule schedule;
  for (const OpShape &shape : shapes) {
    OpSchedule op;
    std::optional<unsigned> vectorLoop = findVectorLoop(shape, 8);
    if (vectorLoop && canVectorize(shape)) {
      for (unsigned loop = 0; loop < shape.bounds.size(); ++loop)
        op.registerTiles.push_back(loop == *vectorLoop ? 8 : 1);
      op.vectorize = true;
    }
    schedule.ops.push_back(op);
  }
  return schedule;
}

OpSchedule
TransformLibraryProposer::makeRandomOpSchedule(const OpShape &shape) {
  OpSchedule op;
  size_t loops = shape.bounds.size();
  std::optional<unsigned> vectorLoop = findVectorLoop(shape, 8);
  if (!vectorLoop || !canVectorize(shape) || loops == 0)
    return op; // left to plain loops
  op.vectorize = true;
  op.registerTiles.assign(loops, 1);
  op.cacheTiles.assign(loops, 0);
  // Reductions along the vector loop: without a split, every vector ends in
  // a horizontal reduction; split, the partial sums stay in registers.
  std::bernoulli_distribution splitChance(0.6);
  if (shape.isReduction[*vectorLoop] && shape.numResults == 1 &&
      !isDecomposedConvolution(shape) && splitChance(generator)) {
    llvm::SmallVector<int64_t> splits;
    for (int64_t size : {vectorWidth, 2 * vectorWidth, 4 * vectorWidth})
      if (size >= 8 && shape.bounds[*vectorLoop] % size == 0)
        splits.push_back(size);
    if (!splits.empty()) {
      op.splitReduction.assign(loops, 0);
      op.splitReduction[*vectorLoop] = pick(splits, generator);
      // The split op is vectorized whole: its parallel loops are cut to a
      // few rows by the cache tiles, other reductions to one iteration.
      std::optional<unsigned> rowLoop;
      for (unsigned loop : shape.contiguousLoops)
        if (!shape.isReduction[loop]) {
          rowLoop = loop;
          break;
        }
      for (unsigned loop = 0; loop < loops; ++loop) {
        op.registerTiles[loop] =
            shape.isReduction[loop] && loop != *vectorLoop ? 1 : 0;
        if (shape.isReduction[loop])
          continue;
        llvm::SmallVector<int64_t> rows = {1};
        if (rowLoop && loop == *rowLoop)
          for (int64_t size : {2, 4, 8, 16})
            if (size < shape.bounds[loop] && shape.bounds[loop] % size == 0)
              rows.push_back(size);
        op.cacheTiles[loop] =
            shape.bounds[loop] == 1 ? 0 : pick(rows, generator);
      }
      if (llvm::all_of(op.cacheTiles, [](int64_t size) { return size == 0; }))
        op.cacheTiles.clear();
      std::bernoulli_distribution threaded(0.75);
      op.parallel =
          threads > 1 && !op.cacheTiles.empty() && threaded(generator);
      return op;
    }
  }
  // Contractions (a reduction loop, one element type), 40% of the time: a
  // register block that fills the vector registers without spilling (rows
  // x vectors <= 24 accumulators, reductions 1) inside cache blocks,
  // vectorized along the output's innermost loop so the accumulators are
  // whole vectors. The generic draw below rarely hits one (matmul 1024^3,
  // 1 thread: c=[128,128,256] r=[8,32,1] ran 10.9 ms, the best of a
  // 64-candidate generic search 15.3 ms). Inputs read across rows along it
  // (attention's K in Q x K^T) are read through transposed copies; where
  // that cannot help, no block.
  std::bernoulli_distribution blocked(0.4), transposed(0.5);
  std::optional<unsigned> columnLoop = findAccumulatorLoop(shape, vectorWidth);
  if (shape.uniformTypes && shape.hasReductionLoops() && columnLoop &&
      !isDecomposedConvolution(shape) && blocked(generator)) {
    op.layouts = findTransposableInputs(shape, *columnLoop);
    // Rows of the output (batch_matmul's i, not its batch loop).
    std::optional<unsigned> rowLoop;
    llvm::ArrayRef<int64_t> outputDims = shape.outputLoops[0];
    if (outputDims.size() >= 2 && outputDims.drop_back().back() >= 0 &&
        !shape.isReduction[outputDims.drop_back().back()])
      rowLoop = outputDims.drop_back().back();
    auto fitting = [&](unsigned loop, std::initializer_list<int64_t> sizes,
                       int64_t multipleOf) {
      llvm::SmallVector<int64_t> choices;
      for (int64_t size : sizes)
        if (size <= shape.bounds[loop] && shape.bounds[loop] % size == 0 &&
            size % multipleOf == 0)
          choices.push_back(size);
      return choices;
    };
    llvm::SmallVector<int64_t> columns =
        fitting(*columnLoop, {2 * vectorWidth, 4 * vectorWidth}, 1);
    llvm::SmallVector<int64_t> rows;
    if (rowLoop)
      rows = fitting(*rowLoop, {4, 6, 8}, 1);
    if (!hasStridedVectorAccess(shape, *columnLoop, op.layouts) &&
        !columns.empty() && !rows.empty()) {
      int64_t n = pick(columns, generator), m = pick(rows, generator);
      while (m > 1 && m * (n / vectorWidth) > 24)
        m /= 2;
      if (shape.bounds[*rowLoop] % m != 0)
        m = 1;
      for (unsigned loop = 0; loop < loops; ++loop) {
        int64_t reg = loop == *columnLoop ? n : loop == *rowLoop ? m : 1;
        op.registerTiles[loop] = reg;
        llvm::SmallVector<int64_t> cache = {0};
        if (loop == *columnLoop)
          cache.append(fitting(loop, {64, 128, 256, 512}, reg));
        else if (loop == *rowLoop)
          cache.append(fitting(loop, {32, 64, 128, 256}, reg));
        else if (shape.isReduction[loop])
          cache.append(fitting(loop, {128, 256, 512}, 1));
        // A cache tile as large as the loop tiles nothing.
        llvm::erase_if(cache, [&](int64_t size) {
          return size == shape.bounds[loop] && size != 0;
        });
        op.cacheTiles[loop] = pick(cache, generator);
      }
      return finishOpSchedule(shape, op);
    }
  }
  // A vector along a reduction ends in horizontal reductions however its
  // inputs are laid out: copies only for parallel vector loops.
  op.layouts.clear();
  if (!isDecomposedConvolution(shape) && !shape.isReduction[*vectorLoop] &&
      transposed(generator))
    op.layouts = findTransposableInputs(shape, *vectorLoop);
  for (unsigned loop = 0; loop < loops; ++loop) {
    int64_t bound = shape.bounds[loop];
    llvm::SmallVector<int64_t> registerChoices;
    if (loop == *vectorLoop) {
      for (int64_t size :
           {vectorWidth / 2, vectorWidth, 2 * vectorWidth, 4 * vectorWidth})
        if (size >= 8 && bound % size == 0)
          registerChoices.push_back(size);
    } else if (!shape.isReduction[loop]) {
      for (int64_t size : {1, 2, 4, 6, 8})
        if (bound % size == 0)
          registerChoices.push_back(size);
    } else {
      for (int64_t size : {1, 2, 4})
        if (bound % size == 0)
          registerChoices.push_back(size);
    }
    if (registerChoices.empty())
      registerChoices.push_back(1);
    int64_t reg = pick(registerChoices, generator);
    if (llvm::is_contained(getDecomposedWindowLoops(shape), loop))
      reg = 1; // oh and kh: what the 1-D decomposition needs
    op.registerTiles[loop] = reg;

    llvm::SmallVector<int64_t> cacheChoices = {0};
    for (int64_t size : {16, 32, 64, 128, 256, 512})
      if (size > reg && size < bound && bound % size == 0 && size % reg == 0)
        cacheChoices.push_back(size);
    op.cacheTiles[loop] = pick(cacheChoices, generator);
  }
  return finishOpSchedule(shape, op);
}

OpSchedule TransformLibraryProposer::finishOpSchedule(const OpShape &shape,
                                                      OpSchedule op) {
  size_t loops = shape.bounds.size();
  if (llvm::all_of(op.cacheTiles, [](int64_t size) { return size == 0; }))
    op.cacheTiles.clear();
  bool tiledParallelLoop = false;
  for (size_t loop = 0; loop < op.cacheTiles.size(); ++loop)
    tiledParallelLoop |= op.cacheTiles[loop] != 0 && !shape.isReduction[loop];
  std::bernoulli_distribution threaded(0.75);
  op.parallel = threads > 1 && tiledParallelLoop && threaded(generator);
  // Loop order of sequential cache tiles, and unrolling of the innermost
  // register loop (LLVM unrolls small loops itself; larger bodies differ).
  std::bernoulli_distribution reorder(0.2), unrolled(0.25);
  if (!op.parallel && !op.cacheTiles.empty() && reorder(generator)) {
    for (unsigned loop = 0; loop < loops; ++loop)
      op.interchange.push_back(loop);
    std::shuffle(op.interchange.begin(), op.interchange.end(), generator);
    if (llvm::is_sorted(op.interchange))
      op.interchange.clear();
  }
  if (unrolled(generator))
    op.unroll = pick({2, 4, 8}, generator);
  dropDanglingKnobs(op);
  return op;
}

int64_t TransformLibraryProposer::pickFuseRows(llvm::ArrayRef<OpShape> shapes) {
  if (shapes.size() < 2 || shapes.back().bounds.empty() ||
      shapes.back().isReduction[0])
    return 0;
  llvm::SmallVector<int64_t> choices;
  for (int64_t rows : {1, 2, 4, 8, 16, 32})
    if (shapes.back().bounds[0] % rows == 0 && rows < shapes.back().bounds[0])
      choices.push_back(rows);
  return choices.empty() ? 0 : pick(choices, generator);
}

void TransformLibraryProposer::setFusion(Schedule &schedule,
                                         llvm::ArrayRef<OpShape> shapes,
                                         int64_t rows) {
  // Inputs read through copies keep the ops unfused: a copy fused into
  // the loop would be made on every iteration.
  if (llvm::any_of(schedule.ops,
                   [](const OpSchedule &op) { return !op.layouts.empty(); }))
    rows = 0;
  schedule.fuseRows = rows;
  if (!rows) {
    // Without the fused loop, threads need cache tiles of their own.
    for (OpSchedule &op : schedule.ops)
      if (op.cacheTiles.empty())
        op.parallel = false;
    return;
  }
  for (auto [index, op] : llvm::enumerate(schedule.ops)) {
    bool root = index + 1 == schedule.ops.size();
    op.cacheTiles.clear();
    if (!root)
      op.parallel = false;
    if (op.registerTiles.empty() || index >= shapes.size() ||
        shapes[index].bounds.empty())
      continue;
    int64_t bound = shapes[index].bounds[0];
    int64_t outer = bound % rows == 0 ? std::min(bound, rows) : bound;
    int64_t &reg = op.registerTiles[0];
    if (reg == 0)
      continue; // the whole loop: the fused rows
    while (reg > 1 && outer % reg != 0)
      reg /= 2;
    if (reg < 1 || outer % reg != 0)
      reg = 1;
  }
  for (OpSchedule &op : schedule.ops)
    dropDanglingKnobs(op);
}

Schedule
TransformLibraryProposer::makeRandomSchedule(llvm::ArrayRef<OpShape> shapes) {
  bool hasMath =
      llvm::any_of(shapes, [](const OpShape &s) { return s.hasMath; });
  std::bernoulli_distribution coin(0.5);
  // Draw until the schedule passes the checks (vector size limits).
  for (int attempt = 0; attempt < 64; ++attempt) {
    Schedule schedule;
    schedule.approximateMath = hasMath && coin(generator);
    for (const OpShape &shape : shapes)
      schedule.ops.push_back(makeRandomOpSchedule(shape));
    if (coin(generator))
      setFusion(schedule, shapes, pickFuseRows(shapes));
    if (!isValid(schedule, shapes))
      continue;
    return schedule;
  }
  return makeDefaultSchedule(shapes);
}

Schedule TransformLibraryProposer::mutate(const Schedule &schedule,
                                          llvm::ArrayRef<OpShape> shapes) {
  if (schedule.ops.size() != shapes.size() || shapes.empty())
    return makeRandomSchedule(shapes);
  bool hasMath =
      llvm::any_of(shapes, [](const OpShape &s) { return s.hasMath; });
  std::bernoulli_distribution flipMath(0.2);
  for (int attempt = 0; attempt < 64; ++attempt) {
    Schedule mutated = schedule;
    if (hasMath && flipMath(generator)) {
      mutated.approximateMath = !mutated.approximateMath;
      return mutated;
    }
    std::bernoulli_distribution changeFusion(0.15);
    if (changeFusion(generator)) {
      setFusion(mutated, shapes, mutated.fuseRows ? 0 : pickFuseRows(shapes));
      if (mutated == schedule)
        continue;
      if (!isValid(mutated, shapes))
        continue;
      return mutated;
    }
    std::uniform_int_distribution<size_t> opIndex(0, shapes.size() - 1);
    size_t index = opIndex(generator);
    OpSchedule fresh = makeRandomOpSchedule(shapes[index]);
    OpSchedule &target = mutated.ops[index];
    size_t loops = shapes[index].bounds.size();
    if (loops == 0 || !fresh.vectorize) {
      target = fresh;
    } else {
      // Change one knob: a register tile, a cache tile, the loop order, the
      // unroll factor, the reduction split, the inputs' layouts, or the
      // whole op.
      if (target.registerTiles.size() != loops)
        target.registerTiles = fresh.registerTiles;
      if (target.registerTiles.size() != loops)
        target.registerTiles.assign(loops, 1);
      if (target.cacheTiles.size() != loops)
        target.cacheTiles.assign(loops, 0);
      std::uniform_int_distribution<int> knob(0, 6);
      std::uniform_int_distribution<size_t> loop(0, loops - 1);
      size_t at = loop(generator);
      auto freshTile = [&](llvm::ArrayRef<int64_t> tiles) {
        return tiles.size() == loops ? tiles[at] : 0;
      };
      switch (knob(generator)) {
      case 0:
        target.registerTiles[at] = freshTile(fresh.registerTiles);
        break;
      case 1:
        target.cacheTiles[at] = freshTile(fresh.cacheTiles);
        break;
      case 2:
        target.interchange = fresh.interchange;
        break;
      case 3:
        target.unroll = fresh.unroll;
        break;
      case 4:
        // The split op's tiles come with the split.
        if (fresh.hasSplitReduction() || target.hasSplitReduction())
          target = fresh;
        break;
      case 5:
        target.layouts = fresh.layouts;
        break;
      default:
        target = fresh;
        break;
      }
      std::bernoulli_distribution flipThreads(0.15);
      if (threads > 1 && flipThreads(generator))
        target.parallel = !target.parallel;
      // Keep cache tiles multiples of the register tiles.
      for (size_t l = 0; l < loops && !target.cacheTiles.empty(); ++l)
        if (target.cacheTiles[l] && target.registerTiles[l] &&
            (target.cacheTiles[l] % target.registerTiles[l] != 0 ||
             target.cacheTiles[l] <= target.registerTiles[l]) &&
            !target.hasSplitReduction())
          target.cacheTiles[l] = 0;
      if (llvm::all_of(target.cacheTiles, [](int64_t s) { return s == 0; }))
        target.cacheTiles.clear();
      if (target.cacheTiles.empty())
        target.parallel = false;
      dropDanglingKnobs(target);
    }
    setFusion(mutated, shapes, mutated.fuseRows);
    if (mutated == schedule)
      continue;
    if (!isValid(mutated, shapes))
      continue;
    return mutated;
  }
  return makeRandomSchedule(shapes);
}

Schedule TransformLibraryProposer::crossover(const Schedule &a,
                                             const Schedule &b) {
  if (a.ops.size() != b.ops.size())
    return a;
  Schedule child;
  std::bernoulli_distribution fromA(0.5);
  child.approximateMath =
      fromA(generator) ? a.approximateMath : b.approximateMath;
  child.fuseRows = fromA(generator) ? a.fuseRows : b.fuseRows;
  for (size_t i = 0; i < a.ops.size(); ++i)
    child.ops.push_back(fromA(generator) ? a.ops[i] : b.ops[i]);
  return child;
}

std::vector<Proposal>
TransformLibraryProposer::propose(const ProposalContext &context) {
  std::vector<Proposal> proposals;
  auto parse = [](const std::string &text) -> std::optional<Schedule> {
    if (text.empty())
      return std::nullopt;
    llvm::Expected<Schedule> schedule = Schedule::parse(text);
    if (!schedule) {
      llvm::consumeError(schedule.takeError());
      return std::nullopt;
    }
    return *schedule;
  };
  std::optional<Schedule> parent = parse(context.parent.schedule);
  std::discrete_distribution<int> chooseMemory({50, 20, 20, 10});

  for (unsigned i = 0; i < context.count; ++i) {
    Proposal proposal;
    if (!warmStart.empty()) {
      auto [schedule, description] = std::move(warmStart.front());
      warmStart.erase(warmStart.begin());
      proposal.schedule = std::move(schedule);
      proposal.memory = MemoryOperator::Restart;
      proposal.pinned = true;
      proposal.strategy =
          proposal.schedule->toString() + " (warm start: " + description + ")";
      proposals.push_back(std::move(proposal));
      continue;
    }
    if (!parent) {
      // From the reference: the baseline first, then fresh schedules.
      bool first = context.siblings.empty() && i == 0;
      proposal.schedule = first ? makeDefaultSchedule(context.shapes)
                                : makeRandomSchedule(context.shapes);
      proposal.pinned = first;
      proposal.memory = MemoryOperator::Restart;
    } else {
      proposal.memory = static_cast<MemoryOperator>(chooseMemory(generator));
      switch (proposal.memory) {
      case MemoryOperator::InheritTrajectory:
        proposal.schedule = mutate(*parent, context.shapes);
        break;
      case MemoryOperator::CompareSiblings: {
        const NodeView *best = nullptr;
        for (const NodeView &sibling : context.siblings)
          if (sibling.correct && (!best || sibling.speedup > best->speedup))
            best = &sibling;
        std::optional<Schedule> start =
            best && best->speedup > context.parent.speedup
                ? parse(best->schedule)
                : parent;
        proposal.schedule = mutate(start ? *start : *parent, context.shapes);
        break;
      }
      case MemoryOperator::Combine: {
        std::optional<Schedule> other;
        for (const NodeView &node : context.elite)
          if (node.index != context.parent.index &&
              (other = parse(node.schedule)))
            break;
        proposal.schedule = other ? crossover(*parent, *other)
                                  : mutate(*parent, context.shapes);
        setFusion(*proposal.schedule, context.shapes,
                  proposal.schedule->fuseRows);
        // Knobs of two parents need not fit together (a split op's rows
        // with the other parent's unsplit op): then a mutation instead.
        if (*proposal.schedule == *parent ||
            !isValid(*proposal.schedule, context.shapes))
          proposal.schedule = mutate(*parent, context.shapes);
        break;
      }
      case MemoryOperator::Restart:
        proposal.schedule = makeRandomSchedule(context.shapes);
        break;
      }
    }
    proposal.strategy = proposal.schedule->toString();
    proposals.push_back(std::move(proposal));
  }
  return proposals;
}
