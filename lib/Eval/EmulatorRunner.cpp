//===- EmulatorRunner.cpp - candidates run under qemu, timed by llvm-mca --===//
//
// The riscv target: the candidate is compiled for rv64gcv and run under
// qemu (the reference on the host); its time is llvm-mca's cycle estimate
// per basic block times the blocks' execution counts, at a nominal clock.
//
//===----------------------------------------------------------------------===//

#include "ke/Eval/RISCVRunner.h"
#include "ke/Eval/TargetRunner.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace ke::eval;

namespace {
class EmulatorRunner : public TargetRunner {
public:
  explicit EmulatorRunner(const EvaluationOptions &options)
      : options(options) {}

  llvm::Error compile(const KernelJob &job,
                      const KernelSignature &signature) override {
    ke::LowerCPUOptions lowering;
    lowering.naive = options.naive;
    lowering.vectorWidth = options.vectorWidth;
    RISCVRunOptions runOptions;
    runOptions.codegen.cpu = options.riscvCPU;
    // qemu runs in a child process with this limit of its own.
    runOptions.timeoutSeconds =
        options.timeoutSeconds ? options.timeoutSeconds : 600;
    runOptions.clockGHz = options.riscvGHz;
    runOptions.workDirectory = options.workDirectory;
    auto compiled =
        RISCVKernel::compile(job.evaluated, lowering, signature, runOptions);
    if (!compiled)
      return compiled.takeError();
    candidate = std::move(*compiled);
    if (options.emitAssembly)
      llvm::outs() << candidate->getAssembly();
    return llvm::Error::success();
  }

  llvm::Error run(llvm::ArrayRef<HostTensor> inputs,
                  llvm::SmallVectorImpl<HostTensor> &outputs) override {
    return candidate->run(inputs, outputs);
  }

  llvm::Error measure(llvm::ArrayRef<HostTensor>,
                      EvaluationReport &report) override {
    if (options.checkOnly)
      return llvm::Error::success();
    double cycles = candidate->getEstimatedCycles();
    report.cycles = cycles;
    double ns = cycles / options.riscvGHz;
    report.timing = TimingResult{ns, ns, 1};
    report.timeSource = llvm::formatv(
        "estimate: llvm-mca -mcpu={0} cycles per basic block x block "
        "executions counted under qemu-riscv64, at {1} GHz",
        options.riscvCPU, options.riscvGHz);
    return llvm::Error::success();
  }

private:
  const EvaluationOptions &options;
  std::unique_ptr<RISCVKernel> candidate;
};
} // namespace

std::unique_ptr<TargetRunner>
ke::eval::createEmulatorRunner(const EvaluationOptions &options) {
  return std::make_unique<EmulatorRunner>(options);
}
