//===- FusedRows.cpp - runs of row ops in one kernel ----------------------===//
//
// Softmax, the norms and attention are runs of row reductions and
// elementwise ops over the same rows: a launch each, every launch reading
// its rows from global memory again. This finds such runs and gives each
// one kernel with a block per row, the row values staying in registers.
//
//===----------------------------------------------------------------------===//

#include "Reductions.h"

#include "ke/Codegen/LinalgOnBuffers.h"

#include "ke/KeDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>

using namespace mlir;
using ke::detail::applyMap;
using ke::detail::findInitializingFill;
using ke::detail::getRootBuffer;

namespace ke::gpu_reductions {

namespace {
/// Runs over a single row (no row loops) are shorter than this: one block
/// reads the row an op (ke-split-reductions-for-gpu leaves reductions
/// shorter than its min-split-length, 32768 by default, whole).
constexpr int64_t kSingleRowLengthLimit = 32768;

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

/// Whether `operand` is a collapse of a function argument: a whole buffer
/// the function never frees, its elements in their linear order (the
/// caller's [1, N] result seen as [N]).
bool isCollapsedArgument(Value operand) {
  auto collapse = operand.getDefiningOp<memref::CollapseShapeOp>();
  return collapse && isa<BlockArgument>(collapse.getSrc()) &&
         collapse.getSrcType().getLayout().isIdentity();
}

/// Operands a run can take: whole buffers (no views, which could alias
/// rows other blocks own; a single row, one block, may also use collapsed
/// function arguments) or scalars, a body without linalg.index, and a body
/// that does not read the output's old value (the accumulator of a
/// reduction aside). Inputs of an op over rows and columns are read at
/// (row, column), at (row) or at (column); of an op over the rows alone, at
/// (row).
bool hasRunOperands(linalg::LinalgOp op, unsigned rowRank, bool reduces) {
  if (!op.getBlock()->getOps<linalg::IndexOp>().empty())
    return false;
  if (llvm::any_of(op->getOperands(), [&](Value operand) {
        if (rowRank == 0 && isCollapsedArgument(operand))
          return false;
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
  // One buffer, one Value: the checks below (and the row values kept in
  // registers) go by Value, so an argument used both whole and collapsed,
  // or through two collapses, would escape them.
  DenseMap<Value, Value> valueOfBuffer;
  for (linalg::LinalgOp op : run.ops)
    for (Value operand : op->getOperands()) {
      if (!isa<MemRefType>(operand.getType()))
        continue;
      auto [known, inserted] =
          valueOfBuffer.try_emplace(getRootBuffer(operand), operand);
      if (!inserted && known->second != operand)
        return false;
    }
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
} // namespace

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
    // Nor do collapses of arguments (views without work, of buffers the
    // function does not free; the run's kernel goes after its last op,
    // where they are defined).
    if (isa<memref::AllocOp, arith::ConstantOp, linalg::FillOp,
            ke::ProbeStartOp, ke::ProbeStopOp>(&operation) ||
        (operation.getNumResults() == 1 &&
         isCollapsedArgument(operation.getResult(0))))
      continue;
    auto op = dyn_cast<linalg::LinalgOp>(&operation);
    if (!op) {
      close();
      continue;
    }
    // A run's rows are its ops' leading loops, and its reductions' one
    // innermost loop; f64 rows reduce alone.
    std::optional<RowReduction> reduction = matchRowReduction(op);
    if (reduction &&
        (!reduction->isRow() || op.getNumReductionLoops() != 1 ||
         op.getRegionOutputArgs().front().getType().getIntOrFloatBitWidth() !=
             32))
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
    // No row loops: the whole op is one row (a softmax at batch 1, its
    // reductions to 0-d), one block, so only while a block reads it fast.
    unsigned rowRank = bounds.empty() ? 0 : bounds.size() - 1;
    bool fits = !bounds.empty() &&
                (rowRank > 0 || bounds.back() < kSingleRowLengthLimit) &&
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
          reduction->fills.assign({fill});
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

/// The run's elementwise ops over rows and columns whose output is a
/// temporary only the run's later ops read, at the same (row, column): such
/// an op is not stored but recomputed where it is read, so the row is read
/// again from the run's inputs (in cache) instead of being written to and
/// read back from global memory (softmax's exp(x - max) read twice: 5
/// passes over memory instead of 2).
static DenseMap<Value, linalg::LinalgOp>
findRecomputedOutputs(const FusedRows &run) {
  DenseMap<Value, linalg::LinalgOp> recomputed;
  for (auto [constOp, reduction, perRow] :
       llvm::zip(run.ops, run.reductions, run.perRow)) {
    linalg::LinalgOp op = constOp;
    if (reduction || perRow || op.getNumDpsInits() != 1 ||
        !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
      continue;
    Value output = op.getDpsInitOperand(0)->get();
    if (!output.getDefiningOp<memref::AllocOp>())
      continue;
    bool private_ = llvm::all_of(output.getUsers(), [&](Operation *user) {
      if (isa<memref::DeallocOp>(user) || user == op.getOperation())
        return true;
      auto reader = dyn_cast<linalg::LinalgOp>(user);
      if (!reader || !llvm::is_contained(run.ops, reader) ||
          reader.getNumLoops() != op.getNumLoops())
        return false;
      return llvm::all_of(reader->getOpOperands(), [&](OpOperand &operand) {
        return operand.get() != output ||
               (reader.isDpsInput(&operand) &&
                reader.getMatchingIndexingMap(&operand).isIdentity());
      });
    });
    if (private_)
      recomputed[output] = op;
  }
  return recomputed;
}

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
  DenseMap<Value, linalg::LinalgOp> recomputed = findRecomputedOutputs(run);
  // The value of `input` of `op` at `ivs` (the row's, then the column).
  std::function<Value(OpBuilder &, linalg::LinalgOp, OpOperand *, ValueRange)>
      inputAt = [&](OpBuilder &b, linalg::LinalgOp op, OpOperand *input,
                    ValueRange ivs) -> Value {
    Value source = input->get();
    if (!isa<MemRefType>(source.getType()))
      return source;
    AffineMap map = op.getMatchingIndexingMap(input);
    if (isRowMap(map, run.rowShape.size()))
      if (Value value = reduced.lookup(source))
        return value;
    if (linalg::LinalgOp producer = recomputed.lookup(source)) {
      // Read at the same (row, column) it was computed at.
      IRMapping mapping;
      for (OpOperand *producerInput : producer.getDpsInputOperands())
        mapping.map(producer.getMatchingBlockArgument(producerInput),
                    inputAt(b, producer, producerInput, ivs));
      Block *body = producer.getBlock();
      for (Operation &nested : body->without_terminator())
        b.clone(nested, mapping);
      return mapping.lookupOrDefault(
          cast<linalg::YieldOp>(body->getTerminator()).getOperand(0));
    }
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
    if (!reduction && !perRow &&
        recomputed.count(op.getDpsInitOperand(0)->get()))
      continue; // computed where it is read
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
    Value old = reduction->fillValue();
    if (!old)
      old = memref::LoadOp::create(builder, loc, init->get(), indices);
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

} // namespace ke::gpu_reductions
