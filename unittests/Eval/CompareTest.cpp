//===- CompareTest.cpp - output comparison --------------------------------===//

#include "ke/Eval/Compare.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace ke::eval;

namespace {
HostTensor makeF32(std::initializer_list<double> values) {
  TensorSpec spec;
  spec.kind = ElementKind::F32;
  spec.shape = {static_cast<int64_t>(values.size())};
  HostTensor tensor(spec);
  int64_t i = 0;
  for (double value : values)
    tensor.setFromDouble(i++, value);
  return tensor;
}

TEST(CompareTest, EqualTensorsMatch) {
  Comparison result = compareTensors(makeF32({1, 2, 3}), makeF32({1, 2, 3}),
                                     getDefaultTolerance(ElementKind::F32));
  EXPECT_TRUE(result.matches);
  EXPECT_EQ(result.maxAbsError, 0.0);
  EXPECT_EQ(result.numMismatches, 0);
}

TEST(CompareTest, WithinToleranceMatchesAndReportsError) {
  Comparison result =
      compareTensors(makeF32({1.00005, 2}), makeF32({1, 2}), {1e-4, 1e-4});
  EXPECT_TRUE(result.matches);
  EXPECT_NEAR(result.maxAbsError, 5e-5, 1e-6);
  EXPECT_NEAR(result.maxRelError, 5e-5, 1e-6);
}

TEST(CompareTest, RelativeToleranceScalesWithMagnitude) {
  // |diff| = 0.05 > atol, but <= rtol * 1000.
  EXPECT_TRUE(compareTensors(makeF32({1000.05}), makeF32({1000}), {1e-4, 1e-4})
                  .matches);
  EXPECT_FALSE(
      compareTensors(makeF32({1.05}), makeF32({1}), {1e-4, 1e-4}).matches);
}

TEST(CompareTest, MismatchNamesFirstElement) {
  Comparison result =
      compareTensors(makeF32({1, 5, 7}), makeF32({1, 2, 3}), {1e-4, 1e-4});
  EXPECT_FALSE(result.matches);
  EXPECT_EQ(result.numMismatches, 2);
  EXPECT_NE(result.firstMismatch.find("element 1"), std::string::npos);
  EXPECT_DOUBLE_EQ(result.maxAbsError, 4.0);
}

TEST(CompareTest, NaNPositionsMustAgree) {
  double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(compareTensors(makeF32({nan, 1}), makeF32({nan, 1}), {1e-4, 1e-4})
                  .matches);
  Comparison result =
      compareTensors(makeF32({1, 1}), makeF32({nan, 1}), {1e-4, 1e-4});
  EXPECT_FALSE(result.matches);
  EXPECT_NE(result.firstMismatch.find("NaN"), std::string::npos);
}

TEST(CompareTest, InfinitiesMustAgreeInSign) {
  double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(
      compareTensors(makeF32({inf}), makeF32({inf}), {1e-4, 1e-4}).matches);
  EXPECT_FALSE(
      compareTensors(makeF32({-inf}), makeF32({inf}), {1e-4, 1e-4}).matches);
  EXPECT_FALSE(
      compareTensors(makeF32({1e30}), makeF32({inf}), {1e-4, 1e-4}).matches);
}

TEST(CompareTest, IntegersAreExactByDefault) {
  TensorSpec spec;
  spec.kind = ElementKind::I32;
  spec.shape = {2};
  HostTensor a(spec), b(spec);
  a.setFromInt(0, 7);
  b.setFromInt(0, 7);
  a.setFromInt(1, 3);
  b.setFromInt(1, 4);
  Comparison result =
      compareTensors(a, b, getDefaultTolerance(ElementKind::I32));
  EXPECT_FALSE(result.matches);
  EXPECT_EQ(result.numMismatches, 1);
}

TEST(CompareTest, ShapeMismatchFails) {
  EXPECT_FALSE(
      compareTensors(makeF32({1, 2}), makeF32({1, 2, 3}), {1, 1}).matches);
}

TEST(CompareTest, SixteenBitFloatsAreLooser) {
  EXPECT_GT(getDefaultTolerance(ElementKind::F16).atol,
            getDefaultTolerance(ElementKind::F32).atol);
  EXPECT_GT(getDefaultTolerance(ElementKind::BF16).rtol,
            getDefaultTolerance(ElementKind::F32).rtol);
}

// Float results take the f64 values with twice the largest finite distance
// as their allowance; where the f32 reference overflowed its value stands.
TEST(CompareTest, WideReferenceJoinsFiniteValues) {
  double infinity = std::numeric_limits<double>::infinity();
  llvm::SmallVector<HostTensor> single;
  single.push_back(makeF32({1.0, 2.0, infinity, 4.0}));
  llvm::SmallVector<HostTensor> wide;
  wide.push_back(makeF32({1.0, 2.5, 3.0, 3.75}));
  llvm::SmallVector<double> allowances;
  joinWideReference(single, wide, allowances);
  ASSERT_EQ(allowances.size(), 1u);
  EXPECT_DOUBLE_EQ(allowances[0], kRoundingAllowanceFactor * 0.5);
  EXPECT_EQ(single[0].getAsDouble(1), 2.5);
  EXPECT_EQ(single[0].getAsDouble(2), infinity);
  EXPECT_EQ(single[0].getAsDouble(3), 3.75);
}

// Integer results (an argmax) keep the f32 program's answer.
TEST(CompareTest, WideReferenceKeepsIntegerResults) {
  TensorSpec spec;
  spec.kind = ElementKind::I64;
  spec.shape = {2};
  HostTensor narrow(spec), precise(spec);
  narrow.setFromInt(0, 3);
  narrow.setFromInt(1, 5);
  precise.setFromInt(0, 4);
  precise.setFromInt(1, 5);
  llvm::SmallVector<HostTensor> single;
  single.push_back(std::move(narrow));
  llvm::SmallVector<HostTensor> wide;
  wide.push_back(std::move(precise));
  llvm::SmallVector<double> allowances;
  joinWideReference(single, wide, allowances);
  EXPECT_EQ(single[0].getAsInt(0), 3);
  EXPECT_EQ(allowances[0], 0.0);
}
} // namespace
