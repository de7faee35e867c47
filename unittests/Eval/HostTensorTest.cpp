//===- HostTensorTest.cpp - element storage and 16-bit floats -------------===//

#include "ke/Eval/HostTensor.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>

using namespace ke::eval;

namespace {
TEST(HostTensorTest, HalfRoundTripsExactValues) {
  for (float value : {0.0f, 1.0f, -2.5f, 65504.0f, 0.000061035156f})
    EXPECT_EQ(halfBitsToFloat(floatToHalfBits(value)), value);
  EXPECT_EQ(floatToHalfBits(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalfBits(-2.0f), 0xc000);
}

TEST(HostTensorTest, HalfRoundsToNearestEven) {
  // 1 + 2^-11 is halfway between 1 and the next half (1 + 2^-10): ties to 1.
  EXPECT_EQ(floatToHalfBits(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  // Slightly above halfway rounds up.
  EXPECT_EQ(floatToHalfBits(1.0f + std::ldexp(1.5f, -11)), 0x3c01);
  EXPECT_EQ(floatToHalfBits(1e6f), 0x7c00); // overflow to +inf
  EXPECT_TRUE(std::isnan(halfBitsToFloat(floatToHalfBits(NAN))));
  // Smallest subnormal.
  EXPECT_EQ(halfBitsToFloat(0x0001), std::ldexp(1.0f, -24));
}

TEST(HostTensorTest, BFloatRoundsToNearestEven) {
  EXPECT_EQ(floatToBFloatBits(1.0f), 0x3f80);
  EXPECT_EQ(bfloatBitsToFloat(0x3f80), 1.0f);
  // 1 + 2^-8 is halfway between bf16 neighbours 1 and 1 + 2^-7: ties to 1.
  EXPECT_EQ(floatToBFloatBits(1.0f + std::ldexp(1.0f, -8)), 0x3f80);
  EXPECT_TRUE(std::isnan(bfloatBitsToFloat(floatToBFloatBits(NAN))));
}

TEST(HostTensorTest, StoresEachKindWithItsWidth) {
  TensorSpec spec;
  spec.shape = {3};
  for (ElementKind kind : {ElementKind::I1, ElementKind::I8, ElementKind::I16,
                           ElementKind::I32, ElementKind::I64}) {
    spec.kind = kind;
    HostTensor tensor(spec);
    tensor.setFromInt(1, 1);
    EXPECT_EQ(tensor.getAsInt(0), 0);
    EXPECT_EQ(tensor.getAsInt(1), 1);
    EXPECT_EQ(tensor.getAsInt(2), 0);
    EXPECT_EQ(spec.getNumBytes(), 3 * getByteWidth(kind));
  }
  spec.kind = ElementKind::I8;
  HostTensor bytes(spec);
  bytes.setFromInt(0, -5);
  EXPECT_EQ(bytes.getAsInt(0), -5);
}

TEST(HostTensorTest, DataIsAligned) {
  TensorSpec spec;
  spec.shape = {3};
  HostTensor tensor(spec);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(tensor.getData()) % 64, 0u);
}
} // namespace
