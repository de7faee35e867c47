//===- LinalgOnBuffers.cpp - helpers of the GPU rewrites of linalg ops ----===//

#include "ke/Codegen/LinalgOnBuffers.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

Value ke::detail::getRootBuffer(Value view) {
  while (auto viewOp = view.getDefiningOp<ViewLikeOpInterface>())
    view = viewOp.getViewSource();
  return view;
}

namespace {
/// Whether `op` may write memory of `root` (through any view of it).
bool mayWrite(Operation *op, Value root) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return !isMemoryEffectFree(op);
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  for (const MemoryEffects::EffectInstance &effect : instances) {
    if (!isa<MemoryEffects::Write>(effect.getEffect()))
      continue;
    Value written = effect.getValue();
    if (!written || ke::detail::getRootBuffer(written) == root)
      return true;
  }
  return false;
}

/// The op of type OpTy that writes `op`'s output number `init` last before
/// it in its block, with nothing touching the buffer in between and no
/// views of the buffer.
template <typename OpTy>
OpTy findInitializer(linalg::LinalgOp op, unsigned init) {
  Value buffer = op.getDpsInitOperand(init)->get();
  // Read as an input too, the buffer's initial values would be needed.
  for (OpOperand *input : op.getDpsInputOperands())
    if (input->get() == buffer)
      return {};
  // Nothing in between may read the buffer or write any view of its
  // memory (the output may be a subview of a result other ops write).
  Value root = ke::detail::getRootBuffer(buffer);
  OpTy initializer;
  for (Operation *previous = op->getPrevNode(); previous && !initializer;
       previous = previous->getPrevNode()) {
    auto candidate = dyn_cast<OpTy>(previous);
    if (candidate && candidate.getDpsInitOperand(0)->get() == buffer)
      initializer = candidate;
    else if (llvm::is_contained(previous->getOperands(), buffer) ||
             mayWrite(previous, root))
      return {};
  }
  if (!initializer || !initializer.hasPureBufferSemantics())
    return {};
  // A region op in between could read the buffer without it as an
  // operand: a user nested elsewhere must sit in an op after `op` (a
  // kernel launched later, reading the result).
  for (Operation *user : buffer.getUsers()) {
    if (isa<ViewLikeOpInterface>(user))
      return {};
    if (user->getBlock() == op->getBlock())
      continue;
    Operation *ancestor = op->getBlock()->findAncestorOpInBlock(*user);
    if (!ancestor || !op->isBeforeInBlock(ancestor))
      return {};
  }
  return initializer;
}
} // namespace

linalg::FillOp ke::detail::findInitializingFill(linalg::LinalgOp op,
                                                unsigned init) {
  linalg::FillOp fill = findInitializer<linalg::FillOp>(op, init);
  Type element = getElementTypeOrSelf(op.getDpsInitOperand(init)->get());
  if (!fill || fill.getInputs().front().getType() != element)
    return {};
  return fill;
}

linalg::BroadcastOp ke::detail::findInitializingBroadcast(linalg::LinalgOp op,
                                                          unsigned init) {
  return findInitializer<linalg::BroadcastOp>(op, init);
}

SmallVector<Value> ke::detail::applyMap(OpBuilder &builder, Location loc,
                                        AffineMap map, ValueRange ivs) {
  SmallVector<Value> indices;
  for (AffineExpr result : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(result)) {
      indices.push_back(ivs[dim.getPosition()]);
      continue;
    }
    indices.push_back(affine::AffineApplyOp::create(
        builder, loc, AffineMap::get(map.getNumDims(), 0, result), ivs));
  }
  return indices;
}

SmallVector<Value> ke::detail::delinearize(OpBuilder &builder, Location loc,
                                           Value linear,
                                           ArrayRef<int64_t> shape) {
  if (shape.empty())
    return {};
  if (shape.size() == 1)
    return {linear};
  auto delinearized = affine::AffineDelinearizeIndexOp::create(
      builder, loc, linear, shape, /*hasOuterBound=*/true);
  return SmallVector<Value>(delinearized.getResults());
}
