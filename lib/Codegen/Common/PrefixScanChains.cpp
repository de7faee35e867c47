//===- PrefixScanChains.cpp - log-step prefix scans in front-end IR -------===//

#include "ke/Codegen/PrefixScanChains.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using ke::ScanStep;

namespace {

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
} // namespace

SmallVector<SmallVector<ScanStep>>
ke::findPrefixScanChains(func::FuncOp function) {
  SmallVector<SmallVector<ScanStep>> chains;
  function.walk([&](linalg::GenericOp op) {
    if (auto step = matchScanStep(op))
      if (auto chain = matchChain(*step))
        chains.push_back(std::move(*chain));
  });
  return chains;
}

Value ke::getScannedTensor(ArrayRef<ScanStep> chain) {
  linalg::GenericOp first = chain.front().op;
  return first.getDpsInputs()[chain.front().sourceInput];
}

Value ke::combineScanValues(OpBuilder &builder, Location loc,
                            const ScanStep &step, Value a, Value b) {
  OperationState state(loc, step.combiner->getName());
  if (step.sourceFirst)
    state.addOperands({a, b});
  else
    state.addOperands({b, a});
  state.addTypes(a.getType());
  state.addAttributes(step.combiner->getAttrs());
  return builder.create(state)->getResult(0);
}

void ke::replaceScanChain(RewriterBase &rewriter, ArrayRef<ScanStep> chain,
                          Value scan) {
  Operation *last = chain.back().op;
  rewriter.replaceOp(last, scan);
  // The rest of the chain is dead now: erase it last to first.
  for (ScanStep step : llvm::reverse(chain)) {
    if (step.op.getOperation() != last)
      rewriter.eraseOp(step.op);
    rewriter.eraseOp(step.concat);
    rewriter.eraseOp(step.slice);
  }
}
