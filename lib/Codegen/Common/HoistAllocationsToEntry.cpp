//===- HoistAllocationsToEntry.cpp - ke-hoist-allocations-to-entry --------===//
//
// On GPUs, host-side temporaries are allocated between kernel launches, and
// gpu-async-region ends its chain of asynchronous launches at every host op
// with memory effects: each allocation cost a stream synchronization (three
// in softmax). Static allocations of the function's top level need nothing
// computed before them, so they move to its start, and the launches form one
// chain with one synchronization.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace ke {
#define GEN_PASS_DEF_KEHOISTALLOCATIONSTOENTRY
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
struct HoistAllocationsToEntryPass
    : ke::impl::KeHoistAllocationsToEntryBase<HoistAllocationsToEntryPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (function.isExternal())
      return;
    Block &entry = function.getBody().front();
    SmallVector<memref::AllocOp> allocations;
    for (auto allocation : entry.getOps<memref::AllocOp>())
      if (allocation->getNumOperands() == 0)
        allocations.push_back(allocation);
    // Keep their order: the first stays first.
    Operation *insertionPoint = nullptr;
    for (memref::AllocOp allocation : allocations) {
      if (insertionPoint)
        allocation->moveAfter(insertionPoint);
      else
        allocation->moveBefore(&entry, entry.begin());
      insertionPoint = allocation;
    }
  }
};
} // namespace
