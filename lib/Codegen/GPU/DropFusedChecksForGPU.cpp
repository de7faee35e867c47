//===- DropFusedChecksForGPU.cpp - ke-drop-fused-checks-for-gpu
//------------===//
//
// Elementwise fusion copies an asserting producer into its consumers and
// leaves the original with no outputs; on GPU targets that leftover would
// run on the host over device memory, so it is erased.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace ke {
#define GEN_PASS_DEF_KEDROPFUSEDCHECKSFORGPU
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// No outputs, no results, and nothing in the body but pure ops and asserts.
bool isFusedCheck(linalg::LinalgOp op) {
  if (op->getNumResults() != 0 || op.getNumDpsInits() != 0)
    return false;
  WalkResult walk = op->walk([&](Operation *nested) {
    if (nested == op.getOperation() || isa<cf::AssertOp>(nested) ||
        isMemoryEffectFree(nested))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return !walk.wasInterrupted();
}

struct DropFusedChecksForGPUPass
    : ke::impl::KeDropFusedChecksForGPUBase<DropFusedChecksForGPUPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> checks;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isFusedCheck(op))
        checks.push_back(op);
    });
    for (linalg::LinalgOp op : checks)
      op->erase();
  }
};
} // namespace
