//===- ConstantsToDeviceForGPU.cpp - ke-constants-to-device-for-gpu -------===//
//
// A tensor constant that is not a splat (a front end's gather table, a
// fixed weight) bufferizes to a memref.global in host memory; a GPU kernel
// reading it faults (CUDA error 700). Each call copies it into a device
// buffer first, which the kernels read instead.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace ke {
#define GEN_PASS_DEF_KECONSTANTSTODEVICEFORGPU
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
struct ConstantsToDeviceForGPUPass
    : ke::impl::KeConstantsToDeviceForGPUBase<ConstantsToDeviceForGPUPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (function.isExternal())
      return;
    SmallVector<memref::GetGlobalOp> reads;
    function.walk([&](memref::GetGlobalOp read) { reads.push_back(read); });
    Block &entry = function.getBody().front();
    for (memref::GetGlobalOp read : reads) {
      auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          read, read.getNameAttr());
      MemRefType type = read.getType();
      if (!global || !type.hasStaticShape() || !type.getLayout().isIdentity())
        continue;
      // At the entry, so that every use (in any loop) is dominated.
      OpBuilder builder = OpBuilder::atBlockBegin(&entry);
      Location loc = read.getLoc();
      auto host = memref::GetGlobalOp::create(builder, loc, type,
                                              read.getNameAttr());
      auto device = memref::AllocOp::create(builder, loc, type,
                                            builder.getI64IntegerAttr(64));
      gpu::MemcpyOp::create(builder, loc, TypeRange{}, ValueRange{},
                            device.getResult(), host.getResult());
      read.getResult().replaceAllUsesWith(device.getResult());
      read.erase();
    }
  }
};
} // namespace
