//===- TimeGPUKernels.cpp - ke-time-gpu-kernels: device-side timers -------===//
//
// Host-side timing of a launch includes its latency and whatever else the
// stream does; the device's global timer read by the blocks themselves
// gives the span the kernel really occupied the GPU. One thread per block
// reads it, so the probe costs two atomics per block and one barrier.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"
#include "ke/KeDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace ke {
#define GEN_PASS_DEF_KETIMEGPUKERNELS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// The prefix of each kernel's timer global; the runtime looks it up by
/// name (`cuModuleGetGlobal`), so it is part of ke's runtime contract.
constexpr llvm::StringLiteral kTimerPrefix = "__ke_timer_";

struct TimeGPUKernelsPass : ke::impl::KeTimeGPUKernelsBase<TimeGPUKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (vendor != "nvidia" && vendor != "amd") {
      module.emitError() << "ke-time-gpu-kernels: unknown vendor '" << vendor
                         << "' (nvidia or amd)";
      return signalPassFailure();
    }
    // Uninstrumented code is what gets timed: leave it alone.
    if (!module.walk([](ke::ProbeStartOp) { return WalkResult::interrupt(); })
             .wasInterrupted())
      return;
    module.walk([&](gpu::GPUModuleOp kernels) {
      for (auto kernel :
           llvm::make_early_inc_range(kernels.getOps<gpu::GPUFuncOp>()))
        if (kernel.isKernel())
          timeKernel(kernels, kernel);
    });
  }

  Value readTimer(OpBuilder &builder, Location loc) {
    Type i64 = builder.getI64Type();
    if (vendor == "nvidia")
      return NVVM::GlobalTimerOp::create(builder, loc, i64);
    // gfx9's constant 100 MHz counter (the runtime scales it to ns).
    return LLVM::CallIntrinsicOp::create(
               builder, loc, i64,
               builder.getStringAttr("llvm.amdgcn.s.memrealtime"), ValueRange{})
        .getResult(0);
  }

  /// `if thread (0,0,0) { atomic <kind> timer into word[index] }`.
  void foldTimer(OpBuilder &builder, Location loc, Value timer,
                 arith::AtomicRMWKind kind, int64_t index) {
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value first;
    for (gpu::Dimension dimension :
         {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z}) {
      Value id = gpu::ThreadIdOp::create(builder, loc, dimension);
      Value isZero = arith::CmpIOp::create(builder, loc,
                                           arith::CmpIPredicate::eq, id, zero);
      first =
          first ? arith::AndIOp::create(builder, loc, first, isZero).getResult()
                : isZero;
    }
    auto ifFirst = scf::IfOp::create(builder, loc, first);
    OpBuilder inside = ifFirst.getThenBodyBuilder();
    Value now = readTimer(inside, loc);
    Value at = arith::ConstantIndexOp::create(inside, loc, index);
    memref::AtomicRMWOp::create(inside, loc, kind, now, timer, ValueRange{at});
  }

  void timeKernel(gpu::GPUModuleOp kernels, gpu::GPUFuncOp kernel) {
    SmallVector<gpu::ReturnOp> returns;
    kernel.walk([&](gpu::ReturnOp ret) { returns.push_back(ret); });
    if (returns.size() != 1 || returns.front()->getParentOp() != kernel) {
      kernel.emitWarning() << "ke-time-gpu-kernels: kernel '"
                           << kernel.getName()
                           << "' does not end in exactly one top-level "
                              "return; left untimed";
      return;
    }
    MLIRContext *context = &getContext();
    Location loc = kernel.getLoc();
    auto space = gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Global);
    auto type = MemRefType::get({2}, IntegerType::get(context, 64),
                                MemRefLayoutAttrInterface(), space);
    std::string name = (kTimerPrefix + kernel.getName()).str();
    OpBuilder builder = OpBuilder::atBlockBegin(kernels.getBody());
    // Public and initialized: an external declaration would not load.
    auto initial = DenseElementsAttr::get(
        RankedTensorType::get({2}, builder.getI64Type()), int64_t(0));
    memref::GlobalOp::create(builder, loc, name,
                             builder.getStringAttr("public"), type, initial,
                             /*constant=*/false,
                             /*alignment=*/builder.getI64IntegerAttr(8));

    builder.setInsertionPointToStart(&kernel.getBody().front());
    Value timer = memref::GetGlobalOp::create(builder, loc, type, name);
    foldTimer(builder, loc, timer, arith::AtomicRMWKind::minu, 0);

    builder.setInsertionPoint(returns.front());
    gpu::BarrierOp::create(builder, loc);
    foldTimer(builder, loc, timer, arith::AtomicRMWKind::maxu, 1);
  }
};
} // namespace
