//===- CPURunner.h - JIT-compiling and calling a kernel on the host -*- C++
//-*-===//

#ifndef KE_EVAL_CPURUNNER_H
#define KE_EVAL_CPURUNNER_H

#include "ke/Eval/KernelSignature.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace mlir {
class ExecutionEngine;
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace ke {
struct LowerCPUOptions;
} // namespace ke

namespace ke::eval {

/// One kernel lowered with ke-lower-cpu and JIT-compiled for the host.
class CPUKernel {
public:
  /// Lowers a copy of `function` (inputs are read-only: the kernel may not
  /// write them in place) and JIT-compiles it. Errors start with the stage
  /// that failed: "lower: ..." or "jit: ...", and carry MLIR's diagnostics.
  static llvm::Expected<std::unique_ptr<CPUKernel>>
  compile(mlir::func::FuncOp function, const LowerCPUOptions &options,
          const KernelSignature &signature);
  /// Lowered code with more operations than this (0: no bound) is refused
  /// before the JIT ("lower: ... operations"): a schedule that unrolls too
  /// far would otherwise spend the whole evaluation timeout compiling.
  static void setOperationLimit(size_t operations);
  static size_t getOperationLimit();
  ~CPUKernel();

  /// Calls the kernel once. With `results`, copies each result out; either
  /// way frees what the kernel allocated. Fails when a result aliases an
  /// input or comes back with the wrong shape. Compiled with out-params, the
  /// kernel writes its results into buffers allocated at the first call and
  /// reused by later ones (a timed call measures the kernel, not malloc and
  /// page faults); a call with `results` first fills them with a poison
  /// pattern, so what a previous call left there cannot pass for a result.
  llvm::Error run(llvm::ArrayRef<HostTensor> inputs,
                  llvm::SmallVectorImpl<HostTensor> *results);

private:
  CPUKernel() = default;
  std::unique_ptr<mlir::ExecutionEngine> engine;
  void (*entry)(void **) = nullptr;
  KernelSignature signature;
  bool outParams = false;
  /// The caller's result buffers (out-params), in result order.
  llvm::SmallVector<HostTensor> outputBuffers;
};

} // namespace ke::eval

#endif // KE_EVAL_CPURUNNER_H
