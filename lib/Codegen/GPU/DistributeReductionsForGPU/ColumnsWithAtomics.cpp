//===- ColumnsWithAtomics.cpp - column sums folded with atomics -----------===//
//
// A reduction along an outer loop (a column sum) mapped as parallel loops
// keeps that loop on the host, around one kernel launch per iteration.
// This spreads the columns and chunks of the reduction loop over threads
// instead, each adding its chunk's partial to the output with an atomic.
//
//===----------------------------------------------------------------------===//

#include "Reductions.h"

#include "ke/Codegen/LinalgOnBuffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using ke::detail::applyMap;
using ke::detail::delinearize;

namespace ke::gpu_reductions {

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

} // namespace ke::gpu_reductions
