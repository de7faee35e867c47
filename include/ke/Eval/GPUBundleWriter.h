//===- GPUBundleWriter.h - a lowered GPU kernel as a bundle -----*- C++ -*-===//

#ifndef KE_EVAL_GPUBUNDLEWRITER_H
#define KE_EVAL_GPUBUNDLEWRITER_H

#include "ke/Eval/HostTensor.h"
#include "ke/Eval/KernelSignature.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

namespace ke::eval {

/// Writes `directory`/kernel.so (the host code of `lowered`, a module after
/// ke-lower-nvgpu or ke-lower-amdgpu{format=bin}, compiled for this host and
/// linked with ld.lld; its PTX or hsaco embedded) and bundle.txt for
/// `target` (nvgpu or amdgpu); `roundingAllowance` is added to the
/// manifest's absolute tolerance (a wide reference's, see EvaluateKernel).
/// Inputs and expected outputs are added per
/// seed with addBundleSeed; a profiling build with addGPUProfileBuild (a
/// profiling build left from an earlier bundle is removed).
llvm::Error writeGPUBundle(mlir::ModuleOp lowered, llvm::StringRef kernel,
                           llvm::StringRef target,
                           const KernelSignature &signature, unsigned seeds,
                           double roundingAllowance,
                           llvm::StringRef directory);
/// Adds `directory`/kernel-profile.so, the host code of `profiled` (the
/// same kernel instrumented by ke-instrument, then lowered), and the names
/// of its regions (by probe id) to the bundle's manifest. On failure the
/// bundle is left without a profiling build, still whole.
llvm::Error addGPUProfileBuild(mlir::ModuleOp profiled,
                               llvm::ArrayRef<std::string> regionNames,
                               llvm::StringRef directory);
llvm::Error addBundleSeed(llvm::StringRef directory, unsigned seedIndex,
                          llvm::ArrayRef<HostTensor> inputs,
                          llvm::ArrayRef<HostTensor> expected);

} // namespace ke::eval

#endif // KE_EVAL_GPUBUNDLEWRITER_H
