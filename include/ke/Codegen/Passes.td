//===- Passes.td - ke code generation passes --------------*- tablegen -*-===//

#ifndef KE_CODEGEN_PASSES_TD
#define KE_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def KeAlignWorkgroupMemory : Pass<"ke-align-workgroup-memory"> {
  let summary = "Align every kernel's workgroup buffers for 16-byte accesses";
  let description = [{
    Gives each workgroup attribution of every `gpu.func` an `llvm.align` of
    `alignment` bytes (unless it has one at least as large), which the GPU
    lowerings give the buffer's global. Without it a buffer is aligned to
    its element only (`.shared .align 4` for f32), yet the contraction
    rewrites read and fill their shared slices with 16-byte vectors
    (`ld.shared.v4`, `cp.async` of 16 bytes), which need 16-byte addresses:
    that they land on them otherwise is an accident of the buffers' sizes.
    Runs on any op, after `gpu-kernel-outlining`.
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", "16",
           "Bytes every workgroup buffer is aligned to">
  ];
}

def KeFoldKnownBlockDims : Pass<"ke-fold-known-block-dims"> {
  let summary = "Replace block-size reads by the kernel's known block size";
  let description = [{
    In every kernel whose block size is known (gpu-kernel-outlining sets
    `known_block_size` when the launch's sizes are constants), each
    `gpu.block_dim` becomes an `arith.constant`, and, after the ROCDL
    conversion (the kernel is an `llvm.func` with `gpu.known_block_size`),
    each `rocdl.workgroup.dim.{x,y,z}` an `llvm.mlir.constant`. On AMD this
    is needed, not only tidy: ROCDL reads the block size with a call to
    `__ockl_get_local_size`, which lives in ROCm's device libraries, so a
    kernel using it (every cross-thread reduction does, through the
    all-reduce lowering inside `convert-gpu-to-rocdl`) cannot be linked
    without ROCm. Part of `ke-lower-amdgpu`; runs on any op.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::LLVM::LLVMDialect"];
}

def KeMathToLLVMIntrinsics : Pass<"ke-math-to-llvm-intrinsics"> {
  let summary = "Turn the math ops a GPU has instructions for into LLVM intrinsic calls";
  let description = [{
    `math.floor`, `ceil`, `trunc`, `roundeven`, `sqrt`, `absf`, `fma`,
    `copysign`, `exp2`, `exp`, `log2` and `log` on floats (scalars or 1-d
    vectors) become `llvm.call_intrinsic "llvm.<name>.<type>"`,
    and `math.rsqrt` a division of one by the square root. On AMD this keeps
    `convert-gpu-to-rocdl` from calling ROCm's device library (`__ocml_*`),
    which Debian does not ship: the backend has instructions for all of
    these. Run it after `ke-approximate-math` (tanh, erf, ... have no
    instruction) and before `convert-gpu-to-rocdl`, which marks the LLVM
    dialect's own intrinsic ops for these (`llvm.intr.floor`, ...) illegal.
    Part of `ke-lower-amdgpu`; runs on any op.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::arith::ArithDialect"];
}

def KeTimeGPUKernels : Pass<"ke-time-gpu-kernels", "mlir::ModuleOp"> {
  let summary = "Time every outlined GPU kernel with the device's global timer";
  let description = [{
    Only in a module that holds profiling probes (`ke-instrument`), so
    uninstrumented code is untouched. Every `gpu.func` kernel gets a
    public device global `__ke_timer_<kernel>` of two i64 (`memref.global`
    in global memory) and:
    - at entry, thread (0,0,0) of each block reads the global timer and
      folds it into word 0 with an atomic unsigned min;
    - before its return, a `gpu.barrier` (so every thread of the block is
      done), then thread (0,0,0) reads the timer again and folds it into
      word 1 with an atomic unsigned max.
    So the two words end up as the first block's start and the last
    block's end: the kernel's span on the device, without launch latency.
    The runtime resets the words before a profiled launch and reads them
    after it (`cuModuleGetGlobal`). The timer is `%globaltimer` (ns) on
    NVIDIA and `s_memrealtime` (a 100 MHz counter) on AMD, chosen by
    `vendor`. Two atomics per block and one barrier are the probe's cost;
    a kernel with more than one return is left untimed with a warning.
  }];
  let options = [
    Option<"vendor", "vendor", "std::string", /*default=*/"\"nvidia\"",
           "Whose timer to read: nvidia (%globaltimer) or amd (s_memrealtime)">
  ];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect"
  ];
}

def KeTileParallelLoopsForGPU : Pass<"ke-tile-parallel-loops-for-gpu", "mlir::func::FuncOp"> {
  let summary = "Tile outermost scf.parallel loops into GPU thread blocks";
  let description = [{
    Tiles every outermost `scf.parallel` so its inner loop becomes one thread
    block (`gpu-map-parallel-loops` maps outer to blocks, inner to threads,
    innermost dimension to `threadIdx.x`). Sizes, right-aligned on the
    loop's dimensions (missing outer ones are 1): the function's
    `ke.gpu_block_tile` if it has one (the GPU schedule knob the search
    varies), else `block-tile` if given, else a block of 32 to 256 threads
    (the most that still leaves `min-blocks` blocks: twice the SMs of the target, 264 on an H100),
    up to a warp along x (the innermost loop), the rest along the next
    loops outward, none given more threads than the power of two at or
    above its trip count (a unit loop gets one). Bounds are
    checked inside the block, so sizes need not divide the trip counts.
    First the dimension that indexes the innermost (contiguous) dimension
    of the buffer the loop's body stores to moves last, so that
    `threadIdx.x` runs along it: loops follow an op's iterators, which need
    not follow its output's layout (a depthwise NCHW convolution iterates
    (n, oh, ow, c) over an [n][c][oh][ow] output). A loop of more than
    three dimensions then has its outer ones collapsed
    into one (`collapseParallelLoops`): the grid and the block have three
    dimensions, and `gpu-map-parallel-loops` leaves the others sequential
    in every thread (a 5-D elementwise op over 64 x 16 x 14 x 30 x 30 ran
    64 x 16 iterations in each block).
  }];
  let options = [
    ListOption<"blockTile", "block-tile", "int64_t",
               "Block tile for every loop (right-aligned)">,
    Option<"minBlocks", "min-blocks", "int64_t", /*default=*/"264",
           "Blocks a loop nest should keep before its blocks grow past a "
           "warp: twice the GPU's multiprocessors (the pipelines take it "
           "from the target; 264 is an H100's)">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect"];
}

def KeDistributeReductionsForGPU : Pass<"ke-distribute-reductions-for-gpu", "mlir::func::FuncOp"> {
  let summary = "Reduce each row of a linalg reduction with a GPU thread block";
  let description = [{
    On buffers, before linalg becomes parallel loops: every linalg op with
    one result, reduction loops that include its innermost loop (a row; a
    batch norm's N, H and W with C between them are one row, their
    linearized space), at least 32 elements per row (shorter rows keep one
    thread each, below), static bounds, f32, f64, i32 or i64 elements and a body
    that folds one value into the output with a combiner `gpu.all_reduce`
    knows (add, mul, max/min) becomes a `gpu.launch` with one thread block
    per output element. Each thread folds
    a strided slice of the row (coalesced), `gpu.all_reduce` combines the
    partials across the block (warp shuffles, then shared memory across
    warps), and thread 0 folds the total into the output, so the init value
    still counts. Threads per block: a quarter of the row, 32 to
    `max-threads` (by default 1024, the block limit), a power of two.
    Operands are read along every parallel loop (the row's own), along no
    reduction loop (one value per row), along no parallel loop (the same
    for every row), or are small buffers (at most 4096 elements) read along
    outer loops only. A reduction to a scalar (no parallel
    loop) is one such row. Rows of at most `warp-row-length` elements (a
    layer norm over 64 channels) get a warp each instead, 4 rows to a
    block (`threadIdx.y`): the lanes combine their partials with a
    butterfly of `gpu.shuffle xor` (no shared memory, no barrier).

    With `fuse-rows`, a run of ops over the same rows and columns with at
    least one such row reduction becomes one launch with a block per row:
    row reductions, elementwise ops (before or after them; inputs read at
    (row, column), at (row), at (column), or scalars) and elementwise ops
    over the rows alone (layernorm's mean = sum / n, computed by every
    thread from registers). Softmax's max, exp, sum and divide, the norms'
    statistics and scaling, and attention's scale through divide each
    become one kernel. The ops run in order, each thread striding over the
    columns the same way (so it reads only elements it wrote itself); each
    row value (a reduction's total, a per-row op's result) stays in
    registers for the ops after it, and thread 0 also stores it. An
    elementwise op whose output is a temporary (an allocation) that only
    the run's later ops read, at the same (row, column), is not stored but
    recomputed where it is read (softmax's exp(x - max) in the sum's and
    the divide's loops), so the row is read again from the run's inputs,
    in cache, instead of written to and read back from memory. A run
    needs whole buffers (no views), bodies without `linalg.index` that do
    not read the output's old value, row values written once and touched
    by no op of the run before, and read after only at (row). Allocations,
    constants and fills are skipped over (fills initializing the run's
    reductions are folded; any other fill inside a run drops it); the
    deallocation of a buffer the run uses, or any other op, ends it.

    A reduction along an outer loop (a column sum) whose combiner has a
    native atomic (integer or float add, integer max/min) becomes a launch
    with 32 neighbouring output elements on `threadIdx.x` (coalesced) and
    chunks of 16 reduction iterations on `threadIdx.y` (8) and the grid's
    y; each thread folds its chunk and adds it to the output atomically
    (the summation order varies from run to run). Mapped as parallel loops
    instead, the outer reduction loop stays on the host around one kernel
    launch per iteration.

    Every other reduction with static shapes and a parallel loop
    (contractions, convolutions, several reduction loops, 64-bit elements,
    several results like an argmax's, and with `max-threads=0` all
    reductions) becomes an `scf.parallel` over its parallel loops (one thread per
    output element once the block tiling maps it) whose reduction loops
    carry the accumulators in registers and store them once (a body that
    is not one combiner is cloned whole per iteration; `thread-tile`
    gives each thread a tile of outputs: their loads of one reduction
    iteration coincide along the tile's rows and columns and LLVM merges
    them). The function's `ke.gpu_reduction_threads` and
    `ke.gpu_thread_tile` (the search's GPU knobs) win over the options.
    `convert-linalg-to-parallel-loops` would load and store the output in
    every iteration, and with an outer reduction loop keep it on the host
    around one launch per iteration.
  }];
  let options = [
    Option<"maxThreads", "max-threads", "int64_t",
           "::ke::GPUScheduleDefaults::reductionThreads",
           "Most threads per row (0: no distribution, only register "
           "accumulation)">,
    Option<"warpRowLength", "warp-row-length", "int64_t", "256",
           "Rows of at most this many elements get a warp each instead of "
           "a block (0: never)">,
    Option<"fuseRows", "fuse-rows", "bool", "true",
           "Run row reductions and the elementwise ops over the same rows "
           "around them in one kernel">,
    ListOption<"threadTile", "thread-tile", "int64_t",
               "Outputs per thread of the register-accumulated reductions, "
               "right-aligned on their parallel loops (a size that does not "
               "divide its loop counts as 1)">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect"];
}

def KeStageContractionsForGPU : Pass<"ke-stage-contractions-for-gpu", "mlir::func::FuncOp"> {
  let summary = "Stage GEMM-like contractions through GPU shared memory";
  let description = [{
    On buffers, before `ke-distribute-reductions-for-gpu`: every linalg op
    with one f32 output indexed by plain loops, static bounds, reduction
    loops and a body folded into the output by `arith.addf`, read as a
    matrix product C[M x N] += A[M x K] B[K x N] over groups of loops: the
    columns N are the parallel loops of the inputs that read the output's
    innermost loop (B-like), the rows M those of the other inputs (A-like),
    the batches the parallel loops every input reads, K all reduction loops
    (matmul: i | j | k; batch_matmul: the same per batch; attention's
    Q x K^T in either layout; conv_2d_nhwc_hwcf: n, oh, ow | f | kh, kw, c,
    the input read at oh + kh). It becomes a `gpu.launch`: one block of
    16 x 2`warps` threads per `tile` x `tile` outputs (batches on the
    grid's z), each thread accumulating (`tile`/2`warps`) x (`tile`/16)
    outputs in registers. Fewer warps give each thread more outputs (more
    reuse of each shared value, fewer threads to hide latency); the
    function's `ke.gpu_warps` (the search's knob) wins over `warps`. A tile
    that leaves a thread row without a tile row, or a thread more than 128
    accumulators (16 x 8: a 128 tile on 4 warps), is not staged.

    K runs in steps of `k-step` through `stages` buffers of shared memory
    (`GPUSharedSlices.h`, shared with the tensor-core rewrite): each input's
    slice of a step is laid out as the input is, [line][k] (rows padded by
    16 bytes) or [k][line] (rows padded by 16 bytes too); an input whose
    innermost index follows both (a convolution's ow + kw) takes the
    layout of the group whose innermost loop runs longer (126 pixels, not
    3 taps), so that neighbouring threads copy neighbouring addresses. It
    is copied in 16-byte vectors where the input is contiguous along its
    innermost loops (whole trailing dimensions in the group's order: a
    filter's c, kh and kw), with `nvgpu.device_async_copy` (cp.async,
    zero-filled past ragged rows, columns and K; with
    `async-copies=false`, for AMD, vector loads and stores through
    registers, within the innermost dimension); element by element
    otherwise: 32-bit elements of a buffer with unit innermost stride with
    a 4-byte cp.async, the rest through registers. An input whose flat
    offset is a sum of loops times constants (static, row-major) is copied
    from a one-dimensional view (`memref.collapse_shape`) at a line part
    that stays the same from step to step (the line and k indices are
    clamped separately) plus the K part: k times a stride where the
    reduction loops run over consecutive strides, else an i32 from a
    table of K entries in shared memory that the block fills once before
    its first copy (a convolution's input: c·HW + kh·W + kw; at most 4096
    entries, and none where it would cost a stage of the 48 KB: the copy
    then splits k in 32 bits). A map with divisions or remainders keeps
    per-dimension indices. Copies start
    `stages` - 1 steps ahead of their use; the step waits for its own,
    `gpu.barrier`, accumulates with its iterations unrolled, and
    `gpu.barrier` again. As many stages as fit in 48 KB are kept.

    A thread reads its values from shared memory as 16-byte vectors: from a
    [k][line] slice it owns runs of 4 (or 2) consecutive lines, thread t's
    run g starting at g x lanes x 4 + 4t, so a warp's lanes read
    neighbouring vectors; from a [line][k] slice it owns lines t + lanes g
    (their padded rows on different banks) and reads four k at a time. The
    cloned body's arithmetic carries `fastmath<contract>`, so that its
    multiply and add become one FMA (NVPTX otherwise keeps them apart, at
    half the rate). Rows or columns that do not fill the last tile are
    guarded. A `linalg.fill` of the output right before the op becomes the
    accumulators' start.

    Split-K: `k-splits` blocks (a power of two dividing K's steps) share
    an output tile, each over its own consecutive steps (grid z = split x
    batches + batch); their accumulators start at zero and are added into
    the output with `memref.atomic_rmw addf`, so the fill before the op (or
    whatever the output holds, a bias) stays and is added onto. Only for
    f32 outputs folded by an `addf`. `k-splits=0` splits as little as
    gives the grid `fill-blocks` blocks, each keeping at least 8 steps (the
    GPU pipelines pass two per multiprocessor: on an H200 that was 1.03x
    over no split on the 42 KernelBench problems it changes, against 0.97x
    for four per multiprocessor). The function's `ke.gpu_k_splits` (the
    search's knob) wins, taken as the largest power of two up to it that
    divides the steps.

    The tile is `tile`, halved (down to 16) while the grid would have fewer
    than `min-blocks` blocks (a GPU has more SMs than a small product has
    large tiles), except where K can be split and is at least 4 times the
    output's longer side: such a product keeps its tile and is split along
    K instead (KernelBench's 256 x 8192 x 256 matmul on an H100: 135 µs in
    16 x 16 tiles, 47 µs in 64 x 64 tiles split 32 ways); not where K is
    not split (`k-splits=1`, no `fill-blocks`). A side shorter than the
    tile (a convolution's 16 output channels) takes only its lines, rounded
    up to whole lines per thread,
    and the other side grows by powers of two while the block keeps at most
    the square's outputs, a thread at most 64 accumulators, two stages fit
    in 48 KB and the grid keeps 4 x `min-blocks` blocks. The function's
    `ke.gpu_shared_tile` (the search's knob) is taken exactly, 0 turning
    staging off. A K that is not a multiple of
    `k-step` (a 3 x 3 convolution over 8 channels: 72) is staged when the
    body folds a product of two inputs' values, which the zeros past K turn
    into zeros. Ops whose K is not a multiple of `k-step` and whose body
    folds anything else, without both A-like and B-like inputs, with an input that is
    the output, or whose launch would not fit (more than 65535 row tiles or
    batches, more than 48 KB for one stage) are left to
    `ke-distribute-reductions-for-gpu`. Without staging, every output reads
    its whole row and column from global memory (through L1/L2).

    The accumulators start from a `linalg.fill` of the output right before
    the op, or from the input of a `linalg.broadcast` into it (a bias),
    which then goes away (not where an op in between writes any view of
    the output's memory). Without split-K, an elementwise `linalg.generic`
    right after the op that reads its output through an identity map and
    writes one output of the same type through one (a bias and an
    activation, in place or into another buffer; its other inputs any
    memrefs; no `linalg.index`) is applied to the accumulators before they
    are stored, and goes away; the output itself is stored only where the
    epilogue writes elsewhere and the output is not a temporary read by
    nothing after. Not where the epilogue writes (a view of) an input.
  }];
  let options = [
    Option<"tile", "tile", "int64_t",
           "::ke::GPUScheduleDefaults::sharedTile",
           "Outputs per block along i and j: 16 to 128, a multiple of 16 "
           "(0: no staging)">,
    Option<"stepK", "k-step", "int64_t", "16",
           "Reduction iterations per shared-memory step">,
    Option<"minBlocks", "min-blocks", "int64_t", "128",
           "Fewest blocks worth a smaller tile: the tile is halved (down "
           "to 16) while the grid has fewer">,
    Option<"warps", "warps", "int64_t", "::ke::GPUScheduleDefaults::warps",
           "Warps per block: 2, 4, 8 or 16 (16 x 2*warps threads)">,
    Option<"stages", "stages", "int64_t", "::ke::GPUScheduleDefaults::stages",
           "Steps of K in flight: copies of a step start stages - 1 steps "
           "before its use (fewer where 48 KB of shared memory does not "
           "hold them)">,
    Option<"asyncCopies", "async-copies", "bool", "true",
           "Copy 16-byte vectors straight to shared memory with cp.async "
           "(NVIDIA); otherwise through registers">,
    Option<"kSplits", "k-splits", "int64_t",
           "::ke::GPUScheduleDefaults::kSplits",
           "Blocks per output tile along K, adding their partial sums into "
           "the output (a power of two up to 64, lowered to one dividing "
           "K's steps; 0: the fewest that give the grid `fill-blocks` "
           "blocks, 1: none; anything else is an error)">,
    Option<"fillBlocks", "fill-blocks", "int64_t", "0",
           "Blocks the grid should have (a few per multiprocessor) before K "
           "is split for more (0: K never split unless asked)">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::vector::VectorDialect"];
}

def KeTensorCoreContractionsForGPU : Pass<"ke-tensor-core-contractions-for-gpu", "mlir::func::FuncOp"> {
  let summary = "Run GEMM-like contractions on NVIDIA tensor cores (mma.sync)";
  let description = [{
    On buffers, before `ke-stage-contractions-for-gpu`: a contraction as
    that pass reads it (C[M x N] += A[M x K] B[K x N] over groups of loops,
    one f32 output) whose body is exactly `acc + a * b` (the inputs possibly
    extended to f32 first), with one A-like and one B-like input that are
    both f16, both bf16, or both f32 in a function that carries
    `ke.precision = "tf32"`, becomes a `gpu.launch` of 4 warps (8 for the
    128 tile) per `tile` x `tile` outputs (batches on the grid's z). Each
    warp owns 32 x 32 (64 x 32) outputs and accumulates them in f32
    registers with `nvvm.mma.sync` (m16n8k16 for f16/bf16, m16n8k8 for
    TF32; A row-major, B column-major fragments). K runs in steps of 64
    bytes per row through `stages` buffers of shared memory: each step's
    slices are copied with 16-byte `nvgpu.device_async_copy` (cp.async,
    zero-filled past ragged rows, columns and K; element by element where
    the input's innermost index is not the innermost loop of its group or
    the width does not divide that loop and the buffer's rows), started
    `stages` - 1 steps ahead of their mma, into slices laid out as the
    input is ([line][k] or [k][line], padded so fragment reads are
    conflict-free). 16-bit fragments come from `nvgpu.ldmatrix` (transposed
    for [k][line] slices), TF32 ones from scalar loads rounded to the
    nearest TF32 (`nvvm.convert.float.to.tf32`, as cuBLAS does; the mma
    alone truncates). Stages beyond `max-shared` are dropped; past 48 KB
    they are views into the launch's dynamic shared memory. A `linalg.fill`
    of the output right before the op starts the accumulators. An
    elementwise epilogue right after the op (a bias, an activation) runs on
    the accumulators before they are stored, as in
    `ke-stage-contractions-for-gpu` (`GPUContractionEpilogue.h`): one launch,
    the product never written to memory unless something else reads it.

    The tile is `tile`, halved (down to 32) while the grid would have
    fewer than `min-blocks` blocks; the function's `ke.gpu_tensor_core_tile`
    (the search's knob) is taken exactly, 0 turning the rewrite off. f32
    inputs without the TF32 permission are left to the staging pass: TF32
    keeps 10 of f32's 23 mantissa bits.
  }];
  let options = [
    Option<"tile", "tile", "int64_t",
           "::ke::GPUScheduleDefaults::tensorCoreTile",
           "Outputs per block along i and j: 32, 64 or 128 (0: none)">,
    Option<"minBlocks", "min-blocks", "int64_t", "132",
           "Fewest blocks worth a smaller tile: the tile is halved (down "
           "to 32) while the grid has fewer">,
    Option<"stages", "stages", "int64_t",
           "::ke::GPUScheduleDefaults::stages",
           "Steps of K in flight: copies of a step start stages - 1 steps "
           "before its mma (fewer where `max-shared` does not hold them)">,
    Option<"maxShared", "max-shared", "int64_t", "49152",
           "Most bytes of shared memory per block; past 48 KB the stages "
           "live in dynamic shared memory, which the kernel opts in to at "
           "launch (on the H100, 3 or 4 stages that way ran the 128 tile "
           "slower than 2 in static memory)">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def KeWarpgroupContractionsForGPU : Pass<"ke-warpgroup-contractions-for-gpu", "mlir::func::FuncOp"> {
  let summary = "Run large 16-bit GEMMs on Hopper's warpgroup mma (wgmma) fed by TMA";
  let description = [{
    On buffers, before `ke-tensor-core-contractions-for-gpu`: a plain
    C[M][N] = A[M][K] B[K][N] (`acc + a * b`, the inputs possibly extended)
    on whole row-major buffers, A and B both f16 or both bf16, C f32 and
    zero-filled right before, with K a multiple of 64, becomes a
    `gpu.launch` per tile of outputs (sm_90a). B may also be given as
    [N][K] (x @ W.T, a Linear's weight): read so by the op's indexing map,
    or through a transposing copy into a temporary that only the product
    reads (how front ends write it), which then goes away with the
    temporary.

    - the host makes a TMA tensor map of A (boxes of the tile's rows x
      64) and of B (boxes 64 x 64 of [K][N]; of [N][K], one box of the
      tile's columns x 64), 128-byte swizzled
      (`nvgpu.tma.create.descriptor`);
    - one warpgroup (4 warps) owns the tile's f32 accumulators in
      registers, two for 128 x 256 (64 x 256 each); with B as [N][K],
      one per 64 rows;
    - K runs in blocks of 64 through `stages` shared buffers aligned to
      1024 bytes: thread 0 starts each block's copies
      (`nvgpu.tma.async.load`) `stages` - 1 blocks ahead and they complete
      on the buffer's mbarrier; every warpgroup waits on it
      (`nvgpu.mbarrier.try_wait.parity`), issues its `nvgpu.warpgroup.mma`
      (B read N-major; as [N][K], K-major like A, one mma per 16 of K on
      descriptors 32 bytes further into the swizzled rows, because the
      upstream lowering steps a K-major B by whole rows) and waits for the
      previous block's, after which the block barrier frees that buffer
      for the next copies;
    - the accumulators go straight to C (`nvgpu.warpgroup.mma.store`).

    The tile is the first of 128 x 256, 128 x 128, 64 x 256 and 64 x 128
    (at most `tile` columns) that divides the output and gives
    `min-blocks` blocks, else 64 x 128 where it gives half as many (blocks
    sweep 8 row tiles per column tile, so the blocks running together
    share B in L2); with none, the op is left to the mma.sync path, whose
    smaller tiles fill the GPU. The function's
    `ke.gpu_warpgroup_tile` (the search's knob) replaces `tile`; 0 turns the
    rewrite off. Stages beyond `max-shared` are dropped.
  }];
  let options = [
    Option<"tile", "tile", "int64_t",
           "::ke::GPUScheduleDefaults::warpgroupTile",
           "Most columns per block: 128 or 256 (0: none)">,
    Option<"minBlocks", "min-blocks", "int64_t", "132",
           "Fewest blocks a tile must give (the GPU's multiprocessors)">,
    Option<"stages", "stages", "int64_t", "4",
           "K blocks of 64 in shared memory at once">,
    Option<"maxShared", "max-shared", "int64_t", "232192",
           "Most bytes of dynamic shared memory per block">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def KeVectorizeElementwiseForGPU : Pass<"ke-vectorize-elementwise-for-gpu", "mlir::func::FuncOp"> {
  let summary = "Give each GPU thread a vector of an elementwise op's elements";
  let description = [{
    On buffers, before `convert-linalg-to-parallel-loops`: every linalg op
    with parallel loops only, static bounds whose innermost is a multiple
    of `width`, whole buffers (arguments of the function, whose callers pass
    whole device allocations, or allocations; not views) of 32-bit elements
    indexed by the identity and scalars, a body that does not read the
    output's old value, becomes
    an `scf.parallel` whose innermost loop runs over groups of `width`
    elements: each input is read with one `vector.load` aligned to
    `width` x 4 bytes (`ld.global.v4.f32` for 4), the body runs once per
    lane, and the results are written with one aligned `vector.store`.
    Scalar accesses put one 32-bit element per thread in flight. The
    function's `ke.gpu_vector_width` (the search's knob) wins over the
    option; 1 leaves the ops alone.
  }];
  let options = [
    Option<"width", "width", "int64_t",
           "::ke::GPUScheduleDefaults::vectorWidth",
           "Elements per thread: 1 (scalar), 2 or 4">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def KeCopiesToLinalg : Pass<"ke-copies-to-linalg", "mlir::func::FuncOp"> {
  let summary = "Turn memref.copy into linalg.copy, so copies become loops";
  let description = [{
    On buffers, before linalg becomes loops: every `memref.copy`
    (bufferization writes them for tensors copied, padded, inserted into
    or returned) becomes a `linalg.copy` of the same operands. Left alone,
    a copy is lowered to a host `memcpy` when both sides are contiguous,
    else to a call of the runtime's `memrefCopy`, which walks the elements
    one by one through their descriptors.

    The GPU pipelines take every copy: each becomes GPU loops like any
    other linalg op (on GPU targets every buffer of the kernel is device
    memory; a host `memcpy` or `memrefCopy` would read device pointers and
    crash). The CPU pipeline takes the copies that are not contiguous on
    both sides (`strided-only`), which become loops LLVM compiles: a
    padded input's interior and a transposed convolution's strided output
    phases had cost about 4 ns per element in `memrefCopy`.
  }];
  let options = [
    Option<"stridedOnly", "strided-only", "bool", "false",
           "Only copies that are not contiguous on both sides (contiguous "
           "ones stay a memcpy)">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def KeWidenReferencePrecision : Pass<"ke-widen-reference-precision", "mlir::func::FuncOp"> {
  let summary = "Compute a kernel's f32 arithmetic in f64, its signature unchanged";
  let description = [{
    On tensors: every f32 value, tensor and constant in the function's body
    becomes f64; f32 arguments are extended once on entry (`arith.extf`)
    and f32 results truncated once on return (`arith.truncf`), so the
    function type is unchanged. Conversions between f32 and f64 that the
    body held become no-ops and are dropped; other element types (f16,
    bf16, integers) are left alone. Evaluation runs this on a copy of the
    reference of kernels with a floating-point reduction over at least 1024
    terms: in f32 and its loop order the reference's own rounding grows with
    the reduction's length (a 65536-term row sum of inputs in [-1, 1):
    8e-4, eight times the f32 tolerance), so candidates are judged against
    the f64 result, with the f32 reference's distance from it as an added
    allowance (see docs/adding-a-kernel.md). Fails on a body that is not
    valid in f64 (an `arith.bitcast` of an f32 to i32) or a constant held
    as a resource blob; the evaluation then keeps the f32 reference alone.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def KeLowerLinalgToReferenceLoops : Pass<"ke-lower-linalg-to-reference-loops", "mlir::func::FuncOp"> {
  let summary = "Lower linalg ops on buffers to loops whose outer parallel dimensions may run on threads";
  let description = [{
    The reference's lowering (`ke-lower-cpu{naive=true reference-threads=N}`)
    on buffers, in place of `convert-linalg-to-loops`: a linalg op whose
    iterators are parallel dimensions followed by reduction dimensions, and
    whose every output is indexed by a projected permutation naming every
    parallel dimension, becomes an `scf.parallel` over its parallel
    dimensions around `scf.for` loops over its reductions. Distinct parallel
    iterations then write distinct elements, and each element's arithmetic
    runs in the same order as in sequential loops, so the results are
    bit-identical to `convert-linalg-to-loops`. When such an op has
    reductions and at least two parallel dimensions, and every operand its
    innermost parallel dimension indexes has that dimension in its
    innermost position only (a matmul's B and C, not a transposed B), that
    dimension runs innermost, inside the reductions (named ops are
    generalized first): `C[i][j] += A[i][k] * B[k][j]` over consecutive j
    is then one vector operation on consecutive elements, each element
    still summed over k in order, instead of one element's chain through
    memory per step of k (a 2048^3 f32 reference: about 8 GFLOP/s on one
    thread here, 0.5 before). Such an op's columns and first reduction
    are also split into blocks of 64, sequential loops outside the
    `scf.parallel` (columns, then the reduction's blocks in order), so that
    every row reuses one block of B from the cache instead of streaming
    all of B through the caches (a 4096^3 f32 product: 4.2 instead of 5.3
    s on two cores here); each element's terms are still added in their
    order. Any other linalg op (a
    reduction before a parallel dimension, an output not indexed by every
    parallel dimension, an op already inside a parallel loop) becomes
    sequential loops exactly as `convert-linalg-to-loops` makes them.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::affine::AffineDialect"];
}

def KeHoistParallelLoopsForGPU : Pass<"ke-hoist-parallel-loops-for-gpu", "mlir::func::FuncOp"> {
  let summary = "Put every linalg op's parallel loops before its reduction loops";
  let description = [{
    Before `convert-linalg-to-parallel-loops`, which makes only an op's
    leading parallel loops the `scf.parallel` the GPU maps to its grid: a
    parallel loop after a reduction loop would run sequentially inside each
    thread (an argmax over the middle dimension of a 2 x 1024 x 2047 tensor
    ran on 2 threads). Every linalg op with a parallel loop after a
    reduction loop gets its loops interchanged (named ops are generalized
    first), the parallel loops first, each group in its order. Each output
    element's reduction keeps its order: the results are the same bits.
    Runs after `ke-distribute-reductions-for-gpu`, whose column strategy
    wants the reduction loop outside.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def KePrefixScansForGPU : Pass<"ke-prefix-scans-for-gpu", "mlir::func::FuncOp"> {
  let summary = "Replace log-step prefix scans by a chunked scan for the GPU";
  let description = [{
    On tensors, before bufferization. The log-step (Hillis-Steele) chains
    front ends write for `cumsum`/`cumprod` (see `ke-vectorize-prefix-scans`:
    the same match) read and write the whole tensor log2(n) times, one
    kernel launch per step. Each complete chain becomes steps over chunks
    of the scan dimension:

    - every chunk's total: a reduction over the chunk (a row, so
      `ke-distribute-reductions-for-gpu` gives it a warp or a block);
    - for the thread scans below, every chunk's offset, the combined
      totals of the chunks before it: a reduction over the chunks, masked
      with `linalg.index`;
    - the scan of each chunk from its offset.

    Along the innermost dimension of a static tensor, with 32- or 64-bit
    accumulators, a chunk is `warp-chunk` elements (or the largest divisor
    of the dimension below it) and a warp scans it: a `gpu.launch` (`warps`
    warps a block, each its own chunk) on the source's buffer
    (`bufferization.to_buffer`, read only), writing a new buffer the scan's
    tensor then is (`bufferization.to_tensor` restrict writable). The warp
    starts from the totals of the chunks before its own, its lanes' shares
    combined with a butterfly of `gpu.shuffle xor` (no offsets step: two
    launches fewer), and runs through its chunk in rounds: each lane loads up to four 16-byte
    vectors (each load a warp's 512 consecutive bytes; narrower vectors
    where the chunk's length does not divide), then per vector scans its
    own, scans the lanes' totals with `gpu.shuffle up` (64-bit values
    split in two by the shuffles' lowering), adds the running value and the lanes before it,
    stores, and carries the warp's total (`gpu.shuffle idx` of the last
    lane); a ragged last round stores only inside the chunk. No shared
    memory, no barrier. A warp's loads and stores are then coalesced; one
    thread per chunk read 32 lines a chunk apart per warp load (an H200 ran
    KernelBench's cumsum over 128 rows of 32768 in 90 us that way). A chain
    whose scanned tensor is a flip along its dimension (a parallel
    `linalg.generic` yielding `tensor.extract %x[..., n - 1 - i, ...]`) and
    whose result only such a flip reads (`cumsum(x.flip(d)).flip(d)`) is
    scanned by warps from the end of `%x`, each chunk starting from the
    chunks after it: neither flip is made.

    Elsewhere (an outer dimension, whose neighbouring threads then read
    neighbouring columns; dynamic shapes; 8- or 16-bit accumulators) a
    chunk is `chunk` elements and an `scf.forall` over (other dimensions,
    chunk) gives each thread a chunk to run through from its offset,
    writing each element (a parallel loop on the GPU once bufferized and
    converted by `scf-forall-to-parallel`). A thread reads 64 bytes of its
    chunk before it writes them (its loads are then not held behind its
    stores, which may alias them).

    Float sums and products run in f64 (totals, offsets and the running
    value), so the result is closer to the exact scan than the log-step
    it replaces. A dimension with no divisor of at least 16 below the chunk
    is one chunk.
  }];
  let options = [
    Option<"chunk", "chunk", "int64_t", "256",
           "Most elements of the scan dimension per thread, where a thread "
           "scans a chunk alone (256: on an H200, KernelBench's scans over "
           "rows of 32768 ran 1.05-1.6x faster than with 128 and 1.2-1.8x "
           "faster than with 64)">,
    Option<"warpChunk", "warp-chunk", "int64_t", "1024",
           "Most elements of the innermost dimension per chunk a warp "
           "scans">,
    Option<"warps", "warps", "int64_t", "8",
           "Warps a block of the warp scans, each scanning its own chunk "
           "(0 to 32; 0: every chunk scanned by one thread)">
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect"];
}

def KeConstantsToDeviceForGPU : Pass<"ke-constants-to-device-for-gpu", "mlir::func::FuncOp"> {
  let summary = "Copy the constant globals a GPU function reads into device buffers";
  let description = [{
    On buffers, GPU targets: every `memref.get_global` of a static global
    (a tensor constant that is not a splat, bufferized: a front end's gather
    table, a fixed weight) becomes a `memref.alloc` at the function's entry
    filled from the global by `gpu.memcpy`; the function's ops read the
    buffer. The global lives in host memory, where a GPU kernel that reads
    it faults (KernelBench's Gemm + GroupNorm problems, imported with
    PyTorch's group norm decomposition and its gather tables: CUDA error
    700). Splat constants never get here (`ke-splat-constants-to-fills`).
    The copy runs on every call: a cost of a host-to-device transfer per
    constant.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

def KeFoldTransposesIntoPoolsForGPU
    : Pass<"ke-fold-transposes-into-pools-for-gpu", "mlir::func::FuncOp"> {
  let summary = "Let a pooling window read and write its tensors in their own layouts";
  let description = [{
    On tensors, GPU targets, before `ke-fold-pads-into-consumers-for-gpu`.
    torch-mlir writes a 3-D pool on NCDHW as a `linalg.transpose` to
    NDHWC, `linalg.pooling_ndhwc_*` and a transpose back. A pooling window
    (a reduction whose inputs other than one are shapes only: the window's)
    whose read input is a transpose reads the transpose's source instead,
    its indexing map's results permuted by the inverse permutation; where
    its result's only use is a transpose and its init a fill used by it
    alone, it writes the transposed result directly (its output map's
    results permuted, the fill made in the transposed shape). Named pools
    become generics. Each transpose was a launch and a pass over its
    tensor, and a pad before the first one (the pool's padding) could not
    fold into the window, so it was a launch too: KernelBench's AvgPool3d
    ran four launches (pad and transpose, fill, pool, transpose back with
    the division).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def KeFoldPadsIntoConsumersForGPU : Pass<"ke-fold-pads-into-consumers-for-gpu", "mlir::func::FuncOp"> {
  let summary = "Let a pooling window read its unpadded input, padding where it leaves it";
  let description = [{
    On tensors, GPU targets: a `linalg.generic` whose input is a static
    `tensor.pad` by a constant (the pad's only use), and whose other inputs
    only give shapes (their block arguments are unused: a pooling window),
    reads the pad's source instead: in its body, the padded index (its
    indexing map on `linalg.index` values) less the low padding, clamped
    into the source, is extracted, and the padding value selected where the
    index lies outside. Bufferized, a pad is a fill of a padded buffer and
    a copy into its interior, two launches and a buffer as large as the
    input written and read once more before the consumer runs
    (KernelBench's MaxPool3d: three launches, now one). Contractions
    (convolutions) are left alone: their inputs are copied in tiles by
    `ke-stage-contractions-for-gpu`, whose copies fill padding themselves.
    The CPU keeps its pads (`ke-pads-to-copies`): a gather per element
    would not vectorize there.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KePadsToGenericsForGPU : Pass<"ke-pads-to-generics-for-gpu", "mlir::func::FuncOp"> {
  let summary = "Write each padded tensor in one pass, reading the source or taking the padding";
  let description = [{
    On tensors, GPU targets, after `ke-fold-pads-into-consumers-for-gpu`:
    each static `tensor.pad` by a constant left (a convolution's padded
    input, whose tiles the staged copies read from a buffer) becomes a
    `linalg.generic` over the padded shape whose element is the source's at
    the index less the low padding where that lies inside the source
    (clamped, so the read is in bounds either way), else the padding value.
    Bufferized, a pad was a fill of the padded buffer and a copy into its
    interior: two launches, the interior written twice; now one launch
    writing each element once. A `tensor.insert_slice` with unit strides
    into a `linalg.fill` used only there is the pad it is (torch-mlir pads
    a stride-1 transposed convolution's input that way) and becomes one
    first. The CPU keeps its pads (`ke-pads-to-copies`: a copy it
    vectorizes).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KeUnitMatmulsToReductionsForGPU : Pass<"ke-unit-matmuls-to-reductions-for-gpu", "mlir::func::FuncOp"> {
  let summary = "Run matmuls with one row or one column as row reductions";
  let description = [{
    On tensors, GPU targets, after `ke-fold-transposes-into-thin-matmuls`
    and before `linalg-fold-unit-extent-dims`: a `linalg.matmul` (any
    indexing maps) with a static unit row or column extent and at least
    `least-steps` reduction steps becomes the `linalg.generic` it is. The
    unit loop then folds away, and what is left is a matrix-vector product
    that `ke-distribute-reductions-for-gpu` runs as rows: a block of threads
    per output, the matrix's rows read coalesced, the vector from cache.
    Staged as a GEMM, such a product filled one row of each block tile
    (KernelBench's Linear layers at batch 1: 32 blocks of 64 x 64 for 2048
    outputs, split along K to fill the GPU). Matmuls of several rows and
    columns, and short reductions, are left alone.
  }];
  let options = [
    Option<"leastSteps", "least-steps", "int64_t", /*default=*/"256",
           "fewest reduction steps a product needs to become a reduction">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def KeSplitReductionsForGPU : Pass<"ke-split-reductions-for-gpu", "mlir::func::FuncOp"> {
  let summary = "Reshape reductions with few outputs into many thread blocks' work";
  let description = [{
    On tensors, before bufferization. A linalg.generic reducing over several
    consecutive loops that every operand reads as one contiguous run (a sum
    over a whole tensor, a norm's statistics over H and W) gets them
    collapsed into one innermost loop (ke's CPU schedule does the same), so
    `ke-distribute-reductions-for-gpu` gives each output a thread block
    instead of one thread walking millions of elements. Where an operand
    reads only some of them (a per-channel scale in a mean over C, H and
    W), or a parallel loop lies between them (a batch norm's statistics
    over N, H and W per channel), the innermost run that collapses does.
    A reduction with fewer than `blocks` / 2 outputs, each reducing at
    least `min-split-length` elements, whose innermost loop
    is a reduction loop is then split along that loop into chunks of at
    least `min-chunk` elements of reduction each (the most that divide the
    loop, up to `blocks` chunks in all), whose partial results (a block
    each; other reduction loops stay inside every chunk) are folded into
    the output after with the same combiner: a Frobenius norm of 3 million
    elements is 256 blocks, not one thread; a batch norm's 32 channels of
    2 x 31 x 31 x 63 are 224. Shorter reductions stay whole: one block
    reads 128 KiB in about the time the partials' second launch takes, and
    a whole reduction can share a kernel with the ops around it
    (`ke-distribute-reductions-for-gpu`'s runs; a softmax over one row of
    2048 after a Linear layer at batch 1: 2 launches instead of 10).
    Splitting changes the order of the sum
    (within f32 tolerances); bodies without a combiner that has a neutral
    element are not split.

    A reduction over an outer loop (its innermost loop parallel: a max,
    product or argmax over the middle dimension) gives each output a thread
    that walks its column. With fewer than `column-threads` outputs its one
    reduction loop is split into chunks of at least `min-column-chunk`
    elements (the most that divide it, up to `column-threads` outputs x
    chunks, and no more chunks than elements per chunk, so the fold's
    columns are as short; at least 4 chunks, or none): partial results `[chunks, output...]` (a thread each, reading
    the input coalesced as before), then the partials folded into the
    outputs in chunk order. Besides bodies with a combiner, arg reductions
    split too (`total = max(value, total)`, `index = cmpf ogt(value, total)
    ? position : index`, as torch-mlir writes argmax and max with indices;
    a max with `ogt`/`oge` or a min with `olt`/`ole`, all outputs indexed
    alike): the partial positions count along the whole loop and the fold
    picks the same element a single loop does, ties included. Column
    reductions whose combiner has a GPU atomic (sums, signed integer
    max/min) are not split here: `ke-distribute-reductions-for-gpu`
    spreads them over threads with atomics in one launch.
  }];
  let options = [
    Option<"blocks", "blocks", "int64_t", "256",
           "Thread blocks a reduction with few outputs is spread over"
           " (about two per SM of an H100)">,
    Option<"minChunk", "min-chunk", "int64_t", "1024",
           "Fewest elements of the reduction per chunk">,
    Option<"minSplitLength", "min-split-length", "int64_t", "32768",
           "Fewest elements an output reduces for its reduction to be split: "
           "one block reads a shorter one (128 KiB of f32) in about the time "
           "a second launch takes on an H100">,
    Option<"columnThreads", "column-threads", "int64_t", "131072",
           "Threads (outputs x chunks) a reduction over an outer loop is "
           "spread over">,
    Option<"minColumnChunk", "min-column-chunk", "int64_t", "32",
           "Fewest elements of an outer reduction loop per chunk">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KeSplatConstantsToFills : Pass<"ke-splat-constants-to-fills", "mlir::func::FuncOp"> {
  let summary = "Turn splat tensor constants into linalg.fill of tensor.empty";
  let description = [{
    On tensors, before bufferization: every `arith.constant` of a splat
    tensor (front ends write them as padding, e.g. the zeros a cumulative
    sum concatenates) becomes `linalg.fill` of a `tensor.empty` of the same
    type. Bufferized, a constant is a `memref.global` in host memory, which
    GPU kernels cannot read; a fill is a buffer the GPU writes.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KeDropFusedChecksForGPU : Pass<"ke-drop-fused-checks-for-gpu", "mlir::func::FuncOp"> {
  let summary = "Erase the output-less linalg ops elementwise fusion leaves behind";
  let description = [{
    On tensors, after elementwise fusion: a producer whose body asserts
    (`cf.assert`, e.g. torch-mlir's index checks before a gather) is fused
    into each consumer, body and checks included, and left behind with no
    outputs because its asserts are side effects. Left in place it becomes a
    parallel loop that writes nothing, which `convert-parallel-loops-to-gpu`
    refuses to map (an assert directly in a mapped body), so it would run on
    the host over device memory. Such an op computes nothing its consumers
    do not check again: a linalg op with no outputs whose only side effects
    are `cf.assert` is erased.
  }];
}

def KeGuardAssertsForGPU : Pass<"ke-guard-asserts-for-gpu", "mlir::func::FuncOp"> {
  let summary = "Put asserts in parallel loop bodies under an scf.if";
  let description = [{
    Before `convert-parallel-loops-to-gpu`: a `cf.assert` directly in the
    body of an `scf.parallel` (torch-mlir checks gather indices this way)
    keeps the loop from becoming a kernel, so it would run on the host over
    device memory. Each such assert becomes `scf.if` on the negated
    condition around `cf.assert false` with the same message: the same check,
    in a form the conversion maps.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def KeWrapHostLoopsForGPU : Pass<"ke-wrap-host-loops-for-gpu", "mlir::func::FuncOp"> {
  let summary = "Put loops left on the host into one-iteration parallel loops";
  let description = [{
    After `convert-linalg-to-parallel-loops`: a top-level `scf.for` (what a
    linalg op without parallel loops becomes, e.g. a reduction to a scalar)
    or `memref.store` (a 0-d fill) would run on the host, and on GPU targets
    every buffer is device memory: the host would dereference device
    pointers. Each becomes the body of an `scf.parallel` of one iteration,
    which the GPU mapping turns into a kernel of one thread. Correct, not
    fast: the reduction runs sequentially in that thread.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def KeDecomposeTransposedConvolutions
    : Pass<"ke-decompose-transposed-convolutions", "mlir::func::FuncOp"> {
  let summary = "Split convolutions over zero-spread inputs into dense ones per output phase";
  let description = [{
    On tensors. Front ends write a transposed convolution with stride s as
    a convolution (stride 1, dilation d) over the input spread out by a
    `tensor.insert_slice` with strides s into a zero `linalg.fill`: all but
    1 / s^n of its multiply-adds read a zero. For a convolution over such
    an input, the outputs of each phase (o mod s along every spatial
    dimension) read the input through the same kernel taps, k = k0, k0 +
    s / gcd(d, s), ...; each phase becomes a convolution of the same kind
    over the input itself (zero-padded where the taps reach past it) with
    that strided slice of the kernel and dilation d / gcd(d, s), into a
    dense tensor of the phase's outputs, then `tensor.insert_slice`d with
    strides s into the output. The phase's init is the original init's
    `linalg.fill` or bias `linalg.broadcast` re-made at the phase's shape
    (the same multiply-adds of nonzero inputs in the same order: the
    results are bit-identical); any other init is added after a
    convolution from zero. Phases whose taps all read zeros keep the init;
    when there are none, the phases are inserted into a `tensor.empty`
    instead (every output is written by its phase, and the init's fill or
    bias broadcast over the whole output, a pass over it, goes away).
    Inputs spread with stride 1 along every dimension (plain padding) are
    left alone. A convolution is any structured op of this shape, named
    (`linalg.conv_{1d_ncw_fcw,2d_nchw_fchw,3d_ncdhw_fcdhw}`,
    `linalg.conv_2d_ngchw_{gfchw,fgchw}`, the NCHW depthwise ones) or a
    `linalg.generic` (torch-mlir writes grouped 3-D ones so): the spread
    input's trailing dimensions read at o + d k with stride 1, o the
    output's trailing loops and k the filter's, used nowhere else in any
    operand (a locally connected layer is left alone), every other result
    of the three maps a plain loop, input and output of one element type,
    and a body that yields acc + input * filter (factors possibly widened
    by `arith.extf`), so a zero input adds nothing: a max, a product not
    accumulated or a function of the input or of the sum is left alone. A
    generic phase has d / gcd(d, s) in its input's map.
    Grouped convolutions read the spread input with its channels split
    into groups by a `tensor.expand_shape` after the insert; their phases
    read the input itself split the same way.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KeDecomposeAggregates : Pass<"ke-decompose-aggregates", "mlir::func::FuncOp"> {
  let summary = "Decompose aggregate linalg ops (e.g. linalg.softmax)";
  let description = [{
    Ops such as `linalg.softmax` are not structured `linalg` ops: they cannot
    be tiled, vectorized or turned into loops as they are. This pass replaces
    every op implementing `AggregatedOpInterface` by the sequence of simpler
    `linalg` ops it stands for, so that the rest of a pipeline sees only
    ops it can lower. Both variants of `ke-lower-cpu` start with it.
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect"
  ];
}

def KeHoistAllocationsToEntry : Pass<"ke-hoist-allocations-to-entry", "mlir::func::FuncOp"> {
  let summary = "Move static top-level memref.alloc ops to the start of the function";
  let description = [{
    On GPU targets the host allocates temporaries between kernel launches,
    and `gpu-async-region` ends its chain of asynchronous launches (with a
    stream synchronization) at every such host op. Static allocations of the
    function's entry block depend on nothing, so this pass moves them, in
    order, to the start of the block; the launches between them then form
    one chain with one synchronization at the end. Deallocations stay where
    they are. Part of `ke-lower-nvgpu` and `ke-lower-amdgpu`, after
    bufferization.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def KeExtractIndexOperands : Pass<"ke-extract-index-operands", "mlir::func::FuncOp"> {
  let summary = "Read a generic's index operands with tensor.extract in its body";
  let description = [{
    A gather written as a `linalg.generic` takes its indices as an input
    operand (indexed by the outer loops) and reads the table with
    `tensor.extract` in the body. The vectorizer cannot tell that such a
    block argument is the same for every lane of the vector loop, so each
    vector of the row becomes a `vector.gather`. This pass reads every
    input operand of a `linalg.generic` on tensors whose block argument
    only feeds `arith.index_cast`s and whose indexing map is a projected
    permutation without one loop that can carry the vector (the innermost
    loop, or a loop that a `tensor.extract` in the body takes its last index
    from through `linalg.index`: an embedding bag's rows, its bag loop
    innermost) with a `tensor.extract` at `linalg.index` values in the
    body instead; the index is then provably invariant along the vector and
    the row one contiguous load. The operand is dropped unless it alone
    bounds a loop (the bag loop); then it stays, its argument unused. The
    default CPU schedule (`ke-lower-cpu`) and the library's schedules
    (ke-apply-schedule) run it.
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect"
  ];
}

def KeGuardClampedMath : Pass<"ke-guard-clamped-math", "mlir::func::FuncOp"> {
  let summary = "Skip a costly vector math op whose lanes all sit at the "
                "constant its operand is clamped to";
  let description = [{
    Front ends write ELU and SELU as `max(x, 0) + a * (exp(min(x, 0)) - 1)`,
    so the exponential runs on every element though every `x >= 0` gives
    `exp(0)`. PyTorch's kernels skip it for vectors of positive lanes. For a
    vector `exp`, `log`, `tanh`, `erf`, `sin`, ... (not one-instruction ops
    such as `sqrt`) whose operand is a select with a constant or a
    min/max with a constant, this pass compares the operand's lanes with
    the constant bit for bit (so `-0.0` is not taken for `0.0`) and, when
    all match, yields the op's value at the constant, splatted (folded
    where the op folds); otherwise the op runs as before. Correct on any
    input; one compare, one mask test and a well-predicted branch per
    vector where the lanes are mixed. In `ke-lower-cpu` after
    vectorization, with `ke-approximate-math{keep-clamped=true}` before it
    and `ke-approximate-math` after it.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def KeDivisionsToReciprocals
    : Pass<"ke-divisions-to-reciprocals", "mlir::func::FuncOp"> {
  let summary = "Divide by a shared or constant divisor as a product with its inverse";
  let description = [{
    In a `linalg.generic` on tensors, an input whose elements are only ever
    divisors (`arith.divf`'s second operand) and that each element of which
    at least `min-reuse` iterations divide by (the input is not indexed by
    loops of that many iterations: a softmax's row sums, a norm's
    deviations) is inverted once, by a generic of its own shape, and the
    divisions become multiplications by the inverse. A vector division
    costs several multiplications; the product is within 1.5 ulp of the
    quotient (a divisor under about 3e-39, whose inverse overflows, is the
    exception), not bit-identical, so `ke-lower-cpu` runs this with its
    approximate math only (`approximate-math=true`, the default), never on
    a reference. A division by a constant (a float or a splat whose
    reciprocal is a normal number: GELU's x / sqrt(2)) becomes a product
    with the reciprocal rounded once, anywhere in the function (exact
    where the constant is a power of two).
  }];
  let options = [
    Option<"minReuse", "min-reuse", "int64_t", /*default=*/"8",
           "Fewest divisions by each divisor element for it to be inverted "
           "once (at least 2)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def KeApproximateMath : Pass<"ke-approximate-math", "mlir::func::FuncOp"> {
  let summary = "Replace exp, tanh, erf, log, ... by polynomial approximations";
  let description = [{
    Rewrites f32 math ops (scalar or vector) into MLIR's polynomial
    approximations, which vectorize, instead of calls into libm, which do
    not. The approximations are accurate to a few ulp, well inside ke's
    default f32 tolerances, but not bit-identical to libm: the search only
    uses this as a knob of a candidate's schedule (`math=approx`), never on
    a reference, and every candidate is checked against the reference.
    `ops` limits the rewrite to some ops: the default `ke-lower-cpu`
    approximates only those whose approximations hold on every input (exp,
    expm1, tanh, erf, erfc, log, log1p, log2). Upstream's log and log2 read
    the exponent field, which a denormal does not hold (off by up to 1.4):
    positive denormals are scaled by 2^24 first and 24 log(2) is taken off
    after. f32 erf is ke's own: one rational function x P(x^2) / Q(x^2) on
    x clamped to [-4, 4] (the quotient to [-1, 1]), within 3.1e-7 of erf,
    where upstream's selects coefficients among three intervals (twenty
    selects a vector).
  }];
  let options = [
    ListOption<"ops", "ops", "std::string",
               "Math ops to approximate, by name without the dialect "
               "(exp, tanh, ...); all of them when empty">,
    Option<"keepClamped", "keep-clamped", "bool", /*default=*/"false",
           "Leave costly ops whose operand is clamped to a constant "
           "(exp(min(x, 0))) for ke-guard-clamped-math to branch around "
           "once they are vectors; a second run after it approximates them">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def KeInfinityTestsFromExtrema : Pass<"ke-infinity-tests-from-extrema", "mlir::func::FuncOp"> {
  let summary = "Read 'every element is -inf' from the max (and +inf from the min)";
  let description = [{
    On tensors: a `linalg.generic` that and-reduces `x == -inf` (x its one
    float input, or x extended to a wider float) from `true` over some loops
    becomes `max(x) == -inf` over the same loops, elementwise on the max;
    `x == +inf` becomes `min(x) == +inf`. torch-mlir writes the former in
    every attention and masked softmax (rows whose scores are all -inf give
    zeros, not NaN). The max is a NaN-propagating `arith.maximumf`, so a
    row with a NaN answers false both ways. A sibling max (min) reduction of
    the same input over the same loops, starting from -inf (+inf), is
    reused, so the row's max is computed once; otherwise one is created.
    Reductions on i1 vectorize on no target (the CPU ran attention's
    scalar): the test then costs nothing but the compare. Runs in the
    front-end cleanup after elementwise fusion (which puts the compare in
    the and-reduction's body); a second fusion then puts the new compare
    into its consumers.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KeScaleContractionResults : Pass<"ke-scale-contraction-results", "mlir::func::FuncOp"> {
  let summary = "Move a constant factor from a contraction's operand to its result";
  let description = [{
    On tensors: a `linalg.generic` summing products of its two inputs
    (`acc + a * b`) into a zero fill, whose input is the only use of an
    elementwise op computing `x * factor` (the factor the same for every
    element: a value from outside the op, or one pure op on such values in
    its body), reads `x` instead, and its result is multiplied by the
    factor in a new elementwise op (by both factors where both inputs are
    scaled). A scaling op that also transposed keeps the transposition,
    as a copy; one whose map is the identity disappears. torch-mlir's
    attention scales Q and K by sqrt(scale) each before Q K^T: on a GPU two
    launches, on the CPU two passes over the inputs, for one multiply. The
    product is rounded differently (c*c*(a.b) against (c a).(c b)), within
    an ulp or two of each term. Runs in the front-end cleanup after
    elementwise fusion, followed by a second fusion, which puts the factor
    into the softmax's first ops and folds such a copy into the product's
    indexing (attention's Q K^T then reads K transposed, as a Linear's
    product reads its weight).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KeExpandConstantPowers : Pass<"ke-expand-constant-powers", "mlir::func::FuncOp"> {
  let summary = "Rewrite math.powf by a constant exponent as multiplications, square roots or a division";
  let description = [{
    Front ends write squares and square roots as `math.powf` by a constant
    (torch-mlir: `x.pow(2)` in norms and losses, `** 0.5`), which lowers to
    a libm `powf` call per element: scalar code that does not vectorize.
    An exponent (scalar or splat) of 0, 1, 2, 3, -1, -2, 0.5 or -0.5
    becomes 1, x, x*x, x*x*x, 1/x, 1/(x*x), sqrt(x) or rsqrt(x). `pow`'s
    answers at -inf (+inf for 0.5, +0 for -0.5, where the square root gives
    NaN) are kept with a select; 3 and -2 round twice (within an ulp). Other
    exponents are left to libm. Runs in both front-end cleanups (the
    default lowerings and the search's payload), never on a reference.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def KeRankReduceContractions
    : Pass<"ke-rank-reduce-contractions", "mlir::func::FuncOp"> {
  let summary = "Rewrite a batch_matmul of one batch as a matmul";
  let description = [{
    Front ends keep the unit dimensions PyTorch's shapes have: torch-mlir
    writes `torch.matmul` of a 4-D tensor by a matrix as a
    `linalg.batch_matmul` with one batch, which `linalg-fold-unit-extent-dims`
    leaves alone (it folds generics only). The CPU schedule blocks a
    `linalg.matmul` in registers over packed B panels; a batch of one took
    the batched path at half the speed (KernelBench's 4-D tensor by matrix
    product, 2 threads: 9.3 against 5.0 ms). A `batch_matmul` on tensors with
    default indexing maps and one batch becomes `collapse_shape`s, a
    `linalg.matmul` (same cast) and an `expand_shape` of its result.
    Upstream's rank-reducing contraction patterns are not used: they also
    make a one-row `matmul` a `vecmat`, which the CPU schedule ran 15x slower
    than the matmul. In both front-end cleanups, before fusion.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KeComputeExtractedElements
    : Pass<"ke-compute-extracted-elements", "mlir::func::FuncOp"> {
  let summary = "Compute an elementwise op's elements where tensor.extract reads them";
  let description = [{
    A loss picks one element per row out of a tensor that front ends
    compute in full: torch-mlir's cross entropy writes the whole
    log-softmax (`x - max - log(sum(exp(x - max)))`, 16 MB for KernelBench's
    1024 x 4096) and then extracts the target's element of each row inside
    the loss's reduction. When every user of a `linalg.generic`'s results
    is a `tensor.extract`, each extraction is replaced by the generic's body
    at that element: its operands' elements extracted at the element's
    loop indices (the result's indexing map must be a permutation), its
    `linalg.index` ops by those indices. The generic is then dead.

    Only when it is cheaper: the generic's loops are parallel and static,
    its body has no side effects or regions, and the extractions run at
    most half as often in all as the generic has iterations, so that most
    elements are never read (an extraction inside a linalg op's body runs
    once per iteration of that op; inside any other loop, how often is
    unknown and nothing is rewritten; a flip that reads every element once
    keeps its producer). In the CPU's front-end cleanup (default lowering
    and the search's payload), after elementwise fusion (which builds the
    producer whole): KernelBench's cross entropy 1.85 -> 1.19 ms with 2
    threads. Not on the GPU, where the same problem went from 74 to 88 us
    (H100): its pick over the batch runs on one thread there, and computed
    in place it does a log and three gathers per row.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KeWriteReshapedResultsInPlace
    : Pass<"ke-write-reshaped-results-in-place", "mlir::func::FuncOp"> {
  let summary = "Compute a result returned through a reshape in the caller's buffer";
  let description = [{
    A kernel whose last op computes its result under another shape (a
    group norm's normalization and per-channel scale fused over
    `[N, G, C/G, H, W]`, returned as `[N, C, H, W]`) returns a
    `collapse_shape` or `expand_shape` of a temporary, and
    `buffer-results-to-out-params` copies that view into the caller's
    buffer: an extra pass over the whole result (KernelBench's GroupNorm:
    1.3 ms of copying). For `memref.copy %view, %out` where `%view`
    reshapes a `memref.alloc` of the same block and `%out` is a function
    argument nothing else uses (an out-parameter), the allocation becomes
    the inverse reshape of `%out` and the copy is dropped. A chain of
    reshapes (a batch of one's matmul, `[1, M, N]` -> `[M, N]` ->
    `[8, 32, 32, 1, N]` -> `[8, 32, 32, N]`) makes the allocation `%out`
    collapsed to one dimension and expanded to its shape: every reshape
    keeps the elements' linear order. Only when both
    have static shapes and identity layouts, and every other use of the
    allocation (deallocations aside, which are dropped) is before the
    copy, each reshape of the chain has one use, and no view of the
    allocation outlives the op holding it (per-tile subviews inside a
    loop nest are fine; a loop yielding a view is not): a later write would
    otherwise reach the caller's buffer. Rejecting every op that makes a view
    had silently stopped this for tiled results (GroupNorm: 2.5 -> 1.5 ms).
    In the CPU and GPU pipelines after `buffer-results-to-out-params`.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def KeFuseElementwiseOps : Pass<"ke-fuse-elementwise-ops", "mlir::func::FuncOp"> {
  let summary = "Elementwise fusion that never recomputes an expensive producer";
  let description = [{
    Upstream's `linalg-fuse-elementwise-ops` (its fusion, reshape
    propagation, constant folding and canonicalizations) with one more
    rule: a producer is fused into a consumer that reads its result along
    fewer loops than the consumer has (a reduction or broadcast loop the
    producer does not depend on) only if recomputing it is nearly free
    (data movement or one cheap op; never a math function or a division).
    Fused anyway, such a producer runs once per iteration of the loops it
    does not depend on: front ends write attention's softmax as elementwise
    generics before `P x V`, and fused into it the softmax's division ran
    128 times per element (KernelBench's attention: 123 of its 132 ms).
    A producer with more than one use is fused only when it is cheap
    (as above), elementwise, and every user is a generic that reads each of
    its elements once: each user then gets its own copy first (upstream's
    fusion would keep the result as an extra result of the fused op, still
    written out; a group norm's f64 copy of its input, read by its two
    reductions, is 25 MB). Duplication and fusion repeat until nothing
    changes: fusing the copies makes new producers with several
    readers-once (a batch norm's transpose of a channels-last convolution's
    result back to NCHW, read by the two f64 statistics once their casts
    fused in: 16 MB written and read twice). Between two elementwise ops, a collapse then
    an expand that is no single reshape (a group norm's [N, G, C/G*H*W]
    view back to [N, C, H, W]) becomes an expand then a collapse through
    the shape both refine ([N, G, C/G, H, W]), so that the two ops fuse. A
    reshape is not propagated into a contraction where that would split
    the contraction's columns (its output's innermost loop) or a reduction
    loop into several: a group norm's groups x channels view of a Linear's
    output, folded into the matmul, left it 4-wide columns that no register
    block or panel fits (KernelBench's Gemm+GroupNorm: 814 ms, 12 ms
    without the fold). Splitting its rows (an einsum's batches) still
    folds. Every `linalg.transpose`, and every `linalg.broadcast` that
    only generics read, is first rewritten as the generic it is, so that
    it fuses (upstream fuses generics only) and its unit dimensions fold
    away: a convolution's bias broadcast to NCHW and transposed to NHWC
    becomes one generic reading the bias; a transpose that only moves a
    unit dimension disappears.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def KePadsToCopies : Pass<"ke-pads-to-copies", "mlir::func::FuncOp"> {
  let summary = "Write a tensor.pad's interior with a linalg.copy the schedule vectorizes";
  let description = [{
    On tensors, before the CPU schedule. A `tensor.pad` with a constant
    padding value and static shapes becomes a `linalg.fill` of the padded
    shape, a `linalg.copy` of the source into the fill's interior
    (`tensor.extract_slice`) and a `tensor.insert_slice` of the copy back:
    bufferization writes the copy in place, as it wrote the pad, but the
    copy is now a linalg op that `ke-tile-and-vectorize` tiles, threads and
    vectorizes. Bufferized as a pad, the interior is a strided
    `memref.copy` lowered to scalar loops after every schedule ran
    (KernelBench's 1-D max pool spent 2.8 of its 5.5 ms there). Pads with a
    computed padding value or dynamic low padding are left alone.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KeWidenContractionInputs : Pass<"ke-widen-contraction-inputs", "mlir::func::FuncOp"> {
  let summary = "Extend a contraction's bf16/f16 inputs to f32 tensors first";
  let description = [{
    On tensors, before the CPU schedule. A contraction
    (`linalg::isaContractionOpInterface`) with an f32 result and bf16 or
    f16 inputs (a `linalg.matmul` or `linalg.batch_matmul` on them, or a
    generic whose body extends them with `arith.extf` and uses them no other
    way) gets each such input extended into an f32 tensor by a parallel
    generic, and runs on those: the same products and sums (the extension
    is exact), through the f32 register blocks and packed panels, which
    take one element type (a bf16 1024^3 GEMM into f32 ran at 4 GFLOP/s
    through the generic vectorization). Other named contractions are left
    as they are.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KeFoldTransposesIntoThinMatmuls
    : Pass<"ke-fold-transposes-into-thin-matmuls", "mlir::func::FuncOp"> {
  let summary = "Read a transposed B in place in products of a few rows (any transposed f32 operand with any-f32-product)";
  let description = [{
    On tensors, before the CPU schedule, and in the GPU front end with
    `most-rows=1` (before `ke-unit-matmuls-to-reductions-for-gpu`, which
    makes such one-row products row reductions). A `linalg.matmul` (default
    maps) of at most `most-rows` rows whose B is a transpose of a 2-D tensor W
    (`linalg.transpose` with permutation [1, 0], or a generic copying its
    input read through (d0, d1) -> (d1, d0): a Linear layer's [N][K]
    weight as front ends write it) becomes a `linalg.matmul` reading W
    itself as B[n][k] (`indexing_maps` (m, k), (n, k), (m, n)); the
    transpose is left to whatever else reads it, else dropped as dead.
    Each output is then a dot product of contiguous rows, which the
    schedule vectorizes along k in lanes, one pass over W. Through the
    transpose, a product of a few rows made three (read, write, read):
    1 x 2048 x 2048 (a Linear layer at batch 1) took 1.3-1.7 ms on 2
    threads, 0.27-0.35 ms in place; 8 rows 1.8-2.7 against 1.3-1.6 ms; at
    16 rows the transpose (the schedule's packing of B) was faster again.

    With `any-f32-product` (the GPU front end) a matmul whose operands are
    all f32 reads a transposed A (as A[k][m]) and a transposed B in place
    whatever its rows: the GPU's staged copies read either layout into
    shared memory, so the transpose was a launch of its own and two more
    passes over the operand. 16-bit products keep their transposes there
    (the warpgroup path reads A only as [M][K]).
  }];
  let options = [
    Option<"mostRows", "most-rows", "int64_t", /*default=*/"8",
           "Most rows (A's first dimension) of a product whose transposed "
           "B is read in place">,
    Option<"anyF32Product", "any-f32-product", "bool", /*default=*/"false",
           "Also read transposed A and B in place in f32 products of any "
           "shape">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def KeWidenLongSums : Pass<"ke-widen-long-sums", "mlir::func::FuncOp"> {
  let summary = "Sum long f32 reductions that no schedule splits in f64";
  let description = [{
    On tensors, before the CPU schedule. A `linalg.generic` whose body
    yields `arith.addf(term, accumulator)` into one f32 result, whose
    reduction loops have a parallel loop between them (a batch norm's
    statistics over the batch and the pixels on either side of the
    channels) and number at least `least-terms` iterations per output,
    accumulates in f64: its terms computed as before, each extended to f64
    (exact), its initial value extended too, the f64 result truncated to
    f32 once. Such reductions cannot be collapsed into one loop, so the
    schedule neither splits them into vector lanes nor into chunks, and one
    f32 accumulator over millions of terms of one sign rounds the same way
    on every addition (KernelBench's ConvTranspose3d + BatchNorm + AvgPool,
    16 x 63^3 terms a channel: channel means 1.6e-3 off, outputs 8e-4 from
    PyTorch's, against a tolerance of 1e-4). Contractions are left alone:
    their register blocks split the reduction themselves.
  }];
  let options = [
    Option<"leastTerms", "least-terms", "int64_t", /*default=*/"65536",
           "Fewest iterations of the reduction loops per output for a sum "
           "to be widened">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KeFuseRowChains : Pass<"ke-fuse-row-chains", "mlir::func::FuncOp"> {
  let summary = "Compute a chain of row ops (a softmax, a norm) per chunk of "
                "rows";
  let description = [{
    On tensors, before the CPU schedule. The rows are the fewest leading
    loops of the last op (the sink) that number at least `least-chunks`
    (a softmax's rows; a group norm's batches and groups together); where
    those make no chain, one inner loop (not the innermost) that alone
    numbers at least `least-chunks` and whose row of the sink's output
    fits in `chunk-bytes`: a batch norm's channels, its statistics reduced
    over the batch and the pixels on either side. A chain is the sink and
    the linalg ops producing its operands, transitively, along the same
    rows: each op's row loops are those indexing the dimensions its
    consumer reads along the rows (a batch norm's statistics, [C], read
    along the C loop of an N x C x H x W op, have their only loop as
    rows), parallel, and indexing every output (inputs are sliced as their
    maps say: a row's max per row, a bias along the columns whole, a group
    norm's weights per group); no output, and with inner rows no operand,
    whose innermost dimension is a row and another is not (a channels-last
    tensor chunked along its channels, one element a cache line); no convolutions, and
    contractions only where the inputs they read whole hold at most
    `whole-input-bytes` (attention's K and V, not a large GEMM weight);
    every use of a chain op's result inside the chain, along the same
    rows. The sink is elementwise along the
    rows or a contraction (attention's second product). A chain with at
    least one row reduction other than a contraction (a softmax's max and
    sum, a norm's statistics) whose sink writes at least `min-bytes` (any
    size where the chain holds a contraction: its ops would each be a
    parallel region of their own) has its
    sink tiled along the rows in an `scf.forall` and the chain's ops fused
    into it (upstream's `tileConsumerAndFuseProducersUsingSCF`), an op two
    others read merged by CSE: each chunk's rows go through the whole chain
    while they are in cache, instead of every op sweeping the whole tensor
    through memory (four sweeps for a softmax). A chunk is one row of the
    outer row loops and the most rows of the innermost dividing it that
    leave `least-chunks` chunks and keep the sink's chunk within
    `chunk-bytes` (at least one row); the schedule then
    vectorizes each op of a chunk, and the chunks are what threads take.
    Where one row is larger than `chunk-bytes` (KernelBench's softmax over
    rows of 1.5 MB), an elementwise op that several ops of the chain read
    (the exp that the sum and the division read) is fused into each of
    them (upstream's elementwise fusion, into a copy per reader): its
    values would otherwise be stored and loaded again from beyond the
    caches, which costs more than computing them twice.
  }];
  let options = [
    Option<"leastChunks", "least-chunks", "int64_t", "8",
           "Fewest chunks of rows (the threads' work)">,
    Option<"chunkBytes", "chunk-bytes", "int64_t", "262144",
           "Most bytes of the sink's output per chunk (at least one row)">,
    Option<"minBytes", "min-bytes", "int64_t", "1048576",
           "Fewest bytes of the sink's output worth fusing (smaller chains "
           "stay in cache anyway)">,
    Option<"wholeInputBytes", "whole-input-bytes", "int64_t", "1048576",
           "Most bytes a contraction in a chain may read whole (once per "
           "chunk), over all its inputs not indexed by the rows">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KeSkipMaskedBlocks : Pass<"ke-skip-masked-blocks", "mlir::func::FuncOp"> {
  let summary = "Compute a masked contraction only where its mask keeps it";
  let description = [{
    On tensors, after the front-end cleanup and before the CPU schedule. A
    contraction (`linalg::isaContractionOpInterface`, static shapes) whose
    result only an elementwise mask reads, a parallel `linalg.generic`
    over the result's shape that yields `select(cmpi(a, b), x, c)` or
    `select(cmpi(a, b), c, x)` with `x` the product's element, `c` a
    constant and `a - b` linear in two of its loops (`linalg.index`, or an
    iota tensor read along one loop, through sums, differences, products by
    constants and casts; predicates slt, sle, sgt, sge): `torch.tril(A @
    B)`, `triu`, a causal mask's fill. The rows (the outer of the two loops)
    are split into `blocks` blocks (fewer where they do not divide), and
    each block's product and mask are computed (upstream's tiling
    interface) only over the columns that the block's first or last row
    keeps (a linear predicate holds on an interval of the rows); the
    columns on either side are `linalg.fill`s of `c`, and the pieces are
    inserted into one tensor. Only where that computes at most three
    quarters of the products (a square tril: 4 blocks compute 10 of 16).
  }];
  let options = [
    Option<"blocks", "blocks", "int64_t", "4",
           "Row blocks (at least 2; fewer where the rows do not divide)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KeFoldReshapesIntoInitializers
    : Pass<"ke-fold-reshapes-into-initializers", "mlir::func::FuncOp"> {
  let summary = "Compute a broadcast read through an expand_shape in the reshaped shape";
  let description = [{
    On tensors, after the front-end cleanup's last
    `linalg-fold-unit-extent-dims` and before the CPU schedule. A
    `linalg.generic` that only moves data (a bias broadcast: no reduction
    loops, yields an input's element) read through a `tensor.expand_shape`
    becomes a generic of the expanded shape (upstream's reshape fusion by
    expansion, restricted to such producers), and every reshape,
    `extract_slice` of a `tensor.empty` becomes an empty tensor of its
    result's shape (upstream's empty-tensor folding).

    Unit-dimension folding drops a broadcast's unit dimensions but not a
    convolution's, so a 3-D transposed convolution's phases (outputs
    `[1, D, H, W, C]`) start from one bias broadcast `[D, H, W, C]` read
    through an expand_shape. Through the reshape, `ke-tile-and-vectorize`
    cannot compute the broadcast in each phase's tiles: it stayed a pass of
    its own, copied once per phase that wrote over it, and the phases'
    reshaped empty tensors kept bufferization from writing each phase in
    place in the output (with `ke-sink-transposes-through-inserts`, a
    strided copy per phase).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KeLowerTransposesToAVX
    : Pass<"ke-lower-transposes-to-avx", "mlir::func::FuncOp"> {
  let summary = "Lower 8 x 8 and 4 x 8 f32 vector transposes to AVX shuffle sequences";
  let description = [{
    On vectors, after `convert-vector-to-scf` and before
    `convert-vector-to-llvm`, for x86 hosts with AVX (`ke-lower-cpu` adds it
    there unless `x86-transposes=false`; the RISC-V pipeline leaves it out).
    A `vector.transpose` whose source has exactly two dimensions longer than
    one, which it swaps, is first viewed as the 2-D transpose it is (a
    `vector.shape_cast` on each side; unit dimensions move no element). The
    8 x 8 and 4 x 8 f32 ones are then lowered with upstream's AVX2 sequences
    (`x86vector::avx2`: unpacks, shuffles, blends and 128-bit lane permutes;
    the blends as inline assembly). Lowered element by element instead, as
    `convert-vector-to-llvm` does by default, LLVM made ~110 instructions
    with spills of each 8 x 8 block where the sequence is ~40. Such blocks
    come from transposing reads: packing a Linear layer's weight into
    panels, a convolution's NCHW input to channels-last and its output back.
    Other transposes are left to `convert-vector-to-llvm`.
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def KeSinkTransposesThroughInserts
    : Pass<"ke-sink-transposes-through-inserts", "mlir::func::FuncOp"> {
  let summary = "Insert channels-last pieces of a result, then transpose it once";
  let description = [{
    On tensors, after `ke-convolutions-to-channels-last`. A convolution
    computed in pieces (a transposed convolution's output phases from
    `ke-decompose-transposed-convolutions`, a grouped convolution's groups)
    is transposed back to channels-first piece by piece, each piece inserted
    into the output with `tensor.insert_slice`; for a stride-2 phase the
    transposing copy stores to every other element of the NCHW output. This
    pass rewrites

    ```
    insert_slice(copy(x), dest)  ->  copy(insert_slice(x, dest'))
    ```

    where `copy` is a `linalg.generic` that only permutes dimensions (one
    input read through a permutation, written in order) and `dest` is a
    `tensor.empty` (`dest'` then an empty tensor in `x`'s layout) or the
    same copy of a value read only there (`dest'` that value). The first
    piece's insert starts a chain of inserts in `x`'s layout, each later
    piece extends it, and one copy of the whole result is left at its end,
    which elementwise fusion merges with the ops after it. Offsets, sizes
    and strides are permuted with the dimensions; rank-reducing inserts and
    other destinations are left alone. Only where the result is read by
    elementwise ops alone (followed through the elementwise ops that read
    them) or returned: fused into a reduction over the channels (a
    softmax's max), the permuted read ran scalar (KernelBench's
    ConvTranspose3d + Softmax + Sigmoid, 10 -> 18 ms).

    Not in the default pipeline: measured at stop 42 (AVX2, 2 threads, min
    of three interleaved runs) it made KernelBench's stride-2 2-D transposed
    convolutions with elementwise epilogues 1.2-1.5x faster (ConvTranspose2d
    + Add + Min + GELU + Multiply 11.5 -> 7.7 ms) but its 3-D ones 0.8x as
    fast, and one 2-D one 0.9x. Stop 43 found the 3-D losses' first cause
    (each phase computed into a copy of a bias broadcast read through a
    reshape, then copied into the output with strides; gone with
    `ke-fold-reshapes-into-initializers`), yet measured it mixed again:
    shared 2-D problems 1.37-1.51x, one kept-aside 2-D and the kept-aside
    3-D ones 0.75-0.86x; see docs/performance.md.
  }];
}

def KeSeparatePoolingWindows : Pass<"ke-separate-pooling-windows", "mlir::func::FuncOp"> {
  let summary = "Pool windows one dimension at a time, in elementwise generics";
  let description = [{
    On tensors, before the CPU's front-end cleanup. A pool reads each
    output's window through affine sums of loops (`oh * stride + kh *
    dilation`), which the vectorizer does not take, so it stayed scalar.
    Pools are recognized by their indexing maps, not their names: any
    linalg op with a data input, a window input that is only a shape
    (indexed by the reduction loops, its values never read) and one output
    indexed by parallel loops, whose input dimension i is output dimension
    i times a stride plus at most one window loop times a dilation. That
    covers the named pooling ops of every rank and layout
    (`linalg.pooling_nchw_max`, `linalg.pooling_ndhwc_sum`, ...) and the
    generics torch-mlir writes for 3-D pools. The body must be one
    associative and commutative combiner of the input and the output
    (add, mul, max, min, and/or/xor), on static shapes.

    A max or a sum over a box is one over its last dimension of one over
    the others, so the op becomes one elementwise generic per window
    dimension of more than one element, outermost first: each combines
    strided `tensor.extract_slice`s of the previous stage's result (the
    first stage's of the input), one per window position, stepped by that
    dimension's stride, and keeps only the extent of the other dimensions
    the later stages read. The last stage folds into the op's own output,
    starting from a fill's value when the output is a fill. Every stage
    reads its operands in loop order, fuses with elementwise neighbours and
    vectorizes along the contiguous dimension. A sum is added in another
    order than the op's. Windows of more than 16 elements along a
    dimension are left alone (one load stream per slice), as are windows
    that read past the input.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KeFuseSiblingReductions : Pass<"ke-fuse-sibling-reductions", "mlir::func::FuncOp"> {
  let summary = "Compute reductions over the same input in one generic";
  let description = [{
    On tensors, in the CPU pipeline after the front-end cleanup. Two
    `linalg.generic` reductions with the same iterator types and static
    loop ranges that read a common input through the same indexing map,
    the later one not depending on the earlier, become one generic with
    both results (inputs both read the same way are read once): one sweep
    of the input instead of two. Front ends compute a norm's statistics
    this way: torch-mlir's group norm sums its input in f32 for the mean
    it normalizes with and again in f64 for the mean its variance is taken
    around. The later op's operands are moved above the earlier one first
    (`moveOperationDependencies`); the fused op takes the earlier one's
    place. Repeats until no pair is left. Each result is computed exactly
    as before (the same terms in the same order). Reductions with i1
    operands or results are left apart: `ke-tile-and-vectorize` never
    vectorizes an op on i1 tensors, so the other reduction would run scalar
    with it (KernelBench's attention fused its rows' max with their "all
    -inf" mask: 10.2 -> 7.2 ms apart, AVX2, 2 threads).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def KeTileAndVectorize : Pass<"ke-tile-and-vectorize", "mlir::func::FuncOp"> {
  let summary = "Default CPU schedule: tile each linalg op and vectorize it";
  let description = [{
    A fixed, search-free schedule used by the default `ke-lower-cpu`
    pipeline. An op with at least 2^15 iterations (and not already inside
    an `scf.forall`) first has its outer parallel loops cut, outermost
    first, into at least 16 chunks of whole register tiles on an
    `scf.forall` (threads); a contraction's batches are cut first and then
    its rows and column blocks as a grid, the grid with enough chunks that
    reads the least of A and B in all (a thread's rows of A kept within half
    a typical L2). Each linalg op with static loop bounds is then
    tiled so that one loop (the one along which most operand bytes are
    contiguous) keeps `vector-width` iterations and all other
    loops are tiled by one, and the tile is vectorized. A contraction whose
    inputs read the output's columns contiguously (its B in panels, as
    `ke-pack-contraction-panels` leaves it, included) takes a register
    block instead: up to 8 x 32, whose accumulators, the step's vectors of
    columns and one broadcast element fit in the target's vector registers
    (`vector-registers` of `vector-register-bits`); of those, the one with
    enough independent accumulators to keep both FMA pipes busy (up to 10),
    then the most FMAs per load, then the most outputs: 8 x 32 f32 on
    AVX-512, 6 x 16 on AVX2, whose 16 registers of 256 bits an 8 x 32 block
    overflows twice. Where the best block's rows (8, 6, 4, 2)
    do not divide the row loop (6 into 1024), its whole blocks are split
    off into an op of their own and the last rows take the best block that
    divides them, instead of the whole op taking a smaller block (1024^3 on
    one AVX2 core: 88.5 to 90.6 GFLOP/s); only with at least 256 reduction
    steps, the output's fill then being a pass of its own (a 2048 x 32 x
    2048 matmul: 1.4 ms unsplit, 2.3 split). Blocks are lowered
    to
    outer-product FMAs with its accumulators kept in registers across the
    reduction loop, column blocks outside row blocks. A contraction with
    one reduction loop, several row blocks in a chunk and a column block of
    B longer than 512 KiB over the whole reduction (32 f32 columns: K above
    4096) has its reduction cut into blocks first, outside the register
    tiles, so the column block's slice stays in L2 while the chunk's row
    blocks read it (the output's fill is then an op of its own before the
    blocks; each output still adds its terms in order): 256 x 16384 x 256
    on 2 threads 12.0-12.5 -> 9.3-9.6 ms. The op that
    initializes a contraction's or convolution's output by data movement
    alone (a `linalg.fill`, a `linalg.broadcast`, a generic yielding an
    input's element such as a bias broadcast into a channels-last layout)
    is fused into its thread chunks and register blocks (ops are tiled
    consumers first), so the accumulators start from it in registers and
    the output is not written twice. A convolution whose output width has
    no divisor from 4 to 16 (29, prime) would get one pixel per tile, one
    accumulator vector whose FMAs wait on each other; its whole blocks of 8
    pixels are split off first and tiled on their own (not a depthwise
    one, whose pixels each read a vector of their own: slower split).
    A channels-last convolution's filter (`[.., C, F]`) is packed into
    panels of its tile's channels (`[F / P, .., C, P]`, a `linalg.transpose`
    placed outside the threads' loop and scheduled like any op), each tile
    reads its panel: one contiguous array per channel block instead of a
    short row F channels apart per reduction step (a 5 x 5, 64 -> 128
    convolution: 61 -> 90 % of the FMA peak on AVX2). Not for depthwise
    ones, or where the threads cut the channels into single tiles.
    A contraction's input made by data
    movement that only it reads (its packed panels of B) is computed inside
    the thread chunks that read it where at most two chunks read the same
    part: each thread packs its panels right before its rows sweep them,
    while they are in its cache, instead of all panels going out to memory
    in a pass of their own and coming back (KernelBench's 256 x 1024 x 2048
    Linear layers: 7-9 % faster).
    A reduction along the vector loop at least eight vectors long and
    contiguous in an input (a row's sum or max; no `linalg.index` in its
    body) is split first
    (`linalg::splitReduction`): `vector-width` lanes of partial results per
    row accumulated in registers, one vector operation per vector of input,
    then one short reduction of the lanes, instead of a chain of dependent
    scalar operations per vector; four vectors of lanes where the loop is
    at least 32 vectors long, so that each step's adds or maxes are
    independent (a max reduction's one-vector chain ran at 15 GB/s). A
    reduction whose vector runs along a parallel loop with reduction loops
    inside its tile loops (the split's partial results, a channel sum over
    NHWC) keeps its output tile in registers across them, up to four
    vectors wide (whole cache lines, one sweep of the input per tile). A
    tile's unit loops are moved before its vector loop before it is
    vectorized (`linalg::interchangeGenericOp`): the vector takes the
    tile's loops in order, and a vector loop followed by unit loops (a
    reduction's h and w after its channels) made 16 one-lane vectors. A
    generic reducing over several consecutive loops that every operand
    reads as one contiguous run is collapsed into one reduction loop first;
    likewise a generic without reductions whose innermost loop
    `vector-width` does not divide has its longest run of innermost loops
    that every operand reads contiguously collapsed into one (a division
    over [2, 64, 11, 23]: vectors along 32384 elements, not gathers along
    the 64 channels), unless an operand is a slice (collapsing it would
    copy it) or the op transposes;
    one with fewer than 16 outputs and at least 2^15 iterations is split
    into 16 chunks of partial results that threads take, each chunk in
    vector lanes. Reductions with several results, each its own combiner
    (`ke-fuse-sibling-reductions`' output), split into lanes and chunks the
    same way, all results at once, when the reduction loop is the last. A reduction over several loops that are not one
    contiguous run (a batch norm's per-channel sums over n, h and w), its
    innermost loop the vector loop, a reduction loop at least eight vectors
    long and contiguous in an input, has that loop split into
    `vector-width` lanes, innermost (element `i` to lane `i % width`):
    partial sums in one vector across all its reduction loops, the lanes
    folded after (KernelBench's BatchNorm: 7.2 to 1.8 ms on 2 threads).
    An op without reduction loops whose output and largest input are
    contiguous along different loops (a channels-last convolution's result
    written back to NCHW) is tiled by `vector-width` x `vector-width`
    blocks of those two loops, innermost, each read as rows along the
    one, transposed in registers and written as rows along the other;
    vectors along either loop alone make every access to the other operand
    a gather or a scatter (KernelBench's Conv2d + HardSwish + ReLU spent
    4.5 of 9.2 ms writing its result back to NCHW). Either loop the width
    does not divide is split first when it is at least four vectors long.
    2-D convolutions, NCHW
    or NHWC, vectorize through the 1-D convolution their tile decomposes to.
    A channels-last convolution (1-D, 2-D, 3-D or depthwise) is tiled instead by up
    to 16 output pixels times up to 32 channels (a multiple of
    `vector-width`) that fits in the target's vector registers, ranked as
    a contraction's block (14 x 32 f32 on AVX-512 for a 126-wide output, 6
    x 16 on AVX2, where 14 x 8 has more outputs but a load per FMA:
    KernelBench's 3 x 3 convolutions 10.3 -> 7.7 and 7.4 -> 6.6 ms), its
    tile computed as a 1-D
    convolution (ke decomposes
    the 3-D one itself), its contractions lowered to outer-product FMAs and
    its accumulator tile kept in registers across the reduction loops. A
    channels-first depthwise convolution (`linalg.depthwise_conv_2d_nchw_chw`,
    generalized with its channels outside the image; or a generic of that
    form) is tiled by output rows times a power of two of vectors along the
    output width, eight vectors in all where the rows divide (7 x 8 f32 on a
    126 x 120 output), each (kh, kw) step an FMA of a broadcast weight per
    vector, its accumulators in registers across kh and kw and the fill of
    its output fused; a width the vector does not divide has its last
    columns split off, tiled with vectors as long as they are
    (KernelBench's 128-channel 3 x 7 one: 5.7 ms channels-last, 2.1 ms;
    its 8-channel 3 x 1 one 4.3 -> 0.6 ms on an AVX2 VM). Ops
    whose indexing maps use `mod` or `floordiv` are never tiled (tiling would
    take the wrong slices of their operands). Ops without results are left
    alone. A tile whose reduction loops are all one iteration long but
    whose body is no combiner the vectorizer recognizes (an argmax's
    position select, its reduction running in the loops around the tile)
    has those unit loops dropped (`linalg::dropUnitDims`) and vectorizes as
    the elementwise op it then is (KernelBench's argmax over a middle
    dimension: 13.7 -> 0.73 ms on an AVX2 VM). Where the width does not divide the loop most data is
    contiguous along and that loop is at least four vectors long, the op
    is first split there (`linalg::splitOp`): whole vectors for the first
    `vector-width * floor(n / vector-width)` iterations, an op of its own
    for the rest (rows of 65535 vectorize along the rows, not down a
    strided outer loop). Every split of an op along a parallel loop whose
    output starts from a data-movement initializer only it reads gives
    each part its own tile of that initializer, fused into the part's
    blocks like the whole one would have been, instead of one pass over
    the whole output before both (KernelBench's depthwise convolution 122
    pixels wide, split 120 + 2: 3.1 -> 2.2 ms on an AVX2 VM). The loop must be parallel, or a reduction whose
    every result either does not depend on the order (max, min, integer
    ops) or adds terms that are never negative (a sum of squares: an L2
    norm's rows of 65535, 2.18 -> 0.79 ms on an AVX2 VM); a sum of terms of
    either sign, summed in lanes, can differ from the reference by more
    than its own size. Reductions whose output is read through a constant
    index (`(d0, 0)`) are never split into lanes: upstream's split writes
    their partial results out of bounds. Other ops whose bounds do
    not divide, ops on `i1` tensors (LLVM packs `vector<Nxi1>` into bits
    while memory holds a byte per `i1`; still split across the threads
    when large, a mask over 2M elements having run on one thread), and ops
    the vectorizer rejects are left scalar: the result
    is always correct, only less fast. The search (`ke-evolve`) finds better
    schedules; this is the baseline it starts from.

    Elementwise ops (no reduction loops, every operand read in loop order:
    broadcasts included, transposes not; elements of at most 32 bits; an
    innermost loop the width divides, else the vector would run along a
    strided outer loop) take
    `elementwise-vector-width` instead: an activation's chain of
    polynomials is bound by instruction throughput, so the host's widest
    registers (16 f32 lanes with AVX-512) halve its instructions, while the
    register blocks of contractions, convolutions and reductions are sized
    for `vector-width` (on KernelBench, 16 lanes everywhere made them up to
    2x slower; on its activations 1.35-1.85x faster).
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"8",
           "Iterations of the vectorized loop in each tile">,
    Option<"elementwiseVectorWidth", "elementwise-vector-width", "int64_t",
           /*default=*/"0",
           "Iterations of the vectorized loop of elementwise ops (0: "
           "vector-width)">,
    Option<"vectorRegisters", "vector-registers", "int64_t", /*default=*/"32",
           "Vector registers of the target (AVX-512: 32; AVX2: 16): a "
           "register block's accumulators, the step's vectors of columns "
           "and one broadcast element must fit in them">,
    Option<"vectorRegisterBits", "vector-register-bits", "int64_t",
           /*default=*/"512",
           "Bits of one vector register (AVX-512: 512; AVX2: 256)">
  ];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect", "::mlir::vector::VectorDialect"
  ];
}

def KePackContractionPanels
    : Pass<"ke-pack-contraction-panels", "mlir::func::FuncOp"> {
  let summary = "Copy a contraction's B operand into contiguous column panels";
  let description = [{
    The default CPU schedule computes a contraction (matmul, batch_matmul,
    transposed-B matmuls and generics like them) in register blocks of a few
    output rows by `panel-width` columns, reading B one short row of a
    column block per step of k. In B's own layout those rows lie a whole
    matrix row apart (4 KiB apart for 1024 columns, all in one L1 set), so a
    column block does not stay in cache while the row blocks sweep it, and a
    transposed B (columns across rows) is not register-blocked at all. This
    pass copies B once into panels, `[batches..., N / P, K..., P]` with
    `P = panel-width`, and rewrites the contraction on them:

    ```
    C[m, n] += A[m, k] * B[k, n]
    ```
    becomes
    ```
    Bp[j, k, l] = B[k, j * P + l]
    C'[m, j, l] += A[m, k] * Bp[j, k, l]    // C' = C viewed as [M, N / P, P]
    ```

    so each column block is one contiguous array read in order. The copy is
    a permutation of B with its column dimension split by a free
    `tensor.expand_shape`, and the contraction on the panels is a
    `linalg.contract` (its body is a multiply-add of one element type), so
    the default schedule vectorizes both. A transposing copy producing B
    (torch-mlir's `linalg.transpose` of a Linear's weight) is read through
    and dropped; a `linalg.fill` of the output is filled again in the split
    shape, so the default schedule still sees it. A contraction is packed
    when it has one result and two inputs of one
    float element type, static shapes, indexing maps that are plain loop
    indices, an output whose innermost loop (its columns) is read by one
    input only, `P` dividing the columns, and at least `min-rows` output
    rows (the output elements B does not index) to reuse each panel: the
    copy costs one pass over B, paid back by every row block. B already in
    panel form (innermost the columns, exactly `P` of them) is left alone.
    A contraction inside `scf.forall` chunks (a fused row chain's, such as
    attention's products per block of query rows) that all read the same B
    has B packed once before the outermost such loop, and its rows counted
    over all chunks. CPU only; in `ke-lower-cpu`'s default schedule before
    `ke-tile-and-vectorize`.
  }];
  let options = [
    Option<"panelWidth", "panel-width", "int64_t", /*default=*/"32",
           "Columns per panel (the register block's columns)">,
    Option<"minRows", "min-rows", "int64_t", /*default=*/"64",
           "Fewest output rows for which B is packed">
  ];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect"
  ];
}

def KeVectorizePrefixScans
    : Pass<"ke-vectorize-prefix-scans", "mlir::func::FuncOp"> {
  let summary = "Replace log-step prefix scans by one vectorized pass";
  let description = [{
    Front ends without a scan op write `cumsum`/`cumprod` as a log-step
    (Hillis-Steele) prefix scan: step `k` combines the tensor with itself
    shifted by `2^k` along the scan dimension (`tensor.concat` of a splat of
    the combiner's identity and a leading `tensor.extract_slice`), until the
    shift reaches the dimension's length. That is `log2(n)` passes over the
    data where one suffices. This pass recognizes complete chains of such
    steps (`addf`, `mulf`, float and integer min/max, `addi`, `muli`; every
    intermediate used only by the chain) and replaces each by one pass:

    - scan along the innermost dimension: rows in parallel (`scf.forall`),
      `vector-width` elements at a time, scanned in registers in `log2`
      shuffle steps and combined with the running value;
    - scan along an outer dimension: the dimensions inside it are the
      vector, combined with the running vector row after row.

    Float sums and products carry the running value in f64: the result is
    closer to the exact scan than the log-step it replaces (whose own
    rounding grows with `log2(n)`). Chains that are incomplete (a windowed
    sum), whose fill is not the identity, or whose intermediates have other
    users are left alone. CPU only: the result is vector code on tensors.
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"8",
           "Elements per vector along the scanned (innermost) dimension">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect", "::mlir::vector::VectorDialect"
  ];
}

def KeConvolutionsToChannelsLast
    : Pass<"ke-convolutions-to-channels-last", "mlir::func::FuncOp"> {
  let summary = "Rewrite NCHW (NCDHW) convolutions as NHWC (NDHWC) ones";
  let description = [{
    PyTorch front ends write 2-D convolutions channels-first
    (`linalg.conv_2d_nchw_fchw`), including transposed convolutions, which
    torch-mlir lowers to a padded, flipped `conv_2d_nchw_fchw`. Vectorized
    channels-first, each output row takes a transpose per tile and a
    broadcast per multiply; channels-last (`linalg.conv_2d_nhwc_hwcf`) the
    output channels are the vector and the schedules ke knows for that form
    apply. This pass rewrites each `conv_2d_nchw_fchw` on tensors as

    ```
    transpose(conv_2d_nhwc_hwcf(transpose(input), transpose(filter),
                                transpose(init)))
    ```

    with the same strides and dilations. The transposes are copies written
    as `linalg.generic`s, so elementwise fusion merges them with their
    producers (torch-mlir's filter flip) and consumers (a bias or an
    activation); a filled init is filled again channels-last instead. An
    operand that is a
    `tensor.pad` (constant padding) or a same-rank `tensor.extract_slice`
    is transposed through it: the pad or slice is taken channels-last from
    the transposed source, so convolutions over differently padded slices
    of one input (a transposed convolution's phases) share one transpose of
    it after CSE (KernelBench's 4-phase ConvTranspose2d + Subtract + Tanh
    transposed its input four times).
    `linalg.conv_3d_ncdhw_fcdhw` becomes `linalg.conv_3d_ndhwc_dhwcf` the
    same way. `linalg.depthwise_conv_2d_nchw_chw` becomes
    `linalg.depthwise_conv_2d_nhwc_hwc` only when `min-depthwise-channels`
    is set and it has at least that many channels: by default it stays
    channels-first, where `ke-tile-and-vectorize` vectorizes it along the
    output width. A depthwise convolution does a few multiplies per
    element, and the two transposes cost more than they save at every size
    measured (AVX2, 2 threads: KernelBench's 128-channel 3×7 one 5.7 ms
    channels-last, 2.1 channels-first; 256 channels of 28×28, 3×3: 0.29
    against 0.15). `linalg.conv_1d_ncw_fcw` becomes
    `linalg.conv_1d_nwc_wcf`. A grouped 2-D convolution
    (`linalg.conv_2d_ngchw_{gfchw,fgchw}`) with at most `max-groups` groups
    becomes one `linalg.conv_2d_nhwc_hwcf` per group, on the group's slices
    of the input and filter, each transposed back into its group's slice of
    the output (`tensor.insert_slice`s of slices of one tensor: written in
    place after bufferization). Vectorized grouped, it ran along the output
    width with a transpose per tile (KernelBench's 4-group transposed
    convolution took 25 ms against torch.compile's 5.4). More groups (a
    near-depthwise convolution) would make as many small convolutions and
    transposes; those, and dynamic shapes, are left as they are. CPU only.
  }];
  let options = [
    Option<"minDepthwiseChannels", "min-depthwise-channels", "int64_t",
           /*default=*/"0",
           "Channels from which a depthwise convolution goes channels-last "
           "(0: never)">,
    Option<"maxGroups", "max-groups", "int64_t", /*default=*/"16",
           "Groups up to which a grouped convolution is split into "
           "channels-last ones">
  ];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect"
  ];
}

#endif // KE_CODEGEN_PASSES_TD
