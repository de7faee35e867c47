//===- Matchers.cpp - what the reduction rewrites share -------------------===//
//
// Every strategy of ke-distribute-reductions-for-gpu starts from one match
// (a body that folds one value into the output) and emits that body the
// same way (the element at some ivs, folded in with the combiner), so the
// strategies differ only in how they spread the loops over the GPU.
//
//===----------------------------------------------------------------------===//

#include "Reductions.h"

#include "ke/Codegen/LinalgOnBuffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/ADT/bit.h"

#include <algorithm>

using namespace mlir;
using ke::detail::applyMap;
using ke::detail::delinearize;

namespace ke::gpu_reductions {

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

std::optional<arith::AtomicRMWKind> atomicKind(Operation *combiner) {
  return llvm::TypeSwitch<Operation *, std::optional<arith::AtomicRMWKind>>(
             combiner)
      .Case([](arith::AddFOp) { return arith::AtomicRMWKind::addf; })
      .Case([](arith::AddIOp) { return arith::AtomicRMWKind::addi; })
      .Case([](arith::MaxSIOp) { return arith::AtomicRMWKind::maxs; })
      .Case([](arith::MinSIOp) { return arith::AtomicRMWKind::mins; })
      .Default([](Operation *) { return std::nullopt; });
}

std::optional<RowReduction> matchAccumulation(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() == 0 ||
      op.getNumReductionLoops() == 0 ||
      llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic))
    return std::nullopt;
  RowReduction reduction;
  for (auto [loop, iterator] : llvm::enumerate(op.getIteratorTypesArray())) {
    if (iterator != utils::IteratorType::reduction)
      continue;
    for (OpOperand &init : op.getDpsInitsMutable())
      if (op.getMatchingIndexingMap(&init).isFunctionOfDim(loop))
        return std::nullopt;
    reduction.reductionLoop = loop;
  }
  reduction.op = op;
  reduction.numLoops = op.getNumLoops();
  // One value folded into one output by a combiner, or else any body
  // (combiner null: an argmax's two results, a max written as compare and
  // select), which only the register accumulation takes.
  if (op.getNumDpsInits() != 1)
    return reduction;
  Block *body = op.getBlock();
  BlockArgument accumulator = op.getRegionOutputArgs().front();
  Operation *combiner = cast<linalg::YieldOp>(body->getTerminator())
                            .getOperand(0)
                            .getDefiningOp();
  if (!accumulator.hasOneUse() || !combiner || combiner->getBlock() != body ||
      combiner->getNumOperands() != 2 ||
      !llvm::is_contained(combiner->getOperands(), accumulator) ||
      combiner->getOperand(0) == combiner->getOperand(1))
    return reduction;
  reduction.combiner = combiner;
  return reduction;
}

/// Whether `input` is a buffer small enough to stay in cache, read along
/// outer loops only (not the row's innermost reduction loop, as a
/// contraction reads its operands): a group norm's per-(batch, group)
/// statistics, fused with the normalization into a mean whose rows are split
/// into chunks, are read by several rows along both kinds of loop. Refused,
/// that mean took one thread per output (KernelBench's Conv3d + GroupNorm +
/// Mean: 2.4x slower).
static bool isCachedOuterOperand(linalg::LinalgOp op, OpOperand *input,
                                 unsigned innermostReductionLoop) {
  constexpr int64_t kCachedElements = 4096;
  auto type = dyn_cast<MemRefType>(input->get().getType());
  return type && type.hasStaticShape() &&
         type.getNumElements() <= kCachedElements &&
         !op.getMatchingIndexingMap(input).isFunctionOfDim(
             innermostReductionLoop);
}

std::optional<RowReduction> matchRowReduction(linalg::LinalgOp op) {
  std::optional<RowReduction> reduction = matchAccumulation(op);
  if (reduction && !reduction->combiner)
    return std::nullopt;
  // Several reduction loops make one row when the innermost loop is among
  // them (a batch norm's statistics over N, H and W): a block strides over
  // their linearized space. A column takes exactly one.
  if (!reduction ||
      (op.getNumReductionLoops() != 1 && !reduction->isRow()))
    return std::nullopt;
  // gpu.all_reduce's lowering moves 32-bit values through warp shuffles
  // and splits 64-bit ones into two of them (front ends compute variances
  // in f64, and count a loss's non-ignored targets in i64: on one thread,
  // that count of 1024 flags took 45 of a cross entropy's 76 us).
  Type type = op.getRegionOutputArgs().front().getType();
  if (!(type.isF32() || type.isF64() || type.isInteger(32) ||
        type.isInteger(64)))
    return std::nullopt;
  Operation *combiner = reduction->combiner;
  std::optional<gpu::AllReduceOperation> kind = allReduceKind(combiner);
  std::optional<TypedAttr> identity = arith::getNeutralElement(combiner);
  if (!kind || !identity)
    return std::nullopt;
  // Outer reductions fold partials with atomics.
  if (!reduction->isRow() && !atomicKind(combiner))
    return std::nullopt;
  // No operand shared between some rows but not others: contractions
  // (A[m][k] is read by every n) want tiles, not rows. An operand read
  // along every parallel loop belongs to one row (the row's elements, or
  // a group norm's per-(batch, group) mean over a row of (group, channel,
  // h, w)); one read along no reduction loop is one value per row; one
  // read along no parallel loop is the same for every row (a group norm's
  // per-channel scale, fused into the mean after it) and comes from cache,
  // as does a small operand read along outer loops only.
  SmallVector<unsigned> reductionLoops, parallelLoops;
  op.getReductionDims(reductionLoops);
  op.getParallelDims(parallelLoops);
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    auto readsAny = [&](ArrayRef<unsigned> loops) {
      return llvm::any_of(
          loops, [&](unsigned loop) { return map.isFunctionOfDim(loop); });
    };
    auto readsAll = [&](ArrayRef<unsigned> loops) {
      return llvm::all_of(
          loops, [&](unsigned loop) { return map.isFunctionOfDim(loop); });
    };
    bool perRow = !readsAny(reductionLoops);
    bool ownRow = readsAll(parallelLoops);
    bool sameForEveryRow = reduction->isRow() && !readsAny(parallelLoops);
    if (!perRow && !ownRow && !sameForEveryRow &&
        !isCachedOuterOperand(op, input, reduction->reductionLoop))
      return std::nullopt;
  }
  reduction->kind = *kind;
  reduction->identity = *identity;
  return reduction;
}

int64_t chooseThreads(int64_t rowLength, int64_t limit) {
  int64_t threads = static_cast<int64_t>(llvm::bit_floor(
      static_cast<uint64_t>(std::max<int64_t>(rowLength / 4, 1))));
  return std::clamp<int64_t>(threads, 32, limit);
}

/// Maps `op`'s input arguments to their loads at `ivs` (scalar operands to
/// themselves) and clones its body into `builder` up to `stop` (the whole
/// body when null), linalg.index becoming the iv.
static void cloneBodyAt(OpBuilder &builder, Location loc, linalg::LinalgOp op,
                        ValueRange ivs, IRMapping &mapping, Operation *stop) {
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
    if (&nested == stop)
      break;
    if (auto index = dyn_cast<linalg::IndexOp>(nested)) {
      mapping.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    builder.clone(nested, mapping);
  }
}

Value emitElement(OpBuilder &builder, Location loc,
                  const RowReduction &reduction, ValueRange ivs) {
  linalg::LinalgOp op = reduction.op;
  IRMapping mapping;
  cloneBodyAt(builder, loc, op, ivs, mapping, reduction.combiner);
  BlockArgument accumulator = op.getRegionOutputArgs().front();
  Value folded = reduction.combiner->getOperand(0) == accumulator
                     ? reduction.combiner->getOperand(1)
                     : reduction.combiner->getOperand(0);
  return mapping.lookupOrDefault(folded);
}

SmallVector<Value> emitBody(OpBuilder &builder, Location loc,
                            linalg::LinalgOp op, ValueRange ivs,
                            ValueRange accumulators) {
  IRMapping mapping;
  mapping.map(op.getRegionOutputArgs(), accumulators);
  cloneBodyAt(builder, loc, op, ivs, mapping, /*stop=*/nullptr);
  SmallVector<Value> results;
  for (Value yielded : op.getBlock()->getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(yielded));
  return results;
}

SmallVector<Value> interleaveIvs(linalg::LinalgOp op, ValueRange rowIvs,
                                 ValueRange reductionIvs) {
  SmallVector<Value> ivs;
  unsigned row = 0, reduced = 0;
  for (utils::IteratorType iterator : op.getIteratorTypesArray())
    ivs.push_back(iterator == utils::IteratorType::reduction
                      ? reductionIvs[reduced++]
                      : rowIvs[row++]);
  return ivs;
}

void splitLoopBounds(linalg::LinalgOp op, SmallVectorImpl<int64_t> &rowShape,
                     SmallVectorImpl<int64_t> &reductionShape) {
  for (auto [bound, iterator] : llvm::zip_equal(op.getStaticLoopRanges(),
                                                op.getIteratorTypesArray()))
    (iterator == utils::IteratorType::reduction ? reductionShape : rowShape)
        .push_back(bound);
}

Value combine(OpBuilder &builder, const RowReduction &reduction, Value lhs,
              Value rhs) {
  IRMapping mapping;
  mapping.map(reduction.combiner->getOperand(0), lhs);
  mapping.map(reduction.combiner->getOperand(1), rhs);
  return builder.clone(*reduction.combiner, mapping)->getResult(0);
}

Value fold(OpBuilder &builder, const RowReduction &reduction, Value partial,
           Value element) {
  linalg::LinalgOp op = reduction.op;
  bool accumulatorFirst =
      reduction.combiner->getOperand(0) == op.getRegionOutputArgs().front();
  return accumulatorFirst ? combine(builder, reduction, partial, element)
                          : combine(builder, reduction, element, partial);
}

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

} // namespace ke::gpu_reductions
