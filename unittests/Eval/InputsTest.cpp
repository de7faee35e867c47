//===- InputsTest.cpp - seeded input generation ---------------------------===//

#include "ke/Eval/Inputs.h"

#include "llvm/ADT/ArrayRef.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <set>

using namespace ke::eval;

namespace {
TensorSpec makeSpec(ElementKind kind, llvm::ArrayRef<int64_t> shape) {
  TensorSpec spec;
  spec.kind = kind;
  spec.shape.assign(shape.begin(), shape.end());
  return spec;
}

bool sameBytes(const HostTensor &a, const HostTensor &b) {
  return a.getSpec().getNumBytes() == b.getSpec().getNumBytes() &&
         std::memcmp(a.getData(), b.getData(), a.getSpec().getNumBytes()) == 0;
}

TEST(InputsTest, SameSeedSameBytes) {
  TensorSpec spec = makeSpec(ElementKind::F32, {16, 16});
  EXPECT_TRUE(sameBytes(makeInput(spec, 7, 0), makeInput(spec, 7, 0)));
}

TEST(InputsTest, SeedAndArgumentChangeTheValues) {
  TensorSpec spec = makeSpec(ElementKind::F32, {64});
  EXPECT_FALSE(sameBytes(makeInput(spec, 1, 0), makeInput(spec, 2, 0)));
  EXPECT_FALSE(sameBytes(makeInput(spec, 1, 0), makeInput(spec, 1, 1)));
}

TEST(InputsTest, KnownValuesAreStable) {
  // Pins the generator: a change here changes every recorded search.
  HostTensor tensor = makeInput(makeSpec(ElementKind::I32, {4}), 1, 0);
  HostTensor again = makeInput(makeSpec(ElementKind::I32, {4}), 1, 0);
  for (int64_t i = 0; i < 4; ++i)
    EXPECT_EQ(tensor.getAsInt(i), again.getAsInt(i));
}

TEST(InputsTest, FloatsAreInUnitInterval) {
  for (ElementKind kind : {ElementKind::F16, ElementKind::BF16,
                           ElementKind::F32, ElementKind::F64}) {
    HostTensor tensor = makeInput(makeSpec(kind, {1000}), 3, 0);
    bool sawNegative = false, sawPositive = false;
    for (int64_t i = 0; i < 1000; ++i) {
      double value = tensor.getAsDouble(i);
      EXPECT_GE(value, -1.0);
      EXPECT_LE(value, 1.0);
      sawNegative |= value < 0;
      sawPositive |= value > 0;
    }
    EXPECT_TRUE(sawNegative && sawPositive) << getKindName(kind).str();
  }
}

TEST(InputsTest, IntegersHonourRange) {
  TensorSpec spec = makeSpec(ElementKind::I32, {5000});
  spec.range = std::make_pair<int64_t, int64_t>(10, 13);
  HostTensor tensor = makeInput(spec, 5, 2);
  std::set<int64_t> seen;
  for (int64_t i = 0; i < 5000; ++i)
    seen.insert(tensor.getAsInt(i));
  EXPECT_EQ(seen, (std::set<int64_t>{10, 11, 12})); // hi is excluded
}

TEST(InputsTest, DefaultIntegerRangesFitTheKind) {
  for (ElementKind kind : {ElementKind::I8, ElementKind::I16, ElementKind::I32,
                           ElementKind::I64}) {
    HostTensor tensor = makeInput(makeSpec(kind, {2000}), 9, 0);
    auto [lo, hi] = getDefaultIntegerRange(kind);
    for (int64_t i = 0; i < 2000; ++i) {
      EXPECT_GE(tensor.getAsInt(i), lo);
      EXPECT_LT(tensor.getAsInt(i), hi);
    }
  }
}

TEST(InputsTest, BooleansAreZeroOrOne) {
  HostTensor tensor = makeInput(makeSpec(ElementKind::I1, {256}), 4, 0);
  int ones = 0;
  auto *bytes = static_cast<const uint8_t *>(tensor.getData());
  for (int64_t i = 0; i < 256; ++i) {
    EXPECT_LE(bytes[i], 1);
    ones += bytes[i];
  }
  EXPECT_GT(ones, 0);
  EXPECT_LT(ones, 256);
}
} // namespace

namespace {
struct SpecialCounts {
  int64_t zeros = 0, negativeZeros = 0, denormals = 0;
};

SpecialCounts countSpecialValues(int64_t elements) {
  HostTensor tensor = makeInput(makeSpec(ElementKind::F32, {elements}),
                                getSpecialValuesSeed(1), 0);
  SpecialCounts counts;
  for (int64_t i = 0; i < elements; ++i) {
    double value = tensor.getAsDouble(i);
    if (value == 0.0)
      ++(std::signbit(value) ? counts.negativeZeros : counts.zeros);
    else if (std::fabs(value) < 0x1.0p-126)
      ++counts.denormals;
  }
  return counts;
}
} // namespace

TEST(InputsTest, SpecialValuesHaveSignedZerosAndSomeDenormals) {
  // A small tensor: about one element in sixteen of each kind.
  SpecialCounts small = countSpecialValues(1024);
  EXPECT_GT(small.zeros, 16);
  EXPECT_GT(small.negativeZeros, 16);
  EXPECT_GT(small.denormals, 32);
  // A large one keeps its signed zeros, but only tens of denormals: each
  // costs x86 a microcode assist per vector instruction that reads it.
  SpecialCounts large = countSpecialValues(1 << 22);
  EXPECT_GT(large.zeros, (1 << 22) / 64);
  EXPECT_GT(large.negativeZeros, (1 << 22) / 64);
  EXPECT_GT(large.denormals, 16);
  EXPECT_LT(large.denormals, 256);
}
