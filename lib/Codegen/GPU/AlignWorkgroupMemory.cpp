//===- AlignWorkgroupMemory.cpp - ke-align-workgroup-memory ---------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace ke {
#define GEN_PASS_DEF_KEALIGNWORKGROUPMEMORY
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
struct AlignWorkgroupMemoryPass
    : ke::impl::KeAlignWorkgroupMemoryBase<AlignWorkgroupMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    if (alignment <= 0 || !llvm::isPowerOf2_64(alignment)) {
      getOperation()->emitError()
          << "ke-align-workgroup-memory: alignment must be a power of two "
             "(got "
          << alignment.getValue() << ")";
      return signalPassFailure();
    }
    StringRef name = LLVM::LLVMDialect::getAlignAttrName();
    getOperation()->walk([&](gpu::GPUFuncOp kernel) {
      Builder builder(kernel.getContext());
      for (unsigned index = 0; index < kernel.getNumWorkgroupAttributions();
           ++index) {
        auto current = dyn_cast_or_null<IntegerAttr>(
            kernel.getWorkgroupAttributionAttr(index, name));
        if (current && current.getInt() >= alignment)
          continue;
        kernel.setWorkgroupAttributionAttr(
            index, name, builder.getI64IntegerAttr(alignment));
      }
    });
  }
};
} // namespace
