//===- LowerProbes.cpp - ke-lower-probes: probes to runtime calls ---------===//

#include "ke/KeDialect.h"
#include "ke/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace ke {
#define GEN_PASS_DEF_KELOWERPROBES
#include "ke/Transforms/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// The runtime entry points (ke-run defines them).
constexpr llvm::StringLiteral kStart = "ke_probe_start";
constexpr llvm::StringLiteral kStop = "ke_probe_stop";

struct LowerProbesPass : ke::impl::KeLowerProbesBase<LowerProbesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> probes;
    module.walk([&](Operation *op) {
      if (isa<ke::ProbeStartOp, ke::ProbeStopOp>(op))
        probes.push_back(op);
    });
    if (probes.empty())
      return;
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    auto type = builder.getFunctionType({builder.getI64Type()}, {});
    for (llvm::StringRef name : {kStart, kStop})
      if (!module.lookupSymbol<func::FuncOp>(name)) {
        auto declaration =
            func::FuncOp::create(builder, module.getLoc(), name, type);
        declaration.setPrivate();
      }
    for (Operation *probe : probes) {
      builder.setInsertionPoint(probe);
      int64_t id = isa<ke::ProbeStartOp>(probe)
                       ? cast<ke::ProbeStartOp>(probe).getId()
                       : cast<ke::ProbeStopOp>(probe).getId();
      Value value = arith::ConstantIntOp::create(builder, probe->getLoc(),
                                                 builder.getI64Type(), id);
      func::CallOp::create(builder, probe->getLoc(),
                           isa<ke::ProbeStartOp>(probe) ? kStart : kStop,
                           TypeRange(), ValueRange{value});
      probe->erase();
    }
  }
};
} // namespace
