//===- ke-gpu-run.cpp - run GPU bundles where the GPU is ------------------===//
//
//   ke-gpu-run [--min-time S] [--timeout S] [--profile] BUNDLE_DIR...
//
// Runs bundles written by `ke-run --target nvgpu|amdgpu --bundle DIR` on
// the machine's first NVIDIA GPU (CUDA driver) or AMD GPU (HIP runtime),
// as each bundle's manifest says, and prints one JSON line per bundle (the
// keys of ke-run's). Needs only the vendor's driver: it builds with a C++
// compiler alone (see docs/targets.md), for GPU machines without MLIR.
//
// Each bundle runs in a child process with its own GPU context: a kernel
// that faults (an illegal address poisons the whole context), hangs past
// --timeout or crashes the host code is reported as that bundle's failure
// and the next bundle runs in a fresh process.
//
//===----------------------------------------------------------------------===//

#include "../ToolMains.h"
#include "ke/Runtime/GPUBundle.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace {
std::string describeExit(int status, unsigned timeoutSeconds) {
  if (WIFSIGNALED(status)) {
    int signal = WTERMSIG(status);
    if (signal == SIGALRM || signal == SIGKILL)
      return "timed out after " + std::to_string(timeoutSeconds) +
             " s (the kernel hangs or runs too long)";
    const char *name = strsignal(signal);
    return std::string("crashed (") + (name ? name : "signal") + ", signal " +
           std::to_string(signal) + ")";
  }
  return "exited with status " + std::to_string(WEXITSTATUS(status)) +
         " without a result";
}

/// The bundle's JSON line, computed in a child process.
std::string runContained(const char *directory, double minSeconds,
                         bool profile, unsigned timeoutSeconds) {
  int channel[2];
  if (pipe(channel) != 0)
    return ke::runtime::runBundle(directory, minSeconds, profile).toJSON();
  std::fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    close(channel[0]);
    // The default action of SIGALRM ends a hung child; the parent names it.
    alarm(timeoutSeconds);
    std::string line =
        ke::runtime::runBundle(directory, minSeconds, profile).toJSON();
    size_t written = 0;
    while (written < line.size()) {
      ssize_t n = write(channel[1], line.data() + written,
                        line.size() - written);
      if (n <= 0)
        break;
      written += size_t(n);
    }
    _exit(0);
  }
  close(channel[1]);
  std::string line;
  char buffer[4096];
  ssize_t n;
  while ((n = read(channel[0], buffer, sizeof(buffer))) > 0)
    line.append(buffer, size_t(n));
  close(channel[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (child > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
      !line.empty())
    return line;
  ke::runtime::BundleResult failed;
  std::string path = directory;
  failed.bundle = path.substr(path.find_last_of('/') + 1);
  failed.kernel = failed.bundle.substr(0, failed.bundle.find('@'));
  failed.error = child < 0 ? std::string("run: cannot fork: ") +
                                 std::strerror(errno)
                           : "run: " + describeExit(status, timeoutSeconds);
  return failed.toJSON();
}
} // namespace

int keGpuRunMain(int argc, char **argv) {
  double minSeconds = 0.2;
  unsigned timeoutSeconds = 120;
  bool profile = false;
  int status = 0, bundles = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--min-time") && i + 1 < argc) {
      minSeconds = std::atof(argv[++i]);
      continue;
    }
    if (!std::strcmp(argv[i], "--timeout") && i + 1 < argc) {
      timeoutSeconds = unsigned(std::max(1, std::atoi(argv[++i])));
      continue;
    }
    if (!std::strcmp(argv[i], "--profile")) {
      profile = true;
      continue;
    }
    std::string line =
        runContained(argv[i], minSeconds, profile, timeoutSeconds);
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
    status |= line.find("\"correct\":true") != std::string::npos ? 0 : 1;
    ++bundles;
  }
  if (!bundles) {
    std::fprintf(stderr, "usage: ke-gpu-run [--min-time S] [--timeout S] "
                         "[--profile] BUNDLE_DIR...\n");
    return 2;
  }
  return status;
}
