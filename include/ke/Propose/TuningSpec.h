//===- TuningSpec.h - schedules as a transform-dialect tuning spec -*- C++ -*-===//
//
// The search's result in a form any MLIR pipeline can use: a transform
// library whose entry `@__kernel_config` is one `transform.foreach_match`.
// Each matcher selects a linalg op by name, loop count, loop trip counts,
// operand count and operand element bit widths (and, for contractions, the
// multiply-add body); its action applies that op's entry of the winning
// schedule (tiling, split reduction, vectorization, unrolling). Upstream
// `mlir-opt --transform-preload-library=transform-library-paths=SPEC
// --transform-interpreter=entry-point=__kernel_config` applies it to any
// module holding such ops, wherever they are.
//
//===----------------------------------------------------------------------===//

#ifndef KE_PROPOSE_TUNINGSPEC_H
#define KE_PROPOSE_TUNINGSPEC_H

#include "ke/Propose/Schedule.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>
#include <vector>

namespace ke::propose {

/// One kernel's winning schedule and the payload it was applied to (the
/// kernel canonicalized for scheduling: its ops, in walk order, are the
/// schedule's entries).
struct TuningSpecEntry {
  std::string kernel;
  mlir::func::FuncOp payload;
  Schedule schedule;
};

/// The spec's text. What a spec cannot carry is left out and said in
/// `notes` (and in the spec's header): input relayouts, tile-and-fuse, and
/// polynomial math (a ke pass), and ops whose entry does nothing.
std::string renderTuningSpec(llvm::ArrayRef<TuningSpecEntry> entries,
                             std::vector<std::string> &notes);

} // namespace ke::propose

#endif // KE_PROPOSE_TUNINGSPEC_H
