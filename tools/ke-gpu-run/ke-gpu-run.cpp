//===- ke-gpu-run.cpp - run GPU bundles where the GPU is ------------------===//
//
//   ke-gpu-run [--min-time S] [--profile] BUNDLE_DIR...
//
// Runs bundles written by `ke-run --target nvgpu|amdgpu --bundle DIR` on
// the machine's first NVIDIA GPU (CUDA driver) or AMD GPU (HIP runtime),
// as each bundle's manifest says, and prints one JSON line per bundle (the
// keys of ke-run's). Needs only the vendor's driver: it builds with a C++
// compiler alone (see docs/targets.md), for GPU machines without MLIR.
//
//===----------------------------------------------------------------------===//

#include "ke/Runtime/GPUBundle.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char **argv) {
  double minSeconds = 0.2;
  bool profile = false;
  int status = 0, bundles = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--min-time") && i + 1 < argc) {
      minSeconds = std::atof(argv[++i]);
      continue;
    }
    if (!std::strcmp(argv[i], "--profile")) {
      profile = true;
      continue;
    }
    ke::runtime::BundleResult result =
        ke::runtime::runBundle(argv[i], minSeconds, profile);
    std::printf("%s\n", result.toJSON().c_str());
    std::fflush(stdout);
    status |= result.correct ? 0 : 1;
    ++bundles;
  }
  if (!bundles) {
    std::fprintf(stderr, "usage: ke-gpu-run [--min-time S] [--profile] BUNDLE_DIR...\n");
    return 2;
  }
  return status;
}
