//===- GPUPipeline.cpp - ke-lower-nvgpu and ke-lower-amdgpu ---------------===//
//
// Written as pipeline text, like ke-lower-cpu, so every stage can be rerun
// with `ke-opt --pass-pipeline=...`. Notes on the order:
// - results become out-params (hoisting static allocations), so outputs are
//   buffers the caller allocates on the device;
// - static host-side allocations move to the function's start, so that
//   gpu-async-region makes one chain of launches (each allocation in
//   between cost a stream synchronization);
// - transposed convolutions (over zero-spread inputs) become a dense
//   convolution per output phase (ke-decompose-transposed-convolutions);
// - log-step prefix scans (a front end's cumsum) become chunked scans
//   (ke-prefix-scans-for-gpu) whose scf.forall, once bufferized, is a
//   parallel loop like the rest (scf-forall-to-parallel);
// - a 3-D pool's transposes to and from channels-last fold into the
//   window's maps (ke-fold-transposes-into-pools-for-gpu), so its pad
//   folds too;
// - an f32 product reads transposed operands in place (the staged copies
//   take either layout), and a matmul with one row (a Linear layer at
//   batch 1) or one column becomes a
//   matrix-vector row reduction (ke-fold-transposes-into-thin-matmuls,
//   ke-unit-matmuls-to-reductions-for-gpu, linalg-fold-unit-extent-dims):
//   staged as a GEMM, it filled one row of each block tile;
// - GEMM-like contractions get output tiles per block staged through
//   shared memory (ke-stage-contractions-for-gpu), row reductions a thread
//   block per output element, before the rest becomes parallel loops
//   (ke-distribute-reductions-for-gpu); the ops left get their parallel
//   loops first (ke-hoist-parallel-loops-for-gpu), all of which become the
//   grid;
// - loops are tiled (ke-tile-parallel-loops-for-gpu: sizes per loop rank,
//   or the function's ke.gpu_block_tile) and mapped with nothing in between
//   (canonicalize would merge the nested parallel loops);
// - innermost-first mapping puts the contiguous index on threadIdx.x
//   (coalesced accesses);
// - eliminate-empty-tensors before bufferization lets an op whose result
//   is inserted into a bigger tensor (a transposed convolution's phase)
//   write its slice in place; cse then folds the copy of that view onto
//   itself, which canonicalize erases (a copy kernel per phase before);
// - gpu-async-region gives each call one stream instead of a stream per
//   launch;
// - in a profiled (ke-instrument'ed) module, kernels read the device's
//   global timer and the host's probes mark regions for the runtime
//   (ke-time-gpu-kernels, ke-lower-probes{runtime=gpu}); elsewhere both
//   passes do nothing;
// - host-side temporaries go through _mlir_memref_to_llvm_alloc, which the
//   runtime serves with device memory, so kernels can read them; copies
//   between buffers become linalg.copy (ke-copies-to-linalg), so
//   GPU threads make them, not a host memcpy on device pointers; loops
//   left sequential at the top of the function (a reduction to a scalar)
//   become one-thread kernels (ke-wrap-host-loops-for-gpu); asserts in
//   parallel loops (index checks) go under an scf.if so the loops still map
//   (ke-guard-asserts-for-gpu), and the output-less copies elementwise
//   fusion leaves of asserting ops are dropped (ke-drop-fused-checks-for-gpu);
// - AMD code must link without ROCm's device libraries (Debian has none):
//   f32 math without an instruction becomes polynomials
//   (ke-approximate-math), the rest LLVM intrinsic calls
//   (ke-math-to-llvm-intrinsics; convert-gpu-to-rocdl would call
//   __ocml_*), block sizes constants (ke-fold-known-block-dims: ROCDL
//   reads them through __ockl_get_local_size).
//
//===----------------------------------------------------------------------===//

#include "ke/Target/GPUPipeline.h"

#include "ke/Codegen/FrontEndCleanup.h"
#include "ke/Target/TargetInfo.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {
/// Blocks per multiprocessor a staged contraction's grid should have
/// before K is split for more: a block of 4 warps keeps 32 accumulators
/// per thread in flight, and a few blocks per multiprocessor hide the
/// latency of its shared-memory reads.
constexpr int64_t kStagedBlocksPerMultiprocessor = 2;

std::string mapToGPU(const ke::LowerGPUOptions &options,
                     llvm::StringRef vendor) {
  std::vector<std::string> tile;
  for (int64_t size : options.blockTile)
    tile.push_back(std::to_string(size));
  const ke::TargetInfo &target = ke::getTarget(
      vendor == "amd" ? ke::TargetKind::AMDGPU : ke::TargetKind::NVGPU);
  std::string tiling = llvm::formatv(
      "ke-tile-parallel-loops-for-gpu{{min-blocks={0}{1}}",
      2 * target.gpu.multiprocessors,
      tile.empty() ? std::string() : " block-tile=" + llvm::join(tile, ","));
  // After deallocation: its pipeline refuses gpu.all_reduce's effects.
  std::vector<std::string> threadTile;
  for (int64_t size : options.threadTile)
    threadTile.push_back(std::to_string(size));
  std::string reductions =
      llvm::formatv(
          "func.func({5}ke-stage-contractions-for-gpu{{tile={2} "
          "warps={4} stages={6} async-copies={7} k-splits={8} "
          "fill-blocks={9}},"
          "ke-distribute-reductions-for-gpu{{"
          "max-threads={0}{1}},"
          "ke-vectorize-elementwise-for-gpu{{width={3}},"
          "ke-hoist-parallel-loops-for-gpu),",
          options.reductionThreads.getValue(),
          threadTile.empty() ? std::string()
                             : " thread-tile=" + llvm::join(threadTile, ","),
          options.sharedTile.getValue(), options.vectorWidth.getValue(),
          options.warps.getValue(),
          vendor == "amd"
              ? std::string()
              : llvm::formatv("ke-warpgroup-contractions-for-gpu{{tile={3} "
                              "min-blocks={1} max-shared={4}},"
                              "ke-tensor-core-contractions-for-gpu{{tile={0} "
                              "min-blocks={1} stages={2}},",
                              options.tensorCoreTile.getValue(),
                              target.gpu.multiprocessors,
                              options.stages.getValue(),
                              options.warpgroupTile.getValue(),
                              // Room for the mbarriers' static memory.
                              target.gpu.sharedMemoryPerBlock - 256)
                    .str(),
          options.stages.getValue(), vendor != "amd",
          options.kSplits.getValue(),
          kStagedBlocksPerMultiprocessor * target.gpu.multiprocessors)
          .str();
  bool amd = vendor == "amd";
  // AMD without ROCm's device libraries: f32 math as polynomials (no
  // __ocml_* calls), block sizes as constants (no __ockl_get_local_size).
  // Front-end IR is cleaned up as on the CPU: elementwise chains fused
  // into one op (the output-less asserting producers fusion leaves behind
  // are dropped) and splat constants folded into bodies; the splats left
  // become fills (a constant tensor would be a host global the kernels
  // cannot read). A result returned through reshapes of a temporary is
  // computed in the caller's buffer, as on the CPU (no copy kernel).
  return llvm::formatv(
             "func.func({3}ke-decompose-aggregates,"
             "convert-elementwise-to-linalg,ke-prefix-scans-for-gpu,"
             "ke-decompose-transposed-convolutions,"
             "ke-fold-transposes-into-pools-for-gpu,{5},"
             "ke-fold-transposes-into-thin-matmuls{{most-rows=1 any-f32-product},"
             "ke-unit-matmuls-to-reductions-for-gpu,"
             "linalg-fold-unit-extent-dims,canonicalize,"
             "ke-fold-pads-into-consumers-for-gpu,ke-pads-to-generics-for-gpu,"
             "ke-split-reductions-for-gpu,"
             "ke-drop-fused-checks-for-gpu,"
             "ke-splat-constants-to-fills),"
             "eliminate-empty-tensors,"
             "one-shot-bufferize{{bufferize-function-boundaries "
             "function-boundary-type-conversion=identity-layout-map},"
             "buffer-results-to-out-params{{modify-public-functions "
             "hoist-static-allocs},"
             "func.func(ke-constants-to-device-for-gpu),"
             "func.func(ke-write-reshaped-results-in-place),"
             "canonicalize,func.func(cse),canonicalize,"
             "buffer-deallocation-pipeline,"
             "canonicalize,func.func(ke-hoist-allocations-to-entry,"
             "ke-copies-to-linalg,scf-forall-to-parallel),"
             "{1}convert-linalg-to-parallel-loops,"
             "func.func(ke-wrap-host-loops-for-gpu,{0},"
             "gpu-map-parallel-loops{{mapping-policy=innermost-first},"
             "ke-guard-asserts-for-gpu,convert-parallel-loops-to-gpu),"
             "canonicalize,"
             "gpu-launch-sink-index-computations,{6}gpu-kernel-outlining,"
             "ke-align-workgroup-memory,"
             "{4}ke-time-gpu-kernels{{vendor={2}},func.func(gpu-async-region),"
             "ke-lower-probes{{runtime=gpu},",
             tiling, reductions, vendor, amd ? "ke-approximate-math," : "",
             amd ? "ke-fold-known-block-dims," : "",
             ke::kFrontEndCleanupPipeline,
             // Before outlining, as upstream's NVVM pipeline: TMA tensor
             // maps made on the host become the kernels' pointer arguments.
             amd ? "" : "convert-nvgpu-to-nvvm,")
      .str();
}
} // namespace

/// The vendor-neutral shape of both pipelines: mapping to the GPU, the
/// vendor's preparation and target attachment, host arithmetic to LLVM, the
/// kernels' lowering inside gpu.module, then the host side and the binary.
static LogicalResult
buildGPUPipeline(OpPassManager &pm, const ke::LowerGPUOptions &options,
                 llvm::StringRef vendor, llvm::StringRef prepareAndAttach,
                 llvm::StringRef kernelLowering, llvm::raw_ostream &errors) {
  std::string format =
      options.format.empty() ? "isa" : options.format.getValue();
  std::string text =
      mapToGPU(options, vendor) + prepareAndAttach.str() +
      ",lower-affine,convert-arith-to-llvm,convert-index-to-llvm,canonicalize,"
      "cse,gpu.module(" +
      kernelLowering.str() +
      ",canonicalize,cse,reconcile-unrealized-casts),"
      "finalize-memref-to-llvm{use-generic-functions},gpu-to-llvm,"
      "gpu-module-to-binary{format=" +
      format +
      "},convert-math-to-llvm,canonicalize,cse,reconcile-unrealized-casts";
  return parsePassPipeline(text, pm, errors);
}

LogicalResult ke::buildLowerNVGPUPipeline(OpPassManager &pm,
                                          const LowerGPUOptions &options,
                                          llvm::raw_ostream &errors) {
  std::string chip =
      options.chip.empty()
          ? std::string(ke::getTarget(ke::TargetKind::NVGPU).gpu.chip)
          : options.chip.getValue();
  return buildGPUPipeline(
      pm, options, "nvidia",
      "convert-nvgpu-to-nvvm,convert-vector-to-scf,convert-scf-to-cf,"
      "convert-nvvm-to-llvm,convert-func-to-llvm,expand-strided-metadata,"
      "nvvm-attach-target{chip=" +
          chip + " features=+ptx80 O=3}",
      // fpowi by a variable exponent as powf (constant ones are products
      // since the front-end cleanup): convert-gpu-to-nvvm would call
      // libdevice's powi with the i64 exponent front ends write.
      "math-expand-ops{ops=fpowi},convert-gpu-to-nvvm", errors);
}

LogicalResult ke::buildLowerAMDGPUPipeline(OpPassManager &pm,
                                           const LowerGPUOptions &options,
                                           llvm::raw_ostream &errors) {
  std::string chip = options.chip.empty() ? "gfx942" : options.chip.getValue();
  return buildGPUPipeline(
      pm, options, "amd",
      "convert-vector-to-scf,convert-scf-to-cf,convert-func-to-llvm,"
      "expand-strided-metadata,rocdl-attach-target{chip=" +
          chip + " O=3}",
      "math-expand-ops{ops=fpowi},ke-math-to-llvm-intrinsics,"
      "convert-gpu-to-rocdl{chipset=" + chip +
          "},ke-fold-known-block-dims",
      errors);
}

LogicalResult ke::buildLowerGPUPipeline(OpPassManager &pm,
                                        const TargetInfo &target,
                                        const LowerGPUOptions &options,
                                        llvm::raw_ostream &errors) {
  switch (target.kind) {
  case TargetKind::NVGPU:
    return buildLowerNVGPUPipeline(pm, options, errors);
  case TargetKind::AMDGPU:
    return buildLowerAMDGPUPipeline(pm, options, errors);
  default:
    errors << "'" << target.name << "' is not a GPU target";
    return failure();
  }
}

void ke::registerLowerGPUPipelines() {
  PassPipelineRegistration<LowerGPUOptions>(
      "ke-lower-nvgpu",
      "Lower tensor kernels to NVIDIA GPUs: out-param buffers, linalg as "
      "parallel loops tiled into thread blocks, outlined kernels, NVVM, PTX "
      "for chip (default sm_90a) in a gpu.binary, host calls to MLIR's GPU "
      "runtime (mgpu*), which ke-run implements on the CUDA driver.",
      [](OpPassManager &pm, const LowerGPUOptions &options) {
        if (failed(buildLowerNVGPUPipeline(pm, options, llvm::errs())))
          llvm::report_fatal_error("ke-lower-nvgpu: could not build pipeline");
      });
  PassPipelineRegistration<LowerGPUOptions>(
      "ke-lower-amdgpu",
      "Lower tensor kernels to AMD GPUs: like ke-lower-nvgpu, through ROCDL "
      "to AMDGCN for chip (default gfx942) in a gpu.binary.",
      [](OpPassManager &pm, const LowerGPUOptions &options) {
        if (failed(buildLowerAMDGPUPipeline(pm, options, llvm::errs())))
          llvm::report_fatal_error("ke-lower-amdgpu: could not build pipeline");
      });
}
