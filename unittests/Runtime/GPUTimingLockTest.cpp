//===- GPUTimingLockTest.cpp - one process at a time on the GPU -----------===//

#include "ke/Runtime/GPUTimingLock.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace ke::runtime;

namespace {

/// Jobs a scheduler gives different GPUs of one node (CUDA_VISIBLE_DEVICES)
/// lock different files, though each calls its GPU device 0.
TEST(GPUTimingLockTest, LocksThePhysicalDevice) {
  setenv("KE_GPU_LOCK_DIR", "/locks", 1);
  setenv("CUDA_VISIBLE_DEVICES", "3,GPU-1f2e:x", 1);
  EXPECT_EQ(GPUTimingLock::getPath(0), "/locks/ke-gpu3.lock");
  EXPECT_EQ(GPUTimingLock::getPath(1), "/locks/ke-gpuGPU-1f2e_x.lock");
  EXPECT_EQ(GPUTimingLock::getPath(2), "/locks/ke-gpu2.lock");
  unsetenv("CUDA_VISIBLE_DEVICES");
  EXPECT_EQ(GPUTimingLock::getPath(1), "/locks/ke-gpu1.lock");
}

TEST(GPUTimingLockTest, ASecondProcessWaitsForTheFirst) {
  char directory[] = "/tmp/ke-lock-test-XXXXXX";
  ASSERT_NE(mkdtemp(directory), nullptr);
  setenv("KE_GPU_LOCK_DIR", directory, 1);
  unsetenv("CUDA_VISIBLE_DEVICES");
  EXPECT_EQ(GPUTimingLock::getPath(0), std::string(directory) + "/ke-gpu0.lock");
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    GPUTimingLock held;
    char byte = held.getProblem().empty() ? 1 : 0;
    (void)!write(ready[1], &byte, 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    _exit(0);
  }
  char byte = 0;
  ASSERT_EQ(read(ready[0], &byte, 1), 1);
  ASSERT_EQ(byte, 1);
  {
    GPUTimingLock mine;
    EXPECT_TRUE(mine.getProblem().empty()) << mine.getProblem();
    EXPECT_GE(mine.getWaitedMilliseconds(), 150.0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  // Free now: no wait.
  {
    GPUTimingLock again;
    EXPECT_LT(again.getWaitedMilliseconds(), 100.0);
  }
  unsetenv("KE_GPU_LOCK_DIR");
  std::remove(GPUTimingLock::getPath(0).c_str());
  close(ready[0]);
  close(ready[1]);
  rmdir(directory);
}

} // namespace
