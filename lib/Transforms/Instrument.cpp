//===- Instrument.cpp - ke-instrument: profiling probes -------------------===//

#include "ke/KeDialect.h"
#include "ke/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/FormatVariadic.h"

namespace ke {
#define GEN_PASS_DEF_KEINSTRUMENT
#include "ke/Transforms/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// Loop nests and linalg ops (structured or aggregate, like linalg.softmax)
/// are where a kernel's time goes.
bool isRegionOfInterest(Operation *op) {
  return isa<scf::ForOp, scf::ForallOp, scf::ParallelOp, affine::AffineForOp>(
             op) ||
         (op->getDialect() && op->getDialect()->getNamespace() ==
                                  linalg::LinalgDialect::getDialectNamespace());
}

struct InstrumentPass : ke::impl::KeInstrumentBase<InstrumentPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (function.isExternal())
      return;
    // Already instrumented: probes would nest.
    if (!function.getOps<ke::ProbeStartOp>().empty())
      return;
    int64_t id = 0;
    for (Operation &op : llvm::make_early_inc_range(function.front())) {
      if (!isRegionOfInterest(&op))
        continue;
      OpBuilder builder(&op);
      std::string name =
          llvm::formatv("{0}:{1}", id, op.getName().getStringRef()).str();
      ke::ProbeStartOp::create(builder, op.getLoc(), id, name);
      builder.setInsertionPointAfter(&op);
      ke::ProbeStopOp::create(builder, op.getLoc(), id);
      ++id;
    }
  }
};
} // namespace
