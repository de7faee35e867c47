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
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/CSE.h"

#include "llvm/ADT/SetVector.h"

namespace ke {
#define GEN_PASS_DEF_KEFUSEROWCHAINS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// Whether `map` reads an operand along the rows, the first `rowLoops`
/// loops (a group norm's batch and group): its first indices are those
/// loops, in order.
bool readsAlongRows(AffineMap map, unsigned rowLoops) {
  if (map.getNumResults() < rowLoops)
    return false;
  for (unsigned loop = 0; loop < rowLoops; ++loop)
    if (map.getResult(loop) != getAffineDimExpr(loop, map.getContext()))
      return false;
  return true;
}

/// Bytes of a statically shaped tensor.
int64_t getTensorBytes(Value value) {
  auto type = cast<ShapedType>(value.getType());
  return type.getNumElements() * type.getElementTypeBitWidth() / 8;
}

/// Whether `op` can be computed per chunk of its first `rowLoops` loops
/// (the rows): a linalg op on tensors with static bounds, those loops
/// parallel, every output indexed by them first (inputs are sliced as
/// their maps say: a row's max per row, a bias along the columns whole, a
/// group norm's weights per group); not a convolution, and a
/// contraction only where the inputs it reads whole hold at most
/// `wholeInputBytes` (a GEMM's large weight would be read once per chunk;
/// its own schedule splits it better).
bool isRowOp(linalg::LinalgOp op, unsigned rowLoops, int64_t wholeInputBytes) {
  if (!op.hasPureTensorSemantics() || op.getNumLoops() < rowLoops ||
      op.hasDynamicShape() || linalg::isaConvolutionOpInterface(op) ||
      llvm::any_of(ArrayRef(op.getIteratorTypesArray()).take_front(rowLoops),
                   [](utils::IteratorType type) {
                     return type != utils::IteratorType::parallel;
                   }))
    return false;
  if (linalg::isaContractionOpInterface(op)) {
    int64_t wholeBytes = 0;
    for (OpOperand *input : op.getDpsInputOperands())
      if (!readsAlongRows(op.getMatchingIndexingMap(input), rowLoops))
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
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (op.isDpsInit(&operand) && !readsAlongRows(map, rowLoops))
      return false;
  }
  return true;
}

/// Whether `op` reduces along its rows other than as a contraction (a
/// softmax's max or sum, a norm's statistics).
bool isRowReduction(Operation *op) {
  auto linalgOp = cast<linalg::LinalgOp>(op);
  return linalgOp.getNumReductionLoops() != 0 &&
         !linalg::isaContractionOpInterface(linalgOp);
}

/// The ops of the chain that ends at `sink`: row ops producing its operands,
/// transitively, whose every user is in the chain (an op something else
/// reads would be computed twice). Empty when the chain has no row
/// reduction (elementwise chains are one op already; a contraction and its
/// epilogue have their own schedule) or `sink` is not a row op. The sink
/// is elementwise along the rows or a contraction (attention's second
/// product).
llvm::SetVector<Operation *> collectChain(linalg::LinalgOp sink,
                                          unsigned rowLoops,
                                          int64_t wholeInputBytes) {
  llvm::SetVector<Operation *> chain;
  if (!isRowOp(sink, rowLoops, wholeInputBytes) ||
      isa<linalg::FillOp>(sink.getOperation()) || isRowReduction(sink) ||
      sink->getNumResults() != 1)
    return {};
  chain.insert(sink);
  // Candidates first, then drop those read outside the chain until none is.
  SmallVector<Operation *> worklist = {sink};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    auto consumer = cast<linalg::LinalgOp>(op);
    for (OpOperand &operand : op->getOpOperands()) {
      auto producer = operand.get().getDefiningOp<linalg::LinalgOp>();
      // Read whole by every chunk, it would be computed once per chunk.
      if (!producer || producer->getBlock() != sink->getBlock() ||
          !isRowOp(producer, rowLoops, wholeInputBytes) ||
          chain.contains(producer) ||
          !readsAlongRows(consumer.getMatchingIndexingMap(&operand), rowLoops))
        continue;
      chain.insert(producer);
      worklist.push_back(producer);
    }
  }
  bool changed = true;
  while (changed) {
    changed = false;
    for (Operation *op : llvm::drop_begin(chain.getArrayRef())) {
      bool readOutside = llvm::any_of(op->getUses(), [&](OpOperand &use) {
        auto user = dyn_cast<linalg::LinalgOp>(use.getOwner());
        return !user || !chain.contains(user) ||
               !readsAlongRows(user.getMatchingIndexingMap(&use), rowLoops);
      });
      if (readOutside) {
        chain.remove(op);
        changed = true;
        break;
      }
    }
  }
  if (!llvm::any_of(chain, isRowReduction))
    return {};
  return chain;
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

struct FuseRowChainsPass : ke::impl::KeFuseRowChainsBase<FuseRowChainsPass> {
  using Base::Base;

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
    // Sinks, last first: a chain fused into a later sink is gone before an
    // earlier op of it is looked at.
    SmallVector<linalg::LinalgOp> sinks;
    getOperation().walk([&](linalg::LinalgOp op) { sinks.push_back(op); });
    IRRewriter rewriter(&getContext());
    llvm::SmallPtrSet<Operation *, 16> fused;
    bool changed = false;
    for (linalg::LinalgOp sink : llvm::reverse(sinks)) {
      // Already in chunks (a schedule's threads, or this pass run before):
      // chunks of chunks would be threads inside threads.
      if (fused.contains(sink) || sink->getParentOfType<scf::ForallOp>())
        continue;
      if (sink->getNumResults() != 1)
        continue;
      // The rows: the fewest leading loops that give least-chunks of them
      // (a group norm's 3 batches of 8 groups: both loops).
      Value output = sink.getDpsInitOperand(0)->get();
      auto outputType = cast<ShapedType>(output.getType());
      if (outputType.getRank() == 0)
        continue;
      unsigned rowLoops = 1;
      int64_t rows = outputType.getDimSize(0);
      while (rows < leastChunks && rowLoops < outputType.getRank())
        rows *= outputType.getDimSize(rowLoops++);
      llvm::SetVector<Operation *> chain =
          collectChain(sink, rowLoops, wholeInputBytes);
      if (chain.empty())
        continue;
      int64_t bytes = getTensorBytes(output);
      // A chain whose tensors fit in the caches gains nothing from going
      // row by row, unless it holds a contraction: each op would otherwise
      // be a parallel region of its own, its product written whole before
      // the next op reads it (attention: 6 regions of a few microseconds
      // each). Too few rows would leave threads idle.
      bool contracts = llvm::any_of(chain, [](Operation *op) {
        return linalg::isaContractionOpInterface(cast<linalg::LinalgOp>(op));
      });
      if ((bytes < minBytes && !contracts) || rows < leastChunks)
        continue;
      // One row of the outer row loops a chunk, the innermost in chunks.
      int64_t innerRows = outputType.getDimSize(rowLoops - 1);
      int64_t outerRows = rows / innerRows;
      int64_t chunk =
          chooseChunkRows(innerRows, bytes / rows,
                          llvm::divideCeil(leastChunks, outerRows), chunkBytes);
      SmallVector<OpFoldResult> tileSizes(sink.getNumLoops(),
                                          rewriter.getIndexAttr(0));
      for (unsigned loop = 0; loop + 1 < rowLoops; ++loop)
        tileSizes[loop] = rewriter.getIndexAttr(1);
      tileSizes[rowLoops - 1] = rewriter.getIndexAttr(chunk);
      scf::SCFTileAndFuseOptions options;
      options.tilingOptions.setTileSizes(tileSizes).setLoopType(
          scf::SCFTilingOptions::LoopType::ForallOp);
      options.setFusionControlFn(
          [&](tensor::ExtractSliceOp, OpResult producer, bool)
              -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
            if (!chain.contains(producer.getOwner()))
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
      for (Operation *op : chain)
        fused.insert(op);
      changed = true;
    }
    if (!changed)
      return;
    // The chain's ops are dead now but for the slices of them that tiling
    // took and fusion replaced; an op two others read was fused into each
    // of them, the same op on the same slices, which CSE merges.
    for (Operation *op : llvm::reverse(sinks)) {
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
