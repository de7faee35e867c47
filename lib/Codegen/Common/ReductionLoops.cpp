//===- ReductionLoops.cpp - reductions reshaped for parallel hardware -----===//

#include "ke/Codegen/ReductionLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

/// Whether every operand of `op` reads a plain subset of its loops.
static bool hasProjectedPermutationMaps(linalg::LinalgOp op) {
  return llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
    return map.isProjectedPermutation();
  });
}

linalg::LinalgOp ke::collapseReductionLoops(RewriterBase &rewriter,
                                            linalg::LinalgOp op) {
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);
  if (!isa<linalg::GenericOp>(op) || !op.hasPureTensorSemantics() ||
      reductions.size() < 2 || op.hasIndexSemantics() ||
      !hasProjectedPermutationMaps(op))
    return nullptr;
  for (auto [index, loop] : llvm::enumerate(reductions))
    if (loop != reductions.front() + index)
      return nullptr;
  ReassociationIndices loops(reductions.begin(), reductions.end());
  if (!linalg::areDimSequencesPreserved(op.getIndexingMapsArray(), {loops}))
    return nullptr;
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::CollapseResult> collapsed =
      linalg::collapseOpIterationDims(op, {loops}, rewriter);
  if (failed(collapsed) || collapsed->collapsedOp.getNumReductionLoops() != 1)
    return nullptr;
  rewriter.replaceOp(op, collapsed->results);
  return collapsed->collapsedOp;
}

linalg::LinalgOp ke::collapseInnermostReductionLoops(RewriterBase &rewriter,
                                                     linalg::LinalgOp op) {
  if (!isa<linalg::GenericOp>(op) || !op.hasPureTensorSemantics() ||
      op.hasIndexSemantics() ||
      !hasProjectedPermutationMaps(op))
    return nullptr;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  int64_t last = static_cast<int64_t>(iterators.size()) - 1;
  while (last >= 0 && iterators[last] != utils::IteratorType::reduction)
    --last;
  if (last < 1)
    return nullptr;
  int64_t first = last;
  while (first > 0 && iterators[first - 1] == utils::IteratorType::reduction)
    --first;
  return collapseContiguousTail(rewriter, op, first, last);
}

linalg::LinalgOp ke::collapseContiguousTail(RewriterBase &rewriter,
                                            linalg::LinalgOp op, int64_t first,
                                            int64_t last) {
  for (; first < last; ++first) {
    ReassociationIndices loops;
    for (int64_t loop = first; loop <= last; ++loop)
      loops.push_back(loop);
    if (!linalg::areDimSequencesPreserved(op.getIndexingMapsArray(), {loops}))
      continue;
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::CollapseResult> collapsed =
        linalg::collapseOpIterationDims(op, {loops}, rewriter);
    if (failed(collapsed))
      return nullptr;
    rewriter.replaceOp(op, collapsed->results);
    return collapsed->collapsedOp;
  }
  return nullptr;
}

int64_t ke::getNumOutputElements(linalg::LinalgOp op) {
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  int64_t outputs = 1;
  for (auto [loop, iterator] : llvm::enumerate(op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::parallel)
      outputs *= bounds[loop];
  return outputs;
}

int64_t ke::getReductionLength(linalg::LinalgOp op) {
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  int64_t length = 1;
  for (auto [loop, iterator] : llvm::enumerate(op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::reduction)
      length *= bounds[loop];
  return length;
}

FailureOr<linalg::SplitReductionResult>
ke::splitReductionIntoChunks(RewriterBase &rewriter, linalg::LinalgOp op,
                             int64_t chunks) {
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);
  if (reductions.size() != 1 || op.hasIndexSemantics() ||
      op->getNumResults() != 1 || op.getNumDpsInits() != 1 || chunks < 2)
    return failure();
  int64_t length = op.getStaticLoopRanges()[reductions.front()];
  if (ShapedType::isDynamic(length) || length % chunks != 0 ||
      length == chunks)
    return failure();
  auto control = [&](linalg::LinalgOp) {
    return linalg::SplitReductionOptions{chunks, 0, /*innerParallel=*/false};
  };
  rewriter.setInsertionPoint(op);
  return linalg::splitReduction(rewriter, op, control);
}

FailureOr<linalg::SplitReductionResult>
ke::splitInnermostReductionLoop(RewriterBase &rewriter, linalg::LinalgOp op,
                                int64_t chunks, bool chunkInnermost) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || !op.hasPureTensorSemantics() || op.hasIndexSemantics() ||
      op->getNumResults() != op.getNumDpsInits() || chunks < 2 ||
      !hasProjectedPermutationMaps(op))
    return failure();
  unsigned numLoops = op.getNumLoops();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (numLoops == 0 || iterators.back() != utils::IteratorType::reduction)
    return failure();
  unsigned loop = numLoops - 1;
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  if (llvm::any_of(bounds, ShapedType::isDynamic) ||
      bounds[loop] % chunks != 0 || bounds[loop] == chunks)
    return failure();
  int64_t chunkLength = bounds[loop] / chunks;
  // One fold op takes every output's partials: the outputs share a rank.
  int64_t rank = cast<ShapedType>(op->getResult(0).getType()).getRank();
  if (llvm::any_of(op->getResultTypes(), [&](Type type) {
        return cast<ShapedType>(type).getRank() != rank;
      }))
    return failure();
  // Each output is its own reduction: the body folds one value into each
  // accumulator with a combiner that has a neutral element (the partials
  // start from it), and reads the accumulator nowhere else.
  Block *body = op.getBlock();
  SmallVector<Operation *> combiners;
  SmallVector<TypedAttr> neutrals;
  for (auto [index, accumulator] :
       llvm::enumerate(op.getRegionOutputArgs())) {
    Operation *combiner =
        body->getTerminator()->getOperand(index).getDefiningOp();
    if (!combiner || combiner->getBlock() != body ||
        combiner->getNumOperands() != 2 || combiner->getNumResults() != 1 ||
        !accumulator.hasOneUse() ||
        !llvm::is_contained(combiner->getOperands(), accumulator) ||
        combiner->getOperand(0) == combiner->getOperand(1))
      return failure();
    std::optional<TypedAttr> neutral = arith::getNeutralElement(combiner);
    if (!neutral)
      return failure();
    combiners.push_back(combiner);
    neutrals.push_back(*neutral);
  }

  Location loc = op.getLoc();
  MLIRContext *context = op.getContext();
  rewriter.setInsertionPoint(op);
  // Loops of the partial op: the split loop becomes (chunk, element), or
  // (element, chunk) with the chunk innermost.
  AffineExpr split = getAffineDimExpr(loop, context);
  AffineExpr chunk = getAffineDimExpr(chunkInnermost ? loop + 1 : loop,
                                      context);
  AffineExpr next = getAffineDimExpr(loop + 1, context);
  int64_t outerLength = chunkInnermost ? chunkLength : chunks;
  int64_t innerLength = chunkInnermost ? chunks : chunkLength;
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    Value value = input->get();
    SmallVector<AffineExpr> results;
    std::optional<unsigned> position = map.getResultPosition(split);
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (position && type) {
      SmallVector<ReassociationIndices> groups;
      SmallVector<int64_t> shape;
      for (unsigned dim = 0, e = type.getRank(); dim < e; ++dim) {
        if (dim == *position) {
          groups.push_back({static_cast<int64_t>(shape.size()),
                            static_cast<int64_t>(shape.size()) + 1});
          shape.append({outerLength, innerLength});
        } else {
          groups.push_back({static_cast<int64_t>(shape.size())});
          shape.push_back(type.getDimSize(dim));
        }
      }
      value = tensor::ExpandShapeOp::create(
          rewriter, loc,
          RankedTensorType::get(shape, type.getElementType()), value, groups);
    } else if (position) {
      return failure(); // a scalar operand cannot read a loop
    }
    for (AffineExpr result : map.getResults()) {
      results.push_back(result);
      if (result == split)
        results.push_back(next);
    }
    inputs.push_back(value);
    maps.push_back(AffineMap::get(numLoops + 1, 0, results, context));
  }
  // The partials: each output's dimensions and the chunk last.
  SmallVector<Value> partialInits;
  Operation *firstEmpty = nullptr;
  linalg::FillOp firstFill;
  for (auto [init, neutral] : llvm::zip(op.getDpsInitsMutable(), neutrals)) {
    auto outputType = cast<RankedTensorType>(init.get().getType());
    SmallVector<int64_t> partialShape(outputType.getShape());
    partialShape.push_back(chunks);
    SmallVector<AffineExpr> partialResults(
        op.getMatchingIndexingMap(&init).getResults());
    partialResults.push_back(chunk);
    maps.push_back(AffineMap::get(numLoops + 1, 0, partialResults, context));
    Value empty = tensor::EmptyOp::create(rewriter, loc, partialShape,
                                          outputType.getElementType());
    Value neutralValue = arith::ConstantOp::create(rewriter, loc, neutral);
    auto fill = linalg::FillOp::create(rewriter, loc, neutralValue, empty);
    partialInits.push_back(fill.getResult(0));
    if (!firstEmpty) {
      firstEmpty = empty.getDefiningOp();
      firstFill = fill;
    }
  }
  SmallVector<utils::IteratorType> partialIterators(iterators);
  partialIterators.back() = chunkInnermost ? utils::IteratorType::reduction
                                           : utils::IteratorType::parallel;
  partialIterators.push_back(chunkInnermost ? utils::IteratorType::parallel
                                            : utils::IteratorType::reduction);
  auto partial = linalg::GenericOp::create(
      rewriter, loc, ValueRange(partialInits).getTypes(), inputs,
      partialInits, maps, partialIterators);
  rewriter.cloneRegionBefore(generic.getRegion(), partial.getRegion(),
                             partial.getRegion().begin());

  // The partials folded into the original outputs, chunk by chunk, each
  // with its own combiner.
  SmallVector<AffineMap> foldMaps;
  SmallVector<Value> outputs(op.getDpsInits());
  AffineMap identity = rewriter.getMultiDimIdentityMap(rank + 1);
  SmallVector<AffineExpr> outputDims;
  for (int64_t dim = 0; dim < rank; ++dim)
    outputDims.push_back(getAffineDimExpr(dim, context));
  AffineMap dropChunk = AffineMap::get(rank + 1, 0, outputDims, context);
  for (size_t index = 0; index < outputs.size(); ++index)
    foldMaps.push_back(identity);
  for (size_t index = 0; index < outputs.size(); ++index)
    foldMaps.push_back(dropChunk);
  SmallVector<utils::IteratorType> foldIterators(rank,
                                                 utils::IteratorType::parallel);
  foldIterators.push_back(utils::IteratorType::reduction);
  auto folded = linalg::GenericOp::create(
      rewriter, loc, ValueRange(outputs).getTypes(), partial.getResults(),
      outputs, foldMaps, foldIterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange arguments) {
        SmallVector<Value> totals;
        for (auto [index, combiner] : llvm::enumerate(combiners)) {
          Value accumulator = op.getRegionOutputArgs()[index];
          bool accumulatorFirst = combiner->getOperand(0) == accumulator;
          Value partialValue = arguments[index];
          Value total = arguments[combiners.size() + index];
          IRMapping mapping;
          mapping.map(combiner->getOperand(0),
                      accumulatorFirst ? total : partialValue);
          mapping.map(combiner->getOperand(1),
                      accumulatorFirst ? partialValue : total);
          totals.push_back(nested.clone(*combiner, mapping)->getResult(0));
        }
        linalg::YieldOp::create(nested, nestedLoc, totals);
      });
  rewriter.replaceOp(op, folded.getResults());
  return linalg::SplitReductionResult{
      firstEmpty, firstFill, cast<linalg::LinalgOp>(partial.getOperation()),
      cast<linalg::LinalgOp>(folded.getOperation())};
}

namespace {
/// How the partial results of a reduction fold into its outputs: one
/// combiner with a neutral element (`total = combiner(value, total)`), or an
/// arg reduction's pair (`total = combiner(value, total)` and `index =
/// cmpf(value, total) ? position : index`, torch's max with indices and
/// argmax), whose partial positions are those of the whole loop.
struct ReductionFold {
  Operation *combiner = nullptr;
  /// The value the combiner folds in (the body's reading of the inputs).
  Value value;
  /// Arg reductions only: the comparison choosing the position, and the
  /// position (the split loop's linalg.index) and its cast to the result.
  arith::CmpFOp compare;
  linalg::IndexOp position;
};

/// The fold of `op`'s body when it is one of the two kinds above, reducing
/// over `loop` only; nothing otherwise.
std::optional<ReductionFold> matchReductionFold(linalg::GenericOp op,
                                                unsigned loop) {
  Block *body = op.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  SmallVector<BlockArgument> outputs(op.getRegionOutputArgs());
  if (yield.getNumOperands() != outputs.size() || outputs.empty() ||
      outputs.size() > 2)
    return std::nullopt;
  ReductionFold fold;
  fold.combiner = yield.getOperand(0).getDefiningOp();
  BlockArgument total = outputs[0];
  if (!fold.combiner || fold.combiner->getBlock() != body ||
      fold.combiner->getNumOperands() != 2 ||
      fold.combiner->getNumResults() != 1 ||
      !arith::getNeutralElement(fold.combiner))
    return std::nullopt;
  if (fold.combiner->getOperand(0) == total)
    fold.value = fold.combiner->getOperand(1);
  else if (fold.combiner->getOperand(1) == total)
    fold.value = fold.combiner->getOperand(0);
  if (!fold.value || fold.value == total)
    return std::nullopt;
  SmallVector<linalg::IndexOp> indices(body->getOps<linalg::IndexOp>());
  if (outputs.size() == 1)
    return indices.empty() && total.hasOneUse() ? std::optional(fold)
                                                : std::nullopt;
  // index = cmpf(value, total) ? cast(linalg.index loop) : index
  auto select = yield.getOperand(1).getDefiningOp<arith::SelectOp>();
  if (!select || select->getBlock() != body ||
      select.getFalseValue() != outputs[1] || !outputs[1].hasOneUse())
    return std::nullopt;
  fold.compare = select.getCondition().getDefiningOp<arith::CmpFOp>();
  if (!fold.compare || fold.compare->getBlock() != body ||
      fold.compare.getLhs() != fold.value || fold.compare.getRhs() != total ||
      !fold.compare->hasOneUse())
    return std::nullopt;
  // The position follows the value the combiner keeps: a max taken where
  // the value is greater, a min where it is less. (maxnumf and minnumf
  // start from NaN, which no comparison passes: not these.)
  arith::CmpFPredicate predicate = fold.compare.getPredicate();
  bool keepsGreater = isa<arith::MaximumFOp>(fold.combiner) &&
                      (predicate == arith::CmpFPredicate::OGT ||
                       predicate == arith::CmpFPredicate::OGE);
  bool keepsLess = isa<arith::MinimumFOp>(fold.combiner) &&
                   (predicate == arith::CmpFPredicate::OLT ||
                    predicate == arith::CmpFPredicate::OLE);
  if (!keepsGreater && !keepsLess)
    return std::nullopt;
  Value position = select.getTrueValue();
  if (auto cast = position.getDefiningOp<arith::IndexCastOp>())
    position = cast.getIn();
  fold.position = position.getDefiningOp<linalg::IndexOp>();
  if (!fold.position || fold.position.getDim() != loop ||
      indices.size() != 1 ||
      llvm::any_of(total.getUsers(), [&](Operation *user) {
        return user != fold.combiner && user != fold.compare;
      }))
    return std::nullopt;
  return fold;
}
} // namespace

FailureOr<linalg::SplitReductionResult>
ke::splitReductionLoop(RewriterBase &rewriter, linalg::LinalgOp op,
                            int64_t chunks) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);
  // Kept dimensions (torch's keepdim) read as constant zeros.
  if (!generic || !op.hasPureTensorSemantics() || reductions.size() != 1 ||
      chunks < 2 ||
      !llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
        return map.isProjectedPermutation(/*allowZeroInResults=*/true);
      }))
    return failure();
  unsigned loop = reductions.front();
  unsigned numLoops = op.getNumLoops();
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  if (llvm::any_of(bounds, ShapedType::isDynamic) ||
      bounds[loop] % chunks != 0 || bounds[loop] == chunks)
    return failure();
  std::optional<ReductionFold> fold = matchReductionFold(generic, loop);
  if (!fold)
    return failure();
  // The fold compares the outputs at one position: they must be indexed
  // alike (an argmax's max and index at the same output element).
  SmallVector<OpOperand *> outputOperands;
  for (OpOperand &init : op.getDpsInitsMutable())
    outputOperands.push_back(&init);
  if (llvm::any_of(outputOperands, [&](OpOperand *init) {
        return op.getMatchingIndexingMap(init) !=
                   op.getMatchingIndexingMap(outputOperands.front()) ||
               cast<ShapedType>(init->get().getType()).getShape() !=
                   cast<ShapedType>(outputOperands.front()->get().getType())
                       .getShape();
      }))
    return failure();
  int64_t chunkLength = bounds[loop] / chunks;

  Location loc = op.getLoc();
  MLIRContext *context = op.getContext();
  rewriter.setInsertionPoint(op);
  // The partial op's loops: the split loop becomes (chunk, element), the
  // loops after it move one place out.
  SmallVector<AffineExpr> shifted;
  for (unsigned dim = 0; dim < numLoops; ++dim)
    shifted.push_back(getAffineDimExpr(dim <= loop ? dim : dim + 1, context));
  AffineExpr chunk = getAffineDimExpr(loop, context);
  AffineExpr element = getAffineDimExpr(loop + 1, context);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    Value value = input->get();
    std::optional<unsigned> position =
        map.getResultPosition(getAffineDimExpr(loop, context));
    if (position) {
      auto type = dyn_cast<RankedTensorType>(value.getType());
      if (!type)
        return failure();
      SmallVector<ReassociationIndices> groups;
      SmallVector<int64_t> shape;
      for (unsigned dim = 0, e = type.getRank(); dim < e; ++dim) {
        groups.emplace_back();
        groups.back().push_back(shape.size());
        if (dim != *position) {
          shape.push_back(type.getDimSize(dim));
          continue;
        }
        groups.back().push_back(shape.size() + 1);
        shape.append({chunks, chunkLength});
      }
      value = tensor::ExpandShapeOp::create(
          rewriter, loc, RankedTensorType::get(shape, type.getElementType()),
          value, groups);
    }
    SmallVector<AffineExpr> results;
    for (AffineExpr result : map.getResults()) {
      if (result == getAffineDimExpr(loop, context)) {
        results.append({chunk, element});
        continue;
      }
      results.push_back(result.replaceDims(shifted));
    }
    inputs.push_back(value);
    maps.push_back(AffineMap::get(numLoops + 1, 0, results, context));
  }
  // The partials: [chunks, output...], chunk outermost so that neighbouring
  // outputs' partials of one chunk are neighbours in memory.
  SmallVector<Value> partialInits;
  SmallVector<Type> partialTypes;
  for (auto [number, init] : llvm::enumerate(op.getDpsInits())) {
    auto type = cast<RankedTensorType>(init.getType());
    SmallVector<int64_t> shape = {chunks};
    llvm::append_range(shape, type.getShape());
    Type element = type.getElementType();
    TypedAttr start = number == 0 ? *arith::getNeutralElement(fold->combiner)
                                  : rewriter.getZeroAttr(element);
    Value empty = tensor::EmptyOp::create(rewriter, loc, shape, element);
    Value startValue = arith::ConstantOp::create(rewriter, loc, start);
    partialInits.push_back(
        linalg::FillOp::create(rewriter, loc, startValue, empty).getResult(0));
    partialTypes.push_back(partialInits.back().getType());
    AffineMap map = op.getMatchingIndexingMap(op.getDpsInitOperand(number));
    SmallVector<AffineExpr> results = {chunk};
    for (AffineExpr result : map.getResults())
      results.push_back(result.replaceDims(shifted));
    maps.push_back(AffineMap::get(numLoops + 1, 0, results, context));
  }
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  iterators.insert(iterators.begin() + loop, utils::IteratorType::parallel);
  auto partial = linalg::GenericOp::create(rewriter, loc, partialTypes, inputs,
                                           partialInits, maps, iterators);
  IRMapping bodyMapping;
  generic.getRegion().cloneInto(&partial.getRegion(), bodyMapping);
  // Positions along the whole loop: chunk * length + element.
  if (fold->position) {
    auto position =
        cast<linalg::IndexOp>(bodyMapping.lookup(fold->position.getOperation()));
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(position);
    Value chunkIndex = linalg::IndexOp::create(rewriter, loc, loop);
    Value elementIndex = linalg::IndexOp::create(rewriter, loc, loop + 1);
    Value length = arith::ConstantIndexOp::create(rewriter, loc, chunkLength);
    Value whole = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, chunkIndex, length), elementIndex);
    rewriter.replaceOp(position, whole);
  }

  // The partials folded into the outputs, chunk by chunk in order (an arg
  // reduction keeps the first position of equal values, as one loop does).
  unsigned rank =
      cast<RankedTensorType>(op.getDpsInits()[0].getType()).getRank();
  AffineMap identity = rewriter.getMultiDimIdentityMap(rank + 1);
  AffineMap dropChunk = identity.dropResult(0);
  SmallVector<AffineMap> foldMaps(partialTypes.size(), identity);
  foldMaps.append(partialTypes.size(), dropChunk);
  SmallVector<utils::IteratorType> foldIterators(rank + 1,
                                                 utils::IteratorType::parallel);
  foldIterators.front() = utils::IteratorType::reduction;
  auto folded = linalg::GenericOp::create(
      rewriter, loc, op->getResultTypes(), partial.getResults(),
      op.getDpsInits(), foldMaps, foldIterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange arguments) {
        unsigned results = partialTypes.size();
        Value value = arguments[0], total = arguments[results];
        IRMapping mapping;
        mapping.map(fold->value, value);
        mapping.map(op.getRegionOutputArgs()[0], total);
        SmallVector<Value> yielded = {
            nested.clone(*fold->combiner, mapping)->getResult(0)};
        if (fold->compare) {
          Value better =
              nested.clone(*fold->compare, mapping)->getResult(0);
          yielded.push_back(arith::SelectOp::create(
              nested, nestedLoc, better, arguments[1], arguments[3]));
        }
        linalg::YieldOp::create(nested, nestedLoc, yielded);
      });
  rewriter.replaceOp(op, folded.getResults());
  return linalg::SplitReductionResult{
      partialInits.front().getDefiningOp<linalg::FillOp>()
          .getOutputs()[0]
          .getDefiningOp(),
      partialInits.front().getDefiningOp<linalg::FillOp>(),
      cast<linalg::LinalgOp>(partial.getOperation()),
      cast<linalg::LinalgOp>(folded.getOperation())};
}
