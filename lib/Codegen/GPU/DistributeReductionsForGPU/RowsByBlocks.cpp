//===- RowsByBlocks.cpp - rows reduced by thread blocks -------------------===//
//
// Mapped as parallel loops, a reduction runs sequentially in one thread per
// output element (a 2048-long row: 2048 dependent loads in one thread).
// This gives each output element a thread block instead: each thread folds
// a strided slice of the row (neighbouring threads read neighbouring
// elements: coalesced), then gpu.all_reduce combines the threads' partials
// (convert-gpu-to-nvvm lowers it to warp shuffles and a shared-memory step
// across warps), and thread 0 folds the total into the output. A row of
// several reduction loops (a batch norm's N, H and W, with C between them)
// is their linearized space, the innermost loop fastest.
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

void distribute(const RowReduction &reduction, int64_t threadLimit) {
  linalg::LinalgOp op = reduction.op;
  Location loc = op.getLoc();
  OpBuilder builder(op);
  SmallVector<int64_t> rowShape, reductionShape;
  splitLoopBounds(op, rowShape, reductionShape);
  int64_t rowLength = ke::getReductionLength(op);
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
    SmallVector<Value> elementIvs = interleaveIvs(
        op, ivs,
        delinearize(builder, loc, loop.getInductionVar(), reductionShape));
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
    // The output ignores the reduction loops.
    SmallVector<Value> zeros(reductionShape.size(), constant(0));
    SmallVector<Value> outputIvs = interleaveIvs(op, ivs, zeros);
    SmallVector<Value> indices =
        applyMap(builder, loc, op.getMatchingIndexingMap(init), outputIvs);
    Value old = reduction.fillValue();
    if (!old)
      old = memref::LoadOp::create(builder, loc, init->get(), indices);
    Value folded = combine(builder, reduction, old, total);
    memref::StoreOp::create(builder, loc, folded, init->get(), indices);
  }
  gpu::TerminatorOp::create(builder, loc);
  op->erase();
}

} // namespace ke::gpu_reductions
