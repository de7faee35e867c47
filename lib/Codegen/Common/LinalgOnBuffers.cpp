//===- LinalgOnBuffers.cpp - helpers of the GPU rewrites of linalg ops ----===//

#include "ke/Codegen/LinalgOnBuffers.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

linalg::FillOp ke::detail::findInitializingFill(linalg::LinalgOp op,
                                                unsigned init) {
  Value buffer = op.getDpsInitOperand(init)->get();
  // Read as an input too, the buffer's filled values would be needed.
  for (OpOperand *input : op.getDpsInputOperands())
    if (input->get() == buffer)
      return {};
  Type element = getElementTypeOrSelf(buffer.getType());
  linalg::FillOp fill;
  for (Operation *previous = op->getPrevNode(); previous && !fill;
       previous = previous->getPrevNode()) {
    auto candidate = dyn_cast<linalg::FillOp>(previous);
    if (candidate && candidate.getDpsInitOperand(0)->get() == buffer)
      fill = candidate;
    else if (llvm::is_contained(previous->getOperands(), buffer))
      return {};
  }
  if (!fill || !fill.hasPureBufferSemantics() ||
      fill.getInputs().front().getType() != element)
    return {};
  for (Operation *user : buffer.getUsers())
    if (isa<ViewLikeOpInterface>(user) || user->getBlock() != op->getBlock())
      return {};
  return fill;
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
