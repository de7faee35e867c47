//===- WrapHostLoopsForGPU.cpp - ke-wrap-host-loops-for-gpu ---------------===//
//
// Loops that convert-linalg-to-parallel-loops leaves sequential at the top
// of a function would run on the host over device memory; a one-iteration
// scf.parallel around each puts it on the GPU.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace ke {
#define GEN_PASS_DEF_KEWRAPHOSTLOOPSFORGPU
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// Host code that touches memory: a loop without results or a store.
bool touchesMemoryOnHost(Operation &op) {
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return loop.getNumResults() == 0;
  return isa<memref::StoreOp>(op);
}

struct WrapHostLoopsForGPUPass
    : ke::impl::KeWrapHostLoopsForGPUBase<WrapHostLoopsForGPUPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (function.isExternal())
      return;
    SmallVector<Operation *> wrapped;
    for (Operation &op : function.getBody().front())
      if (touchesMemoryOnHost(op))
        wrapped.push_back(&op);
    for (Operation *op : wrapped) {
      OpBuilder builder(op);
      Location loc = op->getLoc();
      Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
      Value one = arith::ConstantIndexOp::create(builder, loc, 1);
      auto parallel = scf::ParallelOp::create(builder, loc, ValueRange{zero},
                                              ValueRange{one}, ValueRange{one});
      Block *body = parallel.getBody();
      op->moveBefore(body, body->begin());
    }
  }
};
} // namespace
