//===- KeDialect.td - the ke dialect -----------------------*- tablegen -*-===//
//
// The dialect that holds kernels under optimization and their candidate tree.
//
//===----------------------------------------------------------------------===//

#ifndef KE_DIALECT_TD
#define KE_DIALECT_TD

include "mlir/IR/OpBase.td"

def Ke_Dialect : Dialect {
  let name = "ke";
  let cppNamespace = "::ke";
  let summary = "Kernels under search-based optimization and their candidates";
  let description = [{
    The `ke` dialect holds a kernel under optimization as IR: a `ke.kernel`
    owns the reference implementation (a `func.func` on tensors) and the tree
    of `ke.candidate` ops proposed for it, each with its payload function, the
    candidate it was derived from, who proposed it, with which strategy, and
    what was measured when it was evaluated.

    The dialect also gives meaning to a few discardable attributes that users
    put on ordinary functions:

    * `ke.kernel` (unit, on a `func.func`): this function is a kernel to
      optimize.
    * `ke.atol`, `ke.rtol` (float, on a `func.func`): the tolerances used when
      a candidate's outputs are compared with the reference's (read from
      the reference, never from the candidate).
    * `ke.precision` (string, on a `func.func`): the arithmetic the author
      allows below the types' own: "ieee" (the default) or "tf32" (f32
      products on TF32 tensor cores, f32 results checked with TF32's
      tolerance).
    * `ke.range = [lo, hi]` (on an integer argument): the half-open range
      `lo <= x < hi` from which inputs for this argument are drawn, e.g. the
      valid indices of a gather.
    * `ke.selected`, `ke.strategy` (string, on a `func.func`): written by
      `ke-select-best` and `ke-evolve` to say which candidate replaced the
      kernel and how it was made. The body of a function with `ke.selected`
      carries its schedule: `ke-run` lowers it as it is (no schedule of its
      own), as the search measured it.
    * `ke.work = {flops = F : i64, bytes = B : i64}` (on a `func.func`): the
      work of the reference this function was derived from, written by
      `ke-evolve` on its output so that rates (GFLOP/s, GB/s) of a scheduled
      body, whose linalg form is gone, are still those of the computation.
    * `ke.op_id` (integer, on any op): a transient tag the transform library
      puts on linalg ops while it applies a schedule, so the script can
      address each op; it is removed afterwards.
  }];
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Names of the discardable attributes this dialect understands.
    static constexpr llvm::StringLiteral kKernelAttrName = "ke.kernel";
    static constexpr llvm::StringLiteral kAtolAttrName = "ke.atol";
    static constexpr llvm::StringLiteral kRtolAttrName = "ke.rtol";
    static constexpr llvm::StringLiteral kRangeAttrName = "ke.range";
    static constexpr llvm::StringLiteral kSelectedAttrName = "ke.selected";
    static constexpr llvm::StringLiteral kStrategyAttrName = "ke.strategy";
    static constexpr llvm::StringLiteral kOpIdAttrName = "ke.op_id";
    static constexpr llvm::StringLiteral kWorkAttrName = "ke.work";
    /// Threads per block along the innermost parallel loops on GPU targets
    /// (the GPU schedule knob; see ke-tile-parallel-loops-for-gpu).
    static constexpr llvm::StringLiteral kGPUBlockTileAttrName =
        "ke.gpu_block_tile";
    /// Outputs per thread of matmul-like reductions on GPU targets (see
    /// ke-distribute-reductions-for-gpu).
    static constexpr llvm::StringLiteral kGPUThreadTileAttrName =
        "ke.gpu_thread_tile";
    /// Most threads reducing one row together on GPU targets (0: one
    /// thread per output element).
    static constexpr llvm::StringLiteral kGPUReductionThreadsAttrName =
        "ke.gpu_reduction_threads";
    /// Outputs per block along i and j of GEMM-like contractions staged
    /// through shared memory on GPU targets (0: no staging; see
    /// ke-stage-contractions-for-gpu).
    static constexpr llvm::StringLiteral kGPUSharedTileAttrName =
        "ke.gpu_shared_tile";
    /// Elements per thread of elementwise ops, read and written as one
    /// vector, on GPU targets (1: scalar; see
    /// ke-vectorize-elementwise-for-gpu).
    static constexpr llvm::StringLiteral kGPUVectorWidthAttrName =
        "ke.gpu_vector_width";
    /// Warps per block of contractions staged through shared memory on GPU
    /// targets (2, 4, 8 or 16; see ke-stage-contractions-for-gpu).
    static constexpr llvm::StringLiteral kGPUWarpsAttrName = "ke.gpu_warps";
    /// Blocks per output tile along K of contractions staged through shared
    /// memory on GPU targets (split-K: a power of two from 1 to 64; see
    /// ke-stage-contractions-for-gpu).
    static constexpr llvm::StringLiteral kGPUKSplitsAttrName =
        "ke.gpu_k_splits";
    /// Outputs per block along i and j of contractions run on NVIDIA tensor
    /// cores (0: none; see ke-tensor-core-contractions-for-gpu).
    static constexpr llvm::StringLiteral kGPUTensorCoreTileAttrName =
        "ke.gpu_tensor_core_tile";
    /// Columns per block of 16-bit GEMMs on Hopper's warpgroup mma fed by
    /// TMA (128 or 256, the widest that still fills the GPU; 0: none; see
    /// ke-warpgroup-contractions-for-gpu).
    static constexpr llvm::StringLiteral kGPUWarpgroupTileAttrName =
        "ke.gpu_warpgroup_tile";
    /// The arithmetic the kernel's author allows below its types' own:
    /// "ieee" (none, the default) or "tf32" (f32 products on TF32 tensor
    /// cores, checked with TF32's tolerance).
    static constexpr llvm::StringLiteral kPrecisionAttrName = "ke.precision";
    /// Whether `name` is one of the GPU schedule knobs above, which travel
    /// with a kernel's body to the GPU pipelines.
    static bool isGPUScheduleAttr(llvm::StringRef name) {
      return name == kGPUBlockTileAttrName || name == kGPUThreadTileAttrName ||
             name == kGPUReductionThreadsAttrName ||
             name == kGPUSharedTileAttrName ||
             name == kGPUVectorWidthAttrName || name == kGPUWarpsAttrName ||
             name == kGPUTensorCoreTileAttrName ||
             name == kGPUWarpgroupTileAttrName ||
             name == kGPUKSplitsAttrName;
    }
  }];
}

class Ke_Op<string mnemonic, list<Trait> traits = []>
    : Op<Ke_Dialect, mnemonic, traits>;

#endif // KE_DIALECT_TD
