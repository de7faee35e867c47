//===- ScaleContractionResults.cpp - ke-scale-contraction-results ---------===//
//
// torch-mlir's attention scales Q and K by sqrt(scale) each before Q K^T:
// two passes over the inputs (two launches on a GPU) for what one multiply
// of the product does. A sum of products is linear in each operand, so a
// constant factor on an operand is the same factor on the result, where
// elementwise fusion puts it into the result's consumers.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace ke {
#define GEN_PASS_DEF_KESCALECONTRACTIONRESULTS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// `acc + a * b` over two inputs from a zero fill: scaling an input scales
/// the result (a nonzero start would be scaled too).
bool isSumOfProductsFromZero(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0)
    return false;
  // Through reshapes: folding unit dimensions leaves the fill of a batched
  // product expanded to the product's dimensions.
  Value init = op.getDpsInitOperand(0)->get();
  while (Operation *reshape = init.getDefiningOp()) {
    if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(reshape))
      break;
    init = reshape->getOperand(0);
  }
  auto fill = init.getDefiningOp<linalg::FillOp>();
  FloatAttr start;
  if (!fill || !matchPattern(fill.getInputs()[0], m_Constant(&start)) ||
      !start.getValue().isZero())
    return false;
  Block &body = op.getRegion().front();
  if (body.getOperations().size() != 3)
    return false;
  auto product = dyn_cast<arith::MulFOp>(&body.front());
  auto sum = dyn_cast_or_null<arith::AddFOp>(product ? product->getNextNode() : nullptr);
  if (!product || !sum ||
      body.getTerminator()->getOperand(0) != sum.getResult())
    return false;
  auto hasOperands = [](Operation *op, Value x, Value y) {
    return (op->getOperand(0) == x && op->getOperand(1) == y) ||
           (op->getOperand(0) == y && op->getOperand(1) == x);
  };
  return hasOperands(product, body.getArgument(0), body.getArgument(1)) &&
         hasOperands(sum, body.getArgument(2), product.getResult());
}

/// An elementwise op whose only use is the contraction and whose body is
/// `x * factor`, factor the same for every element: defined outside the
/// body, or by one pure op in it on values from outside (torch-mlir's
/// `truncf` of an f64 constant).
struct ScaledOperand {
  linalg::GenericOp producer;
  arith::MulFOp product;
  Value factor;
};

std::optional<ScaledOperand> matchScaledOperand(Value operand) {
  auto producer = operand.getDefiningOp<linalg::GenericOp>();
  if (!producer || !operand.hasOneUse() || producer.getNumDpsInputs() != 1 ||
      producer.getNumDpsInits() != 1 ||
      producer.getNumLoops() != producer.getNumParallelLoops() ||
      !producer.getMatchingIndexingMap(producer.getDpsInitOperand(0))
           .isIdentity() ||
      getElementTypeOrSelf(producer.getDpsInputs()[0].getType()) !=
          getElementTypeOrSelf(operand.getType()))
    return std::nullopt;
  Region &region = producer.getRegion();
  Block &body = region.front();
  Operation *terminator = body.getTerminator();
  auto product = terminator->getOperand(0).getDefiningOp<arith::MulFOp>();
  if (!product)
    return std::nullopt;
  Value element = body.getArgument(0);
  Value factor = product.getLhs() == element   ? product.getRhs()
                 : product.getRhs() == element ? product.getLhs()
                                               : Value();
  if (!factor || factor.getParentRegion() == &region &&
                     isa<BlockArgument>(factor))
    return std::nullopt;
  size_t expectedOps = 2;
  if (Operation *definition = factor.getDefiningOp();
      definition && definition->getParentRegion() == &region) {
    if (!isPure(definition) || definition->getNumRegions() ||
        llvm::any_of(definition->getOperands(), [&](Value value) {
          return value.getParentRegion() == &region ||
                 region.isAncestor(value.getParentRegion());
        }))
      return std::nullopt;
    expectedOps = 3;
  }
  if (body.getOperations().size() != expectedOps)
    return std::nullopt;
  return ScaledOperand{producer, product, factor};
}

/// The factor's value in `type` where it is a constant, or a conversion of
/// one (torch-mlir's `truncf` of an f64 constant).
std::optional<double> getConstantFactor(Value factor, FloatType type) {
  if (Operation *definition = factor.getDefiningOp();
      definition && isa<arith::TruncFOp, arith::ExtFOp>(definition))
    factor = definition->getOperand(0);
  FloatAttr value;
  if (!matchPattern(factor, m_Constant(&value)))
    return std::nullopt;
  APFloat converted = value.getValue();
  bool losesInfo = false;
  converted.convert(type.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &losesInfo);
  return converted.convertToDouble();
}

struct ScaleContractionResultsPass
    : ke::impl::KeScaleContractionResultsBase<ScaleContractionResultsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> contractions;
    getOperation().walk([&](linalg::GenericOp op) {
      if (isSumOfProductsFromZero(op))
        contractions.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp contraction : contractions)
      rewrite(rewriter, contraction);
  }

  void rewrite(IRRewriter &rewriter, linalg::GenericOp contraction) {
    SmallVector<ScaledOperand> scaled;
    for (OpOperand *input : contraction.getDpsInputOperands())
      if (std::optional<ScaledOperand> match =
              matchScaledOperand(input->get()))
        scaled.push_back(*match);
    if (scaled.empty())
      return;
    // The result's scale comes first: its factors are read (and cloned)
    // before the producers change. Constant factors are multiplied here,
    // so that the scale is one multiply, which fusion recomputes freely.
    Location loc = contraction.getLoc();
    rewriter.setInsertionPoint(contraction);
    auto type = cast<RankedTensorType>(contraction.getResult(0).getType());
    auto elementType = cast<FloatType>(type.getElementType());
    std::optional<double> constantScale = 1.0;
    for (const ScaledOperand &operand : scaled) {
      std::optional<double> factor =
          getConstantFactor(operand.factor, elementType);
      constantScale = factor && constantScale
                          ? std::optional<double>(*constantScale * *factor)
                          : std::nullopt;
    }
    Value scale;
    if (constantScale)
      scale = arith::ConstantOp::create(
          rewriter, loc, rewriter.getFloatAttr(elementType, *constantScale));
    rewriter.setInsertionPointAfter(contraction);
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                          type.getElementType());
    AffineMap identity = rewriter.getMultiDimIdentityMap(type.getRank());
    auto result = linalg::GenericOp::create(
        rewriter, loc, type, contraction.getResult(0), empty,
        SmallVector<AffineMap>{identity, identity},
        SmallVector<utils::IteratorType>(type.getRank(),
                                         utils::IteratorType::parallel),
        [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          Value value = args[0];
          if (scale) {
            linalg::YieldOp::create(
                b, bodyLoc,
                arith::MulFOp::create(b, bodyLoc, value, scale).getResult());
            return;
          }
          for (ScaledOperand operand : scaled) {
            Value factor = operand.factor;
            if (Operation *definition = factor.getDefiningOp();
                definition && definition->getParentRegion() ==
                                  &operand.producer.getRegion())
              factor = b.clone(*definition)->getResult(0);
            value = arith::MulFOp::create(b, bodyLoc, value, factor);
          }
          linalg::YieldOp::create(b, bodyLoc, value);
        });
    rewriter.replaceAllUsesExcept(contraction.getResult(0), result.getResult(0),
                                  result);
    // Each producer now copies its input: dropped where the copy is the
    // identity, else kept as the transposition it also was.
    for (ScaledOperand operand : scaled) {
      linalg::GenericOp producer = operand.producer;
      OpOperand *input = producer.getDpsInputOperand(0);
      if (producer.getMatchingIndexingMap(input).isIdentity() &&
          input->get().getType() == producer.getResult(0).getType()) {
        rewriter.replaceOp(producer, input->get());
        continue;
      }
      Operation *definition = operand.factor.getDefiningOp();
      rewriter.replaceOp(operand.product,
                         operand.product.getLhs() == operand.factor
                             ? operand.product.getRhs()
                             : operand.product.getLhs());
      if (definition && definition->getParentRegion() ==
                            &producer.getRegion() &&
          definition->use_empty())
        rewriter.eraseOp(definition);
    }
  }
};
} // namespace
