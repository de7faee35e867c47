//===- VectorizePrefixScans.cpp - ke-vectorize-prefix-scans ---------------===//
//
// A log-step (Hillis-Steele) prefix scan reads and writes the whole tensor
// log2(n) times; a sequential scan does it once. Front ends without a scan
// op (torch-mlir's linalg-on-tensors) write cumsum and cumprod the first way,
// so this pass recognizes the chain and emits the second, vectorized.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

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

namespace {
/// One step of a log-step scan: `result = combine(source, shift(source))`,
/// where shift moves `source` by `shift` along `dim` and fills with the
/// combiner's identity.
struct ScanStep {
  linalg::GenericOp op;
  Value source;
  /// The input of `op` that `source` is.
  unsigned sourceInput = 0;
  int64_t dim = 0;
  int64_t shift = 0;
  Operation *combiner = nullptr;
  /// Whether `source` is the combiner's first operand.
  bool sourceFirst = true;
  TypedAttr fill;
  tensor::ConcatOp concat;
  tensor::ExtractSliceOp slice;
};

bool isScanCombiner(Operation *op) {
  return isa<arith::AddFOp, arith::MulFOp, arith::MaximumFOp,
             arith::MinimumFOp, arith::MaxNumFOp, arith::MinNumFOp,
             arith::AddIOp, arith::MulIOp, arith::MaxSIOp, arith::MinSIOp,
             arith::MaxUIOp, arith::MinUIOp>(op);
}

/// The fill must leave the combined value unchanged. Front ends fill sums
/// with +0.0, which is the identity of addf up to the sign of a zero sum.
bool isIdentity(Operation *combiner, TypedAttr fill) {
  if (isa<arith::AddFOp>(combiner)) {
    auto value = dyn_cast<FloatAttr>(fill);
    return value && value.getValue().isZero();
  }
  std::optional<TypedAttr> neutral = arith::getNeutralElement(combiner);
  return neutral && *neutral == fill;
}

std::optional<ScanStep> matchScanStep(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op->getNumResults() != 1 || op.getNumReductionLoops() != 0)
    return std::nullopt;
  if (!llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !type.hasStaticShape() || type.getRank() == 0)
    return std::nullopt;
  Block &body = op.getRegion().front();
  if (body.getOperations().size() != 2)
    return std::nullopt;
  Operation *combiner = &body.front();
  if (!isScanCombiner(combiner) ||
      body.getTerminator()->getOperand(0) != combiner->getResult(0) ||
      combiner->getResult(0).getType() != type.getElementType())
    return std::nullopt;
  Value first = body.getArgument(0), second = body.getArgument(1);
  Value lhs = combiner->getOperand(0), rhs = combiner->getOperand(1);
  if (!((lhs == first && rhs == second) || (lhs == second && rhs == first)))
    return std::nullopt;

  for (unsigned shifted : {0u, 1u}) {
    ScanStep step;
    step.op = op;
    step.combiner = combiner;
    step.sourceInput = 1 - shifted;
    step.source = op.getDpsInputs()[step.sourceInput];
    step.sourceFirst = lhs == body.getArgument(1 - shifted);
    step.concat = op.getDpsInputs()[shifted].getDefiningOp<tensor::ConcatOp>();
    if (!step.concat || step.concat.getInputs().size() != 2 ||
        step.source.getType() != type)
      continue;
    step.dim = static_cast<int64_t>(step.concat.getDim());
    DenseElementsAttr fill;
    if (!matchPattern(step.concat.getInputs()[0], m_Constant(&fill)) ||
        !fill.isSplat())
      continue;
    step.fill = fill.getSplatValue<TypedAttr>();
    step.slice =
        step.concat.getInputs()[1].getDefiningOp<tensor::ExtractSliceOp>();
    if (!step.slice || step.slice.getSource() != step.source ||
        !step.slice.hasUnitStride() ||
        step.slice.getType().getRank() != type.getRank() ||
        !step.slice.getOffsets().empty() || !step.slice.getSizes().empty() ||
        !llvm::all_of(step.slice.getStaticOffsets(),
                      [](int64_t offset) { return offset == 0; }))
      continue;
    ArrayRef<int64_t> sizes = step.slice.getStaticSizes();
    bool leading = true;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (d != step.dim && sizes[d] != type.getDimSize(d))
        leading = false;
    step.shift = type.getDimSize(step.dim) - sizes[step.dim];
    if (!leading || step.shift <= 0 || !isIdentity(combiner, step.fill))
      continue;
    return step;
  }
  return std::nullopt;
}

bool hasOneUse(Value value, Operation *user) {
  return value.hasOneUse() && *value.getUsers().begin() == user;
}

/// The complete chain that starts with `first` (shift 1): shifts 1, 2, 4, ...
/// until twice the last reaches the dimension's length, each step's result
/// read only by the next step and its shifted copy.
std::optional<SmallVector<ScanStep>> matchChain(const ScanStep &first) {
  if (first.shift != 1)
    return std::nullopt;
  auto type = cast<RankedTensorType>(first.source.getType());
  int64_t length = type.getDimSize(first.dim);
  SmallVector<ScanStep> chain{first};
  while (chain.back().shift * 2 < length) {
    const ScanStep &last = chain.back();
    Value result = last.op->getResult(0);
    std::optional<ScanStep> next;
    for (Operation *user : result.getUsers())
      if (auto generic = dyn_cast<linalg::GenericOp>(user))
        if (auto step = matchScanStep(generic); step && step->source == result)
          next = step;
    if (!next || next->dim != last.dim || next->shift != last.shift * 2 ||
        next->combiner->getName() != last.combiner->getName() ||
        next->combiner->getAttrDictionary() !=
            last.combiner->getAttrDictionary() ||
        next->sourceFirst != last.sourceFirst)
      return std::nullopt;
    // Nothing but the chain may read an intermediate.
    if (!llvm::all_of(result.getUsers(),
                      [&](Operation *user) {
                        return user == next->op.getOperation() ||
                               user == next->slice.getOperation();
                      }) ||
        !hasOneUse(next->slice.getResult(), next->concat) ||
        !hasOneUse(next->concat.getResult(), next->op))
      return std::nullopt;
    chain.push_back(*next);
  }
  // A single step is a scan of length 2 at most: nothing to gain.
  if (chain.size() < 2)
    return std::nullopt;
  return chain;
}

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
    OperationState state(loc, step.combiner->getName());
    if (step.sourceFirst)
      state.addOperands({a, b2});
    else
      state.addOperands({b2, a});
    state.addTypes(a.getType());
    state.addAttributes(step.combiner->getAttrs());
    return b.create(state)->getResult(0);
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
    SmallVector<SmallVector<ScanStep>> chains;
    getOperation().walk([&](linalg::GenericOp op) {
      if (auto step = matchScanStep(op))
        if (auto chain = matchChain(*step))
          chains.push_back(std::move(*chain));
    });
    int64_t width = static_cast<int64_t>(llvm::bit_floor(static_cast<uint64_t>(vectorWidth)));
    IRRewriter rewriter(&getContext());
    for (SmallVector<ScanStep> &chain : chains) {
      linalg::GenericOp last = chain.back().op;
      rewriter.setInsertionPoint(last);
      // Read the source again: an earlier replacement may have changed it.
      ScanStep &first = chain.front();
      Value source = first.op.getDpsInputs()[first.sourceInput];
      ScanBuilder builder(rewriter, last.getLoc(), first, source, width);
      Value scan = builder.build();
      rewriter.replaceOp(last, scan);
      // The rest of the chain is dead now: erase it last to first.
      for (ScanStep &step : llvm::reverse(chain)) {
        if (step.op != last)
          rewriter.eraseOp(step.op);
        rewriter.eraseOp(step.concat);
        rewriter.eraseOp(step.slice);
      }
    }
  }
};
} // namespace
