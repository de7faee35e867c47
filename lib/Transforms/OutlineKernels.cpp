//===- OutlineKernels.cpp - ke-outline-kernels ----------------------------===//
//
// Wraps each func.func tagged `ke.kernel` into a `ke.kernel` op, where it
// becomes the reference that candidates are checked against.
//
//===----------------------------------------------------------------------===//

#include "ke/KeDialect.h"
#include "ke/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"

namespace ke {
#define GEN_PASS_DEF_KEOUTLINEKERNELS
#include "ke/Transforms/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
struct OutlineKernelsPass : ke::impl::KeOutlineKernelsBase<OutlineKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!llvm::is_contained(ke::KernelOp::getKnownTargets(), target)) {
      module.emitError() << "ke-outline-kernels: unknown target '" << target
                         << "'; expected one of "
                         << llvm::join(ke::KernelOp::getKnownTargets(), ", ");
      return signalPassFailure();
    }
    SmallVector<func::FuncOp> kernels;
    for (auto function : module.getOps<func::FuncOp>())
      if (function->hasAttr(ke::KeDialect::kKernelAttrName))
        kernels.push_back(function);

    for (func::FuncOp function : kernels) {
      if (function.isExternal()) {
        function.emitError() << "kernel '@" << function.getSymName()
                             << "' has no body to optimize";
        return signalPassFailure();
      }
      if (!SymbolTable::symbolKnownUseEmpty(function, module)) {
        function.emitError()
            << "kernel '@" << function.getSymName()
            << "' is referenced elsewhere in the module and cannot be "
               "outlined into a ke.kernel";
        return signalPassFailure();
      }
      OpBuilder builder(function);
      auto kernel = ke::KernelOp::create(builder, function.getLoc(),
                                         function.getSymName(), target);
      function->moveBefore(&kernel.getBody().front(),
                           kernel.getBody().front().end());
    }
  }
};
} // namespace
