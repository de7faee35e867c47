//===- SkillMemory.h - what one search teaches the next ---------*- C++ -*-===//
//
// A child that beat its parent by 5 % or more becomes a skill in the store
// (its schedule or rewrite, with the op kinds it worked on); a later search
// of kernels with the same op kinds starts from the best of them.
//
//===----------------------------------------------------------------------===//

#ifndef KE_SEARCH_SKILLMEMORY_H
#define KE_SEARCH_SKILLMEMORY_H

#include "ke/Propose/Proposer.h"
#include "ke/Store/Store.h"

namespace mlir {
class Operation;
} // namespace mlir

namespace ke::propose {
class TransformLibraryProposer;
} // namespace ke::propose

namespace ke::search {

/// Records `child`'s gain over `parent` as a skill; a store error only warns
/// on `anchor` (losing a skill loses no search result).
void distilSkill(store::Store &database, int64_t run, llvm::StringRef target,
                 const store::NodeRecord &child,
                 const store::NodeRecord &parent, double naiveNs,
                 llvm::StringRef opKinds, llvm::StringRef rewrite,
                 mlir::Operation *anchor);

/// Gives `library` up to three learnt schedules of `opKinds` that fit
/// `shapes`, best first.
void addWarmStart(store::Store &database, llvm::StringRef target,
                  propose::TransformLibraryProposer &library,
                  llvm::ArrayRef<propose::OpShape> shapes,
                  llvm::StringRef opKinds, mlir::Operation *anchor);

} // namespace ke::search

#endif // KE_SEARCH_SKILLMEMORY_H
