//===- FuseRowChains.cpp - ke-fuse-row-chains -----------------------------===//
//
// A softmax or a norm is a chain of ops over the same rows: a reduction
// along each row (a max, a sum), an elementwise op that reads the row and
// the reduction's result, another reduction, a last elementwise op. Each
// op scheduled on its own sweeps every row before the next op starts, so a
// tensor larger than the caches goes through memory once per op (four
// times for a softmax). Here the last op is tiled along its rows and the
// chain's ops are computed per chunk of rows inside that loop (upstream's
// tile-and-fuse), so each chunk's rows stay in cache from the first op to
// the last, and the chunks are what threads take.
//
// A contraction along the rows joins a chain when what every chunk reads
// whole (attention's K and V) is small: attention's scores then live one
// chunk at a time in cache between its two products and the softmax, all
// in one parallel region instead of one per op.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/CSE.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace ke {
#define GEN_PASS_DEF_KEFUSEROWCHAINS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// Loops of one op, in the order of the sink's rows they stand for.
using RowLoops = SmallVector<unsigned, 4>;

/// The index of `map`'s result that is loop `loop`, if any.
std::optional<unsigned> getResultOfLoop(AffineMap map, unsigned loop) {
  for (auto [index, result] : llvm::enumerate(map.getResults()))
    if (auto dim = dyn_cast<AffineDimExpr>(result);
        dim && dim.getPosition() == loop)
      return index;
  return std::nullopt;
}

/// Whether `map` reads an operand along the rows: every row loop indexes
/// it (a chunk reads a slice of it, not all of it).
bool readsAlongRows(AffineMap map, ArrayRef<unsigned> rows) {
  return llvm::all_of(rows, [&](unsigned loop) {
    return getResultOfLoop(map, loop).has_value();
  });
}

/// Whether `rows` are the leading loops.
bool isLeading(ArrayRef<unsigned> rows) {
  return llvm::all_of(llvm::enumerate(rows), [](auto entry) {
    return entry.index() == entry.value();
  });
}

/// Whether a chunk of `rows` reads an operand through `map` in strided
/// pieces: its innermost dimension is a row loop and another is not (a
/// channels-last tensor chunked along its channels).
bool readsRowsStrided(AffineMap map, ArrayRef<unsigned> rows) {
  auto isRow = [&](AffineExpr result) {
    auto dim = dyn_cast<AffineDimExpr>(result);
    return dim && llvm::is_contained(rows, dim.getPosition());
  };
  return map.getNumResults() > 1 && isRow(map.getResults().back()) &&
         !llvm::all_of(map.getResults(), [&](AffineExpr result) {
           return isRow(result) || isa<AffineConstantExpr>(result);
         });
}

/// Bytes of a statically shaped tensor.
int64_t getTensorBytes(Value value) {
  auto type = cast<ShapedType>(value.getType());
  return type.getNumElements() * type.getElementTypeBitWidth() / 8;
}

/// Whether `op` can be computed per chunk of its loops `rows`: a linalg op
/// on tensors with static bounds, those loops parallel, every output
/// indexed by them (inputs are sliced as their maps say: a row's max per
/// row, a bias along the columns whole, a group norm's weights per group);
/// not a convolution, and a contraction only where the inputs it reads
/// whole hold at most `wholeInputBytes` (a GEMM's large weight would be
/// read once per chunk; its own schedule splits it better).
bool isRowOp(linalg::LinalgOp op, ArrayRef<unsigned> rows,
             int64_t wholeInputBytes) {
  if (!op.hasPureTensorSemantics() || op.hasDynamicShape() ||
      linalg::isaConvolutionOpInterface(op))
    return false;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (llvm::any_of(rows, [&](unsigned loop) {
        return loop >= iterators.size() ||
               iterators[loop] != utils::IteratorType::parallel;
      }))
    return false;
  if (linalg::isaContractionOpInterface(op)) {
    int64_t wholeBytes = 0;
    for (OpOperand *input : op.getDpsInputOperands())
      if (!readsAlongRows(op.getMatchingIndexingMap(input), rows))
        wholeBytes += getTensorBytes(input->get());
    if (wholeBytes > wholeInputBytes)
      return false;
  }
  if (isa<linalg::FillOp>(op.getOperation()))
    return true;
  // Upstream tiles only results read through projected permutations.
  if (!llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isProjectedPermutation(); }))
    return false;
  // Inner rows leave no whole rows to read: only contiguous pieces along
  // the dimensions after them are worth a chunk (a channels-last tensor's
  // channels would be read one element a cache line).
  if (!isLeading(rows) &&
      llvm::any_of(op.getIndexingMapsArray(), [&](AffineMap map) {
        return readsRowsStrided(map, rows);
      }))
    return false;
  // Every output along the rows, and never along its innermost dimension
  // alone: a chunk writes whole pieces of rows.
  return llvm::all_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    return readsAlongRows(map, rows) && !readsRowsStrided(map, rows);
  });
}

/// The loops of `producer` that a chunk of `consumer`'s rows reads it
/// along, where `operand` (of `consumer`) reads it along every row: the
/// loops indexing the same dimensions of the result in the producer's
/// output map (a norm's statistics, [C], read along the C loop of an
/// N x C x H x W op, are rows along their only loop).
std::optional<RowLoops> getProducerRows(linalg::LinalgOp consumer,
                                        OpOperand &operand,
                                        ArrayRef<unsigned> consumerRows) {
  auto result = cast<OpResult>(operand.get());
  auto producer = cast<linalg::LinalgOp>(result.getOwner());
  AffineMap read = consumer.getMatchingIndexingMap(&operand);
  AffineMap written = producer.getIndexingMapMatchingResult(result);
  RowLoops rows;
  for (unsigned loop : consumerRows) {
    std::optional<unsigned> index = getResultOfLoop(read, loop);
    if (!index || *index >= written.getNumResults())
      return std::nullopt;
    auto dim = dyn_cast<AffineDimExpr>(written.getResult(*index));
    if (!dim)
      return std::nullopt;
    rows.push_back(dim.getPosition());
  }
  return rows;
}

/// Whether `op` reduces along its rows other than as a contraction (a
/// softmax's max or sum, a norm's statistics).
bool isRowReduction(Operation *op) {
  auto linalgOp = cast<linalg::LinalgOp>(op);
  return linalgOp.getNumReductionLoops() != 0 &&
         !linalg::isaContractionOpInterface(linalgOp);
}

/// The ops of the chain that ends at `sink`, each with its row loops:
/// row ops producing its operands along the rows, transitively, whose
/// every user is in the chain and reads them along the same rows (an op
/// something else reads would be computed twice). Empty when the chain has
/// no row reduction (elementwise chains are one op already; a contraction
/// and its epilogue have their own schedule) or `sink` is not a row op.
/// The sink is elementwise along the rows or a contraction (attention's
/// second product).
llvm::MapVector<Operation *, RowLoops>
collectChain(linalg::LinalgOp sink, ArrayRef<unsigned> sinkRows,
             int64_t wholeInputBytes) {
  llvm::MapVector<Operation *, RowLoops> chain;
  if (!isRowOp(sink, sinkRows, wholeInputBytes) ||
      isa<linalg::FillOp>(sink.getOperation()) || isRowReduction(sink) ||
      sink->getNumResults() != 1)
    return {};
  chain.insert({sink, RowLoops(sinkRows)});
  // Candidates first, then drop those read outside the chain until none is.
  SmallVector<Operation *> worklist = {sink};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    auto consumer = cast<linalg::LinalgOp>(op);
    RowLoops consumerRows = chain.lookup(op);
    for (OpOperand &operand : op->getOpOperands()) {
      auto producer = operand.get().getDefiningOp<linalg::LinalgOp>();
      // Read whole by every chunk, it would be computed once per chunk.
      if (!producer || producer->getBlock() != sink->getBlock() ||
          chain.contains(producer) ||
          !readsAlongRows(consumer.getMatchingIndexingMap(&operand),
                          consumerRows))
        continue;
      std::optional<RowLoops> rows =
          getProducerRows(consumer, operand, consumerRows);
      if (!rows || !isRowOp(producer, *rows, wholeInputBytes))
        continue;
      chain.insert({producer, *rows});
      worklist.push_back(producer);
    }
  }
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto &[op, rows] : llvm::drop_begin(chain)) {
      bool readOutside = llvm::any_of(op->getUses(), [&](OpOperand &use) {
        auto user = dyn_cast<linalg::LinalgOp>(use.getOwner());
        if (!user || !chain.contains(user))
          return true;
        RowLoops userRows = chain.lookup(user);
        if (!readsAlongRows(user.getMatchingIndexingMap(&use), userRows))
          return true;
        return getProducerRows(user, use, userRows) != rows;
      });
      if (readOutside) {
        chain.erase(op);
        changed = true;
        break;
      }
    }
  }
  if (!llvm::any_of(chain, [](auto &entry) {
        return isRowReduction(entry.first);
      }))
    return {};
  return chain;
}

/// Where a row is larger than a chunk, the values of an elementwise op that
/// several ops of the chain read (a softmax's exp, read by the sum and the
/// division) would go through memory between them: each reader computes
/// them itself instead (upstream's elementwise fusion into a copy per
/// reader), which costs arithmetic but saves a store and a load per
/// element. The ops replaced go to `replaced`; returns whether any was.
bool recomputeSharedValues(RewriterBase &rewriter, linalg::LinalgOp sink,
                           const llvm::MapVector<Operation *, RowLoops> &chain,
                           llvm::SmallPtrSetImpl<Operation *> &replaced) {
  llvm::SetVector<Operation *> shared;
  for (auto &entry : chain) {
    auto producer = dyn_cast<linalg::GenericOp>(entry.first);
    if (producer && producer != sink.getOperation() &&
        linalg::isElementwise(producer) && producer->getNumResults() == 1 &&
        !producer->getResult(0).hasOneUse() &&
        llvm::all_of(producer->getResult(0).getUses(), [](OpOperand &use) {
          return linalg::areElementwiseOpsFusable(&use);
        }))
      shared.insert(producer);
  }
  // A reader that is itself fused away would leave a stale op behind.
  shared.remove_if([&](Operation *producer) {
    return llvm::any_of(producer->getUsers(), [&](Operation *user) {
      return shared.contains(user);
    });
  });
  bool changed = false;
  for (Operation *producer : shared) {
    // One reader at a time, looked up again after each fusion: a reader
    // that reads the value twice is replaced by a fused op that still
    // reads it once.
    llvm::SmallPtrSet<Operation *, 4> refused;
    while (true) {
      OpOperand *use = nullptr;
      for (OpOperand &candidate : producer->getResult(0).getUses())
        if (!refused.contains(candidate.getOwner())) {
          use = &candidate;
          break;
        }
      if (!use)
        break;
      Operation *consumer = use->getOwner();
      // Where the reader is, so the fused op sees all its operands.
      rewriter.setInsertionPoint(consumer);
      Operation *copy = rewriter.clone(*producer);
      rewriter.modifyOpInPlace(consumer,
                               [&] { use->set(copy->getResult(0)); });
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, use);
      // Upstream keeps a producer's result where its body reads its output:
      // the copy's values would be stored after all.
      if (succeeded(fused) &&
          fused->fusedOp->getNumResults() != consumer->getNumResults()) {
        rewriter.eraseOp(fused->fusedOp);
        fused = failure();
      }
      if (failed(fused)) {
        rewriter.modifyOpInPlace(consumer,
                                 [&] { use->set(producer->getResult(0)); });
        rewriter.eraseOp(copy);
        refused.insert(consumer);
        continue;
      }
      for (OpResult result : consumer->getResults()) {
        Value replacement = fused->replacements.lookup(result);
        assert(replacement && "fused op without the reader's result");
        rewriter.replaceAllUsesWith(result, replacement);
      }
      replaced.insert(consumer);
      rewriter.eraseOp(consumer);
      rewriter.eraseOp(copy);
      changed = true;
    }
    if (producer->use_empty()) {
      replaced.insert(producer);
      rewriter.eraseOp(producer);
    }
  }
  return changed;
}

/// Rows per chunk: the largest divisor of `rows` that leaves at least
/// `leastChunks` chunks and keeps a chunk of the sink's output within
/// `chunkBytes` (at least one row).
int64_t chooseChunkRows(int64_t rows, int64_t rowBytes, int64_t leastChunks,
                        int64_t chunkBytes) {
  int64_t most = std::max<int64_t>(
      1, std::min(rows / leastChunks,
                  chunkBytes / std::max<int64_t>(rowBytes, 1)));
  for (int64_t chunk = most; chunk > 1; --chunk)
    if (rows % chunk == 0)
      return chunk;
  return 1;
}

/// A chain worth computing per chunk: its rows and ops.
struct RowChain {
  RowLoops rowLoops;
  int64_t rows = 0;
  int64_t sinkBytes = 0;
  llvm::MapVector<Operation *, RowLoops> ops;
};

struct FuseRowChainsPass : ke::impl::KeFuseRowChainsBase<FuseRowChainsPass> {
  using Base::Base;

  /// The chain that ends at `sink`, where one is worth fusing.
  std::optional<RowChain> findChain(linalg::LinalgOp sink) {
    // Already in chunks (a schedule's threads, or this pass run before):
    // chunks of chunks would be threads inside threads.
    if (sink->getParentOfType<scf::ForallOp>() || sink->getNumResults() != 1 ||
        sink.hasDynamicShape())
      return std::nullopt;
    Value output = sink.getDpsInitOperand(0)->get();
    if (cast<ShapedType>(output.getType()).getRank() == 0)
      return std::nullopt;
    SmallVector<int64_t> loopSizes = sink.getStaticLoopRanges();
    // The rows: the fewest leading loops that give least-chunks of them (a
    // group norm's 3 batches of 8 groups: both loops). Where those make no
    // chain, one inner loop that alone gives least-chunks: a batch norm's
    // channels, its statistics reduced over the batch and the pixels on
    // either side (not the innermost loop: its chunks would be strided).
    SmallVector<RowLoops> candidates;
    RowLoops leading = {0};
    int64_t leadingRows = loopSizes[0];
    while (leadingRows < leastChunks && leading.size() < loopSizes.size()) {
      leadingRows *= loopSizes[leading.size()];
      leading.push_back(leading.size());
    }
    candidates.push_back(leading);
    // An inner row is as large as the loops after it and before it: one
    // that does not fit a chunk would go through memory once per op.
    RowChain chain;
    chain.sinkBytes = getTensorBytes(output);
    for (unsigned loop = 1; loop + 1 < loopSizes.size(); ++loop)
      if (loopSizes[loop] >= leastChunks &&
          chain.sinkBytes / loopSizes[loop] <= chunkBytes)
        candidates.push_back({loop});
    for (const RowLoops &candidate : candidates) {
      chain.ops = collectChain(sink, candidate, wholeInputBytes);
      if (!chain.ops.empty()) {
        chain.rowLoops = candidate;
        break;
      }
    }
    if (chain.ops.empty())
      return std::nullopt;
    chain.rows = 1;
    for (unsigned loop : chain.rowLoops)
      chain.rows *= loopSizes[loop];
    // A chain whose tensors fit in the caches gains nothing from going row
    // by row, unless it holds a contraction: each op would otherwise be a
    // parallel region of its own, its product written whole before the
    // next op reads it (attention: 6 regions of a few microseconds each).
    // Too few rows would leave threads idle.
    bool contracts = llvm::any_of(chain.ops, [](auto &entry) {
      return linalg::isaContractionOpInterface(
          cast<linalg::LinalgOp>(entry.first));
    });
    if ((chain.sinkBytes < minBytes && !contracts) ||
        chain.rows < leastChunks)
      return std::nullopt;
    return chain;
  }

  void runOnOperation() override {
    if (leastChunks < 1 || chunkBytes < 1) {
      getOperation().emitError()
          << "ke-fuse-row-chains: least-chunks and chunk-bytes must be "
             "positive, got "
          << static_cast<int64_t>(leastChunks) << " and "
          << static_cast<int64_t>(chunkBytes);
      return signalPassFailure();
    }
    if (wholeInputBytes < 0) {
      getOperation().emitError()
          << "ke-fuse-row-chains: whole-input-bytes must not be negative, got "
          << static_cast<int64_t>(wholeInputBytes);
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    // Sinks, last first: a chain fused into a later sink is gone before an
    // earlier op of it is looked at.
    auto collectSinks = [&] {
      SmallVector<linalg::LinalgOp> sinks;
      getOperation().walk([&](linalg::LinalgOp op) { sinks.push_back(op); });
      std::reverse(sinks.begin(), sinks.end());
      return sinks;
    };
    // Rows larger than a chunk first: their shared values are recomputed
    // by each reader, which changes the chains. In rounds: a value fused
    // into its readers may leave the value it read shared in turn (a
    // subtraction before an exp); each round removes uses, a few suffice.
    bool recomputed = true;
    for (int round = 0; recomputed && round < 8; ++round) {
      recomputed = false;
      llvm::SmallPtrSet<Operation *, 16> replaced;
      for (linalg::LinalgOp sink : collectSinks()) {
        if (replaced.contains(sink))
          continue;
        std::optional<RowChain> chain = findChain(sink);
        if (chain && chain->sinkBytes / chain->rows > chunkBytes)
          recomputed |=
              recomputeSharedValues(rewriter, sink, chain->ops, replaced);
      }
    }
    SmallVector<linalg::LinalgOp> sinks = collectSinks();
    llvm::SmallPtrSet<Operation *, 16> fused;
    bool changed = false;
    for (linalg::LinalgOp sink : sinks) {
      if (fused.contains(sink))
        continue;
      std::optional<RowChain> chain = findChain(sink);
      if (!chain)
        continue;
      SmallVector<int64_t> loopSizes = sink.getStaticLoopRanges();
      // One row of the outer row loops a chunk, the innermost in chunks.
      ArrayRef<unsigned> rowLoops = chain->rowLoops;
      int64_t innerRows = loopSizes[rowLoops.back()];
      int64_t outerRows = chain->rows / innerRows;
      int64_t chunk = chooseChunkRows(
          innerRows, chain->sinkBytes / chain->rows,
          llvm::divideCeil(leastChunks, outerRows), chunkBytes);
      SmallVector<OpFoldResult> tileSizes(sink.getNumLoops(),
                                          rewriter.getIndexAttr(0));
      for (unsigned loop : rowLoops.drop_back())
        tileSizes[loop] = rewriter.getIndexAttr(1);
      tileSizes[rowLoops.back()] = rewriter.getIndexAttr(chunk);
      scf::SCFTileAndFuseOptions options;
      options.tilingOptions.setTileSizes(tileSizes).setLoopType(
          scf::SCFTilingOptions::LoopType::ForallOp);
      options.setFusionControlFn(
          [&](tensor::ExtractSliceOp, OpResult producer, bool)
              -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
            if (!chain->ops.contains(producer.getOwner()))
              return std::nullopt;
            return scf::SCFTileAndFuseOptions::ControlFnResult{};
          });
      rewriter.setInsertionPoint(sink);
      FailureOr<scf::SCFTileAndFuseResult> result =
          scf::tileConsumerAndFuseProducersUsingSCF(
              rewriter, cast<TilingInterface>(sink.getOperation()), options);
      if (failed(result))
        continue;
      for (OpResult value : sink->getResults())
        if (Value replacement = result->replacements.lookup(value))
          rewriter.replaceAllUsesWith(value, replacement);
      for (auto &entry : chain->ops)
        fused.insert(entry.first);
      changed = true;
    }
    if (!changed)
      return;
    // The chain's ops are dead now but for the slices of them that tiling
    // took and fusion replaced; an op two others read was fused into each
    // of them, the same op on the same slices, which CSE merges.
    for (Operation *op : sinks) {
      if (!fused.contains(op))
        continue;
      for (Operation *user : llvm::make_early_inc_range(op->getUsers()))
        if (isa<tensor::ExtractSliceOp>(user) && isOpTriviallyDead(user))
          rewriter.eraseOp(user);
      if (op->use_empty())
        rewriter.eraseOp(op);
    }
    DominanceInfo dominance;
    eliminateCommonSubExpressions(rewriter, dominance, getOperation());
  }
};
} // namespace
