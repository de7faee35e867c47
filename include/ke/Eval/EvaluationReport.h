//===- EvaluationReport.h - what one evaluation of a kernel found -*- C++ -*-===//
//
// The one description of an evaluation's outcome: ke-run and ke-gpu-run
// print it, the subprocess evaluator reads it back, the prompt synthesizer
// turns it into a diagnosis. Its JSON form is ke-run's `--json` line.
//
//===----------------------------------------------------------------------===//

#ifndef KE_EVAL_EVALUATIONREPORT_H
#define KE_EVAL_EVALUATIONREPORT_H

#include "ke/Eval/Timing.h"
#include "ke/Eval/WorkEstimate.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace ke::eval {

/// The stage of an error from the check against a tensor file's outputs
/// (`--expected`): what a caller tells apart from ke's own reference check.
inline constexpr llvm::StringLiteral kCompareWithExpectedStage =
    "compare with expected";

struct EvaluationReport {
  std::string kernel, candidate, target = "cpu";
  unsigned threads = 1, seeds = 1;
  bool correct = false;
  double maxAbsError = 0.0, maxRelError = 0.0;
  std::optional<TimingResult> timing;
  WorkEstimate work;
  /// The calibrated peaks and the roofline bound, when the target has them.
  std::optional<double> peakGflops, peakGbps;
  std::string bound;
  std::string error; ///< "<stage>: <message>", empty when correct
  struct Region {
    std::string name;
    double nsPerCall = 0.0, share = 0.0;
  };
  /// Whether a profile was asked for: the profile fields are reported.
  bool profiled = false;
  std::vector<Region> regions;
  std::map<std::string, double> counters; ///< per call
  std::string countersError;
  std::string profileError;            ///< why a profile has no regions
  std::string timeSource = "measured"; ///< how time_ns was obtained
  /// Who provided the result buffers of the timed calls: "caller" or
  /// "kernel" (host-JIT targets; empty elsewhere).
  std::string outputs;
  /// Where the timed calls' temporaries came from: "reused" (blocks kept
  /// from the previous call) or "system" (host-JIT targets; empty elsewhere).
  std::string temporaries;
  /// The inputs the timed calls ran on: "seed N" (ke's own, uniform in
  /// [-1, 1)), or "expected" (a tensor file's: the inputs another framework
  /// was timed on). Host-JIT targets; empty elsewhere.
  std::string timedInputs;
  /// The arithmetic the kernel allowed: "ieee", or "tf32" (f32 products on
  /// TF32 tensor cores, checked with TF32's tolerance).
  std::string precision;
  std::vector<std::string> referenceWarnings; ///< e.g. NaN in its results
  /// The largest rounding allowance a wide (f64) reference added to the
  /// absolute tolerance: its distance from the f32 reference; 0 without.
  double roundingAllowance = 0.0;
  /// The check against a tensor file's outputs (`ke-run --expected`).
  struct ExpectedCheck {
    std::string file;
    double maxAbsError = 0.0, maxRelError = 0.0;
  };
  std::optional<ExpectedCheck> expected;
  /// Set when the measured time implies more FLOP/s than the machine's
  /// measured peak, twice (measured, then measured again): the timed call
  /// cannot have done the reference's work. The search never takes such a
  /// candidate as its best.
  std::string implausibleTiming;
  std::optional<bool> compiled, runnable;     ///< GPU targets
  std::string notRunnable;                    ///< why it could not run
  std::optional<llvm::json::Value> gpuCode;
  std::optional<double> cycles; ///< riscv: the estimate

  /// A static cost is not a time: no rates are derived from it.
  bool hasStaticCost() const;
  std::optional<double> getMedianNs() const;

  llvm::json::Value toJSON() const;
  /// Reads what toJSON wrote; fields it does not find keep their defaults.
  static llvm::Expected<EvaluationReport> fromJSON(const llvm::json::Value &);
  static llvm::Expected<EvaluationReport> parse(llvm::StringRef jsonText);

  /// The human-readable form ke-run prints without --json.
  void printSummary(llvm::raw_ostream &os) const;
};

} // namespace ke::eval

#endif // KE_EVAL_EVALUATIONREPORT_H
