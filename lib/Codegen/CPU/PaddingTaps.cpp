//===- PaddingTaps.cpp - convolution taps that read only zeros ------------===//
//
// Part of ke-tile-and-vectorize's convolution schedule (see PaddingTaps.h).
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/PaddingTaps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

#include <algorithm>

using namespace mlir;

namespace {
/// Copies of permuted tensors and inserts nest this deep at most.
constexpr unsigned kMostProducers = 8;

/// A dimension's taps are narrowed where at least 1/16 of it is padding.
/// Narrowed loops have bounds only known at run time; a stride-2 transposed
/// convolution's phases (one row of padding in 17 or 33) gained nothing
/// measurable and lost their constant 1- and 2-tap loops.
constexpr int64_t kLeastPaddingShare = 16;

/// Whether `value` is a tensor of zeros: a fill with 0 or a zero splat.
bool isZeroTensor(Value value) {
  if (auto fill = value.getDefiningOp<linalg::FillOp>())
    value = fill.getInputs().front();
  return matchPattern(value, m_AnyZeroFloat()) || matchPattern(value, m_Zero());
}

bool isEmpty(const ke::NonzeroBox &box) {
  return llvm::any_of(box, [](std::pair<int64_t, int64_t> range) {
    return range.first >= range.second;
  });
}

/// The smallest box holding both.
ke::NonzeroBox getHull(const ke::NonzeroBox &a, const ke::NonzeroBox &b) {
  if (isEmpty(a))
    return b;
  if (isEmpty(b))
    return a;
  ke::NonzeroBox hull;
  for (auto [x, y] : llvm::zip_equal(a, b))
    hull.push_back({std::min(x.first, y.first), std::max(x.second, y.second)});
  return hull;
}

ke::NonzeroBox getWholeBox(RankedTensorType type) {
  ke::NonzeroBox box;
  for (int64_t size : type.getShape())
    box.push_back({0, size});
  return box;
}

/// `box` moved by `offsets` (static ones; nothing otherwise).
std::optional<ke::NonzeroBox> getShifted(ke::NonzeroBox box,
                                         ArrayRef<OpFoldResult> offsets) {
  for (auto [range, offset] : llvm::zip_equal(box, offsets)) {
    std::optional<int64_t> shift = getConstantIntValue(offset);
    if (!shift)
      return std::nullopt;
    range.first += *shift;
    range.second += *shift;
  }
  return box;
}

std::optional<ke::NonzeroBox> getBox(Value value, unsigned depth);

/// The box of `value` where known, else all of it.
std::optional<ke::NonzeroBox> getBoxOrWhole(Value value, unsigned depth) {
  if (std::optional<ke::NonzeroBox> box = getBox(value, depth))
    return box;
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.hasStaticShape())
    return std::nullopt;
  return getWholeBox(type);
}

/// A linalg op that only copies its one input through a permutation.
std::optional<ke::NonzeroBox> getPermutedBox(linalg::LinalgOp copy,
                                             unsigned depth) {
  if (copy.getNumDpsInputs() != 1 || copy.getNumDpsInits() != 1 ||
      !copy.hasPureTensorSemantics())
    return std::nullopt;
  Block *body = copy.getBlock();
  if (!llvm::hasSingleElement(*body))
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (yield.getNumOperands() != 1 ||
      yield.getOperand(0) != body->getArgument(0))
    return std::nullopt;
  AffineMap inputMap = copy.getMatchingIndexingMap(copy.getDpsInputOperand(0));
  AffineMap outputMap = copy.getMatchingIndexingMap(copy.getDpsInitOperand(0));
  if (!inputMap.isPermutation() || !outputMap.isPermutation())
    return std::nullopt;
  std::optional<ke::NonzeroBox> input =
      getBox(copy.getDpsInputOperand(0)->get(), depth + 1);
  if (!input)
    return std::nullopt;
  ke::NonzeroBox output;
  for (unsigned result = 0; result < outputMap.getNumResults(); ++result) {
    unsigned loop = outputMap.getDimPosition(result);
    std::optional<unsigned> read =
        inputMap.getResultPosition(getAffineDimExpr(loop, copy.getContext()));
    assert(read && "both maps are permutations");
    output.push_back((*input)[*read]);
  }
  return output;
}

std::optional<ke::NonzeroBox> getBox(Value value, unsigned depth) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape() || depth > kMostProducers)
    return std::nullopt;
  if (isZeroTensor(value))
    return ke::NonzeroBox(type.getRank(), {0, 0});
  if (auto insert = value.getDefiningOp<tensor::InsertSliceOp>()) {
    if (insert.getSourceType().getRank() != type.getRank() ||
        !insert.hasUnitStride())
      return std::nullopt;
    std::optional<ke::NonzeroBox> dest = getBox(insert.getDest(), depth + 1);
    std::optional<ke::NonzeroBox> source =
        getBoxOrWhole(insert.getSource(), depth + 1);
    if (!dest || !source)
      return std::nullopt;
    std::optional<ke::NonzeroBox> shifted =
        getShifted(*source, insert.getMixedOffsets());
    if (!shifted)
      return std::nullopt;
    return getHull(*dest, *shifted);
  }
  if (auto pad = value.getDefiningOp<tensor::PadOp>()) {
    Value padding = pad.getConstantPaddingValue();
    if (!padding || !(matchPattern(padding, m_AnyZeroFloat()) ||
                      matchPattern(padding, m_Zero())))
      return std::nullopt;
    std::optional<ke::NonzeroBox> source =
        getBoxOrWhole(pad.getSource(), depth + 1);
    if (!source)
      return std::nullopt;
    return getShifted(*source, pad.getMixedLowPad());
  }
  if (auto copy = value.getDefiningOp<linalg::LinalgOp>())
    return getPermutedBox(copy, depth);
  return std::nullopt;
}

/// `value` without the extensions around it.
Value stripExtensions(Value value) {
  while (Operation *op = value.getDefiningOp()) {
    if (!isa<arith::ExtFOp, arith::ExtSIOp, arith::ExtUIOp>(op))
      break;
    value = op->getOperand(0);
  }
  return value;
}

/// Whether a zero input adds nothing to `op`'s output: its body adds to the
/// output its first input, or that input times another (a convolution's
/// multiply-add, a sum pool's add). A max pool's zeros would count.
bool addsProductsOfItsInput(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (yield.getNumOperands() != 1 || op.getNumDpsInputs() < 1)
    return false;
  Operation *add = yield.getOperand(0).getDefiningOp();
  if (!isa_and_nonnull<arith::AddFOp, arith::AddIOp>(add))
    return false;
  Value output = body->getArgument(op.getNumDpsInputs());
  Value term;
  if (add->getOperand(0) == output)
    term = add->getOperand(1);
  else if (add->getOperand(1) == output)
    term = add->getOperand(0);
  else
    return false;
  Value input = body->getArgument(0);
  term = stripExtensions(term);
  if (term == input)
    return true;
  Operation *product = term.getDefiningOp();
  if (!isa_and_nonnull<arith::MulFOp, arith::MulIOp>(product))
    return false;
  return stripExtensions(product->getOperand(0)) == input ||
         stripExtensions(product->getOperand(1)) == input;
}

/// Narrows `loop` to the taps whose input window, [offset, offset + window)
/// along one input dimension with offset = `offset` (an affine function of
/// the loop's induction variable and values from outside it), meets
/// [low, high). False (nothing changed) when the offset is not such a
/// function, growing with the induction variable.
bool narrowLoop(RewriterBase &rewriter, scf::ForOp loop, AffineMap offset,
                ArrayRef<Value> operands, int64_t window, int64_t low,
                int64_t high) {
  Value tap = loop.getInductionVar();
  auto position = llvm::find(operands, tap);
  if (position == operands.end() || llvm::count(operands, tap) != 1 ||
      llvm::any_of(operands, [&](Value operand) {
        return operand != tap && !loop.isDefinedOutsideOfLoop(operand);
      }))
    return false;
  unsigned index = position - operands.begin();
  unsigned dims = offset.getNumDims(), symbols = offset.getNumSymbols();
  MLIRContext *context = loop.getContext();
  AffineExpr tapExpr = index < dims
                           ? getAffineDimExpr(index, context)
                           : getAffineSymbolExpr(index - dims, context);
  AffineExpr expr = offset.getResult(0);
  AffineExpr atZero = simplifyAffineExpr(
      expr.replace(tapExpr, getAffineConstantExpr(0, context)), dims, symbols);
  // The offset must be atZero + stride * tap for a positive constant stride.
  AffineExpr perTap = simplifyAffineExpr(
      expr.replace(tapExpr, getAffineConstantExpr(1, context)) - atZero, dims,
      symbols);
  auto stride = dyn_cast<AffineConstantExpr>(perTap);
  if (!stride || stride.getValue() < 1 ||
      simplifyAffineExpr(expr - atZero - tapExpr * stride.getValue(), dims,
                         symbols) != getAffineConstantExpr(0, context))
    return false;
  // Taps meet the data where offset + window > low and offset < high.
  AffineExpr first = (getAffineConstantExpr(low - window + 1, context) - atZero)
                         .ceilDiv(stride.getValue());
  AffineExpr end = (getAffineConstantExpr(high, context) - atZero)
                       .ceilDiv(stride.getValue());
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  // The current bounds join as one more symbol each.
  auto bound = [&](AffineExpr narrowed, Value current, bool lower) -> Value {
    SmallVector<Value> boundOperands(operands);
    boundOperands.push_back(current);
    AffineMap map = AffineMap::get(
        dims, symbols + 1, {narrowed, getAffineSymbolExpr(symbols, context)},
        context);
    affine::canonicalizeMapAndOperands(&map, &boundOperands);
    SmallVector<OpFoldResult> folds = getAsOpFoldResult(boundOperands);
    OpFoldResult result =
        lower ? affine::makeComposedFoldedAffineMax(rewriter, loc, map, folds)
              : affine::makeComposedFoldedAffineMin(rewriter, loc, map, folds);
    return getValueOrCreateConstantIndexOp(rewriter, loc, result);
  };
  Value lower = bound(first, loop.getLowerBound(), /*lower=*/true);
  Value upper = bound(end, loop.getUpperBound(), /*lower=*/false);
  rewriter.modifyOpInPlace(loop, [&] {
    loop.getLowerBoundMutable().assign(lower);
    loop.getUpperBoundMutable().assign(upper);
  });
  return true;
}
} // namespace

std::optional<ke::NonzeroBox> ke::getNonzeroBox(Value value) {
  return getBox(value, 0);
}

unsigned ke::skipTapsReadingOnlyPadding(RewriterBase &rewriter,
                                        linalg::LinalgOp tile,
                                        ArrayRef<scf::ForOp> reductionLoops) {
  if (!linalg::isaConvolutionOpInterface(tile) ||
      !tile.hasPureTensorSemantics() || !addsProductsOfItsInput(tile))
    return 0;
  Value input = tile.getDpsInputOperand(0)->get();
  auto windowType = dyn_cast<RankedTensorType>(input.getType());
  if (!windowType || !windowType.hasStaticShape())
    return 0;
  int64_t rank = windowType.getRank();
  // The tile's window of the input: slices of slices of the whole input.
  SmallVector<SmallVector<OpFoldResult>> offsets(rank);
  Value whole = input;
  while (auto slice = whole.getDefiningOp<tensor::ExtractSliceOp>()) {
    if (slice.getSourceType().getRank() != rank || !slice.hasUnitStride())
      return 0;
    for (auto [dim, offset] : llvm::enumerate(slice.getMixedOffsets()))
      offsets[dim].push_back(offset);
    whole = slice.getSource();
  }
  std::optional<NonzeroBox> box = getNonzeroBox(whole);
  if (!box)
    return 0;
  auto wholeType = cast<RankedTensorType>(whole.getType());
  MLIRContext *context = tile.getContext();
  // Per padded dimension, the window's offset in the whole input (the sum
  // of the slices' offsets) as an affine map of its leaf values, composed
  // once for all loops.
  struct PaddedDim {
    int64_t dim, low, high;
    AffineMap offset;
    SmallVector<Value> operands;
  };
  SmallVector<PaddedDim> paddedDims;
  for (int64_t dim = 0; dim < rank; ++dim) {
    auto [low, high] = (*box)[dim];
    int64_t size = wholeType.getDimSize(dim);
    int64_t data =
        std::clamp<int64_t>(high, 0, size) - std::clamp<int64_t>(low, 0, size);
    int64_t padding = size - std::max<int64_t>(data, 0);
    if (padding * kLeastPaddingShare < size)
      continue;
    AffineExpr sum = getAffineConstantExpr(0, context);
    SmallVector<Value> operands;
    for (OpFoldResult offset : offsets[dim]) {
      if (std::optional<int64_t> constant = getConstantIntValue(offset)) {
        sum = sum + *constant;
        continue;
      }
      sum = sum + getAffineSymbolExpr(operands.size(), context);
      operands.push_back(cast<Value>(offset));
    }
    AffineMap map = AffineMap::get(0, operands.size(), sum, context);
    affine::fullyComposeAffineMapAndOperands(&map, &operands);
    affine::canonicalizeMapAndOperands(&map, &operands);
    paddedDims.push_back({dim, low, high, map, std::move(operands)});
  }
  unsigned narrowed = 0;
  for (scf::ForOp loop : reductionLoops) {
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    if (!step || *step != 1)
      continue;
    bool changed = false;
    for (const PaddedDim &padded : paddedDims)
      changed |= narrowLoop(rewriter, loop, padded.offset, padded.operands,
                            windowType.getDimSize(padded.dim), padded.low,
                            padded.high);
    narrowed += changed;
  }
  return narrowed;
}
