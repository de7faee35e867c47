//===- OperandLayouts.cpp - inputs read through transposed copies ---------===//
//
// The layout knob of a schedule (`tK=[perm]`): before the tiling script
// runs, an op's input is copied into another layout by a linalg.transpose
// and the op reads the copy. Named ops are generalized first (only generic
// ops take other indexing maps); a result that is a plain matmul is named
// again, because only named contractions vectorize to vector.contract.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/LoopInterchange.h"
#include "ke/KeDialect.h"
#include "ke/Propose/Schedule.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace {
constexpr llvm::StringLiteral kOpIdAttr = ke::KeDialect::kOpIdAttrName;

/// Whether `op` indexes like linalg.matmul or linalg.batch_matmul with their
/// default maps: A[.., i, k], B[.., k, j], C[.., i, j].
bool hasCanonicalMatmulMaps(linalg::GenericOp op) {
  unsigned loops = op.getNumLoops();
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      (loops != 3 && loops != 4))
    return false;
  MLIRContext *context = op.getContext();
  unsigned batch = loops - 3;
  auto map = [&](std::initializer_list<unsigned> dims) {
    SmallVector<AffineExpr> results;
    for (unsigned b = 0; b < batch; ++b)
      results.push_back(getAffineDimExpr(b, context));
    for (unsigned dim : dims)
      results.push_back(getAffineDimExpr(batch + dim, context));
    return AffineMap::get(loops, 0, results, context);
  };
  SmallVector<AffineMap> canonical = {map({0, 2}), map({2, 1}), map({0, 1})};
  return op.getIndexingMapsArray() == canonical;
}

} // namespace

void ke::propose::relayoutInputs(func::FuncOp function,
                                 const Schedule &schedule) {
  llvm::SmallVector<linalg::LinalgOp> tagged;
  function.walk([&](linalg::LinalgOp op) {
    auto id = op->getAttrOfType<IntegerAttr>(kOpIdAttr);
    if (id && id.getInt() < static_cast<int64_t>(schedule.ops.size()) &&
        !schedule.ops[id.getInt()].layouts.empty())
      tagged.push_back(op);
  });
  IRRewriter rewriter(function.getContext());
  for (linalg::LinalgOp op : tagged) {
    int64_t id = op->getAttrOfType<IntegerAttr>(kOpIdAttr).getInt();
    Location loc = op.getLoc(); // generalizing erases a named op
    bool named = !isa<linalg::GenericOp>(op.getOperation());
    FailureOr<linalg::GenericOp> generalized = ke::asGenericOp(rewriter, op);
    if (failed(generalized))
      continue; // every structured op with a region generalizes
    linalg::GenericOp generic = *generalized;
    if (named)
      generic->setAttr(kOpIdAttr, rewriter.getI64IntegerAttr(id));
    rewriter.setInsertionPoint(generic);
    llvm::SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
    for (const OperandLayout &layout : schedule.ops[id].layouts) {
      OpOperand *input = generic.getDpsInputOperand(layout.operand);
      auto type = cast<RankedTensorType>(input->get().getType());
      llvm::SmallVector<int64_t> shape;
      llvm::SmallVector<AffineExpr> results;
      AffineMap map = maps[input->getOperandNumber()];
      for (int64_t dim : layout.permutation) {
        shape.push_back(type.getDimSize(dim));
        results.push_back(map.getResult(dim));
      }
      Value empty =
          tensor::EmptyOp::create(rewriter, loc, shape, type.getElementType());
      auto copy = linalg::TransposeOp::create(rewriter, loc, input->get(),
                                              empty, layout.permutation);
      input->set(copy->getResult(0));
      maps[input->getOperandNumber()] =
          AffineMap::get(map.getNumDims(), 0, results, map.getContext());
    }
    generic.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    // A relaid contraction that is now a plain (batch) matmul becomes
    // linalg.matmul again: the vectorizer turns only named contractions
    // into vector.contract (then FMAs). Only with exactly the canonical
    // maps: upstream's specialization names a matmul whose B is transposed
    // linalg.matmul with the default maps, which computes something else.
    if (hasCanonicalMatmulMaps(generic)) {
      rewriter.setInsertionPoint(generic);
      FailureOr<linalg::LinalgOp> named =
          linalg::specializeGenericOp(rewriter, generic);
      if (succeeded(named))
        (*named)->setAttr(kOpIdAttr, rewriter.getI64IntegerAttr(id));
    }
  }
}
