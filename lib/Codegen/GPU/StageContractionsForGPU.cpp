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
#include "ke/Codegen/GPUContraction.h"
#include "ke/Codegen/GPUSchedule.h"
#include "ke/Codegen/Passes.h"

#include "ke/Codegen/LinalgOnBuffers.h"

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
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;
using ke::detail::applyMap;
using ke::detail::emitGuarded;
using ke::detail::loadOrZero;
using ke::detail::scatterIvs;
using ke::detail::findInitializingFill;

namespace {
/// Threads per block along the columns (x); along the rows (y) two per
/// warp of the block (8 warps: 16 x 16 = 256 threads).
constexpr int64_t kThreadsPerSide = 16;

/// A contraction (see GPUContraction) with its block tile.
struct StagedContraction : ke::GPUContraction {
  /// Outputs per block along the rows and the columns.
  int64_t tile = 0;
  /// Threads of the block along the rows (2 per warp).
  int64_t threadRows = kThreadsPerSide;
};

/// The block tile: `largest`, halved (down to 16) while the grid would
/// have fewer than `minBlocks` blocks (attention's 256x256 scores are 16
/// blocks of 64x64 on an H100's 132 SMs); exactly `largest` when `exact`.
int64_t chooseTile(const StagedContraction &contraction, int64_t largest,
                   int64_t minBlocks, bool exact, int64_t threadRows) {
  if (exact)
    return largest;
  auto blocks = [&](int64_t tile) {
    return llvm::divideCeil(contraction.rows, tile) *
           llvm::divideCeil(contraction.columns, tile) * contraction.batches;
  };
  int64_t tile = largest;
  // Not below one tile row per thread row.
  int64_t smallest = std::max(kThreadsPerSide, threadRows);
  while (tile / 2 >= smallest && tile % 2 == 0 &&
         (tile / 2) % kThreadsPerSide == 0 && blocks(tile) < minBlocks)
    tile /= 2;
  return tile;
}

/// Whether the launch fits the hardware: rows on the grid's y and batches
/// on its z (at most 65535 each), the slices in the 48 KB of static shared
/// memory a block may have.
bool fitsDevice(const StagedContraction &contraction, int64_t stepK) {
  constexpr int64_t kMaxGridYZ = 65535, kMaxStaticShared = 48 * 1024;
  linalg::LinalgOp op = contraction.op;
  int64_t shared = 0;
  for (OpOperand *input : op.getDpsInputOperands())
    shared +=
        stepK * (contraction.tile + 1) *
        cast<MemRefType>(input->get().getType()).getElementTypeBitWidth() / 8;
  return llvm::divideCeil(contraction.rows, contraction.tile) <= kMaxGridYZ &&
         contraction.batches <= kMaxGridYZ && shared <= kMaxStaticShared;
}

void stage(const StagedContraction &contraction, int64_t stepK) {
  linalg::LinalgOp op = contraction.op;
  int64_t tile = contraction.tile;
  Location loc = op.getLoc();
  MLIRContext *context = op.getContext();
  OpBuilder builder(op);
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  int64_t threadRows = contraction.threadRows;
  int64_t rowsPerThread = tile / threadRows;
  int64_t columnsPerThread = tile / kThreadsPerSide;
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(builder, loc, value);
  };
  auto add = [&](Value a, Value b) -> Value {
    return arith::AddIOp::create(builder, loc, a, b);
  };
  auto below = [&](Value index, int64_t bound) -> Value {
    return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, index,
                                 constant(bound));
  };
  // Rows and columns that do not fill the last tile need guards.
  bool ragged = contraction.rows % tile != 0 || contraction.columns % tile != 0;
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
      builder, loc, constant(llvm::divideCeil(contraction.columns, tile)),
      constant(llvm::divideCeil(contraction.rows, tile)),
      constant(contraction.batches), constant(kThreadsPerSide),
      constant(threadRows), constant(1),
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, sliceTypes);
  builder.setInsertionPointToStart(&launch.getBody().front());
  gpu::KernelDim3 block = launch.getBlockIds(), thread = launch.getThreadIds();
  ArrayRef<BlockArgument> slices = launch.getWorkgroupAttributions();
  // The loops' ivs: batches from the grid's z, the rest filled in per use.
  SmallVector<Value> base(bounds.size(), constant(0));
  if (!contraction.batchLoops.empty())
    scatterIvs(builder, loc, block.z, contraction.batchLoops, bounds, base);
  Value firstRow = arith::MulIOp::create(builder, loc, block.y, constant(tile));
  Value firstColumn =
      arith::MulIOp::create(builder, loc, block.x, constant(tile));
  // Thread (x, y) owns rows y + threadRows r and columns x + 16 c of the
  // tile: neighbouring threads read neighbouring shared words and store
  // neighbouring output elements.
  SmallVector<Value> rows, columns;
  for (int64_t r = 0; r < rowsPerThread; ++r)
    rows.push_back(add(thread.y, constant(r * threadRows)));
  for (int64_t c = 0; c < columnsPerThread; ++c)
    columns.push_back(add(thread.x, constant(c * kThreadsPerSide)));
  OpOperand *init = op.getDpsInitOperand(0);
  AffineMap outputMap = op.getMatchingIndexingMap(init);
  // The output element of the thread's (r, c), and whether it exists.
  auto outputAt = [&](int64_t r,
                      int64_t c) -> std::pair<SmallVector<Value>, Value> {
    SmallVector<Value> ivs(base);
    Value row = add(firstRow, rows[r]), column = add(firstColumn, columns[c]);
    scatterIvs(builder, loc, row, contraction.rowLoops, bounds, ivs);
    scatterIvs(builder, loc, column, contraction.columnLoops, bounds, ivs);
    Value inside;
    if (ragged)
      inside = arith::AndIOp::create(builder, loc, below(row, contraction.rows),
                                     below(column, contraction.columns));
    return {applyMap(builder, loc, outputMap, ivs), inside};
  };
  linalg::FillOp fill = contraction.fill;
  SmallVector<Value> initial;
  for (int64_t r = 0; r < rowsPerThread; ++r)
    for (int64_t c = 0; c < columnsPerThread; ++c) {
      if (fill) {
        initial.push_back(fill.getInputs().front());
        continue;
      }
      // Outside the output the accumulator is never stored: any start.
      auto [indices, inside] = outputAt(r, c);
      initial.push_back(
          loadOrZero(builder, loc, init->get(), indices, inside));
    }
  Value linearThread = add(
      arith::MulIOp::create(builder, loc, thread.y, constant(kThreadsPerSide)),
      thread.x);
  int64_t threads = kThreadsPerSide * threadRows;
  auto steps =
      scf::ForOp::create(builder, loc, constant(0), constant(contraction.depth),
                         constant(stepK), initial);
  builder.setInsertionPointToStart(steps.getBody());
  Value k0 = steps.getInductionVar();
  // Copy the step's slices: element e of tile x stepK, taken in the order
  // of the input's innermost dimension (coalesced global reads).
  for (auto [position, input] : llvm::enumerate(op.getDpsInputOperands())) {
    AffineMap map = op.getMatchingIndexingMap(input);
    bool alongRows = contraction.alongRows[position];
    ArrayRef<unsigned> sideLoops =
        alongRows ? contraction.rowLoops : contraction.columnLoops;
    int64_t sideExtent = alongRows ? contraction.rows : contraction.columns;
    bool kInnermost = llvm::any_of(contraction.reductionLoops, [&](unsigned l) {
      return map.getResults().back().isFunctionOfDim(l);
    });
    for (int64_t first = 0; first < tile * stepK; first += threads) {
      OpBuilder::InsertionGuard guard(builder);
      Value element = add(linearThread, constant(first));
      Value kk, mm;
      if (kInnermost) {
        kk = arith::RemUIOp::create(builder, loc, element, constant(stepK));
        mm = arith::DivUIOp::create(builder, loc, element, constant(stepK));
      } else {
        mm = arith::RemUIOp::create(builder, loc, element, constant(tile));
        kk = arith::DivUIOp::create(builder, loc, element, constant(tile));
      }
      Value along = add(alongRows ? firstRow : firstColumn, mm);
      // The last round may have fewer elements than threads, the last
      // tile fewer rows or columns than the tile.
      Value inside;
      if (first + threads > tile * stepK)
        inside = below(element, tile * stepK);
      if (sideExtent % tile != 0) {
        Value inRange = below(along, sideExtent);
        inside = inside ? arith::AndIOp::create(builder, loc, inside, inRange)
                              .getResult()
                        : inRange;
      }
      emitGuarded(builder, loc, inside, [&] {
        SmallVector<Value> ivs(base);
        scatterIvs(builder, loc, add(k0, kk), contraction.reductionLoops,
                   bounds, ivs);
        scatterIvs(builder, loc, along, sideLoops, bounds, ivs);
        Value value = memref::LoadOp::create(builder, loc, input->get(),
                                             applyMap(builder, loc, map, ivs));
        memref::StoreOp::create(builder, loc, value, slices[position],
                                ValueRange{kk, mm});
      });
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
    Value kk = constant(step);
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
    for (int64_t r = 0; r < rowsPerThread; ++r)
      for (int64_t c = 0; c < columnsPerThread; ++c) {
        IRMapping mapping;
        for (auto [position, input] : llvm::enumerate(op.getDpsInputOperands()))
          mapping.map(
              op.getMatchingBlockArgument(input),
              values[position][contraction.alongRows[position] ? r : c]);
        Value &partial = accumulators[r * columnsPerThread + c];
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
  for (int64_t r = 0; r < rowsPerThread; ++r)
    for (int64_t c = 0; c < columnsPerThread; ++c) {
      auto [indices, inside] = outputAt(r, c);
      Value result = steps.getResult(r * columnsPerThread + c);
      emitGuarded(builder, loc, inside, [&] {
        memref::StoreOp::create(builder, loc, result, init->get(), indices);
      });
    }
  gpu::TerminatorOp::create(builder, loc);
  op->erase();
}

struct StageContractionsForGPUPass
    : ke::impl::KeStageContractionsForGPUBase<StageContractionsForGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    // The function's knobs (set by the search) win over the options, and
    // are taken as they are.
    ke::GPUSchedule options;
    options.sharedTile = this->tile;
    options.warps = this->warps;
    ke::GPUSchedule schedule = ke::GPUSchedule::get(getOperation(), options);
    int64_t tile = schedule.sharedTile;
    if (tile == 0)
      return;
    int64_t warps = schedule.warps;
    // A tile the search chose is taken exactly; the option's is a ceiling.
    bool exactTile =
        getOperation()->hasAttr(ke::KeDialect::kGPUSharedTileAttrName);
    if (tile % kThreadsPerSide != 0 || tile / kThreadsPerSide > 8 || tile < 0 ||
        stepK <= 0 || !llvm::is_contained({2, 4, 8, 16}, warps)) {
      getOperation().emitError()
          << "ke-stage-contractions-for-gpu: tile must be 16 to 128 in steps "
             "of 16, k-step positive and warps 2, 4, 8 or 16 (got tile="
          << tile << ", k-step=" << stepK.getValue() << ", warps=" << warps
          << ")";
      return signalPassFailure();
    }
    int64_t threadRows = 2 * warps;
    SmallVector<StagedContraction, 2> staged;
    getOperation().walk([&](linalg::LinalgOp op) {
      std::optional<ke::GPUContraction> matched = ke::matchGPUContraction(op);
      if (!matched || matched->depth % stepK != 0)
        return;
      std::optional<StagedContraction> contraction = StagedContraction{*matched};
      contraction->tile =
          chooseTile(*contraction, tile, minBlocks, /*exact=*/exactTile,
                     threadRows);
      contraction->threadRows = threadRows;
      // Each thread row needs a row of the tile; more than 64 accumulators
      // per thread would spill.
      int64_t accumulators = (contraction->tile / kThreadsPerSide) *
                             (contraction->tile / threadRows);
      if (contraction->tile % threadRows != 0 || accumulators > 64 ||
          !fitsDevice(*contraction, stepK))
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
