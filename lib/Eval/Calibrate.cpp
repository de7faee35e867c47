//===- Calibrate.cpp - measuring this machine's peaks ---------------------===//
//
// Peak f32 FMA throughput from a loop of independent vector FMAs compiled for
// the widest ISA the CPU reports, and streaming bandwidth from a STREAM-style
// triad over arrays far larger than the last-level cache.
//
//===----------------------------------------------------------------------===//

#include "ke/Eval/Roofline.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

using namespace ke::eval;

namespace {
using Clock = std::chrono::steady_clock;

constexpr int kAccumulators = 12; // enough to hide FMA latency on 2 ports
constexpr long kFmaIterations = 20'000'000;

template <typename Vec>
__attribute__((always_inline)) inline float fmaLoopBody(long iterations) {
  Vec acc[kAccumulators];
  Vec scale, offset;
  for (unsigned lane = 0; lane < sizeof(Vec) / sizeof(float); ++lane) {
    scale[lane] = 0.999999f;
    offset[lane] = 1e-7f;
  }
  for (int i = 0; i < kAccumulators; ++i)
    for (unsigned lane = 0; lane < sizeof(Vec) / sizeof(float); ++lane)
      acc[i][lane] = static_cast<float>(i + lane);
  for (long it = 0; it < iterations; ++it)
    for (int i = 0; i < kAccumulators; ++i)
      acc[i] = acc[i] * scale + offset;
  float sum = 0.0f;
  for (int i = 0; i < kAccumulators; ++i)
    for (unsigned lane = 0; lane < sizeof(Vec) / sizeof(float); ++lane)
      sum += acc[i][lane];
  return sum;
}

typedef float Float16x __attribute__((vector_size(64)));
typedef float Float8x __attribute__((vector_size(32)));
typedef float Float4x __attribute__((vector_size(16)));

__attribute__((target("avx512f"))) float fmaAvx512(long iterations) {
  return fmaLoopBody<Float16x>(iterations);
}
__attribute__((target("avx2,fma"))) float fmaAvx2(long iterations) {
  return fmaLoopBody<Float8x>(iterations);
}
float fmaSse(long iterations) { return fmaLoopBody<Float4x>(iterations); }

struct FmaKernel {
  float (*function)(long);
  int lanes;
  bool fused; // an FMA counts two flops; a separate mul+add also two
  const char *isa;
};

FmaKernel selectFmaKernel() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f"))
    return {fmaAvx512, 16, true, "avx512f"};
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return {fmaAvx2, 8, true, "avx2+fma"};
  return {fmaSse, 4, false, "sse2"};
}

/// Runs `work(threadIndex)` on `threads` threads started together and
/// returns the wall time in seconds.
template <typename Work> double runOnThreads(unsigned threads, Work work) {
  std::vector<std::thread> pool;
  std::atomic<unsigned> ready{0};
  std::atomic<bool> go{false};
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      ready.fetch_add(1);
      while (!go.load())
        std::this_thread::yield();
      work(t);
    });
  while (ready.load() != threads)
    std::this_thread::yield();
  auto start = Clock::now();
  go.store(true);
  for (std::thread &thread : pool)
    thread.join();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double measurePeakGflops(unsigned threads, const FmaKernel &kernel) {
  std::atomic<float> sink{0.0f};
  double best = 0.0;
  for (int trial = 0; trial < 3; ++trial) {
    double seconds = runOnThreads(threads, [&](unsigned) {
      sink.store(sink.load() + kernel.function(kFmaIterations));
    });
    double flops = 2.0 * kernel.lanes * kAccumulators *
                   static_cast<double>(kFmaIterations) * threads;
    best = std::max(best, flops / seconds / 1e9);
  }
  return best;
}

double measureTriadGbps(unsigned threads) {
  // 3 arrays of 32 MiB doubles: 96 MiB, well beyond any last-level cache
  // this project targets, so the loop streams from DRAM.
  const size_t count = size_t(4) << 20;
  std::vector<double> a(count), b(count), c(count);
  size_t chunk = (count + threads - 1) / threads;
  auto triad = [&](unsigned t) {
    size_t begin = t * chunk, end = std::min(count, begin + chunk);
    for (size_t i = begin; i < end; ++i)
      a[i] = b[i] + 3.0 * c[i];
  };
  // First touch by the same threads that stream later.
  runOnThreads(threads, [&](unsigned t) {
    size_t begin = t * chunk, end = std::min(count, begin + chunk);
    for (size_t i = begin; i < end; ++i) {
      b[i] = 1.0;
      c[i] = 2.0;
    }
  });
  double best = 0.0;
  for (int trial = 0; trial < 8; ++trial) {
    double seconds = runOnThreads(threads, triad);
    best = std::max(best, 3.0 * sizeof(double) * count / seconds / 1e9);
  }
  return best;
}
} // namespace

MachinePeaks ke::eval::calibrate(unsigned threads) {
  threads = std::max(1u, threads);
  FmaKernel kernel = selectFmaKernel();
  MachinePeaks peaks;
  peaks.threads = threads;
  peaks.cpu = getHostCpuName();
  peaks.isa = kernel.isa;
  peaks.gflops = measurePeakGflops(threads, kernel);
  peaks.gbps = measureTriadGbps(threads);
  return peaks;
}
