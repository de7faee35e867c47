//===- TargetInfo.h - what ke knows about each target -----------*- C++ -*-===//
//
// The registry of targets: every question that depends on the target (its
// name, how a candidate is run, vector width, threads, hardware limits, how
// it is described to a model) is answered here and nowhere else. Plain C++
// on purpose: the dialect's verifier and the GPU runtime (built on GPU hosts
// without LLVM) ask it too.
//
//===----------------------------------------------------------------------===//

#ifndef KE_TARGET_TARGETINFO_H
#define KE_TARGET_TARGETINFO_H

#include <string>
#include <string_view>
#include <vector>

namespace ke {

enum class TargetKind { CPU, NVGPU, AMDGPU, RISCV };

/// How ke-run runs a candidate of the target.
enum class RunnerKind {
  HostJIT,  ///< JIT-compiled and run in ke-run's own process
  Emulator, ///< compiled for another ISA, run under qemu, timed by llvm-mca
  GPU,      ///< compiled to a GPU bundle, run by the GPU driver if present
};

/// Limits of the GPU a target's code is tuned for (the defaults of the
/// schedule; a present device's own values win where ke reads them).
struct GPULimits {
  std::string_view chip;           ///< sm_90, gfx942
  int multiprocessors = 0;         ///< SMs / CUs
  int warpSize = 32;               ///< threads per warp / wavefront
  int maxThreadsPerBlock = 1024;
  int sharedMemoryPerBlock = 0;    ///< bytes
  int registersPerThread = 255;
};

struct TargetInfo {
  TargetKind kind;
  std::string_view name;
  /// One line for prompts: what the code runs on and how it is compiled.
  std::string_view description;
  RunnerKind runner;
  /// Elements per vector of the default schedule.
  int defaultVectorWidth;
  /// Whether scf.forall may run on threads (an OpenMP runtime exists).
  bool hasThreads;
  /// The widest vector the transform library proposes.
  int maxVectorWidth;
  GPULimits gpu; ///< GPU targets only

  bool isGPU() const { return runner == RunnerKind::GPU; }
  /// Whether ke-run compiles and runs the candidate itself (so a kernel's
  /// hang is bounded by ke-run's alarm, not by a child process's limit).
  bool runsInProcess() const { return runner == RunnerKind::HostJIT; }
  /// Whether the search measures ke's default lowering as its floor (on
  /// GPUs every candidate already starts from the default pipeline).
  bool hasSearchFloor() const { return !isGPU(); }
};

/// Every target, in the order they are listed to users.
const std::vector<TargetInfo> &getTargets();
/// The target named `name`, or null.
const TargetInfo *lookupTarget(std::string_view name);
const TargetInfo &getTarget(TargetKind kind);
/// "cpu, nvgpu, amdgpu, riscv": for diagnostics that list the choices.
std::string getTargetNameList();

} // namespace ke

#endif // KE_TARGET_TARGETINFO_H
