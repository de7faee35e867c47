//===- Evaluator.h - evaluating candidates in isolation ---------*- C++ -*-===//
//
// The search hands candidates (as files) to an Evaluator and gets back what
// ke-run found. The subprocess evaluator runs ke-run processes, `workers` at
// a time, each with a wall-clock and a memory limit, so that a candidate that
// crashes, hangs or eats memory costs one evaluation and nothing else. A
// remote executor (Slurm's srun) is another implementation of the interface.
//
//===----------------------------------------------------------------------===//

#ifndef KE_EVAL_EVALUATOR_H
#define KE_EVAL_EVALUATOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace ke::eval {

struct EvaluationRequest {
  std::string candidatePath; ///< a file with the kernel (tagged func)
  std::string referencePath; ///< the reference, same function name
  std::string kernel;
  /// Apply no schedule of ke-run's own (the candidate is already scheduled).
  bool naive = true;
};

struct EvaluationResult {
  std::string status; ///< "correct", "incorrect" or "failed"
  std::string error;  ///< why, when not correct
  std::optional<double> timeNs;
  std::string json; ///< ke-run's JSON line, if it printed one
};

class Evaluator {
public:
  virtual ~Evaluator();
  virtual std::vector<EvaluationResult>
  evaluate(llvm::ArrayRef<EvaluationRequest> requests) = 0;
};

struct SubprocessEvaluatorOptions {
  std::string keRunPath;
  unsigned workers = 1;
  unsigned threads = 1;
  uint64_t seed = 1;
  unsigned seeds = 1;
  double minTimeSeconds = 0.1;
  unsigned timeoutSeconds = 60;  ///< per candidate, wall clock
  unsigned memoryLimitMB = 8192; ///< per ke-run process
  std::string workDirectory;     ///< where stdout/stderr files go
  /// Directory where ke-run caches the reference's outputs (empty: none).
  std::string referenceCache;
  /// ke-run --profile: region shares and counters in the diagnosis.
  bool profile = false;
  /// ke-run --expected: a tensor file every evaluation is also checked
  /// against and timed on (empty: none).
  std::string expectedFile;
  std::string target = "cpu"; ///< ke-run --target
};

class SubprocessEvaluator : public Evaluator {
public:
  explicit SubprocessEvaluator(SubprocessEvaluatorOptions options)
      : options(std::move(options)) {}
  std::vector<EvaluationResult>
  evaluate(llvm::ArrayRef<EvaluationRequest> requests) override;

  /// Interprets one ke-run run: its exit status, its report file (the only
  /// source of the verdict), its stderr and stdout (diagnostics only: the
  /// evaluated code can print anything there).
  static EvaluationResult interpret(int exitCode, const std::string &waitError,
                                    const std::string &report,
                                    const std::string &errors,
                                    const std::string &output);
  /// ke-run's command line for `request`, its verdict going to `reportPath`.
  static std::vector<std::string>
  buildArguments(const SubprocessEvaluatorOptions &options,
                 const EvaluationRequest &request, llvm::StringRef reportPath);

private:
  SubprocessEvaluatorOptions options;
};

/// A file's contents, empty when it cannot be read.
std::string readWholeFile(llvm::StringRef path);

/// Finds ke-run: $KE_RUN, else next to the running executable, else PATH.
std::optional<std::string> findKeRun(const char *argv0 = nullptr);

} // namespace ke::eval

#endif // KE_EVAL_EVALUATOR_H
