//===- Compare.h - checking a candidate's outputs against the reference ---===//

#ifndef KE_EVAL_COMPARE_H
#define KE_EVAL_COMPARE_H

#include "ke/Eval/HostTensor.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace ke::eval {

struct Tolerance {
  double atol = 1e-4;
  double rtol = 1e-4;
};

/// DESIGN.md's defaults: 1e-4/1e-4 for f32 and f64, looser for 16-bit
/// floats, exact for integers.
Tolerance getDefaultTolerance(ElementKind kind);
/// f32 results of products the kernel allows on TF32 tensor cores.
Tolerance getTF32Tolerance();

struct Comparison {
  bool matches = true;
  double maxAbsError = 0.0;
  double maxRelError = 0.0;
  int64_t numMismatches = 0;
  /// First failing element and why, empty when `matches`.
  std::string firstMismatch;
};

/// Element-wise `|actual - expected| <= atol + rtol * |expected|`; NaN and
/// infinities must sit at the same positions (with the same sign for
/// infinities). Shapes and kinds must agree.
Comparison compareTensors(const HostTensor &actual, const HostTensor &expected,
                          Tolerance tolerance);

/// How many times the f32 reference's own rounding a candidate may differ
/// from the f64 reference: another summation order rounds by about as
/// much (lanes, blocks, split-K), not by exactly as much.
constexpr double kRoundingAllowanceFactor = 2.0;

/// Joins a reference computed in the kernel's types (`single`) with the
/// same computed in f64 and rounded to them (`wide`), into `single`: float
/// results take the wide values except where the single one is NaN or
/// infinite (where the kernel's own types overflow, they decide), and
/// `allowances[r]` becomes kRoundingAllowanceFactor times the largest
/// distance between the two over result r's finite elements. Integer
/// results keep the single values (an argmax of values that round to a
/// tie in f32 is the f32 program's answer) and no allowance.
void joinWideReference(llvm::SmallVectorImpl<HostTensor> &single,
                       llvm::ArrayRef<HostTensor> wide,
                       llvm::SmallVectorImpl<double> &allowances);

} // namespace ke::eval

#endif // KE_EVAL_COMPARE_H
