//===- HostTensor.cpp - kernel values in host memory ----------------------===//

#include "ke/Eval/HostTensor.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

using namespace ke::eval;

unsigned ke::eval::getByteWidth(ElementKind kind) {
  switch (kind) {
  case ElementKind::F16:
  case ElementKind::BF16:
  case ElementKind::I16:
    return 2;
  case ElementKind::F32:
  case ElementKind::I32:
    return 4;
  case ElementKind::F64:
  case ElementKind::I64:
    return 8;
  case ElementKind::I1:
  case ElementKind::I8:
    return 1;
  }
  return 0;
}

bool ke::eval::isFloatKind(ElementKind kind) {
  return kind == ElementKind::F16 || kind == ElementKind::BF16 ||
         kind == ElementKind::F32 || kind == ElementKind::F64;
}

llvm::StringRef ke::eval::getKindName(ElementKind kind) {
  switch (kind) {
  case ElementKind::F16:
    return "f16";
  case ElementKind::BF16:
    return "bf16";
  case ElementKind::F32:
    return "f32";
  case ElementKind::F64:
    return "f64";
  case ElementKind::I1:
    return "i1";
  case ElementKind::I8:
    return "i8";
  case ElementKind::I16:
    return "i16";
  case ElementKind::I32:
    return "i32";
  case ElementKind::I64:
    return "i64";
  }
  return "?";
}

int64_t TensorSpec::getNumElements() const {
  int64_t count = 1;
  for (int64_t extent : shape)
    count *= extent;
  return count;
}

uint16_t ke::eval::floatToHalfBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  uint32_t sign = (bits >> 16) & 0x8000u;
  uint32_t exponent = (bits >> 23) & 0xffu;
  uint32_t mantissa = bits & 0x7fffffu;
  if (exponent == 0xffu) // Inf or NaN (keep NaNs quiet)
    return sign | 0x7c00u | (mantissa ? 0x200u : 0u);
  int32_t halfExponent = static_cast<int32_t>(exponent) - 127 + 15;
  if (halfExponent >= 0x1f) // overflow
    return sign | 0x7c00u;
  if (halfExponent <= 0) { // subnormal or zero
    if (halfExponent < -10)
      return sign;
    mantissa |= 0x800000u;
    uint32_t shift = static_cast<uint32_t>(14 - halfExponent);
    uint32_t halfMantissa = mantissa >> shift;
    uint32_t remainder = mantissa & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (remainder > halfway || (remainder == halfway && (halfMantissa & 1u)))
      ++halfMantissa;
    return sign | halfMantissa;
  }
  uint32_t half =
      sign | (static_cast<uint32_t>(halfExponent) << 10) | (mantissa >> 13);
  uint32_t remainder = mantissa & 0x1fffu;
  if (remainder > 0x1000u || (remainder == 0x1000u && (half & 1u)))
    ++half; // may carry into the exponent, which is the right rounding
  return static_cast<uint16_t>(half);
}

float ke::eval::halfBitsToFloat(uint16_t half) {
  uint32_t sign = (half & 0x8000u) << 16;
  uint32_t exponent = (half >> 10) & 0x1fu;
  uint32_t mantissa = half & 0x3ffu;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else { // subnormal: value = mantissa * 2^-24
      float value = std::ldexp(static_cast<float>(mantissa), -24);
      return sign ? -value : value;
    }
  } else {
    bits = sign | ((exponent - 15 + 127) << 23) | (mantissa << 13);
  }
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

uint16_t ke::eval::floatToBFloatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  if ((bits & 0x7fffffffu) > 0x7f800000u) // NaN: keep it a quiet NaN
    return static_cast<uint16_t>((bits >> 16) | 0x40u);
  uint32_t roundingBias = 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>((bits + roundingBias) >> 16);
}

float ke::eval::bfloatBitsToFloat(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof(value));
  return value;
}

void HostTensor::FreeDeleter::operator()(void *pointer) const {
  std::free(pointer);
}

HostTensor::HostTensor(TensorSpec specIn) : spec(std::move(specIn)) {
  // Round up so aligned_alloc's size is a multiple of the alignment; never 0.
  size_t bytes = static_cast<size_t>(spec.getNumBytes());
  size_t padded = ((bytes + 63) / 64) * 64;
  if (padded == 0)
    padded = 64;
  storage.reset(std::aligned_alloc(64, padded));
  std::memset(storage.get(), 0, padded);
}

HostTensor HostTensor::clone() const {
  HostTensor copy(spec);
  std::memcpy(copy.getData(), getData(), spec.getNumBytes());
  return copy;
}

template <typename T> static T loadAt(const void *data, int64_t index) {
  T value;
  std::memcpy(&value, static_cast<const char *>(data) + index * sizeof(T),
              sizeof(T));
  return value;
}

template <typename T> static void storeAt(void *data, int64_t index, T value) {
  std::memcpy(static_cast<char *>(data) + index * sizeof(T), &value, sizeof(T));
}

double HostTensor::getAsDouble(int64_t index) const {
  const void *data = getData();
  switch (spec.kind) {
  case ElementKind::F16:
    return halfBitsToFloat(loadAt<uint16_t>(data, index));
  case ElementKind::BF16:
    return bfloatBitsToFloat(loadAt<uint16_t>(data, index));
  case ElementKind::F32:
    return loadAt<float>(data, index);
  case ElementKind::F64:
    return loadAt<double>(data, index);
  default:
    return static_cast<double>(getAsInt(index));
  }
}

void HostTensor::setFromDouble(int64_t index, double value) {
  void *data = getData();
  switch (spec.kind) {
  case ElementKind::F16:
    return storeAt<uint16_t>(data, index,
                             floatToHalfBits(static_cast<float>(value)));
  case ElementKind::BF16:
    return storeAt<uint16_t>(data, index,
                             floatToBFloatBits(static_cast<float>(value)));
  case ElementKind::F32:
    return storeAt<float>(data, index, static_cast<float>(value));
  case ElementKind::F64:
    return storeAt<double>(data, index, value);
  default:
    return setFromInt(index, static_cast<int64_t>(std::llround(value)));
  }
}

int64_t HostTensor::getAsInt(int64_t index) const {
  const void *data = getData();
  switch (spec.kind) {
  case ElementKind::I1:
    return loadAt<uint8_t>(data, index) & 1;
  case ElementKind::I8:
    return loadAt<int8_t>(data, index);
  case ElementKind::I16:
    return loadAt<int16_t>(data, index);
  case ElementKind::I32:
    return loadAt<int32_t>(data, index);
  case ElementKind::I64:
    return loadAt<int64_t>(data, index);
  default:
    return static_cast<int64_t>(getAsDouble(index));
  }
}

void HostTensor::setFromInt(int64_t index, int64_t value) {
  void *data = getData();
  switch (spec.kind) {
  case ElementKind::I1:
    return storeAt<uint8_t>(data, index, static_cast<uint8_t>(value & 1));
  case ElementKind::I8:
    return storeAt<int8_t>(data, index, static_cast<int8_t>(value));
  case ElementKind::I16:
    return storeAt<int16_t>(data, index, static_cast<int16_t>(value));
  case ElementKind::I32:
    return storeAt<int32_t>(data, index, static_cast<int32_t>(value));
  case ElementKind::I64:
    return storeAt<int64_t>(data, index, value);
  default:
    return setFromDouble(index, static_cast<double>(value));
  }
}
