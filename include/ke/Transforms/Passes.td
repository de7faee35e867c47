//===- Passes.td - ke passes -------------------------------*- tablegen -*-===//

#ifndef KE_TRANSFORMS_PASSES_TD
#define KE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

// Options of the LLM proposer, shared by ke-evolve and ke-rewrite. There is
// deliberately no API-key option: a pipeline string ends up in shell
// histories, crash reproducers and logs; the key comes from the environment.
defvar KeLLMOptions = [
  Option<"llmProvider", "llm-provider", "std::string", /*default=*/"\"\"",
         "openai (any OpenAI-compatible server) or anthropic "
         "(default: $KE_LLM_PROVIDER, else openai)">,
  Option<"llmModel", "llm-model", "std::string", /*default=*/"\"\"",
         "Model name (default: $KE_LLM_MODEL)">,
  Option<"llmBaseURL", "llm-base-url", "std::string", /*default=*/"\"\"",
         "Base URL of the API (default: $KE_LLM_BASE_URL, else the "
         "provider's)">,
  Option<"llmMode", "llm-mode", "std::string", /*default=*/"\"live\"",
         "live (ask, record), record (answer from the database when it "
         "can, else ask and record) or replay (database only)">,
  Option<"llmTimeout", "llm-timeout", "double", /*default=*/"120",
         "Seconds one LLM request may take">,
  Option<"llmRetries", "llm-retries", "unsigned", /*default=*/"4",
         "Retries of a request after 429, 5xx or a timeout">,
  Option<"llmMaxTokens", "llm-max-tokens", "int64_t", /*default=*/"0",
         "Tokens (prompt + reply) the whole run may spend; the search "
         "ends cleanly when they are spent (0: no limit)">,
  Option<"llmRepairs", "llm-repairs", "unsigned", /*default=*/"1",
         "Times a reply that does not parse or verify goes back for repair">,
  Option<"llmPromptTokens", "llm-prompt-tokens", "unsigned",
         /*default=*/"8000", "Token budget of one prompt">,
  Option<"kb", "kb", "std::string", /*default=*/"\"\"",
         "Extra knowledge directories, comma-separated (kb/ is always "
         "indexed)">,
  Option<"kbPassages", "kb-passages", "unsigned", /*default=*/"4",
         "Knowledge passages per prompt">
];

def KeOutlineKernels : Pass<"ke-outline-kernels", "mlir::ModuleOp"> {
  let summary = "Wrap every func.func tagged `ke.kernel` into a `ke.kernel`";
  let description = [{
    Each top-level `func.func` carrying the unit attribute `ke.kernel` is
    moved into a new `ke.kernel` op of the same name, where it becomes the
    reference implementation that candidates are checked against. Functions
    without the tag are left alone. A kernel function that other code still
    refers to (for example through `func.call`) cannot be outlined, since its
    symbol moves into the kernel's own symbol table; that is an error.

    Example: `ke-opt --ke-outline-kernels=target=cpu in.mlir`.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "Target the kernels are optimized for (cpu, nvgpu, amdgpu, riscv)">
  ];
  let dependentDialects = ["::ke::KeDialect"];
}

def KeSelectBest : Pass<"ke-select-best", "mlir::ModuleOp"> {
  let summary = "Replace each `ke.kernel` by its best correct candidate";
  let description = [{
    Every `ke.kernel` is replaced by a plain `func.func` with the reference's
    name, signature, argument attributes and `ke.kernel` tag, so that ordinary
    lowering (and `ke-run`, and a later search) continues from there. Its body
    is the payload of the fastest candidate whose status is `correct` (lowest
    `time_ns` in its metrics); the function records the choice in
    `ke.selected` and `ke.strategy`. A kernel with no correct, timed candidate
    keeps its reference, and a remark says so.
  }];
}

def KeEvolve : Pass<"ke-evolve", "mlir::ModuleOp"> {
  let summary = "Search for a faster verified implementation of each kernel";
  let description = [{
    A tree search over candidates for every `func.func` tagged `ke.kernel`.
    The reference is evaluated first (naive loops: the speedup baseline,
    with ten times `eval-timeout`). On CPU targets ke's default lowering is
    measured too (the floor: a node of proposer `default`, outside the tree
    and the budget). Then, until a termination rule fires, the node with the highest UCB
    score (mean speedup of its subtree, normalized by the best speedup, plus
    `exploration` times the usual bonus) is expanded: the proposer turns it
    into `workers` children, each built by a memory operator (`inherit` the
    parent's trajectory, compare `siblings`, `combine` with another good
    node, `restart`). Children are checked in-process (the schedule applies,
    the IR verifies), deduplicated by IR hash, then evaluated by `ke-run`
    subprocesses (`workers` at a time, each with a timeout and a memory
    limit): lowered, run against the reference, timed. Every evaluated node
    is committed to the database (`db`) before the next expansion, so a
    killed search loses nothing and `resume=true` continues it.

    The best verified candidate, or the floor when nothing beat it, replaces
    the kernel's body, keeping its name,
    signature, argument attributes and `ke.kernel` tag (plus `ke.selected`
    and `ke.strategy`), so the output is valid input to `ke-run` and to
    `ke-evolve` again. With `keep-tree`, the kernel becomes a `ke.kernel`
    holding every evaluated candidate instead (`ke-select-best` picks the
    best). A summary table goes to stderr, with a live progress line when
    stderr is a terminal.

    Proposers: `library` (the built-in transform library: tiling for caches
    and registers in a chosen loop order, split reductions, unrolling,
    vectorization, contraction to FMAs, accumulator hoisting, threads,
    tile-and-fuse; on `nvgpu`/`amdgpu`, one GPU knob per candidate:
    `ke.gpu_thread_tile`, `ke.gpu_reduction_threads`, `ke.gpu_block_tile`),
    `llm` (the universal operator: one prompt synthesized from the kernel,
    the parent's IR and diagnosis, the memory operator's context, knowledge
    passages retrieved from `kb/` and skills; the reply is a transform
    script or a whole new function; see docs/llm.md), `mixed` (UCB1 gives
    each expansion to the library or to the LLM by the rewards they earned)
    and `file` (the functions of the file `proposals`, served in order: hand-
    written candidates, or replies recorded elsewhere).

    Skills: a correct child at least 5% faster than its parent is distilled
    into the database's `skills` table (op kinds, target, what changed, the
    gain); skills go into later prompts, and the schedules of the best ones
    for the same op kinds and target are proposed first by later searches
    (`warm-start`).
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "Target to optimize for: cpu, riscv (qemu, llvm-mca estimate), "
           "nvgpu, amdgpu">,
    Option<"budget", "budget", "int", /*default=*/"64",
           "Candidates to evaluate per kernel (0: no limit)">,
    Option<"timeLimit", "time-limit", "double", /*default=*/"0",
           "Seconds per kernel (0: no limit)">,
    Option<"stall", "stall", "int", /*default=*/"0",
           "Stop after this many expansions without a new best (0: never)">,
    Option<"targetSpeedup", "target-speedup", "double", /*default=*/"0",
           "Stop once this speedup over the naive reference is reached">,
    Option<"workers", "workers", "unsigned", /*default=*/"1",
           "Candidates proposed per expansion and evaluated in parallel">,
    Option<"threads", "threads", "unsigned", /*default=*/"1",
           "Threads a kernel may use">,
    Option<"seed", "seed", "uint64_t", /*default=*/"1",
           "Seed of the proposer and of the inputs">,
    Option<"seeds", "seeds", "unsigned", /*default=*/"2",
           "Input seeds each candidate is checked on">,
    Option<"proposer", "proposer", "std::string", /*default=*/"\"library\"",
           "library, llm, mixed (UCB picks library or llm per expansion) "
           "or file">,
    Option<"proposals", "proposals", "std::string", /*default=*/"\"\"",
           "File of candidate functions for proposer=file">,
    Option<"db", "db", "std::string", /*default=*/"\"ke.db\"",
           "The SQLite database recording the search">,
    Option<"resume", "resume", "bool", /*default=*/"false",
           "Continue the latest run over the same input">,
    Option<"keepTree", "keep-tree", "bool", /*default=*/"false",
           "Output each kernel as a ke.kernel with all its candidates">,
    Option<"exploration", "exploration", "double", /*default=*/"0.5",
           "UCB exploration constant">,
    Option<"evalTimeout", "eval-timeout", "unsigned", /*default=*/"60",
           "Seconds one candidate's evaluation may take">,
    Option<"memoryLimit", "memory-limit", "unsigned", /*default=*/"8192",
           "MiB of memory one evaluation may use (0: no limit, else >= 256)">,
    Option<"minTime", "min-time", "double", /*default=*/"0.1",
           "Seconds of timed runs per candidate">,
    Option<"keRunPath", "ke-run", "std::string", /*default=*/"\"\"",
           "The ke-run executable (default: $KE_RUN, next to ke-opt, PATH)">,
    Option<"skills", "skills", "bool", /*default=*/"true",
           "Distil skills from children that beat their parent by 5% and "
           "use recorded skills (prompts, warm start)">,
    Option<"profile", "profile", "std::string", /*default=*/"\"auto\"",
           "Profile every candidate (ke-run --profile: time share of each "
           "top-level region, hardware counters) for its diagnosis: on, off, "
           "or auto (on when an LLM reads the diagnosis)">,
    Option<"warmStart", "warm-start", "bool", /*default=*/"true",
           "Propose the schedules of the best skills recorded for the same "
           "op kinds and target first">
  ] # KeLLMOptions;
  let dependentDialects = [
    "::ke::KeDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect", "::mlir::transform::TransformDialect"
  ];
}

def KeRewrite : Pass<"ke-rewrite", "mlir::ModuleOp"> {
  let summary = "One round of proposals for every kernel and candidate";
  let description = [{
    The rewrite step of the search on its own, for pipelines and tests.
    Every `func.func` tagged `ke.kernel` becomes a `ke.kernel` holding it as
    the reference; then each node of each `ke.kernel` (its reference and
    every candidate that is not `failed` or `incorrect`) gets `count` new
    children from the proposer, added as `ke.candidate ... status
    unevaluated` after they parse and verify. Nothing is run: pipe the result
    into `ke-run --candidate=...` or `ke-evolve` to evaluate.

    With `proposer=llm`, the prompt is the one `ke-evolve` would send (see
    docs/llm.md), the call is recorded in `db`, and a reply that still fails
    after `llm-repairs` rounds is reported as a warning on the kernel (the
    call stays in the database).
  }];
  let options = [
    Option<"proposer", "proposer", "std::string", /*default=*/"\"library\"",
           "library or llm">,
    Option<"count", "count", "unsigned", /*default=*/"1",
           "Children proposed per node">,
    Option<"target", "target", "std::string", /*default=*/"\"cpu\"",
           "Target of kernels created from tagged functions">,
    Option<"threads", "threads", "unsigned", /*default=*/"1",
           "Threads a candidate may use">,
    Option<"seed", "seed", "uint64_t", /*default=*/"1",
           "Seed of the library proposer">,
    Option<"db", "db", "std::string", /*default=*/"\"ke.db\"",
           "Database of LLM calls, knowledge index and skills">
  ] # KeLLMOptions;
  let dependentDialects = [
    "::ke::KeDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect", "::mlir::transform::TransformDialect"
  ];
}

def KeInstrument : Pass<"ke-instrument", "mlir::func::FuncOp"> {
  let summary = "Put profiling probes around each top-level loop nest and linalg op";
  let description = [{
    Brackets every top-level linalg op and loop (`scf.for`, `scf.forall`,
    `scf.parallel`, `affine.for`) of a function body with `ke.probe_start`
    / `ke.probe_stop`, named `<index>:<op name>`. Apply it to a scheduled
    candidate (the probes stay where they are through the lowering: loops
    a schedule makes out of a linalg op replace it in place). On the CPU,
    `ke-lower-cpu` turns probes into runtime calls that read a monotonic
    clock. On GPUs the probes mark regions on the host and the kernels
    launched inside them read the device's global timer
    (`ke-time-gpu-kernels`, `ke-lower-probes{runtime=gpu}`). `ke-run
    --profile` prints each region's share of the time, and the search puts
    the shares into the diagnosis an LLM sees.
  }];
  let dependentDialects = ["::ke::KeDialect"];
}

def KeLowerProbes : Pass<"ke-lower-probes", "mlir::ModuleOp"> {
  let summary = "Turn profiling probes into calls of the profiling runtime";
  let description = [{
    `ke.probe_start N "name"` becomes `func.call @ke_probe_start(N)` and
    `ke.probe_stop N` becomes `func.call @ke_probe_stop(N)` (private
    declarations are added). `ke-run` provides both functions; they read a
    monotonic clock and accumulate nanoseconds per region. Part of
    `ke-lower-cpu`; a module without probes is left unchanged.

    With `runtime=gpu` (part of `ke-lower-nvgpu` and `ke-lower-amdgpu`) the
    calls are `ke_gpu_probe_start(N)` / `ke_gpu_probe_stop(N)`: the GPU
    runtime only notes which region the host is in, and attributes each
    kernel launched meanwhile (timed on the device by
    `ke-time-gpu-kernels`) to it.
  }];
  let options = [
    Option<"runtime", "runtime", "std::string", /*default=*/"\"cpu\"",
           "Which profiling runtime the calls go to: cpu or gpu">
  ];
  let dependentDialects = ["::mlir::func::FuncDialect", "::mlir::arith::ArithDialect"];
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
    (the most that still leaves about 264 blocks, two per SM of an H100),
    up to a warp along x (the innermost loop), the rest along y. Bounds are
    checked inside the block, so sizes need not divide the trip counts.
  }];
  let options = [
    ListOption<"blockTile", "block-tile", "int64_t",
               "Block tile for every loop (right-aligned)">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect"];
}

def KeDistributeReductionsForGPU : Pass<"ke-distribute-reductions-for-gpu", "mlir::func::FuncOp"> {
  let summary = "Reduce each row of a linalg reduction with a GPU thread block";
  let description = [{
    On buffers, before linalg becomes parallel loops: every linalg op with
    one result, one reduction loop that is its innermost loop, static
    bounds, 32-bit elements and a body that folds one value into the output
    with a combiner `gpu.all_reduce` knows (add, mul, max/min) becomes a
    `gpu.launch` with one thread block per output element. Each thread folds
    a strided slice of the row (coalesced), `gpu.all_reduce` combines the
    partials across the block (warp shuffles, then shared memory across
    warps), and thread 0 folds the total into the output, so the init value
    still counts. Threads per block: a quarter of the row, 32 to
    `max-threads`, a power of two.

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
    registers for the ops after it, and thread 0 also stores it. A run
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

    Every other reduction with static shapes and a body that folds one
    value into the output (contractions, convolutions, several reduction
    loops, 64-bit elements, and with `max-threads=0` all reductions)
    becomes an `scf.parallel` over its parallel loops (one thread per
    output element once the block tiling maps it) whose reduction loops
    carry the accumulator in a register and store it once (`thread-tile`
    gives each thread a tile of outputs: their loads of one reduction
    iteration coincide along the tile's rows and columns and LLVM merges
    them). The function's `ke.gpu_reduction_threads` and
    `ke.gpu_thread_tile` (the search's GPU knobs) win over the options.
    `convert-linalg-to-parallel-loops` would load and store the output in
    every iteration, and with an outer reduction loop keep it on the host
    around one launch per iteration.
  }];
  let options = [
    Option<"maxThreads", "max-threads", "int64_t", "256",
           "Most threads per row (0: no distribution, only register "
           "accumulation)">,
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
    grid's z; 8 warps: 16 x 16), each thread accumulating (`tile`/16) x
    (`tile`/2`warps`) outputs in registers (thread (x, y) owns rows
    y + 2`warps` r and columns x + 16c: conflict-free shared reads,
    coalesced stores). Fewer warps give each thread more outputs (more
    reuse of each shared value, fewer threads to hide latency); the
    function's `ke.gpu_warps` (the search's knob) wins over `warps`. A tile
    that leaves a thread row without a tile row, or a thread more than 64
    accumulators, is not staged. K runs in steps of `k-step`: the block copies
    each input's slice of the step into shared memory (a workgroup
    attribution of `k-step` x (`tile` + 1) elements, the padding against
    bank conflicts; read from global memory along the input's innermost
    dimension; flat rows, columns and k delinearized into the loops),
    `gpu.barrier`, accumulates from shared memory with the step's
    iterations unrolled, and `gpu.barrier` again. Rows or columns that do
    not fill the last tile are guarded. A `linalg.fill` of the output right
    before the op becomes the accumulators' start.

    The tile is `tile`, halved (down to 16) while the grid would have fewer
    than `min-blocks` blocks (a GPU has more SMs than a small product has
    large tiles); the function's `ke.gpu_shared_tile` (the search's knob) is
    taken exactly, 0 turning staging off. Ops whose K is not a multiple of
    `k-step`, without both A-like and B-like inputs, with an input that is
    the output, or whose launch would not fit (more than 65535 row tiles or
    batches, more than 48 KB of slices) are left to
    `ke-distribute-reductions-for-gpu`. Without staging, every output reads
    its whole row and column from global memory (through L1/L2).
  }];
  let options = [
    Option<"tile", "tile", "int64_t", "64",
           "Outputs per block along i and j: 16 to 128, a multiple of 16 "
           "(0: no staging)">,
    Option<"stepK", "k-step", "int64_t", "16",
           "Reduction iterations per shared-memory step">,
    Option<"minBlocks", "min-blocks", "int64_t", "128",
           "Fewest blocks worth a smaller tile: the tile is halved (down "
           "to 16) while the grid has fewer">,
    Option<"warps", "warps", "int64_t", "8",
           "Warps per block: 2, 4, 8 or 16 (16 x 2*warps threads)">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect"];
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
    Option<"width", "width", "int64_t", "4",
           "Elements per thread: 1 (scalar), 2 or 4">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
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
    block argument is the same for every lane of the innermost loop, so each
    vector of the row becomes a `vector.gather`. This pass replaces every
    input operand of a `linalg.generic` on tensors whose indexing map is a
    projected permutation without the innermost loop and whose block
    argument only feeds `arith.index_cast`s by a `tensor.extract` at
    `linalg.index` values in the body; the index is then provably
    invariant along the vector and the row one contiguous load. The
    library's schedules start with it (ke-apply-schedule).
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect"
  ];
}

def KeApplySchedule : Pass<"ke-apply-schedule", "mlir::func::FuncOp"> {
  let summary = "Apply a library schedule (tiling, vectorization) to a function";
  let description = [{
    Applies a schedule of the built-in transform library, written in the
    form the search records (`strategy` of a node, one entry per linalg op
    in walk order, `;`-separated):

    ```
    c=[64,128,0] r=[4,16,1] v; c=[] r=[1,16] v
    ```

    `c` are cache-level tile sizes and `r` register-level tile sizes, one per
    loop (0: not tiled at that level), and `v` vectorizes the register tile.
    The function is first canonicalized for scheduling (aggregate ops
    decomposed, elementwise tensor ops turned into linalg, elementwise chains
    fused, unused results dropped, unit dimensions folded), the schedule is
    checked against the function's loops, rendered as a transform-dialect
    script and run by the transform interpreter. An op the script fails on
    falls back to the default schedule (`ke-tile-and-vectorize`) while the
    rest of the schedule applies, and a warning says which and why.
    `print-script` prints the script, which upstream
    `mlir-opt --transform-interpreter` replays.
  }];
  let options = [
    Option<"schedule", "schedule", "std::string", /*default=*/"\"\"",
           "The schedule, as recorded by the search">,
    Option<"printScript", "print-script", "bool", /*default=*/"false",
           "Print the rendered transform script to stderr">
  ];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect", "::mlir::vector::VectorDialect",
    "::mlir::transform::TransformDialect"
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
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def KeTileAndVectorize : Pass<"ke-tile-and-vectorize", "mlir::func::FuncOp"> {
  let summary = "Default CPU schedule: tile each linalg op and vectorize it";
  let description = [{
    A fixed, search-free schedule used by the default `ke-lower-cpu`
    pipeline. Each linalg op with static loop bounds is tiled so that one
    loop (the innermost reduction when it is the last loop, otherwise the
    innermost parallel loop) keeps `vector-width` iterations and all other
    loops are tiled by one, and the tile is vectorized (2-D convolutions, NCHW
    or NHWC, through the 1-D convolution their tile decomposes to). Ops
    without results are left alone. Ops whose bounds do
    not divide, ops on `i1` tensors (LLVM packs `vector<Nxi1>` into bits
    while memory holds a byte per `i1`), and ops the vectorizer rejects are
    left scalar: the result
    is always correct, only less fast. The search (`ke-evolve`) finds better
    schedules; this is the baseline it starts from.
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"8",
           "Iterations of the vectorized loop in each tile">
  ];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect", "::mlir::vector::VectorDialect"
  ];
}

#endif // KE_TRANSFORMS_PASSES_TD
