//===- Candidate.h - a proposal made into a candidate module ----*- C++ -*-===//

#ifndef KE_PROPOSE_CANDIDATE_H
#define KE_PROPOSE_CANDIDATE_H

#include "ke/Propose/Proposer.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace ke::propose {

struct BuiltCandidate {
  /// One func.func named like the kernel, with its argument and discardable
  /// attributes (ke.kernel, ke.range, ...): valid input to ke-run.
  mlir::OwningOpRef<mlir::ModuleOp> module;
  /// Why the proposal is not a valid candidate ("schedule: ...",
  /// "verify: ..."); empty when it is.
  std::string problem;
  /// Ops of a schedule that did not apply to them and were given ke's default
  /// schedule instead (see applySchedule); empty when the schedule applied
  /// whole.
  std::string fallbacks;
};

/// Builds the candidate of `proposal`: a schedule applied to a copy of
/// `base` (the reference canonicalized for scheduling), or a replacement
/// function checked against `kernel`'s type. A proposal that carries an
/// error stays failed with it.
BuiltCandidate buildCandidate(const Proposal &proposal, mlir::func::FuncOp base,
                              mlir::func::FuncOp kernel,
                              llvm::ArrayRef<OpShape> shapes);

} // namespace ke::propose

#endif // KE_PROPOSE_CANDIDATE_H
