//===- GPUPipeline.h - ke-lower-nvgpu and ke-lower-amdgpu -------*- C++ -*-===//
//
// Tensor kernels mapped onto a GPU: bufferized with results as out-params,
// row reductions as one thread block per output element (threads combined
// by gpu.all_reduce), other linalg ops as parallel loops tiled into blocks
// of threads (one thread per output element of a tile), kernels
// outlined, lowered through NVVM (PTX) or ROCDL (AMDGCN) and serialized
// into a gpu.binary; the host side calls MLIR's GPU runtime (mgpu*), which
// ke implements on top of the vendor's driver.
//
//===----------------------------------------------------------------------===//

#ifndef KE_TARGET_GPUPIPELINE_H
#define KE_TARGET_GPUPIPELINE_H

#include "ke/Codegen/GPUSchedule.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace ke {
struct TargetInfo;

struct LowerGPUOptions : public mlir::PassPipelineOptions<LowerGPUOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("sm_90a (nvgpu) or gfx942 (amdgpu)"),
                           llvm::cl::init("")};
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("gpu.binary format: isa (PTX / AMDGCN assembly), bin, "
                     "fatbin"),
      llvm::cl::init("")};
  ListOption<int64_t> blockTile{
      *this, "block-tile",
      llvm::cl::desc("Tile of the outermost parallel loops run by one block "
                     "(threads per block along each)")};
  Option<int64_t> reductionThreads{
      *this, "reduction-threads",
      llvm::cl::desc("Most threads reducing one row together "
                     "(ke-distribute-reductions-for-gpu); 0 leaves "
                     "every reduction sequential in one thread per output "
                     "element"),
      llvm::cl::init(GPUScheduleDefaults::reductionThreads)};
  ListOption<int64_t> threadTile{
      *this, "thread-tile",
      llvm::cl::desc("Outputs per thread of matmul-like reductions "
                     "(ke-distribute-reductions-for-gpu), right-aligned on "
                     "their parallel loops")};
  Option<int64_t> sharedTile{
      *this, "shared-tile",
      llvm::cl::desc("Outputs per block along i and j of GEMM-like "
                     "contractions staged through shared memory "
                     "(ke-stage-contractions-for-gpu); 0: no staging"),
      llvm::cl::init(GPUScheduleDefaults::sharedTile)};
  Option<int64_t> warps{
      *this, "warps",
      llvm::cl::desc("Warps per block of contractions staged through "
                     "shared memory (ke-stage-contractions-for-gpu): 2, 4, "
                     "8 or 16"),
      llvm::cl::init(GPUScheduleDefaults::warps)};
  Option<int64_t> tensorCoreTile{
      *this, "tensor-core-tile",
      llvm::cl::desc("Outputs per block along i and j of contractions run "
                     "on NVIDIA tensor cores (ke-tensor-core-contractions-"
                     "for-gpu): 32, 64 or 128; 0: none"),
      llvm::cl::init(GPUScheduleDefaults::tensorCoreTile)};
  Option<int64_t> warpgroupTile{
      *this, "warpgroup-tile",
      llvm::cl::desc("Most columns per block of 16-bit GEMMs on Hopper's "
                     "warpgroup mma fed by TMA (ke-warpgroup-contractions-"
                     "for-gpu): 128 or 256; 0: none"),
      llvm::cl::init(GPUScheduleDefaults::warpgroupTile)};
  Option<int64_t> stages{
      *this, "stages",
      llvm::cl::desc("Steps of K in flight in contractions staged through "
                     "shared memory, SIMT and tensor cores (cp.async "
                     "stages on NVIDIA)"),
      llvm::cl::init(GPUScheduleDefaults::stages)};
  Option<int64_t> kSplits{
      *this, "k-splits",
      llvm::cl::desc("Blocks per output tile along K of contractions staged "
                     "through shared memory, adding partial sums into the "
                     "output (split-K; ke-stage-contractions-for-gpu): a "
                     "power of two; 0: as many as fill the target's grid, "
                     "1: none"),
      llvm::cl::init(GPUScheduleDefaults::kSplits)};
  Option<int64_t> vectorWidth{
      *this, "vector-width",
      llvm::cl::desc("Elements per thread of elementwise ops, read and "
                     "written as one vector (ke-vectorize-elementwise-for-"
                     "gpu): 1, 2 or 4"),
      llvm::cl::init(GPUScheduleDefaults::vectorWidth)};
};

llvm::LogicalResult buildLowerNVGPUPipeline(mlir::OpPassManager &pm,
                                            const LowerGPUOptions &options,
                                            llvm::raw_ostream &errors);
llvm::LogicalResult buildLowerAMDGPUPipeline(mlir::OpPassManager &pm,
                                             const LowerGPUOptions &options,
                                             llvm::raw_ostream &errors);

/// Registers ke-lower-nvgpu and ke-lower-amdgpu.
/// The pipeline of a GPU `target` (nvgpu or amdgpu); fails for others.
llvm::LogicalResult buildLowerGPUPipeline(mlir::OpPassManager &pm,
                                          const TargetInfo &target,
                                          const LowerGPUOptions &options,
                                          llvm::raw_ostream &errors);

void registerLowerGPUPipelines();

} // namespace ke

#endif // KE_TARGET_GPUPIPELINE_H
