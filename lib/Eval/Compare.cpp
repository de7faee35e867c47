//===- Compare.cpp - checking outputs against the reference ---------------===//

#include "ke/Eval/Compare.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace ke::eval;

Tolerance ke::eval::getDefaultTolerance(ElementKind kind) {
  switch (kind) {
  case ElementKind::F32:
  case ElementKind::F64:
    return {1e-4, 1e-4};
  case ElementKind::F16:
    return {1e-2, 1e-2};
  case ElementKind::BF16:
    return {2e-2, 2e-2};
  default:
    return {0.0, 0.0};
  }
}

Tolerance ke::eval::getTF32Tolerance() {
  // Inputs rounded to 10 mantissa bits (2^-11 relative each); the absolute
  // part covers sums of a few thousand such products that cancel.
  return {5e-2, 1e-2};
}

Comparison ke::eval::compareTensors(const HostTensor &actual,
                                    const HostTensor &expected,
                                    Tolerance tolerance) {
  Comparison result;
  const TensorSpec &a = actual.getSpec(), &e = expected.getSpec();
  if (a.kind != e.kind || a.shape != e.shape) {
    result.matches = false;
    result.numMismatches = 1;
    result.firstMismatch = "shape or element type differs from the reference";
    return result;
  }
  auto noteMismatch = [&](int64_t index, const std::string &why) {
    if (result.numMismatches++ == 0)
      result.firstMismatch = llvm::formatv("element {0}: {1}", index, why);
    result.matches = false;
  };

  bool isFloat = isFloatKind(a.kind);
  for (int64_t i = 0, n = actual.getNumElements(); i < n; ++i) {
    if (!isFloat) {
      int64_t got = actual.getAsInt(i), want = expected.getAsInt(i);
      double diff = std::fabs(static_cast<double>(got) - want);
      result.maxAbsError = std::max(result.maxAbsError, diff);
      if (want != 0)
        result.maxRelError =
            std::max(result.maxRelError, diff / std::fabs((double)want));
      if (diff > tolerance.atol + tolerance.rtol * std::fabs((double)want))
        noteMismatch(i, llvm::formatv("got {0}, expected {1}", got, want));
      continue;
    }
    double got = actual.getAsDouble(i), want = expected.getAsDouble(i);
    if (std::isnan(want) || std::isnan(got)) {
      if (std::isnan(want) != std::isnan(got))
        noteMismatch(i, llvm::formatv("got {0}, expected {1} (NaN position)",
                                      got, want));
      continue;
    }
    if (std::isinf(want) || std::isinf(got)) {
      if (got != want)
        noteMismatch(i, llvm::formatv("got {0}, expected {1} (Inf position)",
                                      got, want));
      continue;
    }
    double diff = std::fabs(got - want);
    result.maxAbsError = std::max(result.maxAbsError, diff);
    if (want != 0.0)
      result.maxRelError = std::max(result.maxRelError, diff / std::fabs(want));
    if (diff > tolerance.atol + tolerance.rtol * std::fabs(want))
      noteMismatch(i, llvm::formatv("got {0}, expected {1}, |diff| {2:e} > "
                                    "atol {3:e} + rtol {4:e} * |expected|",
                                    got, want, diff, tolerance.atol,
                                    tolerance.rtol));
  }
  return result;
}

void ke::eval::joinWideReference(llvm::SmallVectorImpl<HostTensor> &single,
                                 llvm::ArrayRef<HostTensor> wide,
                                 llvm::SmallVectorImpl<double> &allowances) {
  allowances.assign(single.size(), 0.0);
  for (auto [r, result] : llvm::enumerate(single)) {
    if (!isFloatKind(result.getSpec().kind))
      continue;
    double distance = 0.0;
    for (int64_t i = 0, n = result.getNumElements(); i < n; ++i) {
      double narrow = result.getAsDouble(i), precise = wide[r].getAsDouble(i);
      if (!std::isfinite(narrow) || !std::isfinite(precise))
        continue;
      distance = std::max(distance, std::fabs(narrow - precise));
      result.setFromDouble(i, precise);
    }
    allowances[r] = kRoundingAllowanceFactor * distance;
  }
}
