//===- GPUTimingLock.h - one process at a time on the GPU -------*- C++ -*-===//
//
// Candidates compile in parallel on the CPU cores, but a kernel timed while
// another process runs on the same GPU measures the other process too. Every
// ke process holds this lock (an flock on a file shared by all users of the
// machine) while it uses the device, so compilation overlaps with timing and
// timings do not overlap each other.
//
//===----------------------------------------------------------------------===//

#ifndef KE_RUNTIME_GPUTIMINGLOCK_H
#define KE_RUNTIME_GPUTIMINGLOCK_H

#include <string>

namespace ke::runtime {

/// Held from construction to destruction. Without a lock file (a read-only
/// temporary directory) it holds nothing and says why in getProblem().
class GPUTimingLock {
public:
  /// Blocks until this process owns `device`.
  explicit GPUTimingLock(int device = 0);
  ~GPUTimingLock();
  GPUTimingLock(const GPUTimingLock &) = delete;
  GPUTimingLock &operator=(const GPUTimingLock &) = delete;

  /// Milliseconds spent waiting for other processes.
  double getWaitedMilliseconds() const { return waitedMilliseconds; }
  const std::string &getProblem() const { return problem; }

  /// $KE_GPU_LOCK_DIR, else $TMPDIR, else /tmp; then ke-gpu<device>.lock.
  static std::string getPath(int device);

private:
  int descriptor = -1;
  double waitedMilliseconds = 0;
  std::string problem;
};

} // namespace ke::runtime

#endif // KE_RUNTIME_GPUTIMINGLOCK_H
