//===- RowsByWarps.cpp - short rows reduced by warps ----------------------===//
//
// A row of a few hundred elements given a thread block of its own (a layer
// norm over 64 channels: 131072 blocks of 32 threads) spends more on the
// block than on the row: the all-reduce goes through shared memory and a
// barrier, and an SM holds too few such blocks to hide memory latency. Here
// each row gets one warp instead, several rows share a block, and the
// warp's lanes combine their partials with register shuffles (a butterfly
// of gpu.shuffle xor), with no shared memory and no barrier.
//
//===----------------------------------------------------------------------===//

#include "Reductions.h"

#include "ke/Codegen/LinalgOnBuffers.h"
#include "ke/Codegen/ReductionLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using ke::detail::applyMap;
using ke::detail::delinearize;

namespace ke::gpu_reductions {

void distributeByWarps(const RowReduction &reduction, int64_t rowsPerBlock) {
  constexpr int64_t kWarp = 32;
  linalg::LinalgOp op = reduction.op;
  Location loc = op.getLoc();
  OpBuilder builder(op);
  SmallVector<int64_t> rowShape, reductionShape;
  splitLoopBounds(op, rowShape, reductionShape);
  int64_t rows = 1;
  for (int64_t bound : rowShape)
    rows *= bound;
  int64_t rowLength = ke::getReductionLength(op);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  Value one = constant(1);
  auto launch = gpu::LaunchOp::create(
      builder, loc, constant(llvm::divideCeil(rows, rowsPerBlock)), one, one,
      constant(kWarp), constant(rowsPerBlock), one);
  builder.setInsertionPointToStart(&launch.getBody().front());
  Value lane = launch.getThreadIds().x;
  // The block's rows: one per warp (threadIdx.y). A whole warp is in or
  // out of range, so the shuffles below always run on full warps.
  Value row = arith::AddIOp::create(
      builder, loc,
      arith::MulIOp::create(builder, loc, launch.getBlockIds().x,
                            constant(rowsPerBlock)),
      launch.getThreadIds().y);
  Value inRange = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                        row, constant(rows));
  auto ifInRange = scf::IfOp::create(builder, loc, inRange);
  builder.setInsertionPointToStart(ifInRange.thenBlock());
  SmallVector<Value> rowIvs = delinearize(builder, loc, row, rowShape);
  Value identity = arith::ConstantOp::create(builder, loc, reduction.identity);
  auto loop = scf::ForOp::create(builder, loc, lane, constant(rowLength),
                                 constant(kWarp), ValueRange{identity});
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> elementIvs = interleaveIvs(
        op, rowIvs,
        delinearize(builder, loc, loop.getInductionVar(), reductionShape));
    Value element = emitElement(builder, loc, reduction, elementIvs);
    scf::YieldOp::create(builder, loc,
                         fold(builder, reduction, loop.getRegionIterArgs()[0],
                              element));
  }
  // Butterfly: after log2(32) steps every lane holds the warp's total.
  Value total = loop.getResult(0);
  for (int32_t offset = kWarp / 2; offset > 0; offset /= 2) {
    Value other = gpu::ShuffleOp::create(builder, loc, total, offset,
                                         static_cast<int32_t>(kWarp),
                                         gpu::ShuffleMode::XOR)
                      .getShuffleResult();
    total = combine(builder, reduction, total, other);
  }
  Value first = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                      lane, constant(0));
  auto ifFirst = scf::IfOp::create(builder, loc, first);
  builder.setInsertionPointToStart(ifFirst.thenBlock());
  OpOperand *init = op.getDpsInitOperand(0);
  SmallVector<Value> zeros(reductionShape.size(), constant(0));
  SmallVector<Value> indices =
      applyMap(builder, loc, op.getMatchingIndexingMap(init),
               interleaveIvs(op, rowIvs, zeros));
  Value old = reduction.fillValue();
  if (!old)
    old = memref::LoadOp::create(builder, loc, init->get(), indices);
  memref::StoreOp::create(builder, loc, combine(builder, reduction, old, total),
                          init->get(), indices);
  builder.setInsertionPointToEnd(&launch.getBody().front());
  gpu::TerminatorOp::create(builder, loc);
  op->erase();
}

} // namespace ke::gpu_reductions
