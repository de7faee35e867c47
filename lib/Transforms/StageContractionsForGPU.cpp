//===- StageContractionsForGPU.cpp - GEMM tiles through shared memory -----===//
//
// A contraction mapped one thread per output (or per small tile of outputs)
// reads every operand element from global memory once per output that uses
// it: a 1024^3 matmul reads 2 GB through L1/L2 for 8 MB of data. This gives
// each thread block a tile of outputs and walks the reduction in steps:
// the block copies the step's slices of both inputs into shared memory
// (coalesced), waits, and every thread accumulates its own outputs in
// registers from shared memory, so each global element is read once per
// block instead of once per output.
//
//===----------------------------------------------------------------------===//

#include "ke/KeDialect.h"
#include "ke/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace ke {
#define GEN_PASS_DEF_KESTAGECONTRACTIONSFORGPU
#include "ke/Transforms/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// Threads per block along each output dimension (16 x 16 = 256).
constexpr int64_t kThreadsPerSide = 16;

/// A contraction the rewrite handles: one output, static bounds, exactly
/// one reduction loop k, the output's two innermost dimensions plain
/// parallel loops i (rows) and j (columns), other parallel loops (batches)
/// anywhere, every input a buffer indexed by plain loops that reads k and
/// exactly one of i and j, a body of arithmetic on the inputs folded into
/// the output by an add.
struct StagedContraction {
  linalg::LinalgOp op;
  Operation *combiner = nullptr;
  unsigned rowLoop = 0, columnLoop = 0, reductionLoop = 0;
  /// Per input: whether it is read along rows (i, like a matmul's A)
  /// rather than along columns (j, like B).
  SmallVector<bool> alongRows;
  /// A linalg.fill of the output right before the op: its value starts
  /// the accumulators and the fill goes away.
  linalg::FillOp fill;
  /// Outputs per block along i and j.
  int64_t tile = 0;
};

/// The fill of `op`'s output right before it: same buffer, same block, no
/// other use of the buffer in between and no views of it (which could
/// alias).
linalg::FillOp findInitializingFill(linalg::LinalgOp op) {
  Value buffer = op.getDpsInitOperand(0)->get();
  for (Operation *previous = op->getPrevNode(); previous;
       previous = previous->getPrevNode()) {
    auto fill = dyn_cast<linalg::FillOp>(previous);
    if (fill && fill.getDpsInitOperand(0)->get() == buffer) {
      if (!fill.hasPureBufferSemantics() ||
          fill.getInputs().front().getType() !=
              getElementTypeOrSelf(buffer.getType()))
        return {};
      for (Operation *user : buffer.getUsers())
        if (isa<ViewLikeOpInterface>(user) ||
            user->getBlock() != op->getBlock())
          return {};
      return fill;
    }
    if (llvm::is_contained(previous->getOperands(), buffer))
      return {};
  }
  return {};
}

std::optional<StagedContraction> match(linalg::LinalgOp op, int64_t stepK) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() != 1 || op.getNumDpsInputs() == 0 ||
      llvm::any_of(op.getStaticLoopRanges(), ShapedType::isDynamic))
    return std::nullopt;
  Block *body = op.getBlock();
  BlockArgument accumulator = op.getRegionOutputArgs().front();
  if (!accumulator.getType().isF32() || !accumulator.hasOneUse() ||
      !body->getOps<linalg::IndexOp>().empty())
    return std::nullopt;
  Operation *combiner = cast<linalg::YieldOp>(body->getTerminator())
                            .getOperand(0)
                            .getDefiningOp();
  if (!isa_and_nonnull<arith::AddFOp>(combiner) ||
      combiner->getBlock() != body ||
      !llvm::is_contained(combiner->getOperands(), accumulator))
    return std::nullopt;
  StagedContraction contraction;
  contraction.op = op;
  contraction.combiner = combiner;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (auto [loop, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::reduction)
      contraction.reductionLoop = loop;
  AffineMap output = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (output.getNumResults() < 2 || !output.isProjectedPermutation() ||
      output.isFunctionOfDim(contraction.reductionLoop))
    return std::nullopt;
  contraction.rowLoop =
      cast<AffineDimExpr>(output.getResult(output.getNumResults() - 2))
          .getPosition();
  contraction.columnLoop =
      cast<AffineDimExpr>(output.getResults().back()).getPosition();
  if (op.getStaticLoopRanges()[contraction.reductionLoop] % stepK != 0)
    return std::nullopt;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    bool rows = map.isFunctionOfDim(contraction.rowLoop);
    bool columns = map.isFunctionOfDim(contraction.columnLoop);
    if (!isa<MemRefType>(input->get().getType()) ||
        !map.isProjectedPermutation() ||
        !map.isFunctionOfDim(contraction.reductionLoop) || rows == columns)
      return std::nullopt;
    contraction.alongRows.push_back(rows);
  }
  return contraction;
}

/// The block tile: the largest multiple of 16 up to `largest` dividing
/// both i and j, smaller (down to 16) while the grid would have fewer than
/// `minBlocks` blocks (attention's 256x256 scores are 16 blocks of 64x64
/// on an H100's 132 SMs); exactly `largest` when `exact`. 0: none fits.
int64_t chooseTile(const StagedContraction &contraction, int64_t largest,
                   int64_t minBlocks, bool exact) {
  linalg::LinalgOp op = contraction.op;
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  int64_t rows = bounds[contraction.rowLoop],
          columns = bounds[contraction.columnLoop];
  int64_t outputs = 1;
  for (auto [loop, bound] : llvm::enumerate(bounds))
    if (loop != contraction.reductionLoop)
      outputs *= bound;
  auto fits = [&](int64_t tile) {
    return rows % tile == 0 && columns % tile == 0;
  };
  if (exact)
    return fits(largest) ? largest : 0;
  int64_t chosen = 0;
  for (int64_t tile = largest; tile >= kThreadsPerSide;
       tile -= kThreadsPerSide) {
    if (!fits(tile))
      continue;
    chosen = tile;
    if (outputs / (tile * tile) >= minBlocks)
      break;
  }
  return chosen;
}

/// Indices of `map` at `ivs` (a projected permutation: no arithmetic).
SmallVector<Value> project(AffineMap map, ArrayRef<Value> ivs) {
  SmallVector<Value> indices;
  for (AffineExpr result : map.getResults())
    indices.push_back(ivs[cast<AffineDimExpr>(result).getPosition()]);
  return indices;
}

void stage(const StagedContraction &contraction, int64_t stepK) {
  linalg::LinalgOp op = contraction.op;
  int64_t tile = contraction.tile;
  Location loc = op.getLoc();
  MLIRContext *context = op.getContext();
  OpBuilder builder(op);
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  unsigned rowLoop = contraction.rowLoop, columnLoop = contraction.columnLoop,
           reductionLoop = contraction.reductionLoop;
  SmallVector<unsigned> batchLoops;
  SmallVector<int64_t> batchShape;
  int64_t batches = 1;
  for (unsigned loop = 0; loop < bounds.size(); ++loop)
    if (loop != rowLoop && loop != columnLoop && loop != reductionLoop) {
      batchLoops.push_back(loop);
      batchShape.push_back(bounds[loop]);
      batches *= bounds[loop];
    }
  int64_t perThread = tile / kThreadsPerSide;
  auto constant = [&](OpBuilder &b, int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  // One shared slice per input: [stepK][tile + 1] (the padding keeps the
  // column-wise stores of k-major inputs off a single bank).
  auto workgroup =
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  SmallVector<Type> sliceTypes;
  for (OpOperand *input : op.getDpsInputOperands())
    sliceTypes.push_back(MemRefType::get(
        {stepK, tile + 1}, getElementTypeOrSelf(input->get().getType()),
        MemRefLayoutAttrInterface{}, workgroup));
  auto launch = gpu::LaunchOp::create(
      builder, loc, constant(builder, bounds[columnLoop] / tile),
      constant(builder, bounds[rowLoop] / tile), constant(builder, batches),
      constant(builder, kThreadsPerSide), constant(builder, kThreadsPerSide),
      constant(builder, 1), /*dynamicSharedMemorySize=*/nullptr,
      /*asyncTokenType=*/nullptr, /*asyncDependencies=*/{}, sliceTypes);
  Block &kernel = launch.getBody().front();
  builder.setInsertionPointToStart(&kernel);
  gpu::KernelDim3 block = launch.getBlockIds(), thread = launch.getThreadIds();
  ArrayRef<BlockArgument> slices = launch.getWorkgroupAttributions();
  SmallVector<Value> base(bounds.size(), constant(builder, 0));
  if (!batchLoops.empty()) {
    SmallVector<Value> batchIvs;
    if (batchLoops.size() == 1)
      batchIvs.push_back(block.z);
    else
      batchIvs = affine::AffineDelinearizeIndexOp::create(
                     builder, loc, block.z, batchShape, /*hasOuterBound=*/true)
                     .getResults();
    for (auto [loop, iv] : llvm::zip(batchLoops, batchIvs))
      base[loop] = iv;
  }
  base[rowLoop] = arith::MulIOp::create(builder, loc, block.y,
                                        constant(builder, tile));
  base[columnLoop] = arith::MulIOp::create(builder, loc, block.x,
                                           constant(builder, tile));
  // Thread (x, y) owns rows y + 16 r and columns x + 16 c of the tile:
  // neighbouring threads read neighbouring shared words and store
  // neighbouring output elements.
  SmallVector<Value> rows, columns;
  for (int64_t r = 0; r < perThread; ++r)
    rows.push_back(arith::AddIOp::create(builder, loc, thread.y,
                                         constant(builder, r * kThreadsPerSide)));
  for (int64_t c = 0; c < perThread; ++c)
    columns.push_back(arith::AddIOp::create(
        builder, loc, thread.x, constant(builder, c * kThreadsPerSide)));
  OpOperand *init = op.getDpsInitOperand(0);
  AffineMap outputMap = op.getMatchingIndexingMap(init);
  auto outputIndices = [&](OpBuilder &b, int64_t r, int64_t c) {
    SmallVector<Value> ivs(base);
    ivs[rowLoop] = arith::AddIOp::create(b, loc, base[rowLoop], rows[r]);
    ivs[columnLoop] =
        arith::AddIOp::create(b, loc, base[columnLoop], columns[c]);
    return project(outputMap, ivs);
  };
  linalg::FillOp fill = contraction.fill;
  SmallVector<Value> initial;
  for (int64_t r = 0; r < perThread; ++r)
    for (int64_t c = 0; c < perThread; ++c)
      initial.push_back(fill ? fill.getInputs().front()
                            : memref::LoadOp::create(builder, loc, init->get(),
                                                     outputIndices(builder, r, c))
                                  .getResult());
  Value linearThread = arith::AddIOp::create(
      builder, loc,
      arith::MulIOp::create(builder, loc, thread.y,
                            constant(builder, kThreadsPerSide)),
      thread.x);
  int64_t threads = kThreadsPerSide * kThreadsPerSide;
  auto steps = scf::ForOp::create(builder, loc, constant(builder, 0),
                                  constant(builder, bounds[reductionLoop]),
                                  constant(builder, stepK), initial);
  builder.setInsertionPointToStart(steps.getBody());
  Value k0 = steps.getInductionVar();
  // Copy the step's slices: element e of tile x stepK, taken in the order
  // of the input's innermost dimension (coalesced global reads).
  for (auto [position, input] : llvm::enumerate(op.getDpsInputOperands())) {
    AffineMap map = op.getMatchingIndexingMap(input);
    unsigned along = contraction.alongRows[position] ? rowLoop : columnLoop;
    bool kInnermost =
        cast<AffineDimExpr>(map.getResults().back()).getPosition() ==
        reductionLoop;
    for (int64_t first = 0; first < tile * stepK; first += threads) {
      OpBuilder::InsertionGuard guard(builder);
      Value element = arith::AddIOp::create(builder, loc, linearThread,
                                            constant(builder, first));
      if (first + threads > tile * stepK) {
        // The last round has fewer elements than threads.
        Value inside = arith::CmpIOp::create(
            builder, loc, arith::CmpIPredicate::ult, element,
            constant(builder, tile * stepK));
        auto ifInside = scf::IfOp::create(builder, loc, inside);
        builder.setInsertionPointToStart(ifInside.thenBlock());
      }
      Value kk, mm;
      if (kInnermost) {
        kk = arith::RemUIOp::create(builder, loc, element,
                                    constant(builder, stepK));
        mm = arith::DivUIOp::create(builder, loc, element,
                                    constant(builder, stepK));
      } else {
        mm = arith::RemUIOp::create(builder, loc, element,
                                    constant(builder, tile));
        kk = arith::DivUIOp::create(builder, loc, element,
                                    constant(builder, tile));
      }
      SmallVector<Value> ivs(base);
      ivs[reductionLoop] = arith::AddIOp::create(builder, loc, k0, kk);
      ivs[along] = arith::AddIOp::create(builder, loc, base[along], mm);
      Value value = memref::LoadOp::create(builder, loc, input->get(),
                                           project(map, ivs));
      memref::StoreOp::create(builder, loc, value, slices[position],
                              ValueRange{kk, mm});
    }
  }
  gpu::BarrierOp::create(builder, loc);
  // The step's iterations unrolled: LLVM does not unroll a loop carrying
  // this many values, and unrolled the shared-memory addresses are
  // constant offsets.
  SmallVector<Value> accumulators(steps.getRegionIterArgs());
  Block *body = op.getBlock();
  BlockArgument accumulator = op.getRegionOutputArgs().front();
  for (int64_t step = 0; step < stepK; ++step) {
    Value kk = constant(builder, step);
    // Each input's values for the thread's rows or columns at kk.
    SmallVector<SmallVector<Value>> values;
    for (auto [position, slice] : llvm::enumerate(slices)) {
      ArrayRef<Value> own = contraction.alongRows[position]
                                ? ArrayRef<Value>(rows)
                                : ArrayRef<Value>(columns);
      SmallVector<Value> loaded;
      for (Value m : own)
        loaded.push_back(
            memref::LoadOp::create(builder, loc, slice, ValueRange{kk, m}));
      values.push_back(loaded);
    }
    for (int64_t r = 0; r < perThread; ++r)
      for (int64_t c = 0; c < perThread; ++c) {
        IRMapping mapping;
        for (auto [position, input] :
             llvm::enumerate(op.getDpsInputOperands()))
          mapping.map(op.getMatchingBlockArgument(input),
                      values[position][contraction.alongRows[position] ? r
                                                                       : c]);
        Value &partial = accumulators[r * perThread + c];
        mapping.map(accumulator, partial);
        for (Operation &nested : body->without_terminator())
          builder.clone(nested, mapping);
        partial = mapping.lookup(contraction.combiner->getResult(0));
      }
  }
  // Nobody overwrites a slice another thread still reads.
  gpu::BarrierOp::create(builder, loc);
  scf::YieldOp::create(builder, loc, accumulators);
  builder.setInsertionPointAfter(steps);
  for (int64_t r = 0; r < perThread; ++r)
    for (int64_t c = 0; c < perThread; ++c)
      memref::StoreOp::create(builder, loc, steps.getResult(r * perThread + c),
                              init->get(), outputIndices(builder, r, c));
  gpu::TerminatorOp::create(builder, loc);
  op->erase();
}

struct StageContractionsForGPUPass
    : ke::impl::KeStageContractionsForGPUBase<StageContractionsForGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    // The function's knob (set by the search) wins over the option, and
    // is taken as it is.
    int64_t tile = this->tile;
    auto knob = getOperation()->getAttrOfType<IntegerAttr>(
        ke::KeDialect::kGPUSharedTileAttrName);
    if (knob)
      tile = knob.getInt();
    if (tile == 0)
      return;
    if (tile % kThreadsPerSide != 0 || tile / kThreadsPerSide > 8 ||
        stepK <= 0) {
      getOperation().emitError()
          << "ke-stage-contractions-for-gpu: tile must be 16 to 128 in steps "
             "of 16 and k-step positive (got tile="
          << tile << ", k-step=" << stepK.getValue() << ")";
      return signalPassFailure();
    }
    SmallVector<StagedContraction> staged;
    getOperation().walk([&](linalg::LinalgOp op) {
      std::optional<StagedContraction> contraction = match(op, stepK);
      if (!contraction)
        return;
      contraction->tile =
          chooseTile(*contraction, tile, minBlocks, /*exact=*/knob != nullptr);
      if (contraction->tile == 0)
        return;
      contraction->fill = findInitializingFill(op);
      staged.push_back(*contraction);
    });
    for (StagedContraction &contraction : staged) {
      stage(contraction, stepK);
      if (contraction.fill)
        contraction.fill->erase();
    }
  }
};
} // namespace
