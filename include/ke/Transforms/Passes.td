//===- Passes.td - transforms of the ke dialect -----------*- tablegen -*-===//

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

#endif // KE_TRANSFORMS_PASSES_TD
