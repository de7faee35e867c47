//===- CrashContainment.cpp - signals and alarms turned into failures -----===//
//
// The handlers jump back to the recovery point armed by runContained; a
// signal outside it keeps its default meaning.
//
//===----------------------------------------------------------------------===//

#include "ke/Eval/CrashContainment.h"

#include "llvm/Support/FormatVariadic.h"

#include <csetjmp>
#include <csignal>
#include <cstdint>
#include <sys/resource.h>
#include <unistd.h>

using namespace ke::eval;

static sigjmp_buf recoveryPoint;
static volatile sig_atomic_t recoveryArmed = 0;
static volatile sig_atomic_t caughtSignal = 0;
static volatile sig_atomic_t stackOverflow = 0;
static uintptr_t stackTop = 0, stackLimit = 0;

/// Remembers where the main thread's stack lives, to tell a stack overflow
/// (a kernel with big temporaries on the stack) from other crashes.
static void noteStackBounds() {
  int anchor;
  stackTop = reinterpret_cast<uintptr_t>(&anchor);
  struct rlimit limit;
  if (getrlimit(RLIMIT_STACK, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    stackLimit = limit.rlim_cur;
}

static void onFatalSignal(int signal, siginfo_t *info, void *) {
  if (!recoveryArmed) {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  auto address = reinterpret_cast<uintptr_t>(info ? info->si_addr : nullptr);
  stackOverflow = signal == SIGSEGV && stackLimit && address < stackTop &&
                  address + stackLimit + (1 << 20) >= stackTop;
  caughtSignal = signal;
  recoveryArmed = 0;
  siglongjmp(recoveryPoint, 1);
}

void ke::eval::installCrashHandlers() {
  noteStackBounds();
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

static std::string describeSignal(int signal, unsigned alarmSeconds) {
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
