//===- FoldKnownBlockDims.cpp - ke-fold-known-block-dims ------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/Builders.h"

namespace ke {
#define GEN_PASS_DEF_KEFOLDKNOWNBLOCKDIMS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// Replaces `read` (a block-size read along `dimension`) by `size`.
void replaceBy(Operation *read, unsigned dimension, ArrayRef<int32_t> sizes,
               bool llvmConstant) {
  OpBuilder builder(read);
  Value size = llvmConstant
                   ? LLVM::ConstantOp::create(
                         builder, read->getLoc(), read->getResult(0).getType(),
                         builder.getIntegerAttr(read->getResult(0).getType(),
                                                sizes[dimension]))
                         .getResult()
                   : arith::ConstantIndexOp::create(builder, read->getLoc(),
                                                    sizes[dimension])
                         .getResult();
  read->getResult(0).replaceAllUsesWith(size);
  read->erase();
}

struct FoldKnownBlockDimsPass
    : ke::impl::KeFoldKnownBlockDimsBase<FoldKnownBlockDimsPass> {
  void runOnOperation() override {
    getOperation()->walk([](gpu::GPUFuncOp kernel) {
      std::optional<ArrayRef<int32_t>> known = kernel.getKnownBlockSize();
      if (!known || known->size() != 3)
        return;
      kernel.walk([&](gpu::BlockDimOp dim) {
        replaceBy(dim, static_cast<unsigned>(dim.getDimension()), *known,
                  /*llvmConstant=*/false);
      });
    });
    // After convert-gpu-to-rocdl the kernel is an llvm.func that keeps the
    // size as a discardable attribute.
    getOperation()->walk([](LLVM::LLVMFuncOp kernel) {
      auto known = kernel->getAttrOfType<DenseI32ArrayAttr>(
          gpu::GPUDialect::KnownBlockSizeAttrHelper::getNameStr());
      if (!known || known.size() != 3)
        return;
      kernel.walk([&](Operation *op) {
        if (isa<ROCDL::BlockDimXOp>(op))
          replaceBy(op, 0, known.asArrayRef(), /*llvmConstant=*/true);
        else if (isa<ROCDL::BlockDimYOp>(op))
          replaceBy(op, 1, known.asArrayRef(), /*llvmConstant=*/true);
        else if (isa<ROCDL::BlockDimZOp>(op))
          replaceBy(op, 2, known.asArrayRef(), /*llvmConstant=*/true);
      });
    });
  }
};
} // namespace
