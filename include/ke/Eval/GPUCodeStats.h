//===- GPUCodeStats.h - what a GPU kernel's code says of it -----*- C++ -*-===//
//
// Static metrics of the kernels in a gpu.binary, for targets ke cannot run
// here (and as extra diagnosis where it can): registers, shared memory,
// spills/scratch, instruction counts and the occupancy they allow.
//
//===----------------------------------------------------------------------===//

#ifndef KE_EVAL_GPUCODESTATS_H
#define KE_EVAL_GPUCODESTATS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace ke::eval {

struct GPUKernelStats {
  std::string name;
  int64_t registers = -1;  ///< per thread (VGPRs on AMD); -1: unknown
  int64_t sgprs = -1;      ///< AMD scalar registers
  int64_t sharedBytes = 0; ///< shared memory / LDS per block
  int64_t spillBytes = 0;  ///< local memory / scratch per thread
  int64_t instructions = 0;
  int64_t occupancy = -1; ///< waves per SIMD (AMD) or blocks per SM (NVIDIA)
};

struct GPUCodeStats {
  std::string chip;
  std::string source; ///< what the numbers come from
  std::vector<GPUKernelStats> kernels;
  /// Sum over kernels of instructions x (max occupancy / occupancy): the
  /// documented static cost used to rank candidates that cannot run.
  double getStaticCost() const;
  llvm::json::Value toJSON() const;
};

/// PTX text: registers and shared/local memory as declared; with `ptxas`
/// (found on PATH or under $CUDA_HOME/bin, /usr/local/cuda/bin), the
/// assembled figures for `chip` instead (registers used, spills).
GPUCodeStats analyzePTX(llvm::StringRef ptx, llvm::StringRef chip);

/// AMDGCN assembly: the .amdhsa_* directives (VGPRs, SGPRs, LDS, scratch)
/// and occupancy as CDNA3 allows it (512 VGPRs per lane per SIMD, at most 8
/// waves).
GPUCodeStats analyzeAMDGCN(llvm::StringRef assembly, llvm::StringRef chip);

} // namespace ke::eval

#endif // KE_EVAL_GPUCODESTATS_H
