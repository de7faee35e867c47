//===- WriteReshapedResultsInPlace.cpp - ke-write-reshaped-results-in-place ===//
//
// A kernel whose last op computes its result under another shape (a group
// norm's [N, G, C/G, H, W] view of [N, C, H, W]) returns a reshape of a
// temporary, which buffer-results-to-out-params copies into the caller's
// buffer: a full extra pass. The temporary can be that buffer, reshaped
// (through any chain of reshapes: each keeps the elements' linear order).
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

#include <algorithm>

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

bool hasMemRefResult(Operation *op) {
  return llvm::any_of(op->getResultTypes(), llvm::IsaPred<BaseMemRefType>);
}

/// Whether every use of `alloc` other than `reshape` (the first view of the
/// chain that is copied out) and deallocations is before `copy` in its
/// block, and no view of it outlives the op of the block that holds the
/// use (a subview written after the copy, a loop's memref result): a write
/// after the copy would otherwise land in the caller's buffer. A view made
/// inside a loop nest whose results are not memrefs (the schedule's
/// per-tile subviews) ends with the loop.
bool isOnlyUsedBefore(memref::AllocOp alloc, Operation *reshape,
                      memref::CopyOp copy) {
  Block *block = copy->getBlock();
  for (Operation *user : alloc->getUsers()) {
    if (user == reshape || isa<memref::DeallocOp>(user))
      continue;
    Operation *ancestor = getAncestorIn(block, user);
    if (!ancestor || !ancestor->isBeforeInBlock(copy))
      return false;
    if (hasMemRefResult(ancestor)) // the user itself, or a loop holding it
      return false;
  }
  return true;
}

/// The reshapes (collapse_shape, expand_shape) from a buffer to `value`,
/// first to last, each used only by the next one (the last by `user`).
SmallVector<Operation *> getReshapeChain(Value value, Operation *user) {
  SmallVector<Operation *> chain;
  while (Operation *reshape = value.getDefiningOp()) {
    if (!isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(reshape) ||
        !value.hasOneUse() || *value.getUsers().begin() != user)
      break;
    chain.push_back(reshape);
    user = reshape;
    value = reshape->getOperand(0);
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
}

/// `out` (contiguous, static) viewed with `type`'s shape: the inverse of a
/// single reshape, or else through its one-dimensional view (a chain such
/// as [1, 8192, 384] -> [8192, 384] -> [8, 32, 32, 1, 384] -> [8, 32, 32,
/// 384] keeps the elements' linear order, as every reshape does).
Value reshapeOut(IRRewriter &rewriter, Location loc, Value out,
                 MemRefType type, ArrayRef<Operation *> chain) {
  if (chain.size() == 1) {
    if (auto collapse = dyn_cast<memref::CollapseShapeOp>(chain.front()))
      return memref::ExpandShapeOp::create(
          rewriter, loc, type.getShape(), out,
          collapse.getReassociationIndices());
    return memref::CollapseShapeOp::create(
        rewriter, loc, out,
        cast<memref::ExpandShapeOp>(chain.front()).getReassociationIndices());
  }
  auto outType = cast<MemRefType>(out.getType());
  if (outType.getRank() == 0 || type.getRank() == 0)
    return {};
  ReassociationIndices all =
      llvm::to_vector(llvm::seq<int64_t>(0, outType.getRank()));
  Value flat = out;
  if (outType.getRank() > 1)
    flat = memref::CollapseShapeOp::create(
        rewriter, loc, out, SmallVector<ReassociationIndices>{all});
  if (type.getRank() == 1)
    return flat;
  ReassociationIndices allOfType =
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  return memref::ExpandShapeOp::create(
      rewriter, loc, type.getShape(), flat,
      SmallVector<ReassociationIndices>{allOfType});
}

/// `memref.copy reshape(...reshape(%alloc)), %out` where `%out` is a
/// function argument written by nothing else: `%alloc` becomes a view of
/// `%out`, and the copy goes. Like buffer-results-to-out-params' hoisting,
/// this assumes the caller's out-parameters alias no input.
void writeInPlace(memref::CopyOp copy, IRRewriter &rewriter) {
  auto out = dyn_cast<BlockArgument>(copy.getTarget());
  if (!out || !out.getOwner()->isEntryBlock() ||
      !isa<func::FuncOp>(out.getOwner()->getParentOp()) || !out.hasOneUse())
    return;
  auto outType = dyn_cast<MemRefType>(out.getType());
  if (!outType || !outType.getLayout().isIdentity() ||
      !outType.hasStaticShape())
    return;
  SmallVector<Operation *> chain = getReshapeChain(copy.getSource(), copy);
  if (chain.empty())
    return;
  auto alloc = chain.front()->getOperand(0).getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != copy->getBlock() ||
      !alloc.getType().getLayout().isIdentity() ||
      !alloc.getType().hasStaticShape() ||
      alloc.getType().getMemorySpace() != outType.getMemorySpace() ||
      !isOnlyUsedBefore(alloc, chain.front(), copy))
    return;
  rewriter.setInsertionPoint(alloc);
  Value view =
      reshapeOut(rewriter, alloc.getLoc(), out, alloc.getType(), chain);
  if (!view)
    return;
  if (view.getType() != alloc.getType()) {
    for (Operation *op = view.getDefiningOp(); op && op->use_empty();) {
      Operation *source = op->getOperand(0).getDefiningOp();
      rewriter.eraseOp(op);
      op = source;
    }
    return;
  }
  rewriter.eraseOp(copy);
  for (Operation *reshape : llvm::reverse(chain))
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
