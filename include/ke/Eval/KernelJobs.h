//===- KernelJobs.h - the kernels of a module to evaluate -------*- C++ -*-===//
//
// Which function of a file is evaluated against which reference: a
// ke.kernel's named candidate, else its best correct one, else its
// reference; a func tagged ke.kernel against itself, or against the
// function of the same name in a separate reference module.
//
//===----------------------------------------------------------------------===//

#ifndef KE_EVAL_KERNELJOBS_H
#define KE_EVAL_KERNELJOBS_H

#include "ke/Eval/EvaluateKernel.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"

namespace ke::eval {

struct KernelSelection {
  std::string filename;  ///< the module's file, for diagnostics
  std::string kernel;    ///< only this kernel (empty: all)
  std::string candidate; ///< this candidate of a ke.kernel (empty: best)
  /// Where references come from instead of the kernels themselves.
  mlir::ModuleOp referenceModule;
  std::string referenceFilename; ///< for diagnostics
};

/// The jobs of `module`; failure after a diagnostic (an unknown kernel or
/// candidate, a kernel without body, a reference missing).
mlir::FailureOr<llvm::SmallVector<KernelJob>>
collectKernelJobs(mlir::ModuleOp module, const KernelSelection &selection);

} // namespace ke::eval

#endif // KE_EVAL_KERNELJOBS_H
