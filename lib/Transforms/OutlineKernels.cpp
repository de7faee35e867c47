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
    if (failed(ke::KernelOp::outlineTaggedFunctions(module, target)))
      return signalPassFailure();
  }
};
} // namespace
