//===- Passes.td - ke passes -------------------------------*- tablegen -*-===//

#ifndef KE_TRANSFORMS_PASSES_TD
#define KE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

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
    decomposed, elementwise tensor ops turned into linalg), the schedule is
    checked against the function's loops, rendered as a transform-dialect
    script and run by the transform interpreter. `print-script` prints the
    script, which upstream `mlir-opt --transform-interpreter` replays.
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

def KeTileAndVectorize : Pass<"ke-tile-and-vectorize", "mlir::func::FuncOp"> {
  let summary = "Default CPU schedule: tile each linalg op and vectorize it";
  let description = [{
    A fixed, search-free schedule used by the default `ke-lower-cpu`
    pipeline. Each linalg op with static loop bounds is tiled so that one
    loop (the innermost reduction when it is the last loop, otherwise the
    innermost parallel loop) keeps `vector-width` iterations and all other
    loops are tiled by one, and the tile is vectorized. Ops whose bounds do
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
