//===- CrashContainment.cpp - signals and alarms turned into failures -----===//
//
// The handlers jump back to the recovery point armed by runContained; a
// signal outside it keeps its default meaning.
//
//===----------------------------------------------------------------------===//

#include "ke/Eval/CrashContainment.h"
#include "ke/Eval/KernelHeap.h"

#include "llvm/Support/FormatVariadic.h"

#include <atomic>
#include <cerrno>
#include <csetjmp>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <sys/resource.h>
#include <unistd.h>

using namespace ke::eval;

static sigjmp_buf recoveryPoint;
static volatile sig_atomic_t recoveryArmed = 0;
static volatile sig_atomic_t caughtSignal = 0;
static volatile sig_atomic_t stackOverflow = 0;
static uintptr_t stackTop = 0, stackLimit = 0;
/// Not a signal: an allocation of the kernel failed.
static constexpr int kOutOfMemory = -1;
static std::atomic<uint64_t> failedAllocationBytes{0};
static unsigned memoryLimitMegabytes = 0;
static pthread_t mainThread;

/// Remembers where the main thread's stack lives, to tell a stack overflow
/// (a kernel with big temporaries on the stack) from other crashes.
static void noteStackBounds() {
  int anchor;
  stackTop = reinterpret_cast<uintptr_t>(&anchor);
  struct rlimit limit;
  if (getrlimit(RLIMIT_STACK, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    stackLimit = limit.rlim_cur;
}

/// A signal an OpenMP worker caught, handed to the main thread.
static volatile sig_atomic_t forwardedSignal = 0;
/// Set once the main thread has jumped out of a kernel: its OpenMP workers
/// may still run (and fault in) the abandoned parallel region.
static volatile sig_atomic_t abandonedKernel = 0;

static void onFatalSignal(int signal, siginfo_t *info, void *) {
  bool onMainThread = pthread_equal(pthread_self(), mainThread);
  if (!onMainThread && (recoveryArmed || abandonedKernel)) {
    // Only the main thread may jump to its recovery point (the jump
    // restores its stack): hand it the signal, and park this worker for
    // good. Once a kernel was abandoned, a worker's fault may be a late one
    // from that kernel, not from the one now running: only the alarm is
    // still handed on then.
    bool current = !abandonedKernel || signal == SIGALRM;
    if (recoveryArmed && current && !forwardedSignal) {
      forwardedSignal = signal;
      pthread_kill(mainThread, signal);
    }
    for (;;)
      pause();
  }
  if (!recoveryArmed) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  auto address = reinterpret_cast<uintptr_t>(info ? info->si_addr : nullptr);
  stackOverflow = !forwardedSignal && signal == SIGSEGV && stackLimit &&
                  address < stackTop &&
                  address + stackLimit + (1 << 20) >= stackTop;
  caughtSignal = forwardedSignal ? forwardedSignal : signal;
  recoveryArmed = 0;
  abandonedKernel = 1;
  siglongjmp(recoveryPoint, 1);
}

void ke::eval::installCrashHandlers() {
  noteStackBounds();
  mainThread = pthread_self();
  static char alternateStack[1 << 16];
  stack_t stack = {};
  stack.ss_sp = alternateStack;
  stack.ss_size = sizeof(alternateStack);
  sigaltstack(&stack, nullptr);
  struct sigaction action = {};
  action.sa_sigaction = onFatalSignal;
  action.sa_flags = SA_ONSTACK | SA_NODEFER | SA_SIGINFO;
  // SIGABRT: a failed cf.assert (front ends emit them for index bounds).
  for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGALRM, SIGABRT})
    sigaction(signal, &action, nullptr);
}

/// A failed allocation ends the contained run at once on the main thread;
/// elsewhere (OpenMP workers) it is noted and the null pointer the kernel
/// then uses ends it, reported as the allocation that failed.
static void *checkAllocation(void *pointer, size_t bytes) {
  if (pointer || bytes == 0)
    return pointer;
  failedAllocationBytes.store(bytes);
  if (recoveryArmed && pthread_equal(pthread_self(), mainThread)) {
    caughtSignal = kOutOfMemory;
    recoveryArmed = 0;
    abandonedKernel = 1;
    siglongjmp(recoveryPoint, 1);
  }
  return nullptr;
}

extern "C" {
static void *keCheckedMalloc(size_t bytes) {
  return checkAllocation(
      allocateFromKernelHeap(alignof(std::max_align_t), bytes), bytes);
}
static void *keCheckedAlignedAlloc(size_t alignment, size_t bytes) {
  return checkAllocation(allocateFromKernelHeap(alignment, bytes), bytes);
}
static void keFree(void *pointer) { freeToKernelHeap(pointer); }
}

void *ke::eval::getCheckedMallocAddress() {
  return reinterpret_cast<void *>(&keCheckedMalloc);
}
void *ke::eval::getCheckedAlignedAllocAddress() {
  return reinterpret_cast<void *>(&keCheckedAlignedAlloc);
}
void *ke::eval::getKernelFreeAddress() {
  return reinterpret_cast<void *>(&keFree);
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KE_ADDRESS_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define KE_ADDRESS_SANITIZER 1
#endif

std::string ke::eval::setMemoryLimit(unsigned megabytes) {
#ifdef KE_ADDRESS_SANITIZER
  // AddressSanitizer's shadow memory alone is terabytes of private
  // mappings: any data limit would stop every later allocation.
  memoryLimitMegabytes = 0;
  return "";
#endif
  memoryLimitMegabytes = megabytes;
  if (megabytes == 0)
    return "";
  struct rlimit limit;
  if (getrlimit(RLIMIT_DATA, &limit) != 0)
    return std::strerror(errno);
  rlim_t bytes = rlim_t(megabytes) << 20;
  if (limit.rlim_max != RLIM_INFINITY && bytes > limit.rlim_max)
    bytes = limit.rlim_max;
  limit.rlim_cur = bytes;
  if (setrlimit(RLIMIT_DATA, &limit) != 0)
    return std::strerror(errno);
  return "";
}

static std::string describeOutOfMemory() {
  std::string limit =
      memoryLimitMegabytes
          ? llvm::formatv("the memory limit is {0} MiB", memoryLimitMegabytes)
                .str()
          : std::string("no memory limit was set");
  return llvm::formatv("ran out of memory: an allocation of {0:f1} MiB failed "
                       "({1})",
                       double(failedAllocationBytes.load()) / (1 << 20), limit)
      .str();
}

static std::string describeSignal(int signal, unsigned alarmSeconds) {
  if (signal == kOutOfMemory ||
      (signal == SIGSEGV && failedAllocationBytes.load() && !stackOverflow))
    return describeOutOfMemory();
  switch (signal) {
  case SIGSEGV:
    return stackOverflow ? "crashed (SIGSEGV, stack overflow: too much on the "
                           "stack, e.g. temporaries allocated in a loop)"
                         : "crashed (SIGSEGV)";
  case SIGBUS:
    return "crashed (SIGBUS)";
  case SIGFPE:
    return "crashed (SIGFPE)";
  case SIGILL:
    return "crashed (SIGILL)";
  case SIGABRT:
    return "aborted (SIGABRT: an assertion in the kernel failed, e.g. a "
           "cf.assert on an index)";
  case SIGALRM:
    return llvm::formatv("timed out after {0} s", alarmSeconds);
  default:
    return "crashed";
  }
}

std::optional<std::string>
ke::eval::runContained(llvm::function_ref<void()> body,
                       unsigned alarmSeconds) {
  failedAllocationBytes.store(0);
  forwardedSignal = 0;
  if (sigsetjmp(recoveryPoint, 1) == 0) {
    recoveryArmed = 1;
    if (alarmSeconds)
      alarm(alarmSeconds);
    body();
    alarm(0);
    recoveryArmed = 0;
    return std::nullopt;
  }
  alarm(0);
  return describeSignal(caughtSignal, alarmSeconds);
}

namespace {
/// The head of the buffer a child process shares with its parent.
struct ChildReport {
  enum Status : int { Running, Succeeded, Crashed, Failed };
  volatile int status = Running;
  char message[2048] = {};
};
} // namespace

std::optional<std::string> ke::eval::runInChildProcess(
    llvm::MutableArrayRef<char> results, unsigned alarmSeconds,
    llvm::function_ref<std::string(llvm::MutableArrayRef<char>)> body) {
  size_t head = (sizeof(ChildReport) + 4095) / 4096 * 4096;
  size_t bytes = head + results.size();
  void *mapping = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED)
    return "error: cannot map memory shared with a child process: " +
           std::string(std::strerror(errno));
  auto *report = new (mapping) ChildReport();
  llvm::MutableArrayRef<char> shared(static_cast<char *>(mapping) + head,
                                     results.size());
  std::fflush(nullptr); // the child must not write this process's buffers
  pid_t child = fork();
  if (child < 0) {
    munmap(mapping, bytes);
    return "error: cannot fork a child process: " +
           std::string(std::strerror(errno));
  }
  if (child == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    std::string error;
    std::optional<std::string> crash =
        runContained([&] { error = body(shared); }, alarmSeconds);
    const std::string &message = crash ? *crash : error;
    std::strncpy(report->message, message.c_str(),
                 sizeof(report->message) - 1);
    report->status = crash             ? ChildReport::Crashed
                     : error.empty()   ? ChildReport::Succeeded
                                       : ChildReport::Failed;
    _exit(0);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  std::optional<std::string> failure;
  if (WIFSIGNALED(status))
    failure = describeSignal(WTERMSIG(status), alarmSeconds);
  else if (report->status == ChildReport::Succeeded)
    std::memcpy(results.data(), shared.data(), results.size());
  else if (report->status == ChildReport::Crashed)
    failure = std::string(report->message);
  else if (report->status == ChildReport::Failed)
    failure = "error: " + std::string(report->message);
  else
    failure = "crashed (the child process exited with status " +
              std::to_string(WEXITSTATUS(status)) + ")";
  munmap(mapping, bytes);
  return failure;
}
