//===- WarpScan.cpp - a prefix scan per chunk by a warp -------------------===//
//
// One thread running through a chunk alone reads it element by element: a
// warp's 32 loads fall in 32 lines a chunk apart, and an H200 ran
// KernelBench's cumsum (128 rows of 32768 f32) in 90 us, under a fifth of
// its bandwidth. Here a warp scans its chunk in rounds: each lane loads a
// few 16-byte vectors (each load a warp's 512 consecutive bytes) before it
// scans them one after another: its own vector, then the lanes' totals
// with shuffles, the warp's total carrying into the next vector. A warp
// needs neither shared memory nor a barrier (which the buffer deallocation
// pipeline, running after this, refuses as an unknown effect). Reversed,
// rounds start at the chunk's end and each vector is read last element
// first.
//
//===----------------------------------------------------------------------===//

#include "WarpScan.h"

#include "ke/Codegen/GPUContraction.h"
#include "ke/Codegen/LinalgOnBuffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <numeric>

using namespace mlir;

namespace ke::detail {
namespace {
constexpr int64_t kWarp = 32;
/// Bytes a lane loads and stores at once.
constexpr int64_t kVectorBytes = 16;
/// Vectors a lane loads before it scans the first: 64 bytes in flight per
/// lane, as the thread-per-chunk scan reads before it writes.
constexpr int64_t kVectorsInFlight = 4;

/// `value` from the lane `offset` (a lane, or how far below) as `mode`
/// reads it. convert-gpu-to-nvvm and -rocdl move 64-bit values as two
/// 32-bit halves.
Value shuffle(OpBuilder &b, Location loc, Value value, int32_t offset,
              gpu::ShuffleMode mode) {
  return gpu::ShuffleOp::create(b, loc, value, offset, kWarp, mode)
      .getShuffleResult();
}

/// How a warp walks its chunk.
struct WarpShape {
  /// Elements a lane loads as one vector, vectors it loads a round, and
  /// rounds a chunk.
  int64_t vector = 1, inFlight = 1, rounds = 1;
};

/// The buffer one-shot bufferization gives `tensor`: a static slice's is a
/// strided view of its source's (taken as the identity layout's), so it
/// is read in place (with the identity layout, a copy kernel first);
/// anything else's the identity layout.
MemRefType bufferTypeOf(Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  auto identity = MemRefType::get(type.getShape(), type.getElementType());
  auto slice = tensor.getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || !slice.getSourceType().hasStaticShape() ||
      ShapedType::isDynamicShape(slice.getStaticOffsets()) ||
      ShapedType::isDynamicShape(slice.getStaticSizes()) ||
      ShapedType::isDynamicShape(slice.getStaticStrides()) ||
      slice.getStaticStrides().back() != 1)
    return identity;
  auto source = MemRefType::get(slice.getSourceType().getShape(),
                                type.getElementType());
  return memref::SubViewOp::inferRankReducedResultType(
      type.getShape(), source, slice.getStaticOffsets(),
      slice.getStaticSizes(), slice.getStaticStrides());
}

/// Elements every row of `buffer` starts a multiple of: its offset's and
/// outer strides' greatest common divisor (0: any).
int64_t rowAlignment(MemRefType buffer) {
  auto [strides, offset] = buffer.getStridesAndOffset();
  int64_t alignment = offset;
  for (int64_t stride : ArrayRef<int64_t>(strides).drop_back())
    alignment = std::gcd(alignment, stride);
  return alignment;
}

/// A lane's vector divides the chunk and starts aligned in `buffer`.
WarpShape shapeWarp(const WarpScanPlan &plan, Type element,
                    MemRefType buffer) {
  WarpShape shape;
  int64_t bytes = std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
  shape.vector = std::max<int64_t>(1, kVectorBytes / bytes);
  int64_t alignment = rowAlignment(buffer);
  while (shape.vector > 1 && (plan.chunkLength % shape.vector != 0 ||
                              alignment % shape.vector != 0))
    shape.vector /= 2;
  int64_t vectors = plan.chunkLength / shape.vector;
  shape.inFlight =
      std::min<int64_t>(kVectorsInFlight, llvm::divideCeil(vectors, kWarp));
  shape.rounds = llvm::divideCeil(vectors, kWarp * shape.inFlight);
  return shape;
}
} // namespace

bool canScanByWarps(Value source, int64_t dim, Type accumulatorType) {
  auto type = dyn_cast<RankedTensorType>(source.getType());
  if (!type || !type.hasStaticShape() || dim != type.getRank() - 1 ||
      !type.getElementType().isIntOrFloat() ||
      type.getElementType().getIntOrFloatBitWidth() % 8 != 0)
    return false;
  unsigned bits = accumulatorType.getIntOrFloatBitWidth();
  return bits == 32 || bits == 64;
}

Value buildWarpScan(OpBuilder &b, Location loc, const WarpScanPlan &plan) {
  auto type = cast<RankedTensorType>(plan.source.getType());
  Type element = type.getElementType(), accumulator = plan.accumulatorType;
  ArrayRef<int64_t> rowShape = type.getShape().drop_back();
  int64_t rows = 1;
  for (int64_t size : rowShape)
    rows *= size;
  int64_t chunkCount = rows * plan.chunks;
  int64_t warps = std::min(plan.warpsPerBlock, chunkCount);
  MemRefType sourceType = bufferTypeOf(plan.source);
  WarpShape shape = shapeWarp(plan, element, sourceType);
  IndexMath index(b, loc);

  // The source and the totals as buffers (read only), the scan into a
  // new one the tensor then stands for.
  auto bufferOf = [&](Value tensor) -> Value {
    return bufferization::ToBufferOp::create(b, loc, bufferTypeOf(tensor),
                                             tensor, /*read_only=*/true);
  };
  Value source = bufferOf(plan.source);
  Value totals = plan.totals ? bufferOf(plan.totals) : Value();
  Value output =
      memref::AllocOp::create(b, loc, MemRefType::get(type.getShape(), element));

  Value one = index.constant(1);
  auto launch = gpu::LaunchOp::create(
      b, loc, index.constant(llvm::divideCeil(chunkCount, warps)), one, one,
      index.constant(kWarp), index.constant(warps), one);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  Value lane = launch.getThreadIds().x;
  Value warp = index.add(
      arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                            index.constant(warps)),
      launch.getThreadIds().y);
  // A whole warp is in or out: the shuffles run on full warps.
  Value warpInside = chunkCount % warps != 0 ? index.below(warp, chunkCount)
                                             : Value();
  emitGuarded(b, loc, warpInside, [&] {
    Value chunks = index.constant(plan.chunks);
    Value row = arith::DivUIOp::create(b, loc, warp, chunks);
    Value chunk = arith::RemUIOp::create(b, loc, warp, chunks);
    SmallVector<Value> rowIndices = delinearize(b, loc, row, rowShape);
    Value identity = arith::ConstantOp::create(b, loc, plan.identity);
    auto combine = [&](Value earlier, Value later) {
      return combineScanValues(b, loc, *plan.step, earlier, later);
    };
    // The warp's start: the totals of the chunks before its own (after,
    // reversed), a lane's share of them combined, then the lanes' with
    // a butterfly of shuffles.
    Value start = identity;
    if (totals) {
      auto shares = scf::ForOp::create(b, loc, lane, chunks,
                                       index.constant(kWarp),
                                       ValueRange{identity});
      {
        OpBuilder::InsertionGuard shareGuard(b);
        b.setInsertionPointToStart(shares.getBody());
        Value other = shares.getInductionVar();
        Value share = shares.getRegionIterArgs().front();
        SmallVector<Value> at(rowIndices);
        at.push_back(other);
        Value total = memref::LoadOp::create(b, loc, totals, at);
        Value before = arith::CmpIOp::create(
            b, loc,
            plan.reverse ? arith::CmpIPredicate::ugt
                         : arith::CmpIPredicate::ult,
            other, chunk);
        scf::YieldOp::create(
            b, loc,
            ValueRange{arith::SelectOp::create(
                b, loc, before, combine(share, total), share)});
      }
      start = shares.getResult(0);
      for (int32_t offset = kWarp / 2; offset > 0; offset /= 2)
        start = combine(start,
                        shuffle(b, loc, start, offset, gpu::ShuffleMode::XOR));
    }
    Value chunkStart = arith::MulIOp::create(b, loc, chunk,
                                             index.constant(plan.chunkLength));
    Value laneStart =
        arith::MulIOp::create(b, loc, lane, index.constant(shape.vector));
    int64_t perVector = kWarp * shape.vector;
    bool ragged = plan.chunkLength % (perVector * shape.inFlight) != 0;
    auto vectorType = VectorType::get({shape.vector}, element);
    llvm::MaybeAlign alignment(shape.vector *
                               element.getIntOrFloatBitWidth() / 8);
    // The scan's position `position` of a vector is its element `lane`:
    // reversed, the vector is read last element first.
    auto vectorLane = [&](int64_t position) {
      return plan.reverse ? shape.vector - 1 - position : position;
    };
    auto rounds = scf::ForOp::create(b, loc, index.constant(0),
                                     index.constant(shape.rounds), one,
                                     ValueRange{start});
    b.setInsertionPointToStart(rounds.getBody());
    Value round = rounds.getInductionVar();
    Value running = rounds.getRegionIterArgs().front();
    Value roundStart = arith::MulIOp::create(
        b, loc, round, index.constant(perVector * shape.inFlight));
    // Every load of the round first, then the scans.
    SmallVector<Value> loaded, insides;
    SmallVector<SmallVector<Value>> positions;
    for (int64_t v = 0; v < shape.inFlight; ++v) {
      // The lane's vector holds the scan's elements inChunk .. + vector;
      // reversed, those counted from the chunk's end.
      Value inChunk =
          index.add(index.add(roundStart, laneStart), v * perVector);
      Value inMemory = inChunk;
      if (plan.reverse)
        inMemory = arith::SubIOp::create(
            b, loc, index.constant(plan.chunkLength - shape.vector), inChunk);
      SmallVector<Value> at(rowIndices);
      at.push_back(index.add(chunkStart, inMemory));
      // Past a ragged chunk's end (only in the last round, after every
      // element of the chunk) the zeros loaded feed only values nobody
      // stores or reads.
      Value inside =
          ragged ? index.below(inChunk, plan.chunkLength) : Value();
      loaded.push_back(
          loadVectorOrZero(b, loc, vectorType, source, at, inside, alignment));
      insides.push_back(inside);
      positions.push_back(at);
    }
    for (int64_t v = 0; v < shape.inFlight; ++v) {
      // The lane's inclusive scan of its vector.
      SmallVector<Value> scanned;
      for (int64_t position = 0; position < shape.vector; ++position) {
        Value value = vector::ExtractOp::create(
            b, loc, loaded[v], ArrayRef<int64_t>{vectorLane(position)});
        if (accumulator != element)
          value = arith::ExtFOp::create(b, loc, accumulator, value);
        scanned.push_back(scanned.empty() ? value
                                          : combine(scanned.back(), value));
      }
      // The warp's inclusive scan of the lanes' totals (Hillis-Steele over
      // shuffles), each lane's exclusive prefix, and the warp's total.
      Value inclusive = scanned.back();
      for (int32_t offset = 1; offset < kWarp; offset *= 2) {
        Value below =
            shuffle(b, loc, inclusive, offset, gpu::ShuffleMode::UP);
        Value has = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                          lane, index.constant(offset));
        inclusive = arith::SelectOp::create(b, loc, has,
                                            combine(below, inclusive),
                                            inclusive);
      }
      Value exclusive = arith::SelectOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                index.constant(0)),
          identity, shuffle(b, loc, inclusive, 1, gpu::ShuffleMode::UP));
      Value total =
          shuffle(b, loc, inclusive, kWarp - 1, gpu::ShuffleMode::IDX);
      Value prefix = combine(running, exclusive);
      SmallVector<Value> results(shape.vector);
      for (auto [position, value] : llvm::enumerate(scanned)) {
        Value result = combine(prefix, value);
        if (accumulator != element)
          result = arith::TruncFOp::create(b, loc, element, result);
        results[vectorLane(position)] = result;
      }
      emitGuarded(b, loc, insides[v], [&] {
        vector::StoreOp::create(
            b, loc, vector::FromElementsOp::create(b, loc, vectorType, results),
            output, positions[v], /*nontemporal=*/false, alignment);
      });
      running = combine(running, total);
    }
    scf::YieldOp::create(b, loc, running);
  });
  b.setInsertionPointToEnd(&launch.getBody().front());
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPointAfter(launch);
  return bufferization::ToTensorOp::create(b, loc, type, output,
                                           /*restrict=*/true,
                                           /*writable=*/true);
}

} // namespace ke::detail
