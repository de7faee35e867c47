//===- KernelSignature.h - what a kernel takes and returns -------*- C++
//-*-===//

#ifndef KE_EVAL_KERNELSIGNATURE_H
#define KE_EVAL_KERNELSIGNATURE_H

#include "ke/Eval/Compare.h"
#include "ke/Eval/HostTensor.h"

#include "llvm/Support/Error.h"

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace ke::eval {

struct KernelSignature {
  llvm::SmallVector<TensorSpec> arguments;
  llvm::SmallVector<TensorSpec> results;
  /// `ke.atol`/`ke.rtol` when given, else the loosest default among the
  /// floating-point results (exact for integers).
  std::optional<double> atol, rtol;
  /// `ke.precision = "tf32"`: f32 products may run on TF32 tensor cores, so
  /// f32 results are checked with TF32's tolerance.
  bool allowsTF32 = false;

  /// The tolerance of a result of `resultKind`: its type's (TF32's under
  /// the permission), at least the narrowest 16-bit float argument's for
  /// f32 results (tensor-core accumulators), `ke.atol`/`ke.rtol` over all.

  Tolerance getTolerance(ElementKind resultKind) const;
};

/// Reads the signature of `function`. Fails with a message naming the
/// argument or result for dynamic shapes and unsupported types.
llvm::Expected<KernelSignature> getKernelSignature(mlir::func::FuncOp function);

} // namespace ke::eval

#endif // KE_EVAL_KERNELSIGNATURE_H
