//===- SlurmEvaluator.h - ke-run as Slurm job steps -------------*- C++ -*-===//
//
// The executor for clusters: every evaluation is `srun ... ke-run ...`, a job
// of its own on a worker node, reading the candidate from and writing its
// verdict to a directory the nodes share (`work-dir=`). The search process
// stays the only writer of the database: it reads each report file back.
// A job that fails for the cluster's reasons (cancelled, preempted, node
// failure, Slurm's time limit, an allocation refused) is queued again, then
// recorded failed with Slurm's reason; a candidate's own failure is recorded
// as on the local executor. When the search is stopped, its jobs are
// cancelled (`scancel`) and nothing of them is reported.
//
//===----------------------------------------------------------------------===//

#ifndef KE_EVAL_SLURMEVALUATOR_H
#define KE_EVAL_SLURMEVALUATOR_H

#include "ke/Eval/Evaluator.h"

#include <functional>
#include <string>
#include <vector>

namespace ke::eval {

struct SlurmEvaluatorOptions {
  /// ke-run's options; `workers` is the number of jobs in flight.
  SubprocessEvaluatorOptions run;
  /// Passed to srun as they are, split at spaces (e.g. "-p gpu
  /// --gres=gpu:1 --time=00:05:00").
  std::string slurmArgs;
  /// $KE_SRUN / $KE_SCANCEL, else srun, scancel and squeue on PATH.
  std::string srunPath = "srun", scancelPath = "scancel", squeuePath = "squeue";
  /// Times a job failed for the cluster's reasons is queued again.
  unsigned retries = 1;
  /// Whether the search was asked to stop (Ctrl-C, SIGTERM).
  std::function<bool()> shouldStop;
  /// Where warnings (a job re-queued) go; none: stderr.
  std::function<void(const std::string &)> warn;
};

/// The reason a job failed for the cluster (a line of srun's or slurmstepd's
/// stderr), or empty when its failure, if any, is the candidate's.
std::string findClusterFailure(llvm::StringRef srunErrors);

/// "job CANCELLED (reason)" when squeue's "%T|%r" of an ended job says the
/// cluster ended it (cancelled, time limit, node failure, preemption, ...),
/// else empty.
std::string describeClusterJobState(llvm::StringRef stateAndReason);

class SlurmEvaluator : public Evaluator {
public:
  explicit SlurmEvaluator(SlurmEvaluatorOptions options);
  std::vector<EvaluationResult>
  evaluate(llvm::ArrayRef<EvaluationRequest> requests) override;

  /// What the search reports when it was stopped during an evaluation.
  static constexpr const char *kCancelled = "cancelled";

private:
  SlurmEvaluatorOptions options;
  std::vector<std::string> slurmArguments;
  std::string jobPrefix; ///< "ke-<pid>": this search's jobs
};

} // namespace ke::eval

#endif // KE_EVAL_SLURMEVALUATOR_H
