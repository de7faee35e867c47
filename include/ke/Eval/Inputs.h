//===- Inputs.h - deterministic seeded kernel inputs -------------*- C++
//-*-===//

#ifndef KE_EVAL_INPUTS_H
#define KE_EVAL_INPUTS_H

#include "ke/Eval/HostTensor.h"

namespace ke::eval {

/// The range integer inputs are drawn from when no `ke.range` is given: small
/// enough that sums and products of a few elements do not overflow.
std::pair<int64_t, int64_t> getDefaultIntegerRange(ElementKind kind);

/// Fills a fresh tensor for argument `argIndex` from `seed`. The same
/// (spec, seed, argIndex) always gives the same bytes on every machine:
/// floats are uniform in [-1, 1) rounded to the kind, integers uniform in
/// the argument's `ke.range` (or the default range), i1 is 0 or 1.
HostTensor makeInput(const TensorSpec &spec, uint64_t seed, unsigned argIndex);

/// The seed of the special-values inputs that follow `seed` (its own
/// number: the reference cache keys outputs by seed).
constexpr uint64_t getSpecialValuesSeed(uint64_t seed) {
  return seed | (uint64_t(1) << 63);
}
constexpr bool isSpecialValuesSeed(uint64_t seed) { return seed >> 63; }

/// makeInput for a special-values seed: the floats of makeInput with one
/// element in sixteen replaced by +0 or -0 and up to as many (about 64 in
/// a large tensor) by a +-denormal; integers as makeInput (their ranges
/// are the kernel's).

} // namespace ke::eval

#endif // KE_EVAL_INPUTS_H
