//===- PrefixScansForGPU.cpp - ke-prefix-scans-for-gpu ---------------------===//
//
// A log-step prefix scan on the GPU is log2(n) kernels, each reading and
// writing the whole tensor (a cumsum over rows of 32768: 16 launches and
// 48 MB of traffic each). A sequential scan per row would read it once but
// leave most of the GPU idle. This pass splits the scan dimension into
// chunks whose totals are a small reduction. Along the innermost dimension
// a warp per chunk (WarpScan.h) combines the totals before its chunk and
// scans it; elsewhere the chunks' exclusive offsets are a second reduction
// and one thread per chunk runs through it from its offset (neighbouring
// threads then read neighbouring columns).
//
//===----------------------------------------------------------------------===//

#include "WarpScan.h"

#include "ke/Codegen/Passes.h"
#include "ke/Codegen/PrefixScanChains.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace ke {
#define GEN_PASS_DEF_KEPREFIXSCANSFORGPU
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;
using ke::ScanStep;

namespace {
/// Fewest elements per chunk worth a thread; a dimension without such a
/// divisor below the chunk size is scanned as one chunk.
constexpr int64_t kMinChunk = 16;

/// The largest divisor of `length` of at most `limit`, if at least
/// kMinChunk; else the whole length (one chunk).
int64_t chooseChunkLength(int64_t length, int64_t limit) {
  for (int64_t size = std::min(limit, length); size >= kMinChunk; --size)
    if (length % size == 0)
      return size;
  return length;
}

/// Chunk lengths of the two ways to scan a chunk, and warps a block.
struct ChunkOptions {
  int64_t threadChunk = 0, warpChunk = 0, warpsPerBlock = 0;
};

class ChunkedScanBuilder {
public:
  /// Scans `source` along the chain's dimension; `reverse`: from its
  /// end (a flipped tensor's scan, flipped back), where warps scan it.
  ChunkedScanBuilder(OpBuilder &builder, Location loc, const ScanStep &step,
                     Value source, const ChunkOptions &options, bool reverse)
      : b(builder), loc(loc), step(step), source(source) {
    type = cast<RankedTensorType>(source.getType());
    elementType = type.getElementType();
    rank = type.getRank();
    dim = step.dim;
    length = type.getDimSize(dim);
    // Float sums and products accumulate in f64.
    accumulatorType = elementType;
    if (isa<arith::AddFOp, arith::MulFOp>(step.combiner) &&
        cast<FloatType>(elementType).getWidth() < 64)
      accumulatorType = b.getF64Type();
    identity = step.fill;
    if (accumulatorType != elementType)
      identity = FloatAttr::get(accumulatorType,
                                cast<FloatAttr>(step.fill).getValueAsDouble());
    warpsPerBlock = options.warpsPerBlock;
    byWarps = warpsPerBlock > 0 &&
              ke::detail::canScanByWarps(source, dim, accumulatorType);
    chunkLength = chooseChunkLength(
        length, byWarps ? options.warpChunk : options.threadChunk);
    chunks = length / chunkLength;
    this->reverse = reverse && byWarps;
  }

  /// Whether the scan runs from the end (asked for, and by warps).
  bool isReversed() const { return reverse; }

  Value build() {
    if (!byWarps)
      return buildScan(chunks > 1 ? buildOffsets(buildTotals()) : Value());
    // A warp combines the totals before its chunk itself.
    ke::detail::WarpScanPlan plan;
    plan.source = source;
    plan.step = &step;
    plan.totals = chunks > 1 ? buildTotals() : Value();
    plan.chunkLength = chunkLength;
    plan.chunks = chunks;
    plan.accumulatorType = accumulatorType;
    plan.identity = identity;
    plan.warpsPerBlock = warpsPerBlock;
    plan.reverse = reverse;
    return ke::detail::buildWarpScan(b, loc, plan);
  }

private:
  Value toAccumulator(OpBuilder &nested, Location nestedLoc, Value value) {
    if (accumulatorType == elementType)
      return value;
    return arith::ExtFOp::create(nested, nestedLoc, accumulatorType, value);
  }

  Value toElement(OpBuilder &nested, Location nestedLoc, Value value) {
    if (accumulatorType == elementType)
      return value;
    return arith::TruncFOp::create(nested, nestedLoc, elementType, value);
  }

  /// The shape with the scan dimension replaced by `sizes`.
  SmallVector<int64_t> replaceScanDim(ArrayRef<int64_t> sizes) {
    SmallVector<int64_t> shape;
    for (int64_t d = 0; d < rank; ++d) {
      if (d == dim)
        llvm::append_range(shape, sizes);
      else
        shape.push_back(type.getDimSize(d));
    }
    return shape;
  }

  Value filled(ArrayRef<int64_t> shape) {
    Value empty = tensor::EmptyOp::create(b, loc, shape, accumulatorType);
    Value value = arith::ConstantOp::create(b, loc, identity);
    return linalg::FillOp::create(b, loc, value, empty).getResult(0);
  }

  /// A reduction into a per-chunk tensor started from the identity: each
  /// iteration combines `element` (of the input's value) into it.
  Value combineIntoChunks(
      Value input, ArrayRef<AffineMap> maps,
      ArrayRef<utils::IteratorType> iterators,
      function_ref<Value(OpBuilder &, Location, Value)> element) {
    SmallVector<int64_t> shape = replaceScanDim({chunks});
    return linalg::GenericOp::create(
               b, loc,
               TypeRange{RankedTensorType::get(shape, accumulatorType)},
               ValueRange{input}, ValueRange{filled(shape)}, maps, iterators,
               [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
                 linalg::YieldOp::create(
                     nested, nestedLoc,
                     ke::combineScanValues(
                         nested, nestedLoc, step, args[1],
                         element(nested, nestedLoc, args[0])));
               })
        .getResult(0);
  }

  /// totals[..., c, ...]: each chunk's elements combined.
  Value buildTotals() {
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0, next = 0; d < rank; ++d) {
      if (d == dim) {
        groups.push_back({next, next + 1});
        next += 2;
      } else {
        groups.push_back({next++});
      }
    }
    SmallVector<int64_t> expandedShape =
        replaceScanDim({chunks, chunkLength});
    Value expanded = tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get(expandedShape, elementType), source,
        groups);
    MLIRContext *context = b.getContext();
    AffineMap all = AffineMap::getMultiDimIdentityMap(rank + 1, context);
    SmallVector<AffineExpr> outputDims;
    for (int64_t d = 0; d <= rank; ++d)
      if (d != dim + 1)
        outputDims.push_back(getAffineDimExpr(d, context));
    AffineMap perChunk = AffineMap::get(rank + 1, 0, outputDims, context);
    SmallVector<utils::IteratorType> iterators(rank + 1,
                                               utils::IteratorType::parallel);
    iterators[dim + 1] = utils::IteratorType::reduction;
    return combineIntoChunks(
        expanded, {all, perChunk}, iterators,
        [&](OpBuilder &nested, Location nestedLoc, Value value) {
          return toAccumulator(nested, nestedLoc, value);
        });
  }

  /// offsets[..., c, ...]: the totals of the chunks before c combined (the
  /// identity for the first), as a reduction over a second chunk loop
  /// (innermost) masked to those chunks.
  Value buildOffsets(Value totals) {
    MLIRContext *context = b.getContext();
    SmallVector<AffineExpr> outputDims, otherChunk;
    for (int64_t d = 0; d < rank; ++d) {
      outputDims.push_back(getAffineDimExpr(d, context));
      otherChunk.push_back(getAffineDimExpr(d == dim ? rank : d, context));
    }
    SmallVector<AffineMap> maps = {
        AffineMap::get(rank + 1, 0, otherChunk, context),
        AffineMap::get(rank + 1, 0, outputDims, context)};
    SmallVector<utils::IteratorType> iterators(rank + 1,
                                               utils::IteratorType::parallel);
    iterators[rank] = utils::IteratorType::reduction;
    return combineIntoChunks(
        totals, maps, iterators,
        [&](OpBuilder &nested, Location nestedLoc, Value total) -> Value {
          Value chunk = linalg::IndexOp::create(nested, nestedLoc, dim);
          Value before = linalg::IndexOp::create(nested, nestedLoc, rank);
          Value earlier = arith::CmpIOp::create(
              nested, nestedLoc, arith::CmpIPredicate::ult, before, chunk);
          Value neutral =
              arith::ConstantOp::create(nested, nestedLoc, identity);
          return arith::SelectOp::create(nested, nestedLoc, earlier, total,
                                         neutral);
        });
  }

  /// Elements a thread reads before it writes them: 64 bytes' worth (the
  /// largest such divisor of the chunk).
  int64_t getBatchLength() const {
    if (!elementType.isIntOrFloat())
      return 1;
    int64_t width = std::max<int64_t>(
        1, 512 / std::max<int64_t>(8, elementType.getIntOrFloatBitWidth()));
    while (width > 1 && chunkLength % width != 0)
      width /= 2;
    return width;
  }

  /// One thread per (other dimensions, chunk) running through the chunk.
  Value buildScan(Value offsets) {
    SmallVector<int64_t> bounds = replaceScanDim({chunks});
    SmallVector<OpFoldResult> lower, upper, steps;
    for (int64_t bound : bounds) {
      lower.push_back(b.getIndexAttr(0));
      upper.push_back(b.getIndexAttr(bound));
      steps.push_back(b.getIndexAttr(1));
    }
    Value output = tensor::EmptyOp::create(b, loc, type.getShape(), elementType);
    auto forall = scf::ForallOp::create(b, loc, lower, upper, steps,
                                        ValueRange{output}, std::nullopt);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(forall.getBody());
    SmallVector<Value> ivs(forall.getInductionVars());
    Value shared = forall.getRegionIterArgs().front();
    Value start = arith::MulIOp::create(
        b, loc, ivs[dim], arith::ConstantIndexOp::create(b, loc, chunkLength));
    SmallVector<OpFoldResult> sliceOffsets, sliceSizes, sliceStrides;
    for (int64_t d = 0; d < rank; ++d) {
      sliceOffsets.push_back(d == dim ? OpFoldResult(start)
                                      : OpFoldResult(ivs[d]));
      sliceSizes.push_back(b.getIndexAttr(d == dim ? chunkLength : 1));
      sliceStrides.push_back(b.getIndexAttr(1));
    }
    Value slice = tensor::ExtractSliceOp::create(b, loc, shared, sliceOffsets,
                                                 sliceSizes, sliceStrides);
    Value initial =
        offsets ? tensor::ExtractOp::create(b, loc, offsets, ivs).getResult()
                : arith::ConstantOp::create(b, loc, identity).getResult();
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    int64_t width = getBatchLength();
    auto loop = scf::ForOp::create(
        b, loc, zero, arith::ConstantIndexOp::create(b, loc, chunkLength),
        arith::ConstantIndexOp::create(b, loc, width),
        ValueRange{initial, slice},
        [&](OpBuilder &nested, Location nestedLoc, Value k,
            ValueRange carried) {
          SmallVector<Value> sourceIndices(ivs.begin(), ivs.end());
          sourceIndices[dim] =
              arith::AddIOp::create(nested, nestedLoc, start, k);
          SmallVector<Value> sliceIndices(rank, zero);
          sliceIndices[dim] = k;
          Value running = carried[0], written = carried[1];
          // `width` elements read before any is written: the thread's loads
          // are then not held behind its stores (which may alias them).
          SmallVector<Value> elements;
          for (int64_t lane = 0; lane < width; ++lane) {
            SmallVector<Value> at(sourceIndices);
            if (lane)
              at[dim] = arith::AddIOp::create(
                  nested, nestedLoc, at[dim],
                  arith::ConstantIndexOp::create(nested, nestedLoc, lane));
            elements.push_back(
                tensor::ExtractOp::create(nested, nestedLoc, source, at));
          }
          for (auto [lane, element] : llvm::enumerate(elements)) {
            running = ke::combineScanValues(
                nested, nestedLoc, step, running,
                toAccumulator(nested, nestedLoc, element));
            SmallVector<Value> at(sliceIndices);
            if (lane)
              at[dim] = arith::AddIOp::create(
                  nested, nestedLoc, at[dim],
                  arith::ConstantIndexOp::create(nested, nestedLoc, lane));
            written = tensor::InsertOp::create(
                nested, nestedLoc, toElement(nested, nestedLoc, running),
                written, at);
          }
          scf::YieldOp::create(nested, nestedLoc,
                               ValueRange{running, written});
        });
    b.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(b, loc, loop.getResult(1), shared,
                                          sliceOffsets, sliceSizes,
                                          sliceStrides);
    return forall.getResult(0);
  }

  OpBuilder &b;
  Location loc;
  const ScanStep &step;
  Value source;
  RankedTensorType type;
  Type elementType, accumulatorType;
  TypedAttr identity;
  int64_t rank = 0, dim = 0, length = 0, chunkLength = 0, chunks = 0;
  int64_t warpsPerBlock = 0;
  bool byWarps = false, reverse = false;
};

/// The tensor that `flipped` reverses along `dim`, where it is a flip as
/// torch-mlir writes one: a parallel linalg.generic whose body yields
/// `tensor.extract %x[i0, ..., (n - 1) - i_dim, ...]` of a tensor `%x` of
/// its own type, every other index its loop's.
Value matchFlip(Value flipped, int64_t dim) {
  auto generic = flipped.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic->getNumResults() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops())
    return {};
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  auto extract = yield.getValues().front().getDefiningOp<tensor::ExtractOp>();
  if (!extract || extract->getBlock() != generic.getBody() ||
      extract.getTensor().getType() != flipped.getType() ||
      !extract.getTensor().getParentRegion()->isProperAncestor(
          &generic.getRegion()))
    return {};
  auto loopIndex = [](Value value, int64_t loop) {
    auto index = value.getDefiningOp<linalg::IndexOp>();
    return index && static_cast<int64_t>(index.getDim()) == loop;
  };
  auto type = cast<RankedTensorType>(flipped.getType());
  for (auto [d, index] : llvm::enumerate(extract.getIndices())) {
    if (static_cast<int64_t>(d) != dim) {
      if (!loopIndex(index, d))
        return {};
      continue;
    }
    auto mirrored = index.getDefiningOp<arith::SubIOp>();
    if (!mirrored || !loopIndex(mirrored.getRhs(), d) ||
        getConstantIntValue(mirrored.getLhs()) != type.getDimSize(d) - 1)
      return {};
  }
  // Nothing else in the body: the flip is the whole op.
  for (Operation &op : generic.getBody()->without_terminator())
    if (!isa<linalg::IndexOp, arith::SubIOp, arith::ConstantOp,
             tensor::ExtractOp>(op))
      return {};
  return extract.getTensor();
}

/// The flip that alone reads `scan` along `dim` (cumsum(x.flip).flip;
/// torch-mlir also passes the flipped tensor as the flip's unused input).
linalg::GenericOp findFlipBack(Value scan, int64_t dim) {
  if (scan.use_empty())
    return {};
  Operation *user = *scan.getUsers().begin();
  auto generic = dyn_cast<linalg::GenericOp>(user);
  if (!generic)
    generic = user->getParentOfType<linalg::GenericOp>();
  if (!generic || matchFlip(generic->getResult(0), dim) != scan ||
      llvm::any_of(scan.getUsers(), [&](Operation *other) {
        return other != generic && !generic->isProperAncestor(other);
      }))
    return {};
  return generic;
}

struct PrefixScansForGPUPass
    : ke::impl::KePrefixScansForGPUBase<PrefixScansForGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    if (chunk < 1 || warpChunk < 1 || warps < 0 || warps > 32) {
      getOperation().emitError()
          << "ke-prefix-scans-for-gpu: chunk and warp-chunk must be "
             "positive and warps 0 to 32 (0: no warp scans), got chunk="
          << static_cast<int64_t>(chunk)
          << ", warp-chunk=" << static_cast<int64_t>(warpChunk)
          << ", warps=" << static_cast<int64_t>(warps);
      return signalPassFailure();
    }
    ChunkOptions options{chunk, warpChunk, warps};
    IRRewriter rewriter(&getContext());
    for (SmallVector<ScanStep> &chain :
         ke::findPrefixScanChains(getOperation())) {
      Value source = ke::getScannedTensor(chain);
      int64_t dim = chain.front().dim;
      Location loc = chain.back().op.getLoc();
      rewriter.setInsertionPoint(chain.back().op);
      // A flipped tensor's scan flipped back is the tensor's scan from its
      // end: neither flip is made.
      Value unflipped = matchFlip(source, dim);
      linalg::GenericOp flipBack =
          unflipped ? findFlipBack(chain.back().op->getResult(0), dim)
                    : linalg::GenericOp();
      if (flipBack) {
        ChunkedScanBuilder reversed(rewriter, loc, chain.front(), unflipped,
                                    options, /*reverse=*/true);
        if (reversed.isReversed()) {
          Value scan = reversed.build();
          rewriter.replaceOp(flipBack, scan);
          ke::replaceScanChain(rewriter, chain, scan);
          if (Operation *flip = source.getDefiningOp(); flip->use_empty())
            rewriter.eraseOp(flip);
          continue;
        }
      }
      ChunkedScanBuilder builder(rewriter, loc, chain.front(), source, options,
                                 /*reverse=*/false);
      ke::replaceScanChain(rewriter, chain, builder.build());
    }
  }
};
} // namespace
