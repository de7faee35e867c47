//===- HostTensor.h - kernel arguments and results in host memory -*- C++
//-*-===//
//
// The evaluator's view of a kernel's values: element kind, static shape and
// bytes, independent of MLIR so that input generation and comparison can be
// unit-tested (and reused by every runner) without a context.
//
//===----------------------------------------------------------------------===//

#ifndef KE_EVAL_HOSTTENSOR_H
#define KE_EVAL_HOSTTENSOR_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>

namespace ke::eval {

enum class ElementKind { F16, BF16, F32, F64, I1, I8, I16, I32, I64 };

/// Bytes one element occupies in memory (i1 is stored as a byte).
unsigned getByteWidth(ElementKind kind);
bool isFloatKind(ElementKind kind);
llvm::StringRef getKindName(ElementKind kind);

/// Shape and element kind of one argument or result. Rank 0 with `isScalar`
/// is a plain scalar (not a tensor).
struct TensorSpec {
  ElementKind kind = ElementKind::F32;
  llvm::SmallVector<int64_t> shape;
  bool isScalar = false;
  /// Half-open range [lo, hi) for integer inputs (`ke.range`).
  std::optional<std::pair<int64_t, int64_t>> range;

  int64_t getNumElements() const;
  int64_t getNumBytes() const { return getNumElements() * getByteWidth(kind); }
};

/// A 64-byte aligned buffer holding one value.
class HostTensor {
public:
  explicit HostTensor(TensorSpec spec);

  const TensorSpec &getSpec() const { return spec; }
  /// A copy with its own storage.
  HostTensor clone() const;
  int64_t getNumElements() const { return spec.getNumElements(); }
  void *getData() { return storage.get(); }
  const void *getData() const { return storage.get(); }

  /// Element `index` converted to double (exact for every kind but i64
  /// values beyond 2^53).
  double getAsDouble(int64_t index) const;
  /// Stores `value` at `index`, rounding to the element kind.
  void setFromDouble(int64_t index, double value);
  /// Raw integer value of an integer element.
  int64_t getAsInt(int64_t index) const;
  void setFromInt(int64_t index, int64_t value);

private:
  struct FreeDeleter {
    void operator()(void *pointer) const;
  };
  TensorSpec spec;
  std::unique_ptr<void, FreeDeleter> storage;
};

/// Round-to-nearest-even conversions for the 16-bit float kinds.
uint16_t floatToHalfBits(float value);
float halfBitsToFloat(uint16_t bits);
uint16_t floatToBFloatBits(float value);
float bfloatBitsToFloat(uint16_t bits);

} // namespace ke::eval

#endif // KE_EVAL_HOSTTENSOR_H
