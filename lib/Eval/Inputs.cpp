//===- Inputs.cpp - deterministic seeded kernel inputs --------------------===//
//
// A fixed generator (splitmix64) rather than <random>'s distributions, whose
// output is implementation-defined: the same seed must mean the same inputs
// on every machine and standard library, so failures reproduce.
//
//===----------------------------------------------------------------------===//

#include "ke/Eval/Inputs.h"

#include <algorithm>
#include <iterator>

using namespace ke::eval;

namespace {
class SplitMix64 {
public:
  explicit SplitMix64(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1) with 53 random bits.
  double nextUnit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  /// Uniform in [lo, hi), hi > lo.
  int64_t nextInRange(int64_t lo, int64_t hi) {
    uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
    return lo + static_cast<int64_t>(next() % span);
  }

private:
  uint64_t state;
};
} // namespace

/// One element in sixteen becomes a signed zero, and as many (at most
/// about 64 per tensor) a denormal: what code that loses the sign of zero
/// or flushes denormals gets wrong. Denormals stay few because x86 takes a
/// microcode assist (about 150 cycles) for every vector instruction with a
/// denormal lane: at one element in sixteen, the check of a 2048^3 f32
/// GEMM took 27.5 s; with these, 2.8. One denormal catches a flush.
/// (Large magnitudes would also expose overflow, but summed with ordinary
/// values they make any reassociated reduction differ beyond the
/// tolerance.)
static void addSpecialValues(HostTensor &tensor, SplitMix64 &generator) {
  // The smallest normal of the kind, quartered: a denormal of f16, bf16 and
  // f32 (f64 holds it as a normal).
  double denormal =
      tensor.getSpec().kind == ElementKind::F16 ? 0x1.0p-16 : 0x1.0p-128;
  const double values[] = {0.0, -0.0, denormal, -denormal};
  int64_t count = tensor.getNumElements();
  // One in `denormalStride` of the draws that would place a denormal does.
  uint64_t denormalStride = std::max<int64_t>(1, count / 1024);
  for (int64_t i = 0; i < count; ++i) {
    uint64_t draw = generator.next();
    if (draw % 8 != 0)
      continue;
    uint64_t which = (draw >> 3) % std::size(values);
    if (which >= 2 && (draw >> 5) % denormalStride != 0)
      continue;
    tensor.setFromDouble(i, values[which]);
  }
}

std::pair<int64_t, int64_t> ke::eval::getDefaultIntegerRange(ElementKind kind) {
  switch (kind) {
  case ElementKind::I1:
    return {0, 2};
  case ElementKind::I8:
    return {-8, 8};
  default:
    return {-64, 64};
  }
}

HostTensor ke::eval::makeInput(const TensorSpec &spec, uint64_t seed,
                               unsigned argIndex) {
  HostTensor tensor(spec);
  SplitMix64 generator(seed * 0x100000001b3ull + argIndex * 0x9e3779b9ull + 1);
  int64_t count = tensor.getNumElements();
  if (isFloatKind(spec.kind)) {
    for (int64_t i = 0; i < count; ++i)
      tensor.setFromDouble(i, generator.nextUnit() * 2.0 - 1.0);
    if (isSpecialValuesSeed(seed))
      addSpecialValues(tensor, generator);
    return tensor;
  }
  auto [lo, hi] = spec.range ? *spec.range : getDefaultIntegerRange(spec.kind);
  if (spec.kind == ElementKind::I1) {
    lo = std::max<int64_t>(lo, 0);
    hi = std::min<int64_t>(hi, 2);
  }
  for (int64_t i = 0; i < count; ++i)
    tensor.setFromInt(i, generator.nextInRange(lo, hi));
  return tensor;
}
