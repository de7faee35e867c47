//===- TargetRunner.h - compile, run and measure on one target --*- C++ -*-===//
//
// What evaluateKernel asks of a target: compile the evaluated function, run
// it on one seed's inputs, keep what each checked seed produced (a GPU
// bundle carries them to the device), and measure once every seed matched.
// One implementation per runner kind of the target registry.
//
//===----------------------------------------------------------------------===//

#ifndef KE_EVAL_TARGETRUNNER_H
#define KE_EVAL_TARGETRUNNER_H

#include "ke/Eval/EvaluateKernel.h"
#include "ke/Eval/HostTensor.h"
#include "ke/Eval/KernelSignature.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>

namespace ke::eval {

class TargetRunner {
public:
  virtual ~TargetRunner();
  virtual llvm::Error compile(const KernelJob &job,
                              const KernelSignature &signature) = 0;
  virtual llvm::Error run(llvm::ArrayRef<HostTensor> inputs,
                          llvm::SmallVectorImpl<HostTensor> &outputs) = 0;
  /// True when the runner checks every kept seed on the target itself (in
  /// measure), so that running it here first (`run`) would only repeat
  /// the check on the host.
  virtual bool checksSeedsOnTarget() const { return false; }
  /// Called for each seed after its outputs matched the reference's (or,
  /// when the runner checks seeds on the target, before they are checked);
  /// the reference's outputs are the runner's to keep.
  virtual void keepSeed(unsigned index, llvm::ArrayRef<HostTensor> inputs,
                        llvm::SmallVector<HostTensor> expected,
                        llvm::ArrayRef<double> allowances) {}
  /// Times (or estimates) the candidate on `inputs`, the last seed's.
  virtual llvm::Error measure(llvm::ArrayRef<HostTensor> inputs,
                              EvaluationReport &report) = 0;
};

std::unique_ptr<TargetRunner>
createHostJITRunner(const EvaluationOptions &options);
std::unique_ptr<TargetRunner>
createEmulatorRunner(const EvaluationOptions &options);
std::unique_ptr<TargetRunner> createGPURunner(const EvaluationOptions &options);

/// The runner the target's registry entry names.
std::unique_ptr<TargetRunner>
createTargetRunner(const EvaluationOptions &options);

} // namespace ke::eval

#endif // KE_EVAL_TARGETRUNNER_H
