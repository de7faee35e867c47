//===- KernelHeap.cpp - where a JIT-compiled CPU kernel allocates ---------===//

#include "ke/Eval/KernelHeap.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <malloc.h>
#include <map>
#include <mutex>
#include <pthread.h>
#include <unordered_map>
#include <vector>

using namespace ke::eval;

namespace {
/// Smaller blocks stay on the C library's heap, which keeps them anyway.
constexpr size_t kSmallestKeptBytes = 256 * 1024;
/// Kept blocks beyond this go back to the system: a kernel whose
/// temporaries exceed it pays page faults on the rest, nothing worse.
constexpr size_t kMostKeptBytes = size_t(8) << 30;
constexpr size_t kPageBytes = 4096;

struct Block {
  void *pointer;
  size_t alignment;
};

struct Heap {
  std::mutex mutex;
  std::atomic<bool> reuse{true};
  std::atomic<bool> poison{true};
  /// Large blocks handed out, by pointer: their size and alignment.
  std::unordered_map<void *, std::pair<size_t, size_t>> live;
  /// Kept blocks by size.
  std::multimap<size_t, Block> kept;
  size_t keptBytes = 0;
  uint64_t reusedAllocations = 0;
  uint64_t systemAllocations = 0;
};

Heap &getHeap() {
  // Never destroyed: kernels may free from OpenMP workers at exit.
  static Heap *heap = new Heap();
  return *heap;
}

size_t roundUp(size_t value, size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

/// Every catchable signal blocked while the heap's lock is held: the alarm
/// (or a crash forwarded to the main thread) jumps out of the kernel or
/// parks the thread it lands on, which would leave the lock held for good
/// and hang every later allocation.
class SignalsBlocked {
public:
  SignalsBlocked() {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &previous);
  }
  ~SignalsBlocked() { pthread_sigmask(SIG_SETMASK, &previous, nullptr); }

private:
  sigset_t previous;
};

void *allocateFromSystem(size_t alignment, size_t bytes) {
  if (alignment <= alignof(std::max_align_t))
    return std::malloc(bytes);
  // aligned_alloc wants a size that is a multiple of the alignment.
  return std::aligned_alloc(alignment, roundUp(std::max<size_t>(bytes, 1),
                                               alignment));
}
} // namespace

void ke::eval::setKernelHeapReuse(bool reuse) {
  getHeap().reuse = reuse;
  if (!reuse)
    releaseKernelHeapCache();
}

void ke::eval::setKernelHeapPoison(bool poison) { getHeap().poison = poison; }

void *ke::eval::allocateFromKernelHeap(size_t alignment, size_t bytes) {
  Heap &heap = getHeap();
  // Sizes near SIZE_MAX (an overflowed size computation) fail as malloc
  // would, instead of wrapping around when rounded to pages.
  if (bytes > std::numeric_limits<size_t>::max() / 2)
    return nullptr;
  if (bytes < kSmallestKeptBytes) {
    void *pointer = allocateFromSystem(alignment, bytes);
    if (!pointer) {
      releaseKernelHeapCache();
      pointer = allocateFromSystem(alignment, bytes);
    }
    return pointer;
  }
  // Page-rounded and at least cache-line aligned, so that blocks of nearly
  // the same size (and any alignment a kernel asks for) can be reused.
  size_t size = roundUp(bytes, kPageBytes);
  size_t blockAlignment = std::max<size_t>(alignment, 64);
  void *reused = nullptr;
  {
    SignalsBlocked blocked;
    std::lock_guard<std::mutex> lock(heap.mutex);
    auto [first, last] = heap.kept.equal_range(size);
    for (auto it = first; it != last; ++it) {
      if (it->second.alignment < blockAlignment)
        continue;
      reused = it->second.pointer;
      heap.live[reused] = {size, it->second.alignment};
      heap.keptBytes -= size;
      heap.kept.erase(it);
      ++heap.reusedAllocations;
      break;
    }
  }
  if (reused) {
    if (heap.poison)
      std::memset(reused, 0xff, size);
    return reused;
  }
  void *pointer = allocateFromSystem(blockAlignment, size);
  if (!pointer) {
    releaseKernelHeapCache();
    pointer = allocateFromSystem(blockAlignment, size);
    if (!pointer)
      return nullptr;
  }
  SignalsBlocked blocked;
  std::lock_guard<std::mutex> lock(heap.mutex);
  heap.live[pointer] = {size, blockAlignment};
  ++heap.systemAllocations;
  return pointer;
}

void ke::eval::freeToKernelHeap(void *pointer) {
  if (!pointer)
    return;
  // Kept sizes start at kSmallestKeptBytes: a smaller block is none of the
  // heap's, and its free takes no lock.
  if (malloc_usable_size(pointer) < kSmallestKeptBytes) {
    std::free(pointer);
    return;
  }
  Heap &heap = getHeap();
  {
    SignalsBlocked blocked;
    std::lock_guard<std::mutex> lock(heap.mutex);
    auto it = heap.live.find(pointer);
    if (it != heap.live.end()) {
      auto [size, alignment] = it->second;
      heap.live.erase(it);
      if (heap.reuse && heap.keptBytes + size <= kMostKeptBytes) {
        heap.kept.insert({size, Block{pointer, alignment}});
        heap.keptBytes += size;
        return;
      }
    }
  }
  std::free(pointer);
}

void ke::eval::releaseKernelHeapCache() {
  Heap &heap = getHeap();
  std::vector<void *> released;
  {
    SignalsBlocked blocked;
    std::lock_guard<std::mutex> lock(heap.mutex);
    for (auto &[size, block] : heap.kept)
      released.push_back(block.pointer);
    heap.kept.clear();
    heap.keptBytes = 0;
  }
  for (void *pointer : released)
    std::free(pointer);
}

KernelHeapStatistics ke::eval::getKernelHeapStatistics() {
  Heap &heap = getHeap();
  SignalsBlocked blocked;
  std::lock_guard<std::mutex> lock(heap.mutex);
  KernelHeapStatistics statistics;
  statistics.reusedAllocations = heap.reusedAllocations;
  statistics.systemAllocations = heap.systemAllocations;
  statistics.keptBytes = heap.keptBytes;
  return statistics;
}
