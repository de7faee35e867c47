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

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

namespace {
struct LowerProbesPass : ke::impl::KeLowerProbesBase<LowerProbesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // A profiling runtime, not a target: probes of a GPU target's host code
    // still go to the CPU clock.
    std::optional<bool> gpuRuntime =
        llvm::StringSwitch<std::optional<bool>>(runtime)
            .Case("cpu", false)
            .Case("gpu", true)
            .Default(std::nullopt);
    if (!gpuRuntime) {
      module.emitError() << "ke-lower-probes: unknown runtime '" << runtime
                         << "' (cpu or gpu)";
      return signalPassFailure();
    }
    // The runtime entry points: ke-run's clock on the CPU, the GPU
    // runtime's region marks on the GPU.
    bool gpu = *gpuRuntime;
    llvm::StringRef start = gpu ? "ke_gpu_probe_start" : "ke_probe_start";
    llvm::StringRef stop = gpu ? "ke_gpu_probe_stop" : "ke_probe_stop";
    SmallVector<Operation *> probes;
    module.walk([&](Operation *op) {
      if (isa<ke::ProbeStartOp, ke::ProbeStopOp>(op))
        probes.push_back(op);
    });
    if (probes.empty())
      return;
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    auto type = builder.getFunctionType({builder.getI64Type()}, {});
    for (llvm::StringRef name : {start, stop})
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
                           isa<ke::ProbeStartOp>(probe) ? start : stop,
                           TypeRange(), ValueRange{value});
      probe->erase();
    }
  }
};
} // namespace
