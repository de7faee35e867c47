//===- ke.cpp - the release archive's multi-call binary -------------------===//
//
// One binary for ke-opt, ke-run, ke-report and ke-gpu-run (the files in
// bin/ are links to it): MLIR and LLVM linked in once instead of once per
// tool keeps the archive small enough to ship to GPU hosts. The name it is
// called by picks the tool.
//
//===----------------------------------------------------------------------===//

#include "../ToolMains.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"

int main(int argc, char **argv) {
  llvm::StringRef name = llvm::sys::path::filename(argv[0]);
  if (name.starts_with("ke-run"))
    return keRunMain(argc, argv);
  if (name.starts_with("ke-report"))
    return keReportMain(argc, argv);
  if (name.starts_with("ke-gpu-run"))
    return keGpuRunMain(argc, argv);
  return keOptMain(argc, argv);
}
