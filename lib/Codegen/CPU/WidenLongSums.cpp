//===- WidenLongSums.cpp - ke-widen-long-sums ------------------------------===//
//
// A sum whose reduction loops have a parallel loop between them (a batch
// norm's mean over the batch and the pixels on either side of the
// channels) cannot be collapsed into one loop, so the CPU schedule neither
// splits it into vector lanes nor into chunks: each output adds its terms
// one after another into one f32 accumulator. Over millions of terms of one
// sign the accumulator grows until every addition rounds the same way:
// KernelBench's ConvTranspose3d + BatchNorm (16 x 63^3 terms a channel) had
// its channel means 1.6e-3 off, its outputs 8e-4 from PyTorch's. Summed in
// f64 (the terms as they are, converted exactly), the error is gone for any
// length a tensor can have; the result is rounded to f32 once.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/ConvertElements.h"
#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace ke {
#define GEN_PASS_DEF_KEWIDENLONGSUMS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// The addition a sum's body yields, `addf(term, accumulator)`, when the
/// accumulator (the output's block argument) has no other reader.
arith::AddFOp getSumAddition(linalg::GenericOp op) {
  Block *body = op.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (yield.getNumOperands() != 1)
    return nullptr;
  auto addition = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  BlockArgument accumulator = body->getArgument(op.getNumDpsInputs());
  if (!addition || !accumulator.hasOneUse() ||
      !llvm::is_contained(addition->getOperands(), Value(accumulator)) ||
      addition.getLhs() == addition.getRhs())
    return nullptr;
  return addition;
}

/// Whether `op` is a long f32 sum with a parallel loop between its
/// reduction loops: one f32 result, static bounds, plain loop indices, at
/// least `leastTerms` terms per output (maps may index unit dimensions by
/// 0, as front ends keep a reduction's dimensions), and not a contraction (a GEMM's K
/// is split into register blocks' accumulators by its own schedule).
bool isSplitLongSum(linalg::GenericOp op, int64_t leastTerms) {
  if (!op.hasPureTensorSemantics() || op->getNumResults() != 1 ||
      op.getNumDpsInits() != 1 || op.hasIndexSemantics() ||
      !isa<Float32Type>(getElementTypeOrSelf(op->getResult(0).getType())) ||
      linalg::isaContractionOpInterface(op) || !getSumAddition(op))
    return false;
  if (!llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
        return map.isProjectedPermutation(/*allowZeroInResults=*/true);
      }))
    return false;
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  if (llvm::any_of(bounds, ShapedType::isDynamic))
    return false;
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);
  if (reductions.size() < 2 ||
      reductions.back() - reductions.front() + 1 == reductions.size())
    return false;
  int64_t terms = 1;
  for (unsigned loop : reductions)
    terms *= bounds[loop];
  return terms >= leastTerms;
}

/// The initial value of the widened sum: a fill of a constant becomes a
/// fill of the extended constant, any other tensor is extended element by
/// element.
Value extendInitialValue(RewriterBase &rewriter, Location loc, Value value,
                         Type wide) {
  if (auto fill = value.getDefiningOp<linalg::FillOp>()) {
    auto type = cast<RankedTensorType>(value.getType());
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(), wide);
    Value scalar =
        arith::ExtFOp::create(rewriter, loc, wide, fill.getInputs()[0]);
    return linalg::FillOp::create(rewriter, loc, scalar, empty).getResult(0);
  }
  return ke::convertElements(rewriter, loc, value, wide);
}

/// Rebuilds the sum `op` with an f64 accumulator: its terms computed as
/// before, each extended to f64 and added; the f64 result rounded to f32.
void widen(RewriterBase &rewriter, linalg::GenericOp op) {
  Location loc = op.getLoc();
  Type wide = rewriter.getF64Type();
  rewriter.setInsertionPoint(op);
  Value init = extendInitialValue(rewriter, loc, op.getDpsInits()[0], wide);
  arith::AddFOp addition = getSumAddition(op);
  BlockArgument accumulator = op.getBody()->getArgument(op.getNumDpsInputs());
  Value term = addition.getLhs() == accumulator ? addition.getRhs()
                                                : addition.getLhs();
  auto sum = linalg::GenericOp::create(
      rewriter, loc, init.getType(), op.getDpsInputs(), ValueRange{init},
      op.getIndexingMapsArray(), op.getIteratorTypesArray(),
      [&](OpBuilder &builder, Location at, ValueRange arguments) {
        IRMapping mapping;
        for (auto [old, now] :
             llvm::zip(op.getBody()->getArguments(), arguments))
          if (old != accumulator)
            mapping.map(old, now);
        for (Operation &nested : op.getBody()->without_terminator())
          if (&nested != addition.getOperation())
            builder.clone(nested, mapping);
        Value wideTerm = arith::ExtFOp::create(
            builder, at, wide, mapping.lookupOrDefault(term));
        Value total = arith::AddFOp::create(builder, at, wideTerm,
                                            arguments.back(),
                                            addition.getFastmath());
        linalg::YieldOp::create(builder, at, total);
      });
  Value narrow = ke::convertElements(rewriter, loc, sum.getResult(0),
                                     getElementTypeOrSelf(op->getResult(0)));
  rewriter.replaceOp(op, narrow);
}

struct WidenLongSumsPass
    : ke::impl::KeWidenLongSumsBase<WidenLongSumsPass> {
  using KeWidenLongSumsBase::KeWidenLongSumsBase;

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> sums;
    getOperation().walk([&](linalg::GenericOp op) {
      if (isSplitLongSum(op, leastTerms))
        sums.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : sums)
      widen(rewriter, op);
  }
};
} // namespace
