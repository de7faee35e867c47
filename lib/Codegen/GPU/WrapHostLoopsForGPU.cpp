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
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

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

/// The ops of `block` before `root` that compute its operands (loads of a
/// 0-d op's inputs, its arithmetic), in block order: what must run with it
/// on the GPU. Constants are left out (they are cloned where needed).
SetVector<Operation *> getHostSlice(Operation *root) {
  SetVector<Operation *> slice;
  SmallVector<Operation *> worklist = {root};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    for (Value operand : op->getOperands()) {
      Operation *producer = operand.getDefiningOp();
      // Buffers and views of them stay where they are: the kernel takes
      // them as arguments (a 0-d output's collapse_shape, also read by the
      // reduction after it, kept its fill on the host: a store into device
      // memory there).
      if (!producer || isa<BaseMemRefType>(operand.getType()) ||
          producer->getBlock() != root->getBlock() ||
          producer->hasTrait<OpTrait::ConstantLike>() ||
          slice.contains(producer))
        continue;
      if (!isa<memref::LoadOp>(producer) && !isMemoryEffectFree(producer))
        continue;
      slice.insert(producer);
      worklist.push_back(producer);
    }
  }
  return slice;
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
      // A 0-d op's store brings the loads and arithmetic it reads when
      // nothing else uses them; what others use stays and is read on the
      // host (then the op cannot move, and is left as it was).
      SetVector<Operation *> slice = getHostSlice(op);
      bool movable = llvm::all_of(slice, [&](Operation *producer) {
        return llvm::all_of(producer->getUsers(), [&](Operation *user) {
          return user == op || slice.contains(user);
        });
      });
      if (!movable) {
        parallel.erase();
        continue;
      }
      SmallVector<Operation *> ordered(slice.begin(), slice.end());
      llvm::sort(ordered, [](Operation *a, Operation *b) {
        return a->isBeforeInBlock(b);
      });
      Operation *insertBefore = &body->front();
      for (Operation *producer : ordered)
        producer->moveBefore(insertBefore);
      op->moveBefore(insertBefore);
    }
  }
};
} // namespace
