//===- Compare.h - checking a candidate's outputs against the reference ---===//

#ifndef KE_EVAL_COMPARE_H
#define KE_EVAL_COMPARE_H

#include "ke/Eval/HostTensor.h"

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

} // namespace ke::eval

#endif // KE_EVAL_COMPARE_H
