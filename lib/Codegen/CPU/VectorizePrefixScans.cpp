//===- VectorizePrefixScans.cpp - ke-vectorize-prefix-scans ---------------===//
//
// A log-step (Hillis-Steele) prefix scan reads and writes the whole tensor
// log2(n) times; a sequential scan does it once. Front ends without a scan
// op (torch-mlir's linalg-on-tensors) write cumsum and cumprod the first way,
// so this pass recognizes the chain and emits the second, vectorized.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"
#include "ke/Codegen/PrefixScanChains.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/bit.h"

namespace ke {
#define GEN_PASS_DEF_KEVECTORIZEPREFIXSCANS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;
using ke::ScanStep;

namespace {
/// Builds the vectorized scan that replaces a chain.
class ScanBuilder {
public:
  ScanBuilder(OpBuilder &builder, Location loc, const ScanStep &step,
              Value source, int64_t vectorWidth)
      : b(builder), loc(loc), step(step), source(source),
        vectorWidth(vectorWidth) {
    type = cast<RankedTensorType>(source.getType());
    elementType = type.getElementType();
    // Float sums and products run in f64 across vectors: the running value
    // is where a sequential scan's rounding accumulates.
    accumulatorType = elementType;
    if (isa<arith::AddFOp, arith::MulFOp>(step.combiner) &&
        cast<FloatType>(elementType).getWidth() < 64)
      accumulatorType = b.getF64Type();
  }

  Value build() {
    int64_t rank = type.getRank();
    Value init = tensor::EmptyOp::create(b, loc, type.getShape(), elementType);
    if (step.dim == rank - 1)
      return buildInnermost(init);
    return buildOuter(init);
  }

private:
  Value combine(Value a, Value b2) {
    return ke::combineScanValues(b, loc, step, a, b2);
  }

  Value constantIndex(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }

  Value splat(VectorType vectorType, Attribute scalar) {
    return arith::ConstantOp::create(
        b, loc, vectorType, DenseElementsAttr::get(vectorType, scalar));
  }

  /// The fill as an element of `target`.
  Attribute fillOf(Type target) {
    if (target == elementType)
      return step.fill;
    double value = cast<FloatAttr>(step.fill).getValueAsDouble();
    return FloatAttr::get(target, value);
  }

  Value widen(Value value, VectorType to) {
    if (value.getType() == to)
      return value;
    return arith::ExtFOp::create(b, loc, to, value);
  }

  Value narrow(Value value, VectorType to) {
    if (value.getType() == to)
      return value;
    return arith::TruncFOp::create(b, loc, to, value);
  }

  /// The scan within one vector: log2(width) shuffle-and-combine steps.
  Value scanInRegisters(Value vector, int64_t width) {
    auto vectorType = VectorType::get({width}, elementType);
    Value identity = splat(vectorType, step.fill);
    for (int64_t shift = 1; shift < width; shift *= 2) {
      SmallVector<int64_t> mask;
      for (int64_t lane = 0; lane < width; ++lane)
        mask.push_back(lane < shift ? lane : width + lane - shift);
      Value shifted =
          vector::ShuffleOp::create(b, loc, identity, vector, mask);
      vector = combine(vector, shifted);
    }
    return vector;
  }

  /// The scanned dimension is the innermost: every row in parallel, each
  /// row `width` elements at a time.
  Value buildInnermost(Value init) {
    int64_t rank = type.getRank();
    int64_t length = type.getDimSize(rank - 1);
    int64_t width = std::min<int64_t>(vectorWidth, llvm::PowerOf2Ceil(length));
    bool inBounds = length % width == 0;
    auto rowType = RankedTensorType::get({length}, elementType);

    auto scanRow = [&](ValueRange outerIvs, Value row) -> Value {
      auto vectorType = VectorType::get({width}, elementType);
      auto accumulatorVector = VectorType::get({width}, accumulatorType);
      Value carry = splat(accumulatorVector, fillOf(accumulatorType));
      auto loop = scf::ForOp::create(
          b, loc, constantIndex(0), constantIndex(length),
          constantIndex(width), ValueRange{row, carry});
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value offset = loop.getInductionVar();
      SmallVector<Value> indices(outerIvs.begin(), outerIvs.end());
      indices.push_back(offset);
      Value padding = arith::ConstantOp::create(b, loc, step.fill);
      Value chunk = vector::TransferReadOp::create(
          b, loc, vectorType, source, indices, padding,
          ArrayRef<bool>{inBounds});
      Value scanned = widen(scanInRegisters(chunk, width), accumulatorVector);
      Value total = combine(scanned, loop.getRegionIterArgs()[1]);
      Value written = vector::TransferWriteOp::create(
                          b, loc, narrow(total, vectorType),
                          loop.getRegionIterArgs()[0], ValueRange{offset},
                          ArrayRef<bool>{inBounds})
                          .getResult();
      SmallVector<int64_t> last(width, width - 1);
      Value nextCarry =
          vector::ShuffleOp::create(b, loc, total, total, last);
      scf::YieldOp::create(b, loc, ValueRange{written, nextCarry});
      return loop.getResult(0);
    };

    if (rank == 1)
      return scanRow({}, init);
    return buildParallel(init, type.getShape().drop_back(), rowType,
                         /*tileSizes=*/{}, scanRow);
  }

  /// The scanned dimension is an outer one: the dimensions inside it form
  /// the vector (the innermost, `width` at a time), combined with the running
  /// vector at each position of the scanned dimension.
  Value buildOuter(Value init) {
    int64_t rank = type.getRank();
    int64_t length = type.getDimSize(step.dim);
    int64_t innermost = type.getDimSize(rank - 1);
    // A width that divides the innermost dimension: no masks.
    int64_t width = 1;
    while (width * 2 <= vectorWidth && innermost % (width * 2) == 0)
      width *= 2;
    auto vectorType = VectorType::get({width}, elementType);
    auto accumulatorVector = VectorType::get({width}, accumulatorType);
    auto columnType = RankedTensorType::get({length, width}, elementType);

    // Parallel over every dimension but the scanned one; the innermost in
    // steps of `width`.
    SmallVector<int64_t> parallelShape;
    for (int64_t d = 0; d < rank; ++d)
      if (d != step.dim)
        parallelShape.push_back(d == rank - 1 ? innermost / width
                                              : type.getDimSize(d));
    auto scanColumns = [&](ValueRange ivs, Value columns) -> Value {
      Value carry = splat(accumulatorVector, fillOf(accumulatorType));
      auto loop = scf::ForOp::create(b, loc, constantIndex(0),
                                     constantIndex(length), constantIndex(1),
                                     ValueRange{columns, carry});
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value position = loop.getInductionVar();
      SmallVector<Value> indices;
      for (int64_t d = 0, p = 0; d < rank; ++d) {
        if (d == step.dim) {
          indices.push_back(position);
          continue;
        }
        Value iv = ivs[p++];
        if (d == rank - 1)
          iv = arith::MulIOp::create(b, loc, iv, constantIndex(width));
        indices.push_back(iv);
      }
      Value padding = arith::ConstantOp::create(b, loc, step.fill);
      Value chunk = vector::TransferReadOp::create(
          b, loc, vectorType, source, indices, padding,
          ArrayRef<bool>{true});
      Value total =
          combine(widen(chunk, accumulatorVector), loop.getRegionIterArgs()[1]);
      Value written =
          vector::TransferWriteOp::create(
              b, loc, narrow(total, vectorType), loop.getRegionIterArgs()[0],
              ValueRange{position, constantIndex(0)}, ArrayRef<bool>{true})
              .getResult();
      scf::YieldOp::create(b, loc, ValueRange{written, total});
      return loop.getResult(0);
    };
    return buildParallel(init, parallelShape, columnType, {step.dim, width},
                         scanColumns);
  }

  /// `scf.forall` over `parallelShape`; each iteration computes its slice
  /// of `init` (all of the scanned dimension, one vector of the innermost
  /// when `tileSizes` = {scanned dim, width}; one row otherwise).
  Value buildParallel(
      Value init, ArrayRef<int64_t> parallelShape, RankedTensorType sliceType,
      std::pair<int64_t, int64_t> tileSizes,
      llvm::function_ref<Value(ValueRange, Value)> computeSlice) {
    int64_t rank = type.getRank();
    bool outer = tileSizes.second != 0;
    SmallVector<OpFoldResult> upperBounds;
    for (int64_t size : parallelShape)
      upperBounds.push_back(b.getIndexAttr(size));
    auto forall = scf::ForallOp::create(b, loc, upperBounds, ValueRange{init},
                                        /*mapping=*/std::nullopt);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(forall.getBody());
    SmallVector<Value> ivs(forall.getInductionVars());
    SmallVector<OpFoldResult> offsets, sizes,
        strides(rank, b.getIndexAttr(1));
    for (int64_t d = 0, p = 0; d < rank; ++d) {
      if (outer ? d == tileSizes.first : d == rank - 1) {
        offsets.push_back(b.getIndexAttr(0));
        sizes.push_back(b.getIndexAttr(type.getDimSize(d)));
        continue;
      }
      Value iv = ivs[p++];
      if (outer && d == rank - 1) {
        offsets.push_back(
            arith::MulIOp::create(b, loc, iv, constantIndex(tileSizes.second))
                .getResult());
        sizes.push_back(b.getIndexAttr(tileSizes.second));
        continue;
      }
      offsets.push_back(iv);
      sizes.push_back(b.getIndexAttr(1));
    }
    Value shared = forall.getRegionIterArgs()[0];
    Value slice = tensor::ExtractSliceOp::create(b, loc, sliceType, shared,
                                                 offsets, sizes, strides);
    Value computed = computeSlice(ivs, slice);
    b.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(b, loc, computed, shared, offsets,
                                          sizes, strides);
    return forall.getResult(0);
  }

  OpBuilder &b;
  Location loc;
  const ScanStep &step;
  Value source;
  int64_t vectorWidth;
  RankedTensorType type;
  Type elementType;
  Type accumulatorType;
};

struct VectorizePrefixScansPass
    : ke::impl::KeVectorizePrefixScansBase<VectorizePrefixScansPass> {
  using Base::Base;

  void runOnOperation() override {
    if (vectorWidth < 1) {
      getOperation().emitError()
          << "ke-vectorize-prefix-scans: vector-width must be positive, got "
          << static_cast<int64_t>(vectorWidth);
      return signalPassFailure();
    }
    int64_t width = static_cast<int64_t>(llvm::bit_floor(static_cast<uint64_t>(vectorWidth)));
    IRRewriter rewriter(&getContext());
    for (SmallVector<ScanStep> &chain : ke::findPrefixScanChains(getOperation())) {
      rewriter.setInsertionPoint(chain.back().op);
      ScanBuilder builder(rewriter, chain.back().op.getLoc(), chain.front(),
                          ke::getScannedTensor(chain), width);
      ke::replaceScanChain(rewriter, chain, builder.build());
    }
  }
};
} // namespace
