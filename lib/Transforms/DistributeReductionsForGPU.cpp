//===- DistributeReductionsForGPU.cpp - rows reduced by thread blocks -----===//
//
// Mapped as parallel loops, a reduction runs sequentially in one thread per
// output element (a 2048-long row: 2048 dependent loads in one thread).
// This gives each output element a thread block instead: each thread folds
// a strided slice of the row (neighbouring threads read neighbouring
// elements: coalesced), then gpu.all_reduce combines the threads' partials
// (convert-gpu-to-nvvm lowers it to warp shuffles and a shared-memory step
// across warps), and thread 0 folds the total into the output.
//
//===----------------------------------------------------------------------===//

#include "ke/KeDialect.h"
#include "ke/Transforms/Passes.h"

#include "LinalgOnBuffers.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/ADT/bit.h"

namespace ke {
#define GEN_PASS_DEF_KEDISTRIBUTEREDUCTIONSFORGPU
#include "ke/Transforms/Passes.h.inc"
} // namespace ke

using namespace mlir;
using ke::detail::applyMap;
using ke::detail::delinearize;
using ke::detail::findInitializingFill;

namespace {
/// The gpu.all_reduce operation that combines like `combiner`, if any.
std::optional<gpu::AllReduceOperation> allReduceKind(Operation *combiner) {
  return llvm::TypeSwitch<Operation *, std::optional<gpu::AllReduceOperation>>(
             combiner)
      .Case([](arith::AddFOp) { return gpu::AllReduceOperation::ADD; })
      .Case([](arith::AddIOp) { return gpu::AllReduceOperation::ADD; })
      .Case([](arith::MulFOp) { return gpu::AllReduceOperation::MUL; })
      .Case([](arith::MaximumFOp) { return gpu::AllReduceOperation::MAXIMUMF; })
      .Case([](arith::MinimumFOp) { return gpu::AllReduceOperation::MINIMUMF; })
      .Case([](arith::MaxNumFOp) { return gpu::AllReduceOperation::MAXNUMF; })
      .Case([](arith::MinNumFOp) { return gpu::AllReduceOperation::MINNUMF; })
      .Case([](arith::MaxSIOp) { return gpu::AllReduceOperation::MAXSI; })
      .Case([](arith::MinSIOp) { return gpu::AllReduceOperation::MINSI; })
      .Default([](Operation *) { return std::nullopt; });
}

/// A reduction the rewrite handles: static bounds, one result, exactly one
/// reduction loop (the innermost, or an outer one whose combiner has an
/// atomic), inputs read once or once per output element (not
/// contractions), a body that folds one value
/// into the output with a combiner gpu.all_reduce knows, 32-bit elements
/// (what warp shuffles move).
struct RowReduction {
  linalg::LinalgOp op;
  Operation *combiner = nullptr;
  gpu::AllReduceOperation kind;
  TypedAttr identity;
  /// The reduction loop: the innermost one (rows: a block per output
  /// element), or an outer one (columns: see distributeColumns).
  unsigned reductionLoop = 0;
  unsigned numLoops = 0;
  bool isRow() const { return reductionLoop + 1 == numLoops; }
  /// The linalg.fill that initializes the output just before the op: the
  /// rewrite starts from its value and the fill (a kernel launch of its
  /// own) goes away.
  Operation *fill = nullptr;
  Value fillValue;
};

/// The atomic that folds a partial into the output like `combiner`, for
/// the combiners GPUs have native atomics for.
std::optional<arith::AtomicRMWKind> atomicKind(Operation *combiner) {
  return llvm::TypeSwitch<Operation *, std::optional<arith::AtomicRMWKind>>(
             combiner)
      .Case([](arith::AddFOp) { return arith::AtomicRMWKind::addf; })
      .Case([](arith::AddIOp) { return arith::AtomicRMWKind::addi; })
      .Case([](arith::MaxSIOp) { return arith::AtomicRMWKind::maxs; })
      .Case([](arith::MinSIOp) { return arith::AtomicRMWKind::mins; })
      .Default([](Operation *) { return std::nullopt; });
}

/// A reduction whose body folds one value into the output: `yield
/// combiner(f(inputs), accumulator)` with the accumulator used once, one
/// result, static bounds, a parallel loop, an output independent of the
/// reduction loops. Every form of the rewrite starts from this; with
/// nothing more, it is the register accumulation.
std::optional<RowReduction> matchAccumulation(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0 || op.getNumParallelLoops() == 0 ||
      llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic))
    return std::nullopt;
  Block *body = op.getBlock();
  BlockArgument accumulator = op.getRegionOutputArgs().front();
  Operation *combiner = cast<linalg::YieldOp>(body->getTerminator())
                            .getOperand(0)
                            .getDefiningOp();
  if (!accumulator.hasOneUse() || !combiner || combiner->getBlock() != body ||
      combiner->getNumOperands() != 2 ||
      !llvm::is_contained(combiner->getOperands(), accumulator) ||
      combiner->getOperand(0) == combiner->getOperand(1))
    return std::nullopt;
  AffineMap outputMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  RowReduction reduction;
  for (auto [loop, iterator] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (iterator != utils::IteratorType::reduction)
      continue;
    if (outputMap.isFunctionOfDim(loop))
      return std::nullopt;
    reduction.reductionLoop = loop;
  }
  reduction.op = op;
  reduction.combiner = combiner;
  reduction.numLoops = op.getNumLoops();
  return reduction;
}

std::optional<RowReduction> matchRowReduction(linalg::LinalgOp op) {
  std::optional<RowReduction> reduction = matchAccumulation(op);
  if (!reduction || op.getNumReductionLoops() != 1)
    return std::nullopt;
  unsigned rowLoop = reduction->reductionLoop;
  Type type = op.getRegionOutputArgs().front().getType();
  if (!(type.isF32() || type.isInteger(32)))
    return std::nullopt;
  Operation *combiner = reduction->combiner;
  std::optional<gpu::AllReduceOperation> kind = allReduceKind(combiner);
  std::optional<TypedAttr> identity = arith::getNeutralElement(combiner);
  if (!kind || !identity)
    return std::nullopt;
  // Outer reductions fold partials with atomics.
  if (!reduction->isRow() && !atomicKind(combiner))
    return std::nullopt;
  // Each element read once (a row), or one value per row: contractions,
  // whose operands are shared between outputs, want tiles, not rows.
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    bool perRow = !map.isFunctionOfDim(rowLoop);
    bool everyLoop = true;
    for (unsigned loop = 0; loop < op.getNumLoops(); ++loop)
      everyLoop &= map.isFunctionOfDim(loop);
    if (!perRow && !everyLoop)
      return std::nullopt;
  }
  reduction->kind = *kind;
  reduction->identity = *identity;
  return reduction;
}

/// Threads per row: a quarter of the row, 32 to `limit`, a power of two.
int64_t chooseThreads(int64_t rowLength, int64_t limit) {
  int64_t threads = static_cast<int64_t>(llvm::bit_floor(
      static_cast<uint64_t>(std::max<int64_t>(rowLength / 4, 1))));
  return std::clamp<int64_t>(threads, 32, limit);
}

/// Clones the body of `reduction.op` at `ivs` (loads of its inputs, the
/// ops before the combiner) and returns the value it folds in.
Value emitElement(OpBuilder &builder, Location loc,
                  const RowReduction &reduction, ValueRange ivs) {
  linalg::LinalgOp op = reduction.op;
  IRMapping mapping;
  for (OpOperand *input : op.getDpsInputOperands()) {
    BlockArgument argument = op.getMatchingBlockArgument(input);
    Value source = input->get();
    if (!isa<MemRefType>(source.getType())) {
      mapping.map(argument, source); // a scalar operand
      continue;
    }
    mapping.map(argument, memref::LoadOp::create(
                              builder, loc, source,
                              applyMap(builder, loc,
                                       op.getMatchingIndexingMap(input), ivs)));
  }
  for (Operation &nested : op.getBlock()->without_terminator()) {
    if (&nested == reduction.combiner)
      break;
    if (auto index = dyn_cast<linalg::IndexOp>(nested)) {
      mapping.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    builder.clone(nested, mapping);
  }
  BlockArgument accumulator = op.getRegionOutputArgs().front();
  Value folded = reduction.combiner->getOperand(0) == accumulator
                     ? reduction.combiner->getOperand(1)
                     : reduction.combiner->getOperand(0);
  return mapping.lookupOrDefault(folded);
}

/// `combiner` of `reduction` applied to (lhs, rhs).
Value combine(OpBuilder &builder, const RowReduction &reduction, Value lhs,
              Value rhs) {
  IRMapping mapping;
  mapping.map(reduction.combiner->getOperand(0), lhs);
  mapping.map(reduction.combiner->getOperand(1), rhs);
  return builder.clone(*reduction.combiner, mapping)->getResult(0);
}

/// `element` folded into `partial` with the operands in the body's order
/// (the accumulator where the combiner had it).
Value fold(OpBuilder &builder, const RowReduction &reduction, Value partial,
           Value element) {
  linalg::LinalgOp op = reduction.op;
  bool accumulatorFirst =
      reduction.combiner->getOperand(0) == op.getRegionOutputArgs().front();
  return accumulatorFirst ? combine(builder, reduction, partial, element)
                          : combine(builder, reduction, element, partial);
}

/// A launch with one block per row of `rowShape` and `threads` threads on
/// x, the builder inside it.
struct RowLaunch {
  Value thread;
  SmallVector<Value> rowIvs;
};
RowLaunch launchPerRow(OpBuilder &builder, Location loc,
                       ArrayRef<int64_t> rowShape, int64_t threads) {
  int64_t rows = 1;
  for (int64_t bound : rowShape)
    rows *= bound;
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  Value one = constant(1);
  auto launch = gpu::LaunchOp::create(builder, loc, constant(rows), one, one,
                                      constant(threads), one, one);
  builder.setInsertionPointToStart(&launch.getBody().front());
  return {launch.getThreadIds().x,
          delinearize(builder, loc, launch.getBlockIds().x, rowShape)};
}

void distribute(const RowReduction &reduction, int64_t threadLimit) {
  linalg::LinalgOp op = reduction.op;
  Location loc = op.getLoc();
  OpBuilder builder(op);
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  int64_t rowLength = bounds.back();
  SmallVector<int64_t> rowShape(bounds.begin(), bounds.end() - 1);
  int64_t threads = chooseThreads(rowLength, threadLimit);
  // One block per output element: its indices from the block id.
  auto [thread, ivs] = launchPerRow(builder, loc, rowShape, threads);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  Value identity = arith::ConstantOp::create(builder, loc, reduction.identity);
  auto loop = scf::ForOp::create(builder, loc, thread, constant(rowLength),
                                 constant(threads), ValueRange{identity});
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> elementIvs(ivs);
    elementIvs.push_back(loop.getInductionVar());
    Value element = emitElement(builder, loc, reduction, elementIvs);
    Value partial = loop.getRegionIterArgs().front();
    scf::YieldOp::create(builder, loc,
                         fold(builder, reduction, partial, element));
  }
  // Every thread reaches the all-reduce (the strided loop has no guard).
  Value total = gpu::AllReduceOp::create(
      builder, loc, loop.getResult(0),
      gpu::AllReduceOperationAttr::get(builder.getContext(), reduction.kind),
      /*uniform=*/true);
  Value first = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                      thread, constant(0));
  auto ifFirst = scf::IfOp::create(builder, loc, first);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(ifFirst.thenBlock());
    OpOperand *init = op.getDpsInitOperand(0);
    SmallVector<Value> outputIvs(ivs);
    outputIvs.push_back(constant(0)); // the output ignores the row loop
    SmallVector<Value> indices =
        applyMap(builder, loc, op.getMatchingIndexingMap(init), outputIvs);
    Value old = reduction.fill
                    ? reduction.fillValue
                    : memref::LoadOp::create(builder, loc, init->get(), indices)
                          .getResult();
    Value folded = combine(builder, reduction, old, total);
    memref::StoreOp::create(builder, loc, folded, init->get(), indices);
  }
  gpu::TerminatorOp::create(builder, loc);
  op->erase();
}

/// A reduction along an outer loop (a column sum): the parallel loops,
/// flattened, on threadIdx.x (32 neighbouring columns: coalesced) and the
/// reduction loop cut into chunks of 16 iterations on threadIdx.y (8) and
/// the grid's y; each thread folds its chunk and adds it to the output
/// with an atomic. Mapped as parallel loops instead, the reduction loop
/// stays on the host around one kernel launch per iteration.
void distributeColumns(const RowReduction &reduction) {
  constexpr int64_t kColumnsPerBlock = 32, kChunksPerBlock = 8, kChunk = 16;
  linalg::LinalgOp op = reduction.op;
  Location loc = op.getLoc();
  OpBuilder builder(op);
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  int64_t length = bounds[reduction.reductionLoop];
  SmallVector<int64_t> columnShape;
  for (auto [loop, bound] : llvm::enumerate(bounds))
    if (loop != reduction.reductionLoop)
      columnShape.push_back(bound);
  int64_t columns = 1;
  for (int64_t bound : columnShape)
    columns *= bound;
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  Value one = constant(1);
  int64_t rowsPerBlock = kChunksPerBlock * kChunk;
  auto launch = gpu::LaunchOp::create(
      builder, loc, constant(llvm::divideCeil(columns, kColumnsPerBlock)),
      constant(llvm::divideCeil(length, rowsPerBlock)), one,
      constant(kColumnsPerBlock), constant(kChunksPerBlock), one);
  builder.setInsertionPointToStart(&launch.getBody().front());
  gpu::KernelDim3 block = launch.getBlockIds(), thread = launch.getThreadIds();
  Value column = arith::AddIOp::create(
      builder, loc,
      arith::MulIOp::create(builder, loc, block.x, constant(kColumnsPerBlock)),
      thread.x);
  Value inside = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                       column, constant(columns));
  auto ifInside = scf::IfOp::create(builder, loc, inside);
  builder.setInsertionPointToStart(ifInside.thenBlock());
  SmallVector<Value> columnIvs = delinearize(builder, loc, column, columnShape);
  Value chunk = arith::AddIOp::create(
      builder, loc,
      arith::MulIOp::create(builder, loc, block.y, constant(kChunksPerBlock)),
      thread.y);
  Value begin = arith::MulIOp::create(builder, loc, chunk, constant(kChunk));
  Value end = arith::MinUIOp::create(
      builder, loc,
      arith::AddIOp::create(builder, loc, begin, constant(kChunk)),
      constant(length));
  Value identity = arith::ConstantOp::create(builder, loc, reduction.identity);
  auto loop =
      scf::ForOp::create(builder, loc, begin, end, one, ValueRange{identity});
  auto ivsAt = [&](Value position) {
    SmallVector<Value> ivs(columnIvs);
    ivs.insert(ivs.begin() + reduction.reductionLoop, position);
    return ivs;
  };
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(loop.getBody());
    Value element =
        emitElement(builder, loc, reduction, ivsAt(loop.getInductionVar()));
    Value partial = loop.getRegionIterArgs().front();
    scf::YieldOp::create(builder, loc,
                         fold(builder, reduction, partial, element));
  }
  OpOperand *init = op.getDpsInitOperand(0);
  SmallVector<Value> indices = applyMap(
      builder, loc, op.getMatchingIndexingMap(init), ivsAt(constant(0)));
  memref::AtomicRMWOp::create(
      builder, loc,
      arith::AtomicRMWKindAttr::get(builder.getContext(),
                                    *atomicKind(reduction.combiner)),
      loop.getResult(0), init->get(), indices);
  builder.setInsertionPointAfter(ifInside);
  gpu::TerminatorOp::create(builder, loc);
  op->erase();
}

/// One thread per output tile (an scf.parallel the block tiling maps)
/// folding the reduction loops into registers and storing once. What
/// convert-linalg-to-parallel-loops makes instead loads and stores the
/// output in every iteration (the buffers may alias, so LLVM keeps them).
/// `threadTile`, right-aligned on the parallel loops (sizes that do not
/// divide a loop become 1), gives each thread a tile of outputs: the
/// loads of one reduction iteration are the same for a row or a column of
/// the tile, and LLVM merges them (no store in between), so a 4x4 tile of
/// a matmul loads 8 values for 16 FMAs instead of 32.
void accumulateInRegisters(const RowReduction &reduction,
                           ArrayRef<int64_t> threadTile) {
  linalg::LinalgOp op = reduction.op;
  Location loc = op.getLoc();
  OpBuilder builder(op);
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  SmallVector<int64_t> parallelBounds;
  SmallVector<Value> reductionUpper;
  for (auto [bound, iterator] : llvm::zip(bounds, iterators)) {
    if (iterator == utils::IteratorType::reduction)
      reductionUpper.push_back(constant(bound));
    else
      parallelBounds.push_back(bound);
  }
  SmallVector<int64_t> steps(parallelBounds.size(), 1);
  for (size_t i = 0; i < std::min(threadTile.size(), steps.size()); ++i) {
    size_t loop = steps.size() - 1 - i;
    int64_t size = threadTile[threadTile.size() - 1 - i];
    if (size > 0 && parallelBounds[loop] % size == 0)
      steps[loop] = size;
  }
  // The tile's offsets, row-major, and the loop-ordered ivs of each.
  SmallVector<SmallVector<int64_t>> offsets = {{}};
  for (int64_t step : steps) {
    SmallVector<SmallVector<int64_t>> next;
    for (const SmallVector<int64_t> &prefix : offsets)
      for (int64_t offset = 0; offset < step; ++offset) {
        next.push_back(prefix);
        next.back().push_back(offset);
      }
    offsets = std::move(next);
  }
  Value zero = constant(0), one = constant(1);
  SmallVector<Value> parallelZeros(parallelBounds.size(), zero), parallelUpper,
      parallelSteps, reductionZeros(reductionUpper.size(), zero),
      reductionOnes(reductionUpper.size(), one);
  // Unit steps over tiles (corner = index x tile): upstream's tiling of
  // parallel loops guards non-unit steps wrongly (it scales the inner
  // index by the step twice; a conv2d lost outputs that way).
  for (int64_t bound : parallelBounds)
    parallelUpper.push_back(constant(bound));
  for (auto [upper, bound, step] :
       llvm::zip(parallelUpper, parallelBounds, steps)) {
    upper = constant(bound / step);
    parallelSteps.push_back(one);
  }
  auto merge = [&](ValueRange parallel, ValueRange reductions) {
    SmallVector<Value> ivs;
    unsigned p = 0, r = 0;
    for (utils::IteratorType iterator : iterators)
      ivs.push_back(iterator == utils::IteratorType::reduction ? reductions[r++]
                                                               : parallel[p++]);
    return ivs;
  };
  OpOperand *init = op.getDpsInitOperand(0);
  AffineMap outputMap = op.getMatchingIndexingMap(init);
  scf::ParallelOp::create(
      builder, loc, parallelZeros, parallelUpper, parallelSteps,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange tileIndex) {
        SmallVector<Value> corner;
        for (auto [index, step] : llvm::zip(tileIndex, steps))
          corner.push_back(
              step == 1 ? index
                        : arith::MulIOp::create(nested, nestedLoc, index,
                                                arith::ConstantIndexOp::create(
                                                    nested, nestedLoc, step)));
        // Parallel ivs of every output of the thread's tile.
        SmallVector<SmallVector<Value>> points;
        for (const SmallVector<int64_t> &offset : offsets) {
          SmallVector<Value> point;
          for (auto [iv, delta] : llvm::zip(corner, offset))
            point.push_back(delta == 0 ? iv
                                       : arith::AddIOp::create(
                                             nested, nestedLoc, iv,
                                             arith::ConstantIndexOp::create(
                                                 nested, nestedLoc, delta)));
          points.push_back(point);
        }
        SmallVector<SmallVector<Value>> outputIndices;
        SmallVector<Value> initial;
        for (const SmallVector<Value> &point : points) {
          outputIndices.push_back(applyMap(nested, nestedLoc, outputMap,
                                           merge(point, reductionZeros)));
          initial.push_back(reduction.fill ? reduction.fillValue
                                           : memref::LoadOp::create(
                                                 nested, nestedLoc, init->get(),
                                                 outputIndices.back())
                                                 .getResult());
        }
        scf::LoopNest nest = scf::buildLoopNest(
            nested, nestedLoc, reductionZeros, reductionUpper, reductionOnes,
            initial,
            [&](OpBuilder &inner, Location innerLoc, ValueRange reductions,
                ValueRange accumulators) -> scf::ValueVector {
              scf::ValueVector next;
              for (auto [point, partial] : llvm::zip(points, accumulators)) {
                Value element = emitElement(inner, innerLoc, reduction,
                                            merge(point, reductions));
                next.push_back(fold(inner, reduction, partial, element));
              }
              return next;
            });
        for (auto [result, indices] : llvm::zip(nest.results, outputIndices))
          memref::StoreOp::create(nested, nestedLoc, result, init->get(),
                                  indices);
      });
  op->erase();
}

/// A run of ops over the same rows that one thread block per row can do in
/// one kernel: row reductions along the innermost loop and elementwise ops
/// over (row, column) that read whole inputs or one value per row (softmax:
/// max, exp(x - max), sum, divide). Every op strides over the columns the
/// same way, so a thread reads only elements it wrote itself, and the
/// reductions' all-reduces are the only synchronization. Row values
/// reduced in the run stay in registers for the ops after.
struct FusedRows {
  SmallVector<linalg::LinalgOp> ops;
  /// Per op: its reduction (rows), or nullopt (elementwise).
  SmallVector<std::optional<RowReduction>, 4> reductions;
  /// Per op: elementwise over the rows alone (layernorm's mean = sum / n),
  /// computed by every thread from registers.
  SmallVector<bool> perRow;
  SmallVector<int64_t> rowShape;
  int64_t rowLength = 0;
  /// Fills that initialize the reductions' outputs (folded, then erased).
  SmallVector<Operation *> fills;
};

/// Whether `map` reads the row: exactly the loops 0 .. rows - 1, in order.
bool isRowMap(AffineMap map, unsigned rows) {
  if (map.getNumResults() != rows)
    return false;
  for (unsigned dim = 0; dim < rows; ++dim) {
    auto expr = dyn_cast<AffineDimExpr>(map.getResult(dim));
    if (!expr || expr.getPosition() != dim)
      return false;
  }
  return true;
}

/// Whether `map` reads one value per column (loop `column` alone).
bool isColumnMap(AffineMap map, unsigned column) {
  auto expr = map.getNumResults() == 1
                  ? dyn_cast<AffineDimExpr>(map.getResult(0))
                  : AffineDimExpr(nullptr);
  return expr && expr.getPosition() == column;
}

/// Operands a run can take: whole buffers (no views, which could alias
/// rows other blocks own) or scalars, a body without linalg.index, and a
/// body that does not read the output's old value (the accumulator of a
/// reduction aside). Inputs of an op over rows and columns are read at
/// (row, column), at (row) or at (column); of an op over the rows alone, at
/// (row).
bool hasRunOperands(linalg::LinalgOp op, unsigned rowRank, bool reduces) {
  if (!op.getBlock()->getOps<linalg::IndexOp>().empty())
    return false;
  if (llvm::any_of(op->getOperands(), [](Value operand) {
        return isa_and_nonnull<ViewLikeOpInterface>(operand.getDefiningOp());
      }))
    return false;
  OpOperand *init = op.getDpsInitOperand(0);
  if (!reduces && op.payloadUsesValueFromOperand(init))
    return false;
  unsigned rank = op.getNumLoops();
  AffineMap output = op.getMatchingIndexingMap(init);
  if (reduces ? !isRowMap(output, rowRank) : !output.isIdentity())
    return false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (!isa<MemRefType>(input->get().getType()))
      continue; // a scalar
    AffineMap map = op.getMatchingIndexingMap(input);
    bool columns = rank == rowRank + 1;
    if (!map.isIdentity() && !(columns && isRowMap(map, rowRank)) &&
        !(columns && isColumnMap(map, rowRank)))
      return false;
  }
  return true;
}

/// An elementwise op over `bounds` (the rows then the columns, or the rows
/// alone) with one output.
bool isElementwise(linalg::LinalgOp op, ArrayRef<int64_t> bounds) {
  return op.hasPureBufferSemantics() && op.getNumDpsInits() == 1 &&
         op.getNumReductionLoops() == 0 && op.getStaticLoopRanges() == bounds;
}

/// Whether the ops of `run` can share one kernel. A row buffer (the output
/// of a reduction or of an op over the rows alone) is written once, by
/// thread 0, and no op of the run touches it before; the ops after read it
/// at (row), from registers. Buffers of (row, column) elements are read and
/// written at (row, column) only, by the thread that owns the column.
bool isRaceFree(const FusedRows &run) {
  unsigned rowRank = run.rowShape.size();
  DenseMap<Value, unsigned> rowWriter;
  for (auto [index, constOp] : llvm::enumerate(run.ops)) {
    linalg::LinalgOp op = constOp;
    bool writesRow = run.reductions[index] || run.perRow[index];
    Value output = op.getDpsInitOperand(0)->get();
    if (writesRow && !rowWriter.try_emplace(output, index).second)
      return false; // two writers
  }
  for (auto [index, constOp] : llvm::enumerate(run.ops)) {
    linalg::LinalgOp op = constOp;
    unsigned rank = op.getNumLoops();
    for (OpOperand &operand : op->getOpOperands()) {
      auto writer = rowWriter.find(operand.get());
      if (writer == rowWriter.end())
        continue;
      if (writer->second == index)
        continue; // its own output
      bool readAfter = writer->second < index && op.isDpsInput(&operand);
      AffineMap map = op.getMatchingIndexingMap(&operand);
      bool atRow = rank == rowRank ? map.isIdentity() : isRowMap(map, rowRank);
      if (!readAfter || !atRow)
        return false;
    }
  }
  return true;
}

/// Runs of fusable ops in the function's body, in order, each with a row
/// reduction (attention: scale, max, exp, sum, divide). Allocations,
/// constants, fills and deallocations of buffers the run does not use are
/// skipped (the kernel runs where the run's last op was); a fill inside a
/// run must initialize one of its reductions, or the run is dropped.
SmallVector<FusedRows, 1> findFusedRows(func::FuncOp function) {
  SmallVector<FusedRows, 1> runs;
  FusedRows current;
  auto close = [&] {
    bool reduces = llvm::any_of(current.reductions,
                                [](const auto &r) { return r.has_value(); });
    if (current.ops.size() >= 2 && reduces)
      runs.push_back(current);
    current = FusedRows();
  };
  auto usedByRun = [&](Value buffer) {
    return llvm::any_of(current.ops, [&](linalg::LinalgOp op) {
      return llvm::is_contained(op->getOperands(), buffer);
    });
  };
  for (Operation &operation : function.getBody().front()) {
    if (auto dealloc = dyn_cast<memref::DeallocOp>(&operation)) {
      if (usedByRun(dealloc.getMemref()))
        close();
      continue;
    }
    // Profiling probes do not split a run: the profiled code keeps the
    // fusion it measures (the launch counts for its last op's region).
    if (isa<memref::AllocOp, arith::ConstantOp, linalg::FillOp,
            ke::ProbeStartOp, ke::ProbeStopOp>(&operation))
      continue;
    auto op = dyn_cast<linalg::LinalgOp>(&operation);
    if (!op) {
      close();
      continue;
    }
    std::optional<RowReduction> reduction = matchRowReduction(op);
    if (reduction && !reduction->isRow())
      reduction.reset();
    SmallVector<int64_t> bounds = op.getStaticLoopRanges();
    // Over the rows alone: inside a run, on the run's rows.
    bool perRow = !reduction && !current.ops.empty() &&
                  bounds == ArrayRef<int64_t>(current.rowShape) &&
                  isElementwise(op, bounds) &&
                  hasRunOperands(op, current.rowShape.size(), false);
    if (perRow) {
      current.ops.push_back(op);
      current.reductions.push_back(std::nullopt);
      current.perRow.push_back(true);
      continue;
    }
    unsigned rowRank = bounds.size() - 1;
    bool fits = bounds.size() >= 2 &&
                (reduction || isElementwise(op, bounds)) &&
                hasRunOperands(op, rowRank, reduction.has_value());
    if (!fits) {
      close();
      continue;
    }
    SmallVector<int64_t> rowShape(bounds.begin(), bounds.end() - 1);
    if (!current.ops.empty() &&
        (rowShape != current.rowShape || bounds.back() != current.rowLength))
      close();
    current.rowShape = rowShape;
    current.rowLength = bounds.back();
    current.ops.push_back(op);
    current.reductions.push_back(reduction);
    current.perRow.push_back(false);
  }
  close();
  SmallVector<FusedRows, 1> fusable;
  for (FusedRows &run : runs) {
    for (auto [op, reduction] : llvm::zip(run.ops, run.reductions))
      if (reduction)
        if (linalg::FillOp fill = findInitializingFill(op)) {
          reduction->fill = fill;
          reduction->fillValue = fill.getInputs().front();
          run.fills.push_back(fill);
        }
    bool strayFill = false;
    for (Operation *between = run.ops.front()->getNextNode();
         between != run.ops.back(); between = between->getNextNode())
      strayFill |= isa<linalg::FillOp>(between) &&
                   !llvm::is_contained(run.fills, between);
    if (!strayFill && isRaceFree(run))
      fusable.push_back(run);
  }
  return fusable;
}

/// One kernel for `run`: a block per row, the ops in order.
void distributeFusedRows(const FusedRows &run, int64_t threadLimit) {
  linalg::LinalgOp first = run.ops.front();
  Location loc = first.getLoc();
  OpBuilder builder(run.ops.back());
  builder.setInsertionPointAfter(run.ops.back());
  int64_t threads = chooseThreads(run.rowLength, threadLimit);
  auto [thread, rowIvs] = launchPerRow(builder, loc, run.rowShape, threads);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  // Row values the run has reduced so far, by buffer.
  DenseMap<Value, Value> reduced;
  // The value of `input` of `op` at `ivs` (the row's, then the column).
  auto inputAt = [&](OpBuilder &b, linalg::LinalgOp op, OpOperand *input,
                     ValueRange ivs) -> Value {
    Value source = input->get();
    if (!isa<MemRefType>(source.getType()))
      return source;
    AffineMap map = op.getMatchingIndexingMap(input);
    if (isRowMap(map, run.rowShape.size()))
      if (Value value = reduced.lookup(source))
        return value;
    return memref::LoadOp::create(b, loc, source, applyMap(b, loc, map, ivs));
  };
  // Thread 0 stores a row value for later kernels.
  auto storeRowValue = [&](Value value, Value buffer, ValueRange indices) {
    reduced[buffer] = value;
    Value firstThread = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq, thread, constant(0));
    auto ifFirst = scf::IfOp::create(builder, loc, firstThread);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(ifFirst.thenBlock());
    memref::StoreOp::create(builder, loc, value, buffer, indices);
  };
  for (auto [constOp, reduction, perRow] :
       llvm::zip(run.ops, run.reductions, run.perRow)) {
    linalg::LinalgOp op = constOp;
    Block *body = op.getBlock();
    if (perRow) {
      // Every thread computes the row's value from registers or loads.
      IRMapping mapping;
      for (OpOperand *input : op.getDpsInputOperands()) {
        Value source = input->get();
        Value value = !isa<MemRefType>(source.getType()) ? source
                      : reduced.lookup(source)
                          ? reduced.lookup(source)
                          : memref::LoadOp::create(builder, loc, source, rowIvs)
                                .getResult();
        mapping.map(op.getMatchingBlockArgument(input), value);
      }
      for (Operation &nested : body->without_terminator())
        builder.clone(nested, mapping);
      Value result = mapping.lookupOrDefault(
          cast<linalg::YieldOp>(body->getTerminator()).getOperand(0));
      storeRowValue(result, op.getDpsInitOperand(0)->get(), rowIvs);
      continue;
    }
    Operation *stop = reduction ? reduction->combiner : body->getTerminator();
    Value identity =
        reduction ? arith::ConstantOp::create(builder, loc, reduction->identity)
                        .getResult()
                  : Value();
    auto loop = scf::ForOp::create(
        builder, loc, thread, constant(run.rowLength), constant(threads),
        reduction ? ValueRange{identity} : ValueRange{});
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(loop.getBody());
      SmallVector<Value> ivs(rowIvs);
      ivs.push_back(loop.getInductionVar());
      IRMapping mapping;
      for (OpOperand *input : op.getDpsInputOperands())
        mapping.map(op.getMatchingBlockArgument(input),
                    inputAt(builder, op, input, ivs));
      for (Operation &nested : body->without_terminator()) {
        if (&nested == stop)
          break;
        builder.clone(nested, mapping);
      }
      if (reduction) {
        BlockArgument accumulator = op.getRegionOutputArgs().front();
        Value folded = reduction->combiner->getOperand(0) == accumulator
                           ? reduction->combiner->getOperand(1)
                           : reduction->combiner->getOperand(0);
        scf::YieldOp::create(builder, loc,
                             fold(builder, *reduction,
                                  loop.getRegionIterArgs().front(),
                                  mapping.lookupOrDefault(folded)));
      } else {
        Value result = mapping.lookupOrDefault(
            cast<linalg::YieldOp>(body->getTerminator()).getOperand(0));
        memref::StoreOp::create(builder, loc, result,
                                op.getDpsInitOperand(0)->get(), ivs);
      }
    }
    if (!reduction)
      continue;
    // The output's old value, read before the all-reduce's barrier (thread
    // 0 stores the new one after it).
    OpOperand *init = op.getDpsInitOperand(0);
    SmallVector<Value> outputIvs(rowIvs);
    outputIvs.push_back(constant(0));
    SmallVector<Value> indices =
        applyMap(builder, loc, op.getMatchingIndexingMap(init), outputIvs);
    Value old = reduction->fill
                    ? reduction->fillValue
                    : memref::LoadOp::create(builder, loc, init->get(), indices)
                          .getResult();
    Value total = gpu::AllReduceOp::create(
        builder, loc, loop.getResult(0),
        gpu::AllReduceOperationAttr::get(builder.getContext(), reduction->kind),
        /*uniform=*/true);
    storeRowValue(combine(builder, *reduction, old, total), init->get(),
                  indices);
  }
  gpu::TerminatorOp::create(builder, loc);
  for (linalg::LinalgOp op : run.ops)
    op->erase();
  for (Operation *fill : run.fills)
    fill->erase();
}

struct DistributeReductionsForGPUPass
    : ke::impl::KeDistributeReductionsForGPUBase<
          DistributeReductionsForGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    // The function's knobs (set by the search) win over the options.
    func::FuncOp function = getOperation();
    int64_t rowThreads = maxThreads;
    SmallVector<int64_t> outputsPerThread(threadTile.begin(), threadTile.end());
    if (auto knob = function->getAttrOfType<IntegerAttr>(
            ke::KeDialect::kGPUReductionThreadsAttrName))
      rowThreads = knob.getInt();
    if (auto knob = function->getAttrOfType<DenseI64ArrayAttr>(
            ke::KeDialect::kGPUThreadTileAttrName))
      outputsPerThread.assign(knob.asArrayRef().begin(),
                              knob.asArrayRef().end());
    // Runs of row reductions and elementwise ops over the same rows: one
    // kernel each.
    if (rowThreads > 0 && fuseRows)
      for (const FusedRows &run : findFusedRows(function))
        distributeFusedRows(run, rowThreads);
    SmallVector<RowReduction> distributed, accumulated;
    getOperation().walk([&](linalg::LinalgOp op) {
      std::optional<RowReduction> reduction;
      if (rowThreads > 0 && (reduction = matchRowReduction(op)))
        distributed.push_back(*reduction);
      else if ((reduction = matchAccumulation(op)))
        accumulated.push_back(*reduction);
    });
    // Column sums add atomically into the filled output: they keep it.
    auto useFill = [](RowReduction &reduction) {
      if (linalg::FillOp fill = findInitializingFill(reduction.op)) {
        reduction.fill = fill;
        reduction.fillValue = fill.getInputs().front();
      }
    };
    for (RowReduction &reduction : distributed)
      if (reduction.isRow())
        useFill(reduction);
    for (RowReduction &reduction : accumulated)
      useFill(reduction);
    for (const RowReduction &reduction : distributed) {
      if (reduction.isRow())
        distribute(reduction, rowThreads);
      else
        distributeColumns(reduction);
    }
    for (const RowReduction &reduction : accumulated)
      accumulateInRegisters(reduction, outputsPerThread);
    for (const RowReduction &reduction :
         llvm::concat<const RowReduction>(distributed, accumulated))
      if (reduction.fill)
        reduction.fill->erase();
  }
};
} // namespace
