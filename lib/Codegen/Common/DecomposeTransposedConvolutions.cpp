//===- DecomposeTransposedConvolutions.cpp - sub-pixel convolutions -------===//
//
// Front ends lower a transposed convolution with stride s to a convolution
// over the input spread out with s - 1 zeros between elements (a
// tensor.insert_slice with strides into a zero fill): (s^n - 1) / s^n of
// its multiply-adds read a zero, 7 of 8 for a 3-D stride of 2. Along each
// spatial dimension, the outputs of one phase (o mod s) read the input
// through the same taps, so the convolution splits into s^n dense ones,
// each over the input itself with a strided slice of the kernel, writing
// a strided slice of the output ("sub-pixel" convolution).
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"
#include "ke/Codegen/StructuredMatchers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include <numeric>

namespace ke {
#define GEN_PASS_DEF_KEDECOMPOSETRANSPOSEDCONVOLUTIONS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// How one output phase of one spatial dimension reads the input.
struct Phase {
  /// Outputs o = phase + stride * q, q < outputs.
  int64_t outputs = 0;
  /// Taps k = firstTap + tapStep * m, m < taps (0: every output of the
  /// phase reads only zeros).
  int64_t firstTap = 0, tapStep = 1, taps = 0;
  /// Input index of output q and tap m: base + q + dilation * m.
  int64_t base = 0, dilation = 1;
};

int64_t floorMod(int64_t value, int64_t modulus) {
  return ((value % modulus) + modulus) % modulus;
}

/// Output o reads spread[o + dilation * k] = input[(o + dilation * k -
/// offset) / stride] when that is a whole number, else a zero.
Phase analyzePhase(int64_t phase, int64_t stride, int64_t offset,
                   int64_t dilation, int64_t kernel, int64_t outputSize) {
  Phase result;
  result.outputs =
      phase < outputSize ? (outputSize - phase + stride - 1) / stride : 0;
  int64_t common = std::gcd(dilation, stride);
  result.tapStep = stride / common;
  result.dilation = dilation / common;
  for (int64_t k = 0; k < kernel; ++k) {
    if (floorMod(phase + dilation * k - offset, stride) != 0)
      continue;
    result.firstTap = k;
    result.taps = (kernel - 1 - k) / result.tapStep + 1;
    result.base = (phase + dilation * k - offset) / stride;
    break;
  }
  return result;
}

/// One spatial dimension of a convolution: the input is read at
/// outputLoop + dilation * filterLoop.
struct SpatialDim {
  unsigned outputLoop = 0, filterLoop = 0;
  int64_t dilation = 1;
};

/// The spatial dimensions of a convolution, named or generic, in the
/// layout front ends write (batch, groups and channels first in all three
/// operands, plain loops, then the spatial dimensions in the same order):
/// the input's trailing results are `o + dilation * k` with stride 1, o the
/// output's trailing loops, k the filter's, each used nowhere else. The
/// body must be exactly acc + input * filter, so that an input of zero adds
/// nothing (a max, a product not accumulated or a function of the input or
/// of the sum would count the zeros).
FailureOr<SmallVector<SpatialDim>> analyzeConvolution(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !op.hasPureTensorSemantics() || op.getNumReductionLoops() == 0 ||
      !ke::isMultiplyAccumulateBody(op, 0, 1))
    return failure();
  AffineMap inputMap = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  AffineMap filterMap = op.getMatchingIndexingMap(op.getDpsInputOperand(1));
  AffineMap outputMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  // Leading results are loops; the spatial ones are sums.
  int64_t spatial = 0;
  for (AffineExpr expr : llvm::reverse(inputMap.getResults())) {
    if (isa<AffineDimExpr>(expr))
      break;
    ++spatial;
  }
  if (spatial == 0 || spatial > filterMap.getNumResults() ||
      spatial > outputMap.getNumResults())
    return failure();
  for (AffineMap map : {inputMap, filterMap, outputMap})
    for (AffineExpr expr : map.getResults().drop_back(spatial))
      if (!isa<AffineDimExpr>(expr))
        return failure();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  int64_t inputLeading = inputMap.getNumResults() - spatial;
  int64_t filterLeading = filterMap.getNumResults() - spatial;
  int64_t outputLeading = outputMap.getNumResults() - spatial;
  SmallVector<SpatialDim> dims;
  for (int64_t i = 0; i < spatial; ++i) {
    FailureOr<SmallVector<std::pair<unsigned, int64_t>>> terms =
        ke::getLinearTerms(inputMap.getResult(inputLeading + i));
    auto outputLoop =
        dyn_cast<AffineDimExpr>(outputMap.getResult(outputLeading + i));
    auto filterLoop =
        dyn_cast<AffineDimExpr>(filterMap.getResult(filterLeading + i));
    if (failed(terms) || terms->size() != 2 || !outputLoop || !filterLoop ||
        iterators[outputLoop.getPosition()] != utils::IteratorType::parallel ||
        iterators[filterLoop.getPosition()] != utils::IteratorType::reduction)
      return failure();
    auto [output, filter] = std::make_pair((*terms)[0], (*terms)[1]);
    if (output.first == filterLoop.getPosition())
      std::swap(output, filter);
    // Stride 1: a strided convolution over a spread input has phases
    // that mix, which this pass does not split.
    if (output.first != outputLoop.getPosition() ||
        filter.first != filterLoop.getPosition() || output.second != 1)
      return failure();
    // Each phase keeps every other dimension whole: the spatial loops
    // may index nothing else (a locally connected layer's filter, (o, k),
    // would be read at the wrong outputs).
    auto usedElsewhere = [&](AffineMap map, int64_t own) {
      for (auto [position, expr] : llvm::enumerate(map.getResults()))
        if (static_cast<int64_t>(position) != own &&
            (expr.isFunctionOfDim(outputLoop.getPosition()) ||
             expr.isFunctionOfDim(filterLoop.getPosition())))
          return true;
      return false;
    };
    if (usedElsewhere(inputMap, inputLeading + i) ||
        usedElsewhere(filterMap, filterLeading + i) ||
        usedElsewhere(outputMap, outputLeading + i))
      return failure();
    dims.push_back(
        {outputLoop.getPosition(), filterLoop.getPosition(), filter.second});
  }
  return dims;
}

/// `op` over new operands with new dilations: a named convolution takes
/// them as its attribute, a generic in its input's indexing map.
Operation *cloneWithDilations(RewriterBase &rewriter, linalg::LinalgOp op,
                              ArrayRef<SpatialDim> dims,
                              ArrayRef<int64_t> dilations, Type resultType,
                              ValueRange operands) {
  Operation *clone =
      mlir::clone(rewriter, op.getOperation(), TypeRange{resultType}, operands);
  auto vectorAttr = DenseIntElementsAttr::get(
      VectorType::get({static_cast<int64_t>(dilations.size())},
                      rewriter.getI64Type()),
      dilations);
  auto generic = dyn_cast<linalg::GenericOp>(clone);
  if (!generic) {
    // The clone's maps were computed from the old dilations. Named ops
    // without the attribute (`linalg.conv_2d`) have dilation 1, and so
    // does each of their phases.
    clone->removeAttr(linalg::LinalgDialect::kMemoizedIndexingMapsAttrName);
    if (clone->hasAttr("dilations"))
      clone->setAttr("dilations", vectorAttr);
    return clone;
  }
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  SmallVector<AffineExpr> results(maps[0].getResults());
  int64_t leading = static_cast<int64_t>(results.size() - dims.size());
  for (auto [i, dim] : llvm::enumerate(dims))
    results[leading + i] =
        rewriter.getAffineDimExpr(dim.outputLoop) +
        rewriter.getAffineDimExpr(dim.filterLoop) * dilations[i];
  maps[0] =
      AffineMap::get(maps[0].getNumDims(), 0, results, rewriter.getContext());
  generic.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  return clone;
}

LogicalResult decompose(RewriterBase &rewriter, linalg::LinalgOp conv) {
  FailureOr<SmallVector<SpatialDim>> spatialDims = analyzeConvolution(conv);
  if (failed(spatialDims))
    return failure();
  Value spread = conv.getDpsInputs()[0], filter = conv.getDpsInputs()[1],
        init = conv.getDpsInits()[0];
  // A grouped convolution reads the spread input with its channels split
  // into groups (tensor.expand_shape after the insert).
  auto expand = spread.getDefiningOp<tensor::ExpandShapeOp>();
  auto insert = (expand ? expand.getSrc() : spread)
                    .getDefiningOp<tensor::InsertSliceOp>();
  if (!insert)
    return failure();
  auto fill = insert.getDest().getDefiningOp<linalg::FillOp>();
  if (!fill || !matchPattern(fill.getInputs()[0], m_AnyZeroFloat()))
    return failure();
  Value input = insert.getSource();
  auto inputType = dyn_cast<RankedTensorType>(input.getType());
  auto insertedType = dyn_cast<RankedTensorType>(insert.getType());
  auto spreadType = dyn_cast<RankedTensorType>(spread.getType());
  auto filterType = dyn_cast<RankedTensorType>(filter.getType());
  auto outputType = dyn_cast<RankedTensorType>(init.getType());
  if (!inputType || !insertedType || !spreadType || !filterType ||
      !outputType || !inputType.hasStaticShape() ||
      !spreadType.hasStaticShape() || !filterType.hasStaticShape() ||
      !outputType.hasStaticShape() ||
      ShapedType::isDynamicShape(insert.getStaticOffsets()) ||
      ShapedType::isDynamicShape(insert.getStaticStrides()) ||
      inputType.getRank() != insertedType.getRank() ||
      inputType.getElementType() != outputType.getElementType())
    return failure();
  SmallVector<int64_t> dilations;
  for (const SpatialDim &dim : *spatialDims)
    dilations.push_back(dim.dilation);
  int64_t rank = spreadType.getRank();
  int64_t spatial = static_cast<int64_t>(dilations.size());
  // Batch, groups and channels come first and are copied whole.
  int64_t leading = rank - spatial;
  int64_t outputLeading = outputType.getRank() - spatial;
  int64_t insertedLeading = insertedType.getRank() - spatial;
  if (leading < 0 || insertedLeading < 0 || outputLeading < 0)
    return failure();
  ArrayRef<int64_t> insertOffsets = insert.getStaticOffsets();
  ArrayRef<int64_t> insertStrides = insert.getStaticStrides();
  for (int64_t d = 0; d < insertedLeading; ++d)
    if (insertOffsets[d] != 0 || insertStrides[d] != 1 ||
        inputType.getDimSize(d) != insertedType.getDimSize(d))
      return failure();
  // Offsets and strides of the insert along the convolution's dimensions.
  SmallVector<int64_t> offsets(leading, 0), strides(leading, 1);
  llvm::append_range(offsets, insertOffsets.drop_front(insertedLeading));
  llvm::append_range(strides, insertStrides.drop_front(insertedLeading));
  if (expand) {
    // Only the leading dimensions may be split.
    SmallVector<ReassociationIndices> groups = expand.getReassociationIndices();
    for (int64_t d = insertedLeading; d < insertedType.getRank(); ++d)
      if (groups[d].size() != 1)
        return failure();
  }
  if (llvm::all_of(ArrayRef<int64_t>(strides).drop_front(leading),
                   [](int64_t s) { return s == 1; }))
    return failure();

  // The phases of every spatial dimension, then every combination.
  int64_t filterLeading = filterType.getRank() - spatial;
  SmallVector<SmallVector<Phase>> phases(spatial);
  for (int64_t i = 0; i < spatial; ++i)
    for (int64_t phase = 0; phase < strides[leading + i]; ++phase)
      phases[i].push_back(
          analyzePhase(phase, strides[leading + i], offsets[leading + i],
                       dilations[i], filterType.getDimSize(filterLeading + i),
                       outputType.getDimSize(outputLeading + i)));

  Location loc = conv->getLoc();
  rewriter.setInsertionPoint(conv);
  if (expand) {
    SmallVector<int64_t> expandedShape(spreadType.getShape());
    for (int64_t i = 0; i < spatial; ++i)
      expandedShape[leading + i] = inputType.getDimSize(insertedLeading + i);
    input = tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get(expandedShape, inputType.getElementType()), input,
        expand.getReassociationIndices());
    inputType = cast<RankedTensorType>(input.getType());
  }
  Type elementType = inputType.getElementType();
  Value zero = arith::ConstantOp::create(rewriter, loc,
                                         rewriter.getZeroAttr(elementType));
  // Every output belongs to one phase. When every phase with outputs has
  // taps, all outputs are written by a phase and the init's value is never
  // read through the result: the phases go into a new tensor instead of
  // over a filled or broadcast one (a pass over the output saved).
  bool everyPhaseComputed = llvm::all_of(phases, [](ArrayRef<Phase> dim) {
    return llvm::all_of(
        dim, [](const Phase &p) { return p.outputs == 0 || p.taps > 0; });
  });
  // Every phase reads the input padded with zeros by at most these amounts
  // on each side: one pad serves them all, each phase reading its window
  // of it (one copy of the input instead of one per phase).
  SmallVector<int64_t> sharedLow(rank, 0), sharedHigh(rank, 0);
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t size = inputType.getDimSize(leading + i);
    for (const Phase &p : phases[i]) {
      if (p.outputs == 0 || p.taps == 0)
        continue;
      int64_t last = p.base + p.outputs - 1 + p.dilation * (p.taps - 1);
      sharedLow[leading + i] = std::max(sharedLow[leading + i], -p.base);
      sharedHigh[leading + i] =
          std::max(sharedHigh[leading + i], last - (size - 1));
    }
  }
  auto indexAttrs = [&](ArrayRef<int64_t> values) {
    SmallVector<OpFoldResult> attrs;
    for (int64_t value : values)
      attrs.push_back(rewriter.getIndexAttr(value));
    return attrs;
  };
  Value source = input;
  if (llvm::any_of(sharedLow, [](int64_t v) { return v > 0; }) ||
      llvm::any_of(sharedHigh, [](int64_t v) { return v > 0; })) {
    SmallVector<int64_t> paddedShape;
    for (int64_t d = 0; d < rank; ++d)
      paddedShape.push_back(inputType.getDimSize(d) + sharedLow[d] +
                            sharedHigh[d]);
    source = tensor::PadOp::create(
        rewriter, loc, RankedTensorType::get(paddedShape, elementType), input,
        indexAttrs(sharedLow), indexAttrs(sharedHigh), zero);
  }
  Value result =
      everyPhaseComputed
          ? Value(tensor::EmptyOp::create(rewriter, loc, outputType.getShape(),
                                          outputType.getElementType()))
          : init;
  SmallVector<int64_t> combination(spatial, 0);
  while (true) {
    SmallVector<const Phase *> chosen;
    bool empty = false, readsZeros = false;
    for (int64_t i = 0; i < spatial; ++i) {
      chosen.push_back(&phases[i][combination[i]]);
      empty |= chosen.back()->outputs == 0;
      readsZeros |= chosen.back()->taps == 0;
    }
    // Outputs that read only zeros keep their initial value (the bias).
    if (!empty && !readsZeros) {
      // Leading dimensions whole.
      SmallVector<OpFoldResult> outOffsets(outputLeading,
                                           rewriter.getIndexAttr(0)),
          outSizes, outStrides(outputLeading, rewriter.getIndexAttr(1));
      SmallVector<OpFoldResult> tapOffsets(filterLeading,
                                           rewriter.getIndexAttr(0)),
          tapSizes, tapStrides(filterLeading, rewriter.getIndexAttr(1));
      SmallVector<int64_t> readSizes;
      SmallVector<int64_t> readOffsets(leading, 0);
      for (int64_t d = 0; d < outputLeading; ++d)
        outSizes.push_back(rewriter.getIndexAttr(outputType.getDimSize(d)));
      for (int64_t d = 0; d < leading; ++d)
        readSizes.push_back(inputType.getDimSize(d));
      for (int64_t d = 0; d < filterLeading; ++d)
        tapSizes.push_back(rewriter.getIndexAttr(filterType.getDimSize(d)));
      SmallVector<int64_t> phaseDilations;
      for (int64_t i = 0; i < spatial; ++i) {
        const Phase &p = *chosen[i];
        int64_t stride = strides[leading + i];
        outOffsets.push_back(rewriter.getIndexAttr(combination[i]));
        outSizes.push_back(rewriter.getIndexAttr(p.outputs));
        outStrides.push_back(rewriter.getIndexAttr(stride));
        tapOffsets.push_back(rewriter.getIndexAttr(p.firstTap));
        tapSizes.push_back(rewriter.getIndexAttr(p.taps));
        tapStrides.push_back(rewriter.getIndexAttr(p.tapStep));
        // Input read: base .. base + outputs - 1 + dilation * (taps - 1),
        // in the shared pad's coordinates.
        int64_t first = p.base;
        int64_t last = p.base + p.outputs - 1 + p.dilation * (p.taps - 1);
        readOffsets.push_back(first + sharedLow[leading + i]);
        readSizes.push_back(last - first + 1);
        phaseDilations.push_back(p.dilation);
      }
      Value read = tensor::ExtractSliceOp::create(
          rewriter, loc, source, indexAttrs(readOffsets), indexAttrs(readSizes),
          indexAttrs(SmallVector<int64_t>(rank, 1)));
      Value taps = tensor::ExtractSliceOp::create(
          rewriter, loc, filter, tapOffsets, tapSizes, tapStrides);
      // The phase's outputs are a strided slice of the output; the
      // convolution writes them to a dense tensor of their own (strided
      // stores do not vectorize), started from the init's value where
      // that is a fill or a broadcast of a bias (the same arithmetic as
      // before), else from zero with the init added after.
      SmallVector<int64_t> phaseShape(
          outputType.getShape().take_front(outputLeading));
      for (const Phase *p : chosen)
        phaseShape.push_back(p->outputs);
      Value empty =
          tensor::EmptyOp::create(rewriter, loc, phaseShape, elementType);
      bool addInit = false;
      Value phaseInit;
      if (auto initFill = init.getDefiningOp<linalg::FillOp>()) {
        phaseInit = linalg::FillOp::create(rewriter, loc,
                                           initFill.getInputs()[0], empty)
                        .getResult(0);
      } else if (auto broadcast = init.getDefiningOp<linalg::BroadcastOp>();
                 broadcast &&
                 llvm::all_of(
                     llvm::seq<int64_t>(outputLeading, outputType.getRank()),
                     [&](int64_t d) {
                       return llvm::is_contained(broadcast.getDimensions(), d);
                     })) {
        phaseInit =
            linalg::BroadcastOp::create(rewriter, loc, broadcast.getInput(),
                                        empty, broadcast.getDimensions())
                ->getResult(0);
      } else {
        phaseInit =
            linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
        addInit = true;
      }
      Value phaseResult =
          cloneWithDilations(rewriter, conv, *spatialDims, phaseDilations,
                             empty.getType(), ValueRange{read, taps, phaseInit})
              ->getResult(0);
      if (addInit) {
        Value initSlice = tensor::ExtractSliceOp::create(
            rewriter, loc, init, outOffsets, outSizes, outStrides);
        AffineMap identity =
            rewriter.getMultiDimIdentityMap(outputType.getRank());
        SmallVector<AffineMap> maps(3, identity);
        phaseResult =
            linalg::GenericOp::create(
                rewriter, loc, TypeRange{empty.getType()},
                ValueRange{initSlice, phaseResult}, ValueRange{empty}, maps,
                SmallVector<utils::IteratorType>(outputType.getRank(),
                                                 utils::IteratorType::parallel),
                [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
                  linalg::YieldOp::create(
                      nested, nestedLoc,
                      arith::AddFOp::create(nested, nestedLoc, args[0], args[1])
                          .getResult());
                })
                .getResult(0);
      }
      result = tensor::InsertSliceOp::create(rewriter, loc, phaseResult, result,
                                             outOffsets, outSizes, outStrides);
    }
    // Next combination (odometer over the spatial dimensions).
    int64_t i = spatial - 1;
    while (i >= 0 && ++combination[i] == strides[leading + i]) {
      combination[i] = 0;
      --i;
    }
    if (i < 0)
      break;
  }
  rewriter.replaceOp(conv, result);
  return success();
}

struct DecomposeTransposedConvolutionsPass
    : ke::impl::KeDecomposeTransposedConvolutionsBase<
          DecomposeTransposedConvolutionsPass> {
  void runOnOperation() override {
    // Any convolution-shaped op (analyzeConvolution decides): the named
    // NCHW convolutions and the generics front ends write for the others
    // (grouped 3-D ones).
    SmallVector<linalg::LinalgOp> candidates;
    getOperation().walk([&](linalg::LinalgOp op) { candidates.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : candidates)
      (void)decompose(rewriter, op);
  }
};
} // namespace
