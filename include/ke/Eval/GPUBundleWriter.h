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
/// `target` (nvgpu or amdgpu). Inputs and expected outputs are added per
/// seed with addBundleSeed. With `profiled` (the same kernel instrumented
/// by ke-instrument, then lowered), also kernel-profile.so and the names
/// of its regions (`regionNames`, by probe id) in the manifest.
llvm::Error writeGPUBundle(mlir::ModuleOp lowered, llvm::StringRef kernel,
                           llvm::StringRef target,
                           const KernelSignature &signature, unsigned seeds,
                           llvm::StringRef directory,
                           mlir::ModuleOp profiled = nullptr,
                           llvm::ArrayRef<std::string> regionNames = {});
llvm::Error addBundleSeed(llvm::StringRef directory, unsigned seedIndex,
                          llvm::ArrayRef<HostTensor> inputs,
                          llvm::ArrayRef<HostTensor> expected);

} // namespace ke::eval

#endif // KE_EVAL_GPUBUNDLEWRITER_H
