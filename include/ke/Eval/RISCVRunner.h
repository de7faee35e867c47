//===- RISCVRunner.h - a kernel on rv64gcv under qemu -----------*- C++ -*-===//
//
// The riscv target of ke-run: the kernel is lowered with ke-lower-riscv,
// compiled for rv64gcv (RVV 1.0) in-process, linked with a generated C
// harness by riscv64-linux-gnu-gcc and run by qemu-riscv64 with the vector
// extension on, reading inputs from files and writing results back. Its
// "time" is an estimate: llvm-mca's cycles per basic block on a named CPU
// model times how often qemu saw each block run.
//
//===----------------------------------------------------------------------===//

#ifndef KE_EVAL_RISCVRUNNER_H
#define KE_EVAL_RISCVRUNNER_H

#include "ke/Eval/KernelSignature.h"
#include "ke/Target/CPUPipeline.h"
#include "ke/Target/RISCVCodegen.h"

#include <memory>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace ke::eval {

struct RISCVRunOptions {
  RISCVCodegenOptions codegen;
  std::string workDirectory; ///< empty: a fresh temporary directory
  unsigned timeoutSeconds = 120;
  double clockGHz = 1.0; ///< turns the cycle estimate into nanoseconds
};

/// The host tools the riscv target needs, or a message naming what is
/// missing and the Debian package that has it.
llvm::Error checkRISCVTools();

class RISCVKernel {
public:
  /// Errors start with the stage: "lower:", "codegen:", "link:", "mca:".
  static llvm::Expected<std::unique_ptr<RISCVKernel>>
  compile(mlir::func::FuncOp function, const LowerCPUOptions &options,
          const KernelSignature &signature, const RISCVRunOptions &runOptions);
  ~RISCVKernel();

  /// Runs once under qemu ("run:" errors carry qemu's output) and copies
  /// the results out; records how often each basic block ran.
  llvm::Error run(llvm::ArrayRef<HostTensor> inputs,
                  llvm::SmallVectorImpl<HostTensor> &results);

  /// Cycles of the last run: sum over blocks of executions x llvm-mca's
  /// cycles per iteration of the block.
  double getEstimatedCycles() const;
  const std::string &getAssembly() const { return assembly; }
  const RISCVRunOptions &getOptions() const { return options; }

private:
  RISCVKernel() = default;
  KernelSignature signature;
  RISCVRunOptions options;
  std::string directory, executable, assembly;
  bool ownsDirectory = false;
  std::vector<double> cyclesPerBlock;
  std::vector<uint64_t> blockCounts;
};

} // namespace ke::eval

#endif // KE_EVAL_RISCVRUNNER_H
