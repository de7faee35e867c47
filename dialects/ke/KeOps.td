//===- KeOps.td - ke.kernel and ke.candidate ---------------*- tablegen -*-===//

#ifndef KE_OPS_TD
#define KE_OPS_TD

include "ke/KeDialect.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Ke_CandidateStatus : I32EnumAttr<"CandidateStatus",
    "what the evaluation of a candidate found", [
      I32EnumAttrCase<"Unevaluated", 0, "unevaluated">,
      I32EnumAttrCase<"Correct", 1, "correct">,
      I32EnumAttrCase<"Incorrect", 2, "incorrect">,
      I32EnumAttrCase<"Failed", 3, "failed">
    ]> {
  let cppNamespace = "::ke";
}

def Ke_KernelOp : Ke_Op<"kernel", [
    Symbol, SymbolTable, IsolatedFromAbove, NoTerminator, SingleBlock,
    NoRegionArguments]> {
  let summary = "A kernel under optimization: its reference and its candidates";
  let description = [{
    `ke.kernel` owns exactly one `func.func`, the reference implementation
    whose results define what is correct, and any number of `ke.candidate`
    ops, the tree of alternatives proposed for it. `target` names the
    hardware the candidates are optimized for: `cpu`, `nvgpu`, `amdgpu` or
    `riscv`.

    Example:

    ```mlir
    ke.kernel @scale target("cpu") {
      func.func @scale(%x: tensor<64xf32>) -> tensor<64xf32> { ... }
      ke.candidate @c0 by "library" status correct
          strategy "vectorize 8" metrics {time_ns = 812.0 : f64} {
        func.func @payload(%x: tensor<64xf32>) -> tensor<64xf32> { ... }
      }
    }
    ```

    The verifier checks that every candidate's payload has the reference's
    function type, that every `from` parent names a candidate of the same
    kernel, and that the parent links form a tree (no cycles). Symbol names
    are unique within the kernel.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrAttr:$target);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name `target` `(` $target `)` attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "llvm::StringRef":$name, "llvm::StringRef":$target)>
  ];
  let extraClassDeclaration = [{
    /// The reference implementation (the one func.func in the body).
    mlir::func::FuncOp getReference();
    /// Candidates in the order they appear.
    auto getCandidates() { return getBody().front().getOps<CandidateOp>(); }
    /// The candidate named `name`, or null.
    CandidateOp lookupCandidate(llvm::StringRef name);
    /// The correct candidate with the lowest measured median time, or null.
    CandidateOp getBestCandidate();
    /// The targets a kernel may name.
    static llvm::ArrayRef<llvm::StringRef> getKnownTargets();
    /// Moves every func.func of `module` tagged ke.kernel into a new
    /// ke.kernel of the same name as its reference; fails, after a
    /// diagnostic, on a tagged function without body or one still
    /// referenced elsewhere (its symbol moves into the kernel).
    static llvm::LogicalResult outlineTaggedFunctions(mlir::ModuleOp module,
                                                      llvm::StringRef target);
  }];
}

def Ke_CandidateOp : Ke_Op<"candidate", [
    Symbol, SymbolTable, IsolatedFromAbove, NoTerminator, SingleBlock,
    NoRegionArguments, HasParent<"KernelOp">]> {
  let summary = "One proposed implementation of a kernel";
  let description = [{
    A candidate holds its payload (one `func.func` with the reference's
    function type), the candidate it was derived from (`from @parent`; absent
    for candidates derived from the reference), who proposed it (`by`:
    `library` or `llm:<model>`), the strategy that made it, its evaluation
    `status` (`unevaluated`, `correct`, `incorrect`, `failed`) and the
    metrics measured by `ke-run` (`time_ns`, `speedup`, `gflops`, `gbps`, ...).
  }];
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    OptionalAttr<FlatSymbolRefAttr>:$parent,
    StrAttr:$proposer,
    Ke_CandidateStatus:$status,
    DefaultValuedStrAttr<StrAttr, "">:$strategy,
    OptionalAttr<DictionaryAttr>:$metrics);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name (`from` $parent^)? `by` $proposer `status` $status
    (`strategy` $strategy^)? (`metrics` $metrics^)? attr-dict-with-keyword
    $body
  }];
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The payload function (the one func.func in the body).
    mlir::func::FuncOp getPayload();
    /// The median time in nanoseconds from `metrics`, if measured.
    std::optional<double> getMedianTimeNs();
  }];
}

def Ke_ProbeStartOp : Ke_Op<"probe_start", [MemoryEffects<[MemWrite]>]> {
  let summary = "Starts timing a region of a kernel (profiling)";
  let description = [{
    Inserted by `ke-instrument` before a top-level loop nest or linalg op;
    `ke.probe_stop` with the same `id` ends the region. `ke-lower-probes`
    turns both into calls of the profiling runtime (`ke_probe_start(id)`,
    `ke_probe_stop(id)`), which read a monotonic clock and accumulate the
    time per region; `ke-run --profile` reports each region's share. The
    write effect keeps probes in place: nothing moves across them.

    ```mlir
    ke.probe_start 0 "0:linalg.matmul"
    %0 = linalg.matmul ...
    ke.probe_stop 0
    ```
  }];
  let arguments = (ins I64Attr:$id, StrAttr:$region);
  let assemblyFormat = "$id $region attr-dict";
}

def Ke_ProbeStopOp : Ke_Op<"probe_stop", [MemoryEffects<[MemWrite]>]> {
  let summary = "Ends the region started by the ke.probe_start of the same id";
  let arguments = (ins I64Attr:$id);
  let assemblyFormat = "$id attr-dict";
}

#endif // KE_OPS_TD
