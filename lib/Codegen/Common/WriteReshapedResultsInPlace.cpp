//===- WriteReshapedResultsInPlace.cpp - ke-write-reshaped-results-in-place ===//
//
// A kernel whose last op computes its result under another shape (a group
// norm's [N, G, C/G, H, W] view of [N, C, H, W]) returns a reshape of a
// temporary, which buffer-results-to-out-params copies into the caller's
// buffer: a full extra pass. The temporary can be that buffer, reshaped.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace ke {
#define GEN_PASS_DEF_KEWRITERESHAPEDRESULTSINPLACE
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// The op of `block` that is or holds `op`; null when `op` is outside it.
Operation *getAncestorIn(Block *block, Operation *op) {
  for (; op; op = op->getParentOp())
    if (op->getBlock() == block)
      return op;
  return nullptr;
}

/// Whether every use of `alloc` other than `reshape` (the view that is
/// copied out) and deallocations is before `copy` in its block, and none
/// makes another view of it (a subview written after the copy, a loop's
/// memref result): a write after the copy would otherwise land in the
/// caller's buffer.
bool isOnlyUsedBefore(memref::AllocOp alloc, Operation *reshape,
                      memref::CopyOp copy) {
  Block *block = copy->getBlock();
  for (Operation *user : alloc->getUsers()) {
    if (user == reshape || isa<memref::DeallocOp>(user))
      continue;
    if (llvm::any_of(user->getResultTypes(), llvm::IsaPred<BaseMemRefType>))
      return false;
    Operation *ancestor = getAncestorIn(block, user);
    if (!ancestor || !ancestor->isBeforeInBlock(copy))
      return false;
  }
  for (Operation *user : reshape->getUsers())
    if (user != copy.getOperation())
      return false;
  return true;
}

/// `memref.copy (collapse|expand)(%alloc), %out` where `%out` is a function
/// argument written by nothing else: `%alloc` becomes the inverse reshape
/// of `%out`, and the copy goes. Like buffer-results-to-out-params'
/// hoisting, this assumes the caller's out-parameters alias no input.
void writeInPlace(memref::CopyOp copy, IRRewriter &rewriter) {
  auto out = dyn_cast<BlockArgument>(copy.getTarget());
  if (!out || !out.getOwner()->isEntryBlock() ||
      !isa<func::FuncOp>(out.getOwner()->getParentOp()) || !out.hasOneUse())
    return;
  auto outType = dyn_cast<MemRefType>(out.getType());
  if (!outType || !outType.getLayout().isIdentity() ||
      !outType.hasStaticShape())
    return;
  Operation *reshape = copy.getSource().getDefiningOp();
  if (!reshape || !isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(reshape))
    return;
  auto alloc = reshape->getOperand(0).getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != copy->getBlock() ||
      !alloc.getType().getLayout().isIdentity() ||
      !alloc.getType().hasStaticShape() ||
      alloc.getType().getMemorySpace() != outType.getMemorySpace() ||
      !isOnlyUsedBefore(alloc, reshape, copy))
    return;
  rewriter.setInsertionPoint(alloc);
  Value view;
  if (auto collapse = dyn_cast<memref::CollapseShapeOp>(reshape))
    view = memref::ExpandShapeOp::create(
        rewriter, alloc.getLoc(), alloc.getType().getShape(), out,
        collapse.getReassociationIndices());
  else
    view = memref::CollapseShapeOp::create(
        rewriter, alloc.getLoc(), out,
        cast<memref::ExpandShapeOp>(reshape).getReassociationIndices());
  if (view.getType() != alloc.getType()) {
    rewriter.eraseOp(view.getDefiningOp());
    return;
  }
  rewriter.eraseOp(copy);
  rewriter.eraseOp(reshape);
  for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
    if (isa<memref::DeallocOp>(user))
      rewriter.eraseOp(user);
  rewriter.replaceOp(alloc, view);
}

struct WriteReshapedResultsInPlacePass
    : ke::impl::KeWriteReshapedResultsInPlaceBase<
          WriteReshapedResultsInPlacePass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : copies)
      writeInPlace(copy, rewriter);
  }
};
} // namespace
