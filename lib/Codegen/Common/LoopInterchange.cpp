//===- LoopInterchange.cpp - a linalg op's loops in another order ---------===//

#include "ke/Codegen/LoopInterchange.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

using namespace mlir;

FailureOr<linalg::GenericOp> ke::asGenericOp(RewriterBase &rewriter,
                                             linalg::LinalgOp op) {
  if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
    return generic;
  rewriter.setInsertionPoint(op);
  return linalg::generalizeNamedOp(rewriter, op);
}

FailureOr<linalg::GenericOp>
ke::interchangeLoops(RewriterBase &rewriter, linalg::LinalgOp op,
                     ArrayRef<unsigned> order) {
  FailureOr<linalg::GenericOp> generic = asGenericOp(rewriter, op);
  if (failed(generic))
    return failure();
  rewriter.setInsertionPoint(*generic);
  return linalg::interchangeGenericOp(rewriter, *generic, order);
}
