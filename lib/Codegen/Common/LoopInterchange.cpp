//===- LoopInterchange.cpp - a linalg op's loops in another order ---------===//

#include "ke/Codegen/LoopInterchange.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

using namespace mlir;

FailureOr<linalg::GenericOp>
ke::interchangeLoops(RewriterBase &rewriter, linalg::LinalgOp op,
                     ArrayRef<unsigned> order) {
  rewriter.setInsertionPoint(op);
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic) {
    FailureOr<linalg::GenericOp> generalized =
        linalg::generalizeNamedOp(rewriter, op);
    if (failed(generalized))
      return failure();
    generic = *generalized;
  }
  return linalg::interchangeGenericOp(rewriter, generic, order);
}
