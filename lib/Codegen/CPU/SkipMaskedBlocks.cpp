//===- SkipMaskedBlocks.cpp - ke-skip-masked-blocks -----------------------===//
//
// torch.tril(A @ B) (and triu, and a causal mask over attention's scores)
// computes the whole product, then selects a constant for every element on
// the masked side of a diagonal: half the multiply-adds of a square product
// are thrown away. Here the rows are split into blocks, and each block's
// product is computed only over the columns its mask can keep; the columns
// no row of the block keeps are the mask's constant.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/TilingInterface.h"

namespace ke {
#define GEN_PASS_DEF_KESKIPMASKEDBLOCKS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// c + sum of coefficients[d] * (loop d): an integer value of a mask body
/// as a linear function of its loops.
struct LinearIndex {
  SmallVector<int64_t> coefficients;
  int64_t constant = 0;

  int64_t at(ArrayRef<int64_t> point) const {
    int64_t value = constant;
    for (auto [coefficient, index] : llvm::zip(coefficients, point))
      value += coefficient * index;
    return value;
  }
};

/// Whether `producer` is an iota: a generic with no inputs whose body
/// yields (a cast of) `linalg.index` of its only loop.
bool isIota(Operation *producer) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(producer);
  if (!generic || generic.getNumDpsInputs() != 0 ||
      generic.getNumLoops() != 1 || generic->getNumResults() != 1)
    return false;
  Value yielded =
      cast<linalg::YieldOp>(generic.getBody()->getTerminator()).getValues()[0];
  while (Operation *cast = yielded.getDefiningOp()) {
    if (!isa<arith::IndexCastOp, arith::ExtSIOp>(cast))
      break;
    yielded = cast->getOperand(0);
  }
  return yielded.getDefiningOp<linalg::IndexOp>() != nullptr;
}

/// `value` of `mask`'s body as a linear function of its loops, if it is
/// one: integer constants, its loops' indices (linalg.index, or an iota
/// input read along one loop), sums, differences, products by constants,
/// casts.
std::optional<LinearIndex> evaluate(linalg::GenericOp mask, Value value) {
  unsigned loops = mask.getNumLoops();
  auto fromLoop = [&](unsigned loop) {
    LinearIndex linear;
    linear.coefficients.assign(loops, 0);
    linear.coefficients[loop] = 1;
    return linear;
  };
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    if (argument.getOwner() != mask.getBody() ||
        argument.getArgNumber() >= mask.getNumDpsInputs())
      return std::nullopt;
    OpOperand *input = mask.getDpsInputOperand(argument.getArgNumber());
    AffineMap map = mask.getMatchingIndexingMap(input);
    if (map.getNumResults() != 1 || !isIota(input->get().getDefiningOp()))
      return std::nullopt;
    auto dim = dyn_cast<AffineDimExpr>(map.getResult(0));
    if (!dim)
      return std::nullopt;
    return fromLoop(dim.getPosition());
  }
  Operation *op = value.getDefiningOp();
  if (!op)
    return std::nullopt;
  if (auto index = dyn_cast<linalg::IndexOp>(op))
    return fromLoop(index.getDim());
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto integer = dyn_cast<IntegerAttr>(constant.getValue());
    if (!integer)
      return std::nullopt;
    LinearIndex linear;
    linear.coefficients.assign(loops, 0);
    linear.constant = integer.getInt();
    return linear;
  }
  if (isa<arith::IndexCastOp, arith::ExtSIOp>(op))
    return evaluate(mask, op->getOperand(0));
  if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op))
    return std::nullopt;
  std::optional<LinearIndex> lhs = evaluate(mask, op->getOperand(0));
  std::optional<LinearIndex> rhs = evaluate(mask, op->getOperand(1));
  if (!lhs || !rhs)
    return std::nullopt;
  if (isa<arith::MulIOp>(op)) {
    // A product by a constant only.
    auto isConstant = [](const LinearIndex &linear) {
      return llvm::all_of(linear.coefficients,
                          [](int64_t coefficient) { return coefficient == 0; });
    };
    if (!isConstant(*lhs))
      std::swap(lhs, rhs);
    if (!isConstant(*lhs))
      return std::nullopt;
    for (int64_t &coefficient : rhs->coefficients)
      coefficient *= lhs->constant;
    rhs->constant *= lhs->constant;
    return rhs;
  }
  int64_t sign = isa<arith::SubIOp>(op) ? -1 : 1;
  for (auto [left, right] : llvm::zip(lhs->coefficients, rhs->coefficients))
    left += sign * right;
  lhs->constant += sign * rhs->constant;
  return lhs;
}

/// A mask over a contraction's result: `mask` yields, at each element,
/// the contraction's value where `kept(indices)`, else `masked`.
struct MaskedContraction {
  linalg::LinalgOp contraction;
  linalg::GenericOp mask;
  /// The mask's input that is the contraction's result.
  unsigned maskedInput = 0;
  /// The kept side: `condition` (its predicate on `linear` against 0)
  /// holds, or fails where `keptWhenFalse`.
  LinearIndex linear;
  arith::CmpIPredicate predicate = arith::CmpIPredicate::slt;
  bool keptWhenFalse = false;
  TypedAttr masked;
  /// Its constant's value where the blocks can use it (outside the mask).
  Value maskedConstant;
  /// The loops (of both ops: the mask's are the contraction's parallel
  /// ones, in order) split into blocks and cut to what the mask keeps.
  unsigned rowLoop = 0, columnLoop = 0;

  bool kept(ArrayRef<int64_t> point) const {
    int64_t value = linear.at(point);
    bool holds = false;
    switch (predicate) {
    case arith::CmpIPredicate::slt:
      holds = value < 0;
      break;
    case arith::CmpIPredicate::sle:
      holds = value <= 0;
      break;
    case arith::CmpIPredicate::sgt:
      holds = value > 0;
      break;
    case arith::CmpIPredicate::sge:
      holds = value >= 0;
      break;
    default:
      llvm_unreachable("matched predicates only");
    }
    return holds != keptWhenFalse;
  }
};

/// The mask that alone reads `contraction`'s result, as MaskedContraction
/// describes: a parallel generic over the result's shape, identity maps
/// for the result and its own output, whose body yields `select(cmpi(a,
/// b), x, c)` or `select(..., c, x)` with x the contraction's element, c
/// a constant and a - b linear in exactly two loops.
std::optional<MaskedContraction> match(linalg::LinalgOp contraction) {
  if (contraction->getNumResults() != 1 ||
      !contraction->getResult(0).hasOneUse() ||
      !linalg::isaContractionOpInterface(contraction) ||
      !contraction.hasPureTensorSemantics())
    return std::nullopt;
  Value result = contraction->getResult(0);
  auto mask = dyn_cast<linalg::GenericOp>(*result.getUsers().begin());
  auto resultType = cast<RankedTensorType>(result.getType());
  if (!mask || mask->getNumResults() != 1 ||
      mask.getNumParallelLoops() != mask.getNumLoops() ||
      mask.getNumLoops() != static_cast<unsigned>(resultType.getRank()) ||
      !resultType.hasStaticShape() ||
      !mask.getMatchingIndexingMap(mask.getDpsInitOperand(0)).isIdentity())
    return std::nullopt;
  // The contraction's output indexed by its parallel loops in order, so
  // the mask's loop d is the contraction's output dimension d.
  AffineMap outputMap =
      contraction.getMatchingIndexingMap(contraction.getDpsInitOperand(0));
  if (!outputMap.isProjectedPermutation() ||
      outputMap.getNumResults() != static_cast<unsigned>(resultType.getRank()))
    return std::nullopt;
  MaskedContraction masked;
  masked.contraction = contraction;
  masked.mask = mask;
  std::optional<unsigned> input;
  for (OpOperand *operand : mask.getDpsInputOperands())
    if (operand->get() == result) {
      if (input || !mask.getMatchingIndexingMap(operand).isIdentity())
        return std::nullopt;
      input = operand->getOperandNumber();
    }
  if (!input)
    return std::nullopt;
  masked.maskedInput = *input;
  Value yielded =
      cast<linalg::YieldOp>(mask.getBody()->getTerminator()).getValues()[0];
  auto select = yielded.getDefiningOp<arith::SelectOp>();
  if (!select || select->getBlock() != mask.getBody())
    return std::nullopt;
  Value element = mask.getBody()->getArgument(*input);
  Value other;
  if (select.getTrueValue() == element) {
    other = select.getFalseValue();
  } else if (select.getFalseValue() == element) {
    other = select.getTrueValue();
    masked.keptWhenFalse = true;
  } else {
    return std::nullopt;
  }
  auto constant = other.getDefiningOp<arith::ConstantOp>();
  if (!constant)
    return std::nullopt;
  masked.masked = constant.getValue();
  if (constant->getBlock() != mask.getBody())
    masked.maskedConstant = constant.getResult();
  auto compare = select.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!compare || !llvm::is_contained({arith::CmpIPredicate::slt,
                                       arith::CmpIPredicate::sle,
                                       arith::CmpIPredicate::sgt,
                                       arith::CmpIPredicate::sge},
                                      compare.getPredicate()))
    return std::nullopt;
  std::optional<LinearIndex> lhs = evaluate(mask, compare.getLhs());
  std::optional<LinearIndex> rhs = evaluate(mask, compare.getRhs());
  if (!lhs || !rhs)
    return std::nullopt;
  for (auto [left, right] : llvm::zip(lhs->coefficients, rhs->coefficients))
    left -= right;
  lhs->constant -= rhs->constant;
  masked.linear = *lhs;
  masked.predicate = compare.getPredicate();
  SmallVector<unsigned> involved;
  for (auto [loop, coefficient] : llvm::enumerate(masked.linear.coefficients))
    if (coefficient != 0)
      involved.push_back(loop);
  if (involved.size() != 2)
    return std::nullopt;
  masked.rowLoop = involved[0];
  masked.columnLoop = involved[1];
  return masked;
}

/// One block of rows and the columns its mask may keep.
struct Block {
  int64_t firstRow = 0, rows = 0, firstColumn = 0, columns = 0;
};

/// The row blocks of `masked` (`count` of them, or fewer where the rows
/// do not divide) and their kept columns; none where they would not save
/// a quarter of the products.
SmallVector<Block> planBlocks(const MaskedContraction &masked, int64_t count) {
  auto type =
      cast<RankedTensorType>(masked.contraction->getResult(0).getType());
  int64_t rows = type.getDimSize(masked.rowLoop);
  int64_t columns = type.getDimSize(masked.columnLoop);
  while (count > 1 && rows % count != 0)
    --count;
  if (count < 2)
    return {};
  SmallVector<Block> blocks;
  int64_t computed = 0;
  SmallVector<int64_t> point(type.getRank(), 0);
  for (int64_t first = 0; first < rows; first += rows / count) {
    Block block{first, rows / count, columns, 0};
    int64_t end = -1;
    // A linear predicate holds on an interval of the rows: some row of
    // the block keeps a column iff its first or its last row does.
    for (int64_t column = 0; column < columns; ++column) {
      point[masked.columnLoop] = column;
      bool kept = false;
      for (int64_t row : {first, first + block.rows - 1}) {
        point[masked.rowLoop] = row;
        kept |= masked.kept(point);
      }
      if (!kept)
        continue;
      block.firstColumn = std::min(block.firstColumn, column);
      end = column + 1;
    }
    if (end < 0) {
      block.firstColumn = 0;
      end = 0;
    }
    block.columns = end - block.firstColumn;
    computed += block.rows * block.columns;
    blocks.push_back(block);
  }
  if (4 * computed > 3 * rows * columns)
    return {};
  return blocks;
}

/// `op` over `block` of its loops `rowLoop` and `columnLoop` (the others
/// whole).
FailureOr<TilingResult> tileLoops(OpBuilder &builder, Operation *op,
                                  unsigned rowLoop, unsigned columnLoop,
                                  const Block &block) {
  auto tileable = cast<TilingInterface>(op);
  SmallVector<Range> domain = tileable.getIterationDomain(builder);
  SmallVector<OpFoldResult> offsets, sizes;
  for (Range range : domain) {
    offsets.push_back(range.offset);
    sizes.push_back(range.size);
  }
  offsets[rowLoop] = builder.getIndexAttr(block.firstRow);
  sizes[rowLoop] = builder.getIndexAttr(block.rows);
  offsets[columnLoop] = builder.getIndexAttr(block.firstColumn);
  sizes[columnLoop] = builder.getIndexAttr(block.columns);
  return tileable.getTiledImplementation(builder, offsets, sizes);
}

/// The contraction's loop of output dimension `dim`.
unsigned contractionLoop(linalg::LinalgOp contraction, unsigned dim) {
  AffineMap map =
      contraction.getMatchingIndexingMap(contraction.getDpsInitOperand(0));
  return cast<AffineDimExpr>(map.getResult(dim)).getPosition();
}

LogicalResult skipMaskedBlocks(RewriterBase &rewriter,
                               const MaskedContraction &masked,
                               ArrayRef<Block> blocks) {
  linalg::GenericOp mask = masked.mask;
  linalg::LinalgOp contraction = masked.contraction;
  Location loc = mask.getLoc();
  rewriter.setInsertionPoint(mask);
  auto type = cast<RankedTensorType>(mask->getResult(0).getType());
  Value assembled =
      tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                              type.getElementType());
  Value maskedValue =
      masked.maskedConstant
          ? masked.maskedConstant
          : arith::ConstantOp::create(rewriter, loc, masked.masked).getResult();
  unsigned rank = type.getRank();
  // A box of the result: offsets and sizes along the row and column
  // loops, the other dimensions whole.
  auto box = [&](int64_t firstRow, int64_t rows, int64_t firstColumn,
                 int64_t columns, SmallVector<OpFoldResult> &offsets,
                 SmallVector<OpFoldResult> &sizes) {
    offsets.assign(rank, rewriter.getIndexAttr(0));
    sizes.clear();
    for (int64_t size : type.getShape())
      sizes.push_back(rewriter.getIndexAttr(size));
    offsets[masked.rowLoop] = rewriter.getIndexAttr(firstRow);
    sizes[masked.rowLoop] = rewriter.getIndexAttr(rows);
    offsets[masked.columnLoop] = rewriter.getIndexAttr(firstColumn);
    sizes[masked.columnLoop] = rewriter.getIndexAttr(columns);
  };
  SmallVector<OpFoldResult> unitStrides(rank, rewriter.getIndexAttr(1));
  auto fillBox = [&](int64_t firstRow, int64_t rows, int64_t firstColumn,
                     int64_t columns) {
    if (rows == 0 || columns == 0)
      return;
    SmallVector<OpFoldResult> offsets, sizes;
    box(firstRow, rows, firstColumn, columns, offsets, sizes);
    SmallVector<int64_t> shape = llvm::map_to_vector(
        sizes, [](OpFoldResult size) { return *getConstantIntValue(size); });
    Value empty = tensor::EmptyOp::create(rewriter, loc, shape,
                                          type.getElementType());
    Value filled =
        linalg::FillOp::create(rewriter, loc, maskedValue, empty).getResult(0);
    assembled = tensor::InsertSliceOp::create(rewriter, loc, filled, assembled,
                                              offsets, sizes, unitStrides);
  };
  unsigned contractionRow = contractionLoop(contraction, masked.rowLoop);
  unsigned contractionColumn = contractionLoop(contraction, masked.columnLoop);
  int64_t columns = type.getDimSize(masked.columnLoop);
  for (const Block &block : blocks) {
    fillBox(block.firstRow, block.rows, 0, block.firstColumn);
    int64_t end = block.firstColumn + block.columns;
    fillBox(block.firstRow, block.rows, end, columns - end);
    if (block.columns == 0)
      continue;
    FailureOr<TilingResult> product =
        tileLoops(rewriter, contraction, contractionRow, contractionColumn,
                  block);
    FailureOr<TilingResult> selected =
        tileLoops(rewriter, mask, masked.rowLoop, masked.columnLoop, block);
    if (failed(product) || failed(selected) ||
        product->tiledValues.size() != 1 || selected->tiledOps.size() != 1)
      return failure();
    // A block's product starts from its own fill (the schedule folds a
    // fill into the accumulators; a slice of the whole fill it would read).
    auto tiledProduct = cast<linalg::LinalgOp>(product->tiledOps.front());
    OpOperand *init = tiledProduct.getDpsInitOperand(0);
    if (auto initSlice = init->get().getDefiningOp<tensor::ExtractSliceOp>())
      if (auto fill = initSlice.getSource().getDefiningOp<linalg::FillOp>()) {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPoint(tiledProduct);
        Value empty = tensor::EmptyOp::create(
            rewriter, loc, initSlice.getType().getShape(),
            initSlice.getType().getElementType());
        init->set(linalg::FillOp::create(rewriter, loc, fill.getInputs(),
                                         ValueRange{empty})
                      .getResult(0));
        if (initSlice->use_empty())
          rewriter.eraseOp(initSlice);
      }
    // The tiled mask reads the tiled product, not a slice of the whole.
    auto tiledMask = cast<linalg::GenericOp>(selected->tiledOps.front());
    OpOperand &read = tiledMask->getOpOperand(masked.maskedInput);
    Operation *slice = read.get().getDefiningOp();
    read.set(product->tiledValues.front());
    if (slice && slice->use_empty())
      rewriter.eraseOp(slice);
    SmallVector<OpFoldResult> offsets, sizes;
    box(block.firstRow, block.rows, block.firstColumn, block.columns, offsets,
        sizes);
    assembled = tensor::InsertSliceOp::create(
        rewriter, loc, tiledMask->getResult(0), assembled, offsets, sizes,
        unitStrides);
  }
  rewriter.replaceOp(mask, assembled);
  Value start = contraction.getDpsInitOperand(0)->get();
  rewriter.eraseOp(contraction);
  if (auto fill = start.getDefiningOp<linalg::FillOp>(); fill && fill->use_empty())
    rewriter.eraseOp(fill);
  return success();
}

struct SkipMaskedBlocksPass
    : ke::impl::KeSkipMaskedBlocksBase<SkipMaskedBlocksPass> {
  using Base::Base;

  void runOnOperation() override {
    if (blocks < 2) {
      getOperation().emitError()
          << "ke-skip-masked-blocks: blocks must be at least 2, got "
          << static_cast<int64_t>(blocks);
      return signalPassFailure();
    }
    SmallVector<std::pair<MaskedContraction, SmallVector<Block>>> found;
    getOperation().walk([&](linalg::LinalgOp op) {
      std::optional<MaskedContraction> masked = match(op);
      if (!masked)
        return;
      SmallVector<Block> planned = planBlocks(*masked, blocks);
      if (!planned.empty())
        found.emplace_back(*masked, std::move(planned));
    });
    IRRewriter rewriter(&getContext());
    for (auto &[masked, planned] : found)
      if (failed(skipMaskedBlocks(rewriter, masked, planned))) {
        masked.mask.emitError("ke-skip-masked-blocks: could not tile");
        return signalPassFailure();
      }
  }
};
} // namespace
