//===- CopiesToLinalgForGPU.cpp - ke-copies-to-linalg-for-gpu -------------===//
//
// A memref.copy left to the host is a memcpy on device pointers: the GPU
// pipeline turns each into a linalg.copy, which becomes GPU loops.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace ke {
#define GEN_PASS_DEF_KECOPIESTOLINALGFORGPU
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
struct CopiesToLinalgForGPUPass
    : ke::impl::KeCopiesToLinalgForGPUBase<CopiesToLinalgForGPUPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies) {
      OpBuilder builder(copy);
      linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    }
  }
};
} // namespace
