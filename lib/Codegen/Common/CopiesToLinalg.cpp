//===- CopiesToLinalg.cpp - ke-copies-to-linalg ---------------------------===//
//
// A memref.copy becomes a memcpy when both sides are contiguous, else a
// call of the runtime's element-by-element memrefCopy. On a GPU target
// either would touch device pointers on the host, so every copy becomes a
// linalg.copy (GPU loops); on the CPU the strided ones do (compiled loops).
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/IR/Builders.h"

namespace ke {
#define GEN_PASS_DEF_KECOPIESTOLINALG
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
struct CopiesToLinalgPass
    : ke::impl::KeCopiesToLinalgBase<CopiesToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    auto contiguous = [](Value buffer) {
      auto type = dyn_cast<MemRefType>(buffer.getType());
      return type && memref::isStaticShapeAndContiguousRowMajor(type);
    };
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      if (!stridedOnly || !contiguous(copy.getSource()) ||
          !contiguous(copy.getTarget()))
        copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies) {
      OpBuilder builder(copy);
      linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    }
  }
};
} // namespace
