//===- VectorizeElementwiseForGPU.cpp - wide loads for elementwise ops ----===//
//
// Mapped as parallel loops, an elementwise op reads and writes one 32-bit
// element per thread: every warp-wide access is a 128-byte transaction and
// a thread has one load in flight. This gives each thread `width`
// neighbouring elements along the innermost loop, read and written with
// aligned vector loads and stores (ld.global.v4.f32 for 4), the body
// computed once per lane.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/GPUSchedule.h"
#include "ke/Codegen/Passes.h"
#include "ke/KeDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

namespace ke {
#define GEN_PASS_DEF_KEVECTORIZEELEMENTWISEFORGPU
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// An elementwise op the rewrite handles: all loops parallel with static
/// bounds, the innermost a multiple of `width`, every buffer operand a whole
/// buffer (an argument of the function or an allocation: aligned, no view
/// that could shift it) of 32-bit elements indexed by the identity, other
/// operands scalars, a body without linalg.index that does not read the
/// output's old value.
bool isVectorizable(linalg::LinalgOp op, int64_t width) {
  if (!op.hasPureBufferSemantics() || op.getNumReductionLoops() != 0 ||
      op.getNumLoops() == 0 || op.getNumDpsInits() != 1 ||
      !op.getBlock()->getOps<linalg::IndexOp>().empty() ||
      isa<linalg::FillOp>(op.getOperation()))
    return false;
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  if (llvm::any_of(bounds, ShapedType::isDynamic) || bounds.back() % width)
    return false;
  if (op.payloadUsesValueFromOperand(op.getDpsInitOperand(0)))
    return false; // the body reads the output's old value
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type)
      continue; // a scalar
    // Whole buffers: allocations, or arguments of the function (whose
    // callers pass whole device allocations: ke-run, the bundles).
    Operation *definition = operand.get().getDefiningOp();
    auto argument = dyn_cast<BlockArgument>(operand.get());
    bool functionArgument =
        argument && isa<func::FuncOp>(argument.getOwner()->getParentOp());
    if ((definition && !isa<memref::AllocOp>(definition)) ||
        (!definition && !functionArgument) || !type.getLayout().isIdentity() ||
        type.getElementTypeBitWidth() != 32 ||
        !op.getMatchingIndexingMap(&operand).isIdentity())
      return false;
  }
  return true;
}

void vectorize(linalg::LinalgOp op, int64_t width) {
  Location loc = op.getLoc();
  OpBuilder builder(op);
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  auto constant = [&](OpBuilder &b, int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  SmallVector<Value> lower, upper, steps;
  for (auto [loop, bound] : llvm::enumerate(bounds)) {
    lower.push_back(constant(builder, 0));
    upper.push_back(
        constant(builder, loop + 1 == bounds.size() ? bound / width : bound));
    steps.push_back(constant(builder, 1));
  }
  Block *body = op.getBlock();
  // Vectors of 32-bit elements, `width` of them: 4 is 16 bytes.
  uint64_t alignment = width * 4;
  scf::ParallelOp::create(
      builder, loc, lower, upper, steps,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange ivs) {
        SmallVector<Value> indices(ivs);
        indices.back() = arith::MulIOp::create(nested, nestedLoc, ivs.back(),
                                               constant(nested, width));
        // Each input's lanes.
        SmallVector<SmallVector<Value>> lanes;
        for (OpOperand *input : op.getDpsInputOperands()) {
          Value source = input->get();
          if (!isa<MemRefType>(source.getType())) {
            lanes.push_back(SmallVector<Value>(width, source));
            continue;
          }
          Type element = getElementTypeOrSelf(source.getType());
          Value loaded = vector::LoadOp::create(
              nested, nestedLoc, VectorType::get({width}, element), source,
              indices, /*nontemporal=*/false, llvm::MaybeAlign(alignment));
          SmallVector<Value> values;
          for (int64_t lane = 0; lane < width; ++lane)
            values.push_back(
                vector::ExtractOp::create(nested, nestedLoc, loaded, lane));
          lanes.push_back(values);
        }
        SmallVector<Value> results;
        for (int64_t lane = 0; lane < width; ++lane) {
          IRMapping mapping;
          for (auto [position, input] :
               llvm::enumerate(op.getDpsInputOperands()))
            mapping.map(op.getMatchingBlockArgument(input),
                        lanes[position][lane]);
          for (Operation &nested2 : body->without_terminator())
            nested.clone(nested2, mapping);
          results.push_back(mapping.lookupOrDefault(
              cast<linalg::YieldOp>(body->getTerminator()).getOperand(0)));
        }
        Value output = op.getDpsInitOperand(0)->get();
        Value vector = vector::FromElementsOp::create(
            nested, nestedLoc,
            VectorType::get({width}, getElementTypeOrSelf(output.getType())),
            results);
        vector::StoreOp::create(nested, nestedLoc, vector, output, indices,
                                /*nontemporal=*/false,
                                llvm::MaybeAlign(alignment));
      });
  op->erase();
}

struct VectorizeElementwiseForGPUPass
    : ke::impl::KeVectorizeElementwiseForGPUBase<
          VectorizeElementwiseForGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    // The function's knob (set by the search) wins over the option.
    ke::GPUSchedule options;
    options.vectorWidth = this->width;
    int64_t width = ke::GPUSchedule::get(getOperation(), options).vectorWidth;
    if (width <= 1)
      return;
    if (!llvm::isPowerOf2_64(width) || width > 4) {
      getOperation().emitError()
          << "ke-vectorize-elementwise-for-gpu: width must be 1, 2 or 4 "
             "(got "
          << width << ")";
      return signalPassFailure();
    }
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isVectorizable(op, width))
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops)
      vectorize(op, width);
  }
};
} // namespace
