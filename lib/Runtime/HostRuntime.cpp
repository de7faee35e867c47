//===- HostRuntime.cpp - what lowered host code calls, built into ke ------===//
//
// MLIR's lowerings to LLVM call a few runtime functions (memref.copy of
// strided memrefs calls memrefCopy, vector.print calls print*). Debian's
// libmlir_c_runner_utils provides them but links the shared libMLIR and
// libLLVM, which GPU hosts running ke's release archive do not have, and GPU
// bundles' host code needs them too. ke-run exports these definitions, so
// JIT-compiled kernels and bundles resolve them from the process. Written
// against the documented C ABI of MLIR's memref descriptors.
//
//===----------------------------------------------------------------------===//

#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {
/// A ranked memref descriptor seen through an unranked one: allocated and
/// aligned pointers, offset, then `rank` sizes and `rank` strides.
struct StridedView {
  char *aligned;
  int64_t offset;
  const int64_t *sizes;
  const int64_t *strides;
};

struct UnrankedMemRef {
  int64_t rank;
  void *descriptor;
};

StridedView view(const UnrankedMemRef &memref) {
  auto *pointers = static_cast<char **>(memref.descriptor);
  auto *integers = reinterpret_cast<int64_t *>(pointers + 2);
  return {pointers[1], integers[0], integers + 1, integers + 1 + memref.rank};
}
} // namespace

extern "C" {

/// Copies every element of `source` to the same position of `target`
/// (same shape, any strides).
void memrefCopy(int64_t elementSize, UnrankedMemRef *source,
                UnrankedMemRef *target) {
  int64_t rank = source->rank;
  StridedView from = view(*source), to = view(*target);
  int64_t count = 1;
  for (int64_t d = 0; d < rank; ++d)
    count *= from.sizes[d];
  if (count == 0)
    return;
  std::vector<int64_t> index(rank, 0);
  int64_t fromOffset = from.offset, toOffset = to.offset;
  for (int64_t n = 0; n < count; ++n) {
    std::memcpy(to.aligned + toOffset * elementSize,
                from.aligned + fromOffset * elementSize, elementSize);
    // Odometer over the indices, innermost fastest.
    for (int64_t d = rank - 1; d >= 0; --d) {
      fromOffset += from.strides[d];
      toOffset += to.strides[d];
      if (++index[d] < from.sizes[d])
        break;
      fromOffset -= from.strides[d] * from.sizes[d];
      toOffset -= to.strides[d] * to.sizes[d];
      index[d] = 0;
    }
  }
}

void printI64(int64_t value) { std::printf("%" PRId64, value); }
void printU64(uint64_t value) { std::printf("%" PRIu64, value); }
void printF32(float value) { std::printf("%g", value); }
void printF64(double value) { std::printf("%lg", value); }
void printString(const char *text) { std::fputs(text, stdout); }
void printOpen() { std::fputs("( ", stdout); }
void printClose() { std::fputs(" )", stdout); }
void printComma() { std::fputs(", ", stdout); }
void printNewline() { std::fputs("\n", stdout); }

double rtclock() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
} // extern "C"
