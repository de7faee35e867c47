//===- WidenContractionInputs.cpp - ke-widen-contraction-inputs -----------===//
//
// A contraction with bf16 or f16 inputs and an f32 result extends every
// input element to f32 before it multiplies. The CPU schedule's register
// blocks and packed panels take one element type: with two, the op fell
// back to a generic vectorization (a bf16 1024^3 GEMM ran at 4 GFLOP/s
// where the f32 one runs at 300). Extending each input once into an f32
// tensor (exact) and running the f32 contraction computes the same
// products and sums; the extension is a pass over the inputs, which are
// read once per column block anyway.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/ConvertElements.h"
#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace ke {
#define GEN_PASS_DEF_KEWIDENCONTRACTIONINPUTS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// Whether `type` is a 16-bit float narrower than `wide`.
bool isNarrowFloat(Type type, Type wide) {
  return isa<BFloat16Type, Float16Type>(type) && isa<FloatType>(wide) &&
         type.getIntOrFloatBitWidth() < wide.getIntOrFloatBitWidth();
}

/// The inputs of `op` to widen: 16-bit float tensors narrower than its
/// result, each of whose block argument (for a generic) only feeds
/// extensions to the result's element type.
SmallVector<OpOperand *> getNarrowInputs(linalg::LinalgOp op, Type wide) {
  SmallVector<OpOperand *> narrow;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = dyn_cast<RankedTensorType>(input->get().getType());
    if (!type || !isNarrowFloat(type.getElementType(), wide))
      continue;
    if (isa<linalg::GenericOp>(op.getOperation())) {
      BlockArgument argument = op.getMatchingBlockArgument(input);
      bool onlyExtended =
          !argument.use_empty() &&
          llvm::all_of(argument.getUsers(), [&](Operation *user) {
            auto extension = dyn_cast<arith::ExtFOp>(user);
            return extension && extension.getType() == wide;
          });
      if (!onlyExtended)
        continue;
    }
    narrow.push_back(input);
  }
  return narrow;
}

/// Whether this pass rebuilds `op` on other operand types: generics (their
/// body is edited), matmul and batch_matmul (built anew from the types).
bool isRebuildable(linalg::LinalgOp op) {
  return isa<linalg::GenericOp, linalg::MatmulOp, linalg::BatchMatmulOp>(
      op.getOperation());
}

/// Rewrites `op` (rebuildable) on its widened inputs.
void widen(RewriterBase &rewriter, linalg::LinalgOp op,
           ArrayRef<OpOperand *> narrow, Type wide) {
  rewriter.setInsertionPoint(op);
  SmallVector<Value> inputs;
  for (OpOperand *input : op.getDpsInputOperands())
    inputs.push_back(
        llvm::is_contained(narrow, input)
            ? ke::convertElements(rewriter, op.getLoc(), input->get(), wide)
            : input->get());
  if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation())) {
    // The same body, its widened arguments f32 and their extensions gone.
    rewriter.modifyOpInPlace(generic, [&] {
      for (OpOperand *input : narrow) {
        input->set(inputs[input->getOperandNumber()]);
        BlockArgument argument = generic.getMatchingBlockArgument(input);
        argument.setType(wide);
        for (Operation *user :
             llvm::make_early_inc_range(argument.getUsers())) {
          rewriter.replaceAllUsesWith(user->getResult(0), argument);
          rewriter.eraseOp(user);
        }
      }
    });
    return;
  }
  // Named ops build their body from their operands' types.
  SmallVector<Value> inits = op.getDpsInits();
  TypeRange results = op->getResultTypes();
  SmallVector<NamedAttribute> attributes;
  for (NamedAttribute attribute : op->getAttrs())
    if (attribute.getName() != "operandSegmentSizes")
      attributes.push_back(attribute);
  Operation *replacement =
      isa<linalg::MatmulOp>(op.getOperation())
          ? linalg::MatmulOp::create(rewriter, op.getLoc(), results, inputs,
                                     inits, attributes)
                .getOperation()
          : linalg::BatchMatmulOp::create(rewriter, op.getLoc(), results,
                                          inputs, inits, attributes)
                .getOperation();
  rewriter.replaceOp(op, replacement->getResults());
}

struct WidenContractionInputsPass
    : ke::impl::KeWidenContractionInputsBase<WidenContractionInputsPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> contractions;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && op->getNumResults() == 1 &&
          isRebuildable(op) && linalg::isaContractionOpInterface(op))
        contractions.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : contractions) {
      Type wide = getElementTypeOrSelf(op->getResult(0).getType());
      if (!isa<Float32Type>(wide))
        continue;
      SmallVector<OpOperand *> narrow = getNarrowInputs(op, wide);
      if (!narrow.empty())
        widen(rewriter, op, narrow, wide);
    }
  }
};
} // namespace
