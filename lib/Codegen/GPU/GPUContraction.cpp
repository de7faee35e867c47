//===- GPUContraction.cpp - linalg ops read as C += A B on buffers --------===//

#include "ke/Codegen/GPUContraction.h"

#include "ke/Codegen/LinalgOnBuffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

std::optional<ke::GPUContraction> ke::matchGPUContraction(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0 || op.getNumDpsInputs() == 0 ||
      llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic))
    return std::nullopt;
  Block *body = op.getBlock();
  BlockArgument accumulator = op.getRegionOutputArgs().front();
  if (!accumulator.getType().isF32() || !accumulator.hasOneUse() ||
      !body->getOps<linalg::IndexOp>().empty())
    return std::nullopt;
  Operation *combiner = cast<linalg::YieldOp>(body->getTerminator())
                            .getOperand(0)
                            .getDefiningOp();
  if (!isa_and_nonnull<arith::AddFOp>(combiner) ||
      combiner->getBlock() != body ||
      !llvm::is_contained(combiner->getOperands(), accumulator))
    return std::nullopt;
  AffineMap output = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (output.getNumResults() < 2 || !output.isProjectedPermutation())
    return std::nullopt;
  GPUContraction contraction;
  contraction.op = op;
  contraction.combiner = combiner;
  unsigned innermost =
      cast<AffineDimExpr>(output.getResults().back()).getPosition();
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  Value outputBuffer = op.getDpsInitOperand(0)->get();
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    // Blocks write the output while others still read their inputs.
    if (!isa<MemRefType>(input->get().getType()) || map.getNumSymbols() != 0 ||
        map.getNumResults() == 0 || input->get() == outputBuffer)
      return std::nullopt;
    contraction.alongRows.push_back(!map.isFunctionOfDim(innermost));
  }
  if (!llvm::is_contained(contraction.alongRows, true) ||
      !llvm::is_contained(contraction.alongRows, false))
    return std::nullopt;
  for (unsigned loop = 0; loop < bounds.size(); ++loop) {
    if (iterators[loop] == utils::IteratorType::reduction) {
      contraction.reductionLoops.push_back(loop);
      contraction.depth *= bounds[loop];
      continue;
    }
    bool byRows = false, byColumns = false, byAll = true;
    for (auto [position, input] : llvm::enumerate(op.getDpsInputOperands())) {
      bool reads = op.getMatchingIndexingMap(input).isFunctionOfDim(loop);
      byAll &= reads;
      (contraction.alongRows[position] ? byRows : byColumns) |= reads;
    }
    if (byAll) {
      contraction.batchLoops.push_back(loop);
      contraction.batches *= bounds[loop];
    } else if (byRows && byColumns) {
      return std::nullopt; // shared by some inputs of both sides
    } else if (byColumns) {
      contraction.columnLoops.push_back(loop);
      contraction.columns *= bounds[loop];
    } else {
      contraction.rowLoops.push_back(loop);
      contraction.rows *= bounds[loop];
    }
  }
  if (contraction.rowLoops.empty() || contraction.columnLoops.empty())
    return std::nullopt;
  return contraction;
}

using ke::detail::IndexMath;

Value IndexMath::constant(int64_t value) const {
  return arith::ConstantIndexOp::create(builder, loc, value);
}

Value IndexMath::add(Value a, Value b) const {
  return arith::AddIOp::create(builder, loc, a, b);
}

Value IndexMath::add(Value a, int64_t b) const {
  return b == 0 ? a : add(a, constant(b));
}

Value IndexMath::mul(Value a, int64_t b) const {
  return arith::MulIOp::create(builder, loc, a, constant(b));
}

Value IndexMath::below(Value index, int64_t bound) const {
  return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, index,
                               constant(bound));
}

Value IndexMath::both(Value a, Value b) const {
  if (!a || !b)
    return a ? a : b;
  return arith::AndIOp::create(builder, loc, a, b);
}

void ke::detail::scatterIvs(OpBuilder &builder, Location loc, Value linear,
                            ArrayRef<unsigned> loops, ArrayRef<int64_t> bounds,
                            SmallVectorImpl<Value> &ivs) {
  SmallVector<int64_t> shape;
  for (unsigned loop : loops)
    shape.push_back(bounds[loop]);
  for (auto [loop, iv] :
       llvm::zip(loops, delinearize(builder, loc, linear, shape)))
    ivs[loop] = iv;
}

Value ke::detail::loadOrZero(OpBuilder &builder, Location loc, Value memref,
                             ValueRange indices, Value inside) {
  if (!inside)
    return memref::LoadOp::create(builder, loc, memref, indices);
  Type element = getElementTypeOrSelf(memref.getType());
  auto ifInside = scf::IfOp::create(builder, loc, element, inside,
                                    /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(ifInside.thenBlock());
  scf::YieldOp::create(
      builder, loc,
      ValueRange{memref::LoadOp::create(builder, loc, memref, indices)});
  builder.setInsertionPointToStart(ifInside.elseBlock());
  scf::YieldOp::create(builder, loc,
                       ValueRange{arith::ConstantOp::create(
                           builder, loc, builder.getZeroAttr(element))});
  return ifInside.getResult(0);
}

Value ke::detail::loadVectorOrZero(OpBuilder &builder, Location loc,
                                   VectorType type, Value memref,
                                   ValueRange indices, Value inside,
                                   llvm::MaybeAlign alignment) {
  auto load = [&] {
    return vector::LoadOp::create(builder, loc, type, memref, indices,
                                  /*nontemporal=*/false, alignment);
  };
  if (!inside)
    return load();
  auto ifInside = scf::IfOp::create(builder, loc, type, inside,
                                    /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(ifInside.thenBlock());
  scf::YieldOp::create(builder, loc, ValueRange{load()});
  builder.setInsertionPointToStart(ifInside.elseBlock());
  scf::YieldOp::create(builder, loc,
                       ValueRange{arith::ConstantOp::create(
                           builder, loc, builder.getZeroAttr(type))});
  return ifInside.getResult(0);
}

void ke::detail::emitGuarded(OpBuilder &builder, Location loc, Value condition,
                             llvm::function_ref<void()> then) {
  OpBuilder::InsertionGuard guard(builder);
  if (condition) {
    auto ifOp = scf::IfOp::create(builder, loc, condition);
    builder.setInsertionPointToStart(ifOp.thenBlock());
  }
  then();
}
