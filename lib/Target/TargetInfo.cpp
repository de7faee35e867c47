//===- TargetInfo.cpp - the registry of targets ---------------------------===//
//
// Adding a target starts with an entry here (see docs/architecture.md).
//
//===----------------------------------------------------------------------===//

#include "ke/Target/TargetInfo.h"

using namespace ke;

const std::vector<TargetInfo> &ke::getTargets() {
  static const std::vector<TargetInfo> targets = {
      {TargetKind::CPU, "cpu",
       "the host CPU (x86-64, AVX-512), JIT-compiled through MLIR's LLVM "
       "lowering; scf.forall runs on OpenMP threads",
       RunnerKind::HostJIT, /*defaultVectorWidth=*/8, /*hasThreads=*/true,
       /*maxVectorWidth=*/16, GPULimits{}},
      // H100 SXM: 132 SMs, 227 KB of shared memory per block; sm_90a for
      // wgmma.
      {TargetKind::NVGPU, "nvgpu", "an NVIDIA GPU (sm_90a), through NVVM to PTX",
       RunnerKind::GPU, /*defaultVectorWidth=*/4, /*hasThreads=*/true,
       /*maxVectorWidth=*/4,
       GPULimits{"sm_90a", 132, 32, 1024, 232448, 255}},
      // MI300X: 304 CUs, 64 KB of LDS per workgroup, 64-wide wavefronts.
      {TargetKind::AMDGPU, "amdgpu",
       "an AMD GPU (gfx942), through ROCDL to AMDGCN", RunnerKind::GPU,
       /*defaultVectorWidth=*/4, /*hasThreads=*/true,
       /*maxVectorWidth=*/4, GPULimits{"gfx942", 304, 64, 1024, 65536, 512}},
      // No thread runtime; 8-float vectors are LMUL 1 at VLEN 256.
      {TargetKind::RISCV, "riscv", "RISC-V rv64gcv (RVV 1.0), run under qemu",
       RunnerKind::Emulator, /*defaultVectorWidth=*/8, /*hasThreads=*/false,
       /*maxVectorWidth=*/8, GPULimits{}},
  };
  return targets;
}

const TargetInfo *ke::lookupTarget(std::string_view name) {
  for (const TargetInfo &target : getTargets())
    if (target.name == name)
      return &target;
  return nullptr;
}

const TargetInfo &ke::getTarget(TargetKind kind) {
  for (const TargetInfo &target : getTargets())
    if (target.kind == kind)
      return target;
  return getTargets().front();
}

std::string ke::getTargetNameList() {
  std::string list;
  for (const TargetInfo &target : getTargets()) {
    if (!list.empty())
      list += ", ";
    list += target.name;
  }
  return list;
}
