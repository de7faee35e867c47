//===- GuardAssertsForGPU.cpp - ke-guard-asserts-for-gpu
//-------------------===//
//
// convert-parallel-loops-to-gpu does not map a parallel loop whose body
// holds a cf.assert directly; the same check under an scf.if it maps.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace ke {
#define GEN_PASS_DEF_KEGUARDASSERTSFORGPU
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
struct GuardAssertsForGPUPass
    : ke::impl::KeGuardAssertsForGPUBase<GuardAssertsForGPUPass> {
  void runOnOperation() override {
    SmallVector<cf::AssertOp> asserts;
    getOperation().walk([&](cf::AssertOp assertOp) {
      if (isa<scf::ParallelOp>(assertOp->getParentOp()))
        asserts.push_back(assertOp);
    });
    for (cf::AssertOp assertOp : asserts) {
      OpBuilder builder(assertOp);
      Location loc = assertOp.getLoc();
      Value failed = arith::XOrIOp::create(
          builder, loc, assertOp.getArg(),
          arith::ConstantIntOp::create(builder, loc, 1, 1));
      auto guard = scf::IfOp::create(builder, loc, failed);
      builder.setInsertionPointToStart(&guard.getThenRegion().front());
      cf::AssertOp::create(builder, loc,
                           arith::ConstantIntOp::create(builder, loc, 0, 1),
                           assertOp.getMsg());
      assertOp.erase();
    }
  }
};
} // namespace
