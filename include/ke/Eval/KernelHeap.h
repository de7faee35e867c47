//===- KernelHeap.h - where a JIT-compiled CPU kernel allocates -*- C++ -*-===//
//
// A kernel lowered from tensors allocates its temporaries (and, when it
// returns fresh results, its results) with malloc and frees them before it
// returns. The C library hands large blocks back to the system on free, so
// every call of such a kernel page-faults its temporaries in again: for a
// cross-entropy over a 16 MB row block that was 9 of 13 ms. With reuse on,
// a large block a kernel frees is kept for the next allocation of its size,
// as PyTorch's and IREE's caching allocators keep theirs: a kernel called
// again (a timed call, a model's next step) writes pages it already touched.
//
//===----------------------------------------------------------------------===//

#ifndef KE_EVAL_KERNELHEAP_H
#define KE_EVAL_KERNELHEAP_H

#include <cstddef>
#include <cstdint>

namespace ke::eval {

/// Whether freed large blocks are kept for reuse (the default) or returned
/// to the C library at once (as plain malloc and free do).
void setKernelHeapReuse(bool reuse);

/// malloc/aligned_alloc for kernels: `alignment` is a power of two; null
/// when the system has no memory left (the kept blocks are released and the
/// allocation tried once more first).
void *allocateFromKernelHeap(size_t alignment, size_t bytes);

/// free for kernels: takes any pointer allocateFromKernelHeap returned, and
/// null.
void freeToKernelHeap(void *pointer);

/// Whether a kept block is filled with NaN bytes (0xff) before it is handed
/// out again (the default): a check then catches a kernel that reads a
/// temporary it did not write, instead of it reading the last call's values.
/// Timed calls turn it off.
void setKernelHeapPoison(bool poison);

/// Returns every kept block to the C library.
void releaseKernelHeapCache();

struct KernelHeapStatistics {
  uint64_t reusedAllocations = 0; ///< served from a kept block
  uint64_t systemAllocations = 0; ///< large blocks the C library allocated
  size_t keptBytes = 0;           ///< in blocks kept for reuse now
};
KernelHeapStatistics getKernelHeapStatistics();

} // namespace ke::eval

#endif // KE_EVAL_KERNELHEAP_H
