//===- DecomposeAggregates.cpp - ke-decompose-aggregates ------------------===//
//
// Replaces aggregate ops (linalg.softmax, ...) by the structured ops they
// stand for, so that tiling, vectorization and loop lowering can see them.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace ke {
#define GEN_PASS_DEF_KEDECOMPOSEAGGREGATES
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
struct DecomposeAggregatesPass
    : ke::impl::KeDecomposeAggregatesBase<DecomposeAggregatesPass> {
  void runOnOperation() override {
    SmallVector<linalg::AggregatedOpInterface> aggregates;
    getOperation().walk(
        [&](linalg::AggregatedOpInterface op) { aggregates.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::AggregatedOpInterface op : aggregates) {
      rewriter.setInsertionPoint(op);
      FailureOr<SmallVector<Value>> replacements =
          op.decomposeOperation(rewriter);
      if (failed(replacements) || replacements->empty()) {
        op->emitError() << "ke-decompose-aggregates: cannot decompose '"
                        << op->getName() << "'";
        return signalPassFailure();
      }
      rewriter.replaceOp(op, *replacements);
    }
  }
};
} // namespace
