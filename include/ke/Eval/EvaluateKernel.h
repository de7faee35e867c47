//===- EvaluateKernel.h - check, time and profile one kernel ----*- C++ -*-===//
//
// The evaluation of one kernel on one target: its signature checked against
// the reference's, seeded inputs, the reference's outputs (cached across
// candidates), the candidate run by the target's runner and compared on
// every seed, then measured. One loop over seeds for every target; what
// differs per target lives behind TargetRunner.
//
//===----------------------------------------------------------------------===//

#ifndef KE_EVAL_EVALUATEKERNEL_H
#define KE_EVAL_EVALUATEKERNEL_H

#include "ke/Codegen/GPUSchedule.h"
#include "ke/Eval/EvaluationReport.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ke {
struct TargetInfo;
} // namespace ke

namespace ke::eval {

/// One kernel to evaluate: `evaluated` is checked against `reference`.
struct KernelJob {
  std::string name;
  std::string candidate; ///< what is evaluated, for the report
  mlir::func::FuncOp evaluated;
  mlir::func::FuncOp reference;
};

struct EvaluationOptions {
  const TargetInfo *target = nullptr; ///< null: the CPU
  unsigned threads = 1;
  uint64_t seed = 1;
  unsigned seeds = 2;
  /// One more check before the seeds, on inputs with special values (see
  /// makeInput); ke-run turns it on for targets that run on the host.
  bool specialValues = false;
  bool checkOnly = false;
  double minTimeSeconds = 0.2;
  unsigned timeoutSeconds = 120;
  /// Lower the candidate with the naive pipeline (already scheduled).
  bool naive = false;
  /// CPU kernels write into result buffers the caller allocates once
  /// (destination-passing style), instead of returning fresh ones.
  bool callerOutputs = true;
  /// CPU kernels' freed temporaries are kept for their next allocation
  /// (KernelHeap.h) instead of going back to the system.
  bool reuseTemporaries = true;
  int64_t vectorWidth = 8;
  std::string referenceCache; ///< directory of the reference's outputs
  /// Threads the reference's parallel loops run on (its results do not
  /// depend on them); 0: every hardware thread of the host.
  unsigned referenceThreads = 0;
  /// A ke tensor file (see TensorFile.h): the kernel is also run on its
  /// inputs and compared with its outputs (e.g. PyTorch's, from ke-import).
  std::string expectedFile;
  bool profile = false;
  bool emitAssembly = false;
  // riscv
  std::string riscvCPU = "sifive-x280";
  std::string workDirectory;
  double riscvGHz = 1.0;
  // nvgpu and amdgpu
  bool compileOnly = false;
  std::string bundleDirectory;
  /// GPU knobs given on the command line (the kernel's own ke.gpu_*
  /// attributes win over them).
  GPUSchedule gpu;

  const TargetInfo &getTarget() const;
};

/// Evaluates `job`, filling `report`; an error is "<stage>: <message>".
llvm::Error evaluateKernel(const KernelJob &job,
                           const EvaluationOptions &options,
                           EvaluationReport &report);

/// The stage running now ("run reference", "timing", ...), named in the
/// error when a kernel crashes or hangs.
const char *getEvaluationStage();
void setEvaluationStage(const char *stage);

/// "; argument #k (i64) has no ke.range ..." for every integer argument of
/// `reference` with neither a ke.range nor an inferable one: what a crash of
/// the reference most often means.
std::string describeUnrangedIntegers(mlir::func::FuncOp reference);

} // namespace ke::eval

#endif // KE_EVAL_EVALUATEKERNEL_H
