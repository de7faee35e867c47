//===- Passes.td - passes of the ke search ----------------*- tablegen -*-===//

#ifndef KE_SEARCH_PASSES_TD
#define KE_SEARCH_PASSES_TD

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
         /*default=*/"8000",
         "Token budget of one prompt when llm-context is not given">,
  Option<"llmContext", "llm-context", "unsigned", /*default=*/"0",
         "The server's context window in tokens: prompt + reply never exceed "
         "it (0: what the server says where it says it: vLLM's /v1/models, "
         "llama.cpp's /props; else unknown and llm-prompt-tokens applies)">,
  Option<"llmReplyTokens", "llm-reply-tokens", "unsigned", /*default=*/"0",
         "Tokens of one reply (0: 512 for schedule replies, 4096 for IR)">,
  Option<"llmReply", "llm-reply", "std::string", /*default=*/"\"auto\"",
         "What the model writes: schedule (a JSON choice of the library's "
         "knobs, constrained by a JSON schema), ir (a transform script or a "
         "function), or auto (schedule when llm-context is at most 16384, "
         "else IR with the schedule offered)">,
  Option<"llmResponseFormat", "llm-response-format", "std::string",
         /*default=*/"\"json_schema\"",
         "How a schedule reply's JSON schema is sent: json_schema (OpenAI, "
         "vLLM, llama.cpp's llama-server, Ollama), json_object (the schema "
         "inside json_object: llama-cpp-python's server) or none">,
  Option<"llmSystem", "llm-system", "std::string", /*default=*/"\"system\"",
         "system, or user: the system prompt goes into the first user "
         "message (for chat templates that drop the system role)">,
  Option<"kb", "kb", "std::string", /*default=*/"\"\"",
         "Extra knowledge directories, comma-separated (kb/ is always "
         "indexed)">,
  Option<"kbPassages", "kb-passages", "unsigned", /*default=*/"4",
         "Knowledge passages per prompt">
];

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
    killed search loses nothing and `resume=true` continues it. SIGTERM or
    SIGINT stops it cleanly after the evaluations in flight (whose results,
    possibly cut short by the signal, are not recorded): the summary says
    `interrupted`, the best so far is written, the work directory removed
    and the run marked `interrupted`.

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
    each expansion to the library or to the LLM by the rewards they earned;
    on the host CPU, with `default-variants`, to the default lowering's
    variants too)
    and `file` (the functions of the file `proposals`, served in order: hand-
    written candidates, or replies recorded elsewhere).

    Skills: a correct child at least 5% faster than its parent is distilled
    into the database's `skills` table (op kinds, target, what changed, the
    gain); skills go into later prompts, and the schedules of the best ones
    for the same op kinds and target are proposed first by later searches
    (`warm-start`).

    Cost model (`cost-model`, CPU targets, library proposals): ridge
    regression from features of the schedule on the kernel's ops (vectorized
    and threaded work, register-tile and vector sizes, vector registers live
    and spills, cache-tile footprints against the host's L1 and L2, strided
    vectors, unrolling, splits, fusion, fast math) to the log of the
    measured speedup, refitted after every measurement. Once it has seen six
    correct schedules of the kernel (three with weights learnt on earlier
    kernels of the target), it predicts each next one before it is measured;
    when those predictions agree with the measurements (Kendall's tau of the
    last 12, at least 5, >= `cost-model-trust`), each expansion draws
    `cost-model-pool` times as many proposals and measures the
    best-predicted, each slot given to a random one of the pool with
    probability 0.25; the node's strategy says the predicted rank and the
    agreement. The weights are stored per target in the database and are
    the prior of the next search.
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
    Option<"defaultVariants", "default-variants", "bool", /*default=*/"true",
           "CPU: beside the library, propose ke's default lowering under "
           "other register and vector budgets than the host's (the "
           "default-variants proposer: a few candidates around the floor)">,
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
           "MiB of memory one evaluation may use (0: no limit, else >= 256; "
           "workers x this must fit the machine, the default shrinks to fit)">,
    Option<"minTime", "min-time", "double", /*default=*/"0.1",
           "Seconds of timed runs per candidate">,
    Option<"inputs", "inputs", "std::string", /*default=*/"\"\"",
           "A ke tensor file (ke-run --expected) for a module of one "
           "kernel: every evaluation, the floor's and the confirmation's "
           "included, is also checked against its outputs and timed on its "
           "inputs, the ones the user's framework runs on, so a kernel "
           "whose speed depends on its data is chosen on that data">,
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
           "op kinds and target first">,
    Option<"costModel", "cost-model", "bool", /*default=*/"true",
           "Rank the library's proposals with a cost model trained on the "
           "search's measurements (its weights kept per target in the "
           "database) and measure only the best-predicted (CPU targets)">,
    Option<"costModelPool", "cost-model-pool", "unsigned", /*default=*/"8",
           "Library proposals drawn per measured one once the cost model "
           "can rank (>= 1; 1: no screening)">,
    Option<"confirm", "confirm", "unsigned", /*default=*/"3",
           "Before choosing the output, re-time the floor (on GPU targets "
           "the reference, as the default pipeline lowers it) and this many of "
           "the best nodes back to back, three rounds in alternating order, "
           "each checked again against the reference; a node is the output "
           "only if it beats the floor in every round by 3 % (0: choose by "
           "the times measured during the search)">,
    Option<"costModelTrust", "cost-model-trust", "double",
           /*default=*/"0.2",
           "Agreement (Kendall's tau, -1 to 1) between the cost model's "
           "predictions of the last 12 schedules, made before they were "
           "measured, and their measurements that it must show (at least 5 "
           "of them) before it screens; below -1: screen from the start">,
    Option<"executor", "executor", "std::string", /*default=*/"\"local\"",
           "Where candidates are evaluated: local (ke-run processes, "
           "`workers` at a time) or slurm (each ke-run a Slurm job through "
           "srun, `workers` jobs in flight; work-dir must be shared with the "
           "nodes)">,
    Option<"slurmArgs", "slurm-args", "std::string", /*default=*/"\"\"",
           "Extra srun arguments for executor=slurm, e.g. \"-p gpu "
           "--gres=gpu:1 --time=00:05:00\"">,
    Option<"workDir", "work-dir", "std::string", /*default=*/"\"\"",
           "Folder for the search's scratch files (candidates, reports); "
           "default: the system's temporary folder. With executor=slurm, a "
           "folder the worker nodes see at the same path">,
    Option<"spec", "spec", "std::string", /*default=*/"\"\"",
           "Also write the best schedules as a transform-dialect tuning spec "
           "to this file (entry @__kernel_config, one transform.foreach_match "
           "that upstream mlir-opt's --transform-interpreter applies to any "
           "module holding the same ops)">
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
    script and run by the transform interpreter. On this (CPU) payload,
    log-step prefix scans are vectorized first (`ke-vectorize-prefix-scans`)
    and NCHW convolutions made channels-last
    (`ke-convolutions-to-channels-last`), so the entries are for the ops
    that remain. An op the script fails on falls back to the default
    schedule (`ke-tile-and-vectorize`) while the rest of the schedule
    applies, and a warning says which and why; channels-last 3-D and
    depthwise convolutions, outside the library's space, get the default
    schedule for an empty entry.
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
    // ke: the script's matches name ke.op_id, and functions run in parallel
    // (a dialect loaded from a thread while another parses crashed).
    "::ke::KeDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect", "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect", "::mlir::transform::TransformDialect"
  ];
}

#endif // KE_SEARCH_PASSES_TD
