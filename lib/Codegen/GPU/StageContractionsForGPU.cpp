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

#include "ke/Codegen/GPUContraction.h"
#include "ke/Codegen/GPUContractionEpilogue.h"
#include "ke/Codegen/GPUSchedule.h"
#include "ke/Codegen/GPUSharedSlices.h"
#include "ke/Codegen/Passes.h"
#include "ke/KeDialect.h"

#include "ke/Codegen/LinalgOnBuffers.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace ke {
#define GEN_PASS_DEF_KESTAGECONTRACTIONSFORGPU
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;
using ke::detail::applyMap;
using ke::detail::emitGuarded;
using ke::detail::findInitializingBroadcast;
using ke::detail::findInitializingFill;
using ke::detail::loadOrZero;
using ke::detail::scatterIvs;

namespace {
/// Threads per block along the columns (x); along the rows (y) two per
/// warp of the block (8 warps: 16 x 16 = 256 threads).
constexpr int64_t kThreadsPerSide = 16;

/// A contraction (see GPUContraction) with its block tile.
struct StagedContraction : ke::GPUContraction {
  /// Outputs per block along the rows and along the columns.
  int64_t rowTile = 0, columnTile = 0;
  /// Threads of the block along the rows (2 per warp).
  int64_t threadRows = kThreadsPerSide;
  /// An elementwise op right after the contraction that reads its output
  /// element by element (a bias, an activation): applied to the
  /// accumulators before they are stored, into its own output.
  ke::GPUContractionEpilogue epilogue;
};

/// A reduction at least this many times longer than the output's longer
/// side is split along K to fill the grid rather than cut into smaller
/// tiles: each halving of the tile halves the products a block makes per
/// element it stages, and leaves every block the whole K. KernelBench's
/// 256 x 8192 x 256 matmul on the H100: 135 µs in 16 x 16 tiles, 47 µs in
/// 64 x 64 tiles split 32 ways (32 x 32 tiles split 16 ways: 54 µs).
constexpr int64_t kLongReductionRatio = 4;

/// Whether `contraction`'s reduction is long enough to split rather than
/// shrink the tile for (kLongReductionRatio).
bool hasLongReduction(const StagedContraction &contraction) {
  return contraction.depth >=
         kLongReductionRatio *
             std::max(contraction.rows, contraction.columns);
}

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

/// Accumulators a thread may keep: a 128 x 128 tile on 4 warps (16 x 8 a
/// thread; cuBLAS's f32 kernels keep 8 x 16) reuses each value it reads
/// from shared memory twice as often as on 8 warps; more would spill.
constexpr int64_t kMostAccumulators = 128;
/// Accumulators a thread may keep where the pass grows a side of the tile
/// itself (the default tile and warps keep 32).
constexpr int64_t kMostShapedAccumulators = 64;

/// Every input's slice plan.
SmallVector<ke::SharedSlice> planSlices(const StagedContraction &contraction,
                                        const ke::SharedStaging &staging) {
  SmallVector<ke::SharedSlice> slices;
  linalg::LinalgOp op = contraction.op;
  for (unsigned position = 0; position < op.getNumDpsInputs(); ++position)
    slices.push_back(ke::planSharedSlice(contraction, position, staging));
  return slices;
}

/// Whether the body folds a product of two inputs' values (through float
/// extensions), so that the zeros the slices hold past K add nothing: a K
/// that is not a multiple of the step (a 3 x 3 convolution over 8
/// channels: 72) can then be staged. A body like (a - 1) * b would fold
/// non-zeros there.
bool foldsZeroPastK(const ke::GPUContraction &contraction) {
  linalg::LinalgOp op = contraction.op;
  BlockArgument accumulator = op.getRegionOutputArgs().front();
  Operation *combiner = contraction.combiner;
  Value folded = combiner->getOperand(0) == accumulator
                     ? combiner->getOperand(1)
                     : combiner->getOperand(0);
  auto product = folded.getDefiningOp<arith::MulFOp>();
  auto isInput = [&](Value value) {
    while (auto extension = value.getDefiningOp<arith::ExtFOp>())
      value = extension.getIn();
    auto argument = dyn_cast<BlockArgument>(value);
    return argument && argument.getOwner() == op.getBlock() &&
           argument.getArgNumber() < op.getNumDpsInputs();
  };
  return product && isInput(product.getLhs()) && isInput(product.getRhs());
}

/// The walk through shared memory: slices laid out as their inputs are,
/// rows padded by 16 bytes (aligned vector reads), as many of
/// `stages` as fit in static shared memory.
ke::SharedStaging stagingFor(const StagedContraction &contraction,
                             int64_t stepK, int64_t stages, bool asyncCopies) {
  ke::SharedStaging staging;
  staging.rowTile = contraction.rowTile;
  staging.columnTile = contraction.columnTile;
  staging.stepK = stepK;
  staging.stages = 1;
  staging.asyncCopies = asyncCopies;
  SmallVector<ke::SharedSlice> slices = planSlices(contraction, staging);
  int64_t perStage = ke::sharedStageBytes(contraction, slices, staging);
  int64_t tables = ke::reductionTableBytes(contraction, slices, staging);
  int64_t fit = ke::kMaxStaticSharedBytes / perStage;
  int64_t fitWithTables = (ke::kMaxStaticSharedBytes - tables) / perStage;
  // A table never costs a stage: without it the copies split k themselves.
  if (std::min(stages, fitWithTables) < std::min(stages, fit))
    staging.reductionTables = false;
  staging.stages = std::max<int64_t>(
      1, std::min<int64_t>(stages, staging.reductionTables ? fitWithTables
                                                           : fit));
  return staging;
}

/// Shapes the square `tile` to `contraction`: a side shorter than the tile
/// (a convolution's 16 output channels against 64) takes only the lines
/// it has, rounded up to whole lines per thread (the square computed
/// products for rows that do not exist), and the other side grows by
/// powers of two while the block computes no more outputs than the square,
/// each thread at most kMostShapedAccumulators, two stages of `stepK` fit in
/// static shared memory, and the grid keeps 4 x `minBlocks` blocks (fewer,
/// longer blocks left SMs too few warps to hide the loads).
void shapeTile(StagedContraction &contraction, int64_t tile,
               int64_t threadRows, int64_t minBlocks, int64_t stepK,
               bool asyncCopies) {
  contraction.rowTile = contraction.columnTile = tile;
  bool fewRows = contraction.rows < tile;
  bool fewColumns = contraction.columns < tile;
  if (fewRows == fewColumns)
    return;
  int64_t shortThreads = fewRows ? threadRows : kThreadsPerSide;
  int64_t longThreads = fewRows ? kThreadsPerSide : threadRows;
  int64_t longExtent = fewRows ? contraction.columns : contraction.rows;
  int64_t shortTile = llvm::alignTo(
      fewRows ? contraction.rows : contraction.columns, shortThreads);
  if (shortTile >= tile)
    return;
  StagedContraction shaped = contraction;
  auto setTiles = [&](int64_t longTile) {
    shaped.rowTile = fewRows ? shortTile : longTile;
    shaped.columnTile = fewRows ? longTile : shortTile;
  };
  auto fits = [&](int64_t longTile) {
    setTiles(longTile);
    int64_t blocks =
        llvm::divideCeil(longExtent, longTile) * contraction.batches;
    return longTile * shortTile <= tile * tile &&
           (shortTile / shortThreads) * (longTile / longThreads) <=
               kMostShapedAccumulators &&
           longTile <= llvm::alignTo(longExtent, longThreads) &&
           blocks >= 4 * minBlocks &&
           stagingFor(shaped, stepK, /*stages=*/2, asyncCopies).stages == 2;
  };
  int64_t longTile = tile;
  while (fits(2 * longTile))
    longTile *= 2;
  setTiles(longTile);
  contraction = shaped;
}

/// Whether the splits of K can add their partial sums into the output:
/// one f32 output folded by an addf (the atomic add's type and operation).
bool canSplitK(const StagedContraction &contraction) {
  linalg::LinalgOp op = contraction.op;
  Value output = op.getDpsInitOperand(0)->get();
  return isa<arith::AddFOp>(contraction.combiner) &&
         getElementTypeOrSelf(output.getType()).isF32();
}

/// Blocks per output tile along K: `requested` where it is positive (the
/// search's knob, or the option), else none where the tiles alone fill at
/// least three quarters of `fillBlocks`, and otherwise the fewest that
/// give the grid `fillBlocks` blocks with at least kMinStepsPerSplit steps
/// each (0: no split). Always a power of two dividing K's steps, the
/// largest such below the request; 1 when the splits cannot add into the
/// output. Splitting a grid that full ran slower (H100: the
/// bench's GEMM + bias + ReLU, 256 tiles of 264, 19.7 against 24.5 µs
/// split in two, its fill and epilogue no longer kernels of their own;
/// KernelBench's 1024^3 GEMM 72.1 against 73.2; its convolutions of 242-245
/// tiles 1.14-1.16x); half-full grids still gain from the splits
/// (KernelBench's ConvTranspose2d, 145 tiles: 94.3 µs split in two, 115.5
/// not split).
constexpr int64_t kMinStepsPerSplit = 8;
int64_t chooseKSplits(const StagedContraction &contraction, int64_t stepK,
                      int64_t requested, int64_t fillBlocks) {
  constexpr int64_t kMaxGridZ = 65535;
  int64_t steps = llvm::divideCeil(contraction.depth, stepK);
  int64_t blocks = llvm::divideCeil(contraction.rows, contraction.rowTile) *
                   llvm::divideCeil(contraction.columns,
                                    contraction.columnTile) *
                   contraction.batches;
  if (!canSplitK(contraction))
    return 1;
  int64_t splits = 1;
  auto allowed = [&](int64_t next) {
    return steps % next == 0 && contraction.batches * next <= kMaxGridZ;
  };
  if (requested > 0) {
    while (2 * splits <= requested && allowed(2 * splits))
      splits *= 2;
    return splits;
  }
  if (4 * blocks >= 3 * fillBlocks)
    return 1;
  while (blocks * splits < fillBlocks && allowed(2 * splits) &&
         steps / (2 * splits) >= kMinStepsPerSplit)
    splits *= 2;
  return splits;
}

/// Whether the launch fits the hardware: rows on the grid's y and batches
/// on its z (at most 65535 each), a stage of slices in the 48 KB of static
/// shared memory a block may have.
bool fitsDevice(const StagedContraction &contraction,
                const ke::SharedStaging &staging) {
  constexpr int64_t kMaxGridYZ = 65535;
  SmallVector<ke::SharedSlice> slices = planSlices(contraction, staging);
  return llvm::divideCeil(contraction.rows, contraction.rowTile) <=
             kMaxGridYZ &&
         contraction.batches <= kMaxGridYZ &&
         staging.stages * ke::sharedStageBytes(contraction, slices, staging) +
                 ke::reductionTableBytes(contraction, slices, staging) <=
             ke::kMaxStaticSharedBytes;
}

/// Elements a thread reads from shared memory as one vector: 16 bytes of
/// 32-bit (or narrower) elements.
constexpr int64_t kVectorElements = 4;

/// Which rows or columns of the tile a thread owns along one side, and how
/// it reads them from that side's [k][line] slices.
struct SideOwnership {
  /// Consecutive lines a thread owns together (read as one vector from a
  /// [k][line] slice); 1: lines `lanes` apart.
  int64_t vector = 1;
  /// The thread's lines, relative to the tile.
  SmallVector<Value> lines;
};

/// Threads own `perThread` lines of a side in runs of `vector`: thread t's
/// run g starts at g * lanes * vector + t * vector, so the lanes of a warp
/// read neighbouring 16-byte vectors. Where a side's slice is [line][k]
/// (k read as vectors instead), runs of one: lines t + lanes g, whose rows
/// land on different banks.
SideOwnership ownSide(OpBuilder &builder, Location loc,
                      ArrayRef<ke::SharedSlice> slices, bool alongRows,
                      int64_t perThread, int64_t lanes, Value thread) {
  SideOwnership side;
  bool lineVectors = llvm::all_of(slices, [&](const ke::SharedSlice &slice) {
    return slice.alongRows != alongRows || !slice.kInnermost;
  });
  if (lineVectors)
    for (int64_t width : {kVectorElements, int64_t(2)})
      if (perThread % width == 0) {
        side.vector = width;
        break;
      }
  Value first = arith::MulIOp::create(
      builder, loc, thread,
      arith::ConstantIndexOp::create(builder, loc, side.vector));
  for (int64_t line = 0; line < perThread; ++line) {
    int64_t run = line / side.vector, offset = line % side.vector;
    side.lines.push_back(arith::AddIOp::create(
        builder, loc, first,
        arith::ConstantIndexOp::create(builder, loc,
                                       run * lanes * side.vector + offset)));
  }
  return side;
}

/// Outputs a thread loads and stores as one vector: its runs of `run`
/// neighbouring columns, where they are neighbouring elements of a
/// row-major 32-bit output (its innermost index the innermost column loop,
/// whose bound and the row length `run` divides, so runs are aligned).
/// Stored one by one, a warp's store wrote 4 bytes in each of 16 vectors,
/// touching every sector four times over.
int64_t outputRun(const StagedContraction &contraction, int64_t run) {
  linalg::LinalgOp op = contraction.op;
  OpOperand *init = op.getDpsInitOperand(0);
  auto type = dyn_cast<MemRefType>(init->get().getType());
  auto last = dyn_cast<AffineDimExpr>(
      op.getMatchingIndexingMap(init).getResults().back());
  if (run < 2 || !type || !type.getLayout().isIdentity() ||
      !type.hasStaticShape() || type.getElementTypeBitWidth() != 32 ||
      !last || contraction.columnLoops.empty() ||
      last.getPosition() != contraction.columnLoops.back() ||
      op.getStaticLoopRanges()[last.getPosition()] % run != 0 ||
      type.getShape().back() % run != 0)
    return 1;
  return run;
}

/// Lets LLVM fuse `op`'s multiply and add into one FMA: without the
/// `contract` flag NVPTX emits mul.rn and add.rn, which ptxas must keep
/// apart, at half the FMA units' rate. The FMA rounds once instead of
/// twice, closer to the exact result.
void allowContraction(Operation *op) {
  auto fastMath = dyn_cast<arith::ArithFastMathInterface>(op);
  if (!fastMath)
    return;
  arith::FastMathFlags flags = arith::FastMathFlags::contract;
  if (arith::FastMathFlagsAttr current = fastMath.getFastMathFlagsAttr())
    flags = flags | current.getValue();
  op->setAttr(fastMath.getFastMathAttrName(),
              arith::FastMathFlagsAttr::get(op->getContext(), flags));
}

void stage(const StagedContraction &contraction,
           const ke::SharedStaging &staging) {
  linalg::LinalgOp op = contraction.op;
  int64_t rowTile = contraction.rowTile, columnTile = contraction.columnTile;
  int64_t stepK = staging.stepK;
  Location loc = op.getLoc();
  OpBuilder builder(op);
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  int64_t threadRows = contraction.threadRows;
  int64_t rowsPerThread = rowTile / threadRows;
  int64_t columnsPerThread = columnTile / kThreadsPerSide;
  ke::detail::IndexMath indexMath(builder, loc);
  // Rows and columns that do not fill the last tile need guards.
  bool ragged = contraction.rows % rowTile != 0 ||
                contraction.columns % columnTile != 0;
  SmallVector<ke::SharedSlice> slices = planSlices(contraction, staging);
  SmallVector<Type> sliceTypes;
  for (const ke::SharedSlice &slice : slices)
    sliceTypes.push_back(ke::sharedSliceType(contraction, slice, staging));
  SmallVector<MemRefType> tableTypes =
      ke::reductionTableTypes(contraction, slices, staging);
  llvm::append_range(sliceTypes, tableTypes);
  auto launch = gpu::LaunchOp::create(
      builder, loc,
      indexMath.constant(llvm::divideCeil(contraction.columns, columnTile)),
      indexMath.constant(llvm::divideCeil(contraction.rows, rowTile)),
      indexMath.constant(contraction.batches * staging.kSplits),
      indexMath.constant(kThreadsPerSide), indexMath.constant(threadRows),
      indexMath.constant(1),
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, sliceTypes);
  builder.setInsertionPointToStart(&launch.getBody().front());
  gpu::KernelDim3 block = launch.getBlockIds(), thread = launch.getThreadIds();
  ke::bindSharedSlices(builder, loc, launch, contraction, slices, staging);
  // The loops' ivs: batches from the grid's z, the rest filled in per use.
  // Split K: the z of the batch's first split plus the split.
  bool splitK = staging.kSplits > 1;
  Value batch = block.z, firstK;
  if (splitK) {
    Value batches = indexMath.constant(contraction.batches);
    batch = arith::RemUIOp::create(builder, loc, block.z, batches);
    firstK = arith::MulIOp::create(
        builder, loc, arith::DivUIOp::create(builder, loc, block.z, batches),
        indexMath.constant(staging.stepsPerBlock(contraction.depth) *
                           stepK));
  }
  SmallVector<Value> base(bounds.size(), indexMath.constant(0));
  if (!contraction.batchLoops.empty())
    scatterIvs(builder, loc, batch, contraction.batchLoops, bounds, base);
  Value firstRow =
      arith::MulIOp::create(builder, loc, block.y, indexMath.constant(rowTile));
  Value firstColumn = arith::MulIOp::create(builder, loc, block.x,
                                            indexMath.constant(columnTile));
  SideOwnership rows = ownSide(builder, loc, slices, /*alongRows=*/true,
                               rowsPerThread, threadRows, thread.y);
  SideOwnership columns = ownSide(builder, loc, slices, /*alongRows=*/false,
                                  columnsPerThread, kThreadsPerSide, thread.x);
  OpOperand *init = op.getDpsInitOperand(0);
  AffineMap outputMap = op.getMatchingIndexingMap(init);
  // The output element of the thread's (r, c), and whether it exists.
  auto outputAt = [&](int64_t r,
                      int64_t c) -> std::pair<SmallVector<Value>, Value> {
    SmallVector<Value> ivs(base);
    Value row = indexMath.add(firstRow, rows.lines[r]),
          column = indexMath.add(firstColumn, columns.lines[c]);
    scatterIvs(builder, loc, row, contraction.rowLoops, bounds, ivs);
    scatterIvs(builder, loc, column, contraction.columnLoops, bounds, ivs);
    Value inside;
    if (ragged)
      inside = arith::AndIOp::create(
          builder, loc, indexMath.below(row, contraction.rows),
          indexMath.below(column, contraction.columns));
    return {applyMap(builder, loc, outputMap, ivs), inside};
  };
  linalg::FillOp fill = contraction.fill;
  linalg::BroadcastOp broadcast = contraction.broadcast;
  int64_t run = outputRun(contraction, columns.vector);
  Type outputElement = getElementTypeOrSelf(init->get().getType());
  auto runType = VectorType::get({run}, outputElement);
  llvm::MaybeAlign runAlignment(run * outputElement.getIntOrFloatBitWidth() /
                                8);
  SmallVector<Value> initial;
  for (int64_t r = 0; r < rowsPerThread; ++r)
    for (int64_t c = 0; c < columnsPerThread; c += run) {
      // A split's partial sum starts at zero; the output keeps its start.
      if (splitK) {
        initial.append(run, arith::ConstantOp::create(
                                builder, loc, builder.getZeroAttr(outputElement)));
        continue;
      }
      if (fill) {
        initial.append(run, fill.getInputs().front());
        continue;
      }
      // Outside the output the accumulator is never stored: any start.
      auto [indices, inside] = outputAt(r, c);
      if (broadcast) {
        // The broadcast's input at the output's indices less the
        // broadcast dimensions; one load for the run where the run's
        // dimension is broadcast (a bias along a row of pixels).
        ArrayRef<int64_t> dimensions = broadcast.getDimensions();
        int64_t last = static_cast<int64_t>(indices.size()) - 1;
        bool uniform = llvm::is_contained(dimensions, last);
        for (int64_t offset = 0; offset < run; ++offset) {
          if (uniform && offset > 0) {
            initial.push_back(initial.back());
            continue;
          }
          SmallVector<Value> at;
          for (int64_t d = 0; d <= last; ++d)
            if (!llvm::is_contained(dimensions, d))
              at.push_back(d == last ? indexMath.add(indices[d], offset)
                                     : indices[d]);
          initial.push_back(
              loadOrZero(builder, loc, broadcast.getInput(), at, inside));
        }
        continue;
      }
      if (run == 1) {
        initial.push_back(
            loadOrZero(builder, loc, init->get(), indices, inside));
        continue;
      }
      Value vector = ke::detail::loadVectorOrZero(
          builder, loc, runType, init->get(), indices, inside, runAlignment);
      for (int64_t offset = 0; offset < run; ++offset)
        initial.push_back(vector::ExtractOp::create(
            builder, loc, vector, ArrayRef<int64_t>{offset}));
    }
  Value linearThread =
      indexMath.add(arith::MulIOp::create(builder, loc, thread.y,
                                          indexMath.constant(kThreadsPerSide)),
                    thread.x);
  ke::BlockPosition position{base, firstRow, firstColumn, linearThread,
                             kThreadsPerSide * threadRows, firstK};
  ke::fillReductionTables(
      builder, loc, contraction, slices,
      launch.getWorkgroupAttributions().take_back(tableTypes.size()),
      linearThread, position.threads);
  Block *body = op.getBlock();
  BlockArgument accumulator = op.getRegionOutputArgs().front();
  // One step: its iterations unrolled (LLVM does not unroll a loop carrying
  // this many values, and unrolled the shared-memory addresses are
  // constant offsets), each input's values for the thread's lines read as
  // 16-byte vectors where the slice allows: along the lines from [k][line]
  // slices, along k (four iterations at once) from [line][k] ones.
  auto computeStep = [&](Value stage, SmallVectorImpl<Value> &accumulators) {
    // Per input, per owned line: the vector of k values read last.
    SmallVector<SmallVector<Value>> kVectors(slices.size());
    for (int64_t step = 0; step < stepK; ++step) {
      SmallVector<SmallVector<Value>> values;
      for (const ke::SharedSlice &slice : slices) {
        const SideOwnership &side = slice.alongRows ? rows : columns;
        auto type = cast<MemRefType>(slice.buffer.getType());
        Type element = type.getElementType();
        int64_t bits = type.getElementTypeBitWidth();
        // Vector reads of whole bytes, aligned to a power of two.
        bool narrow = bits >= 8 && bits <= 32 && llvm::isPowerOf2_64(bits);
        int64_t alignment = kVectorElements * type.getElementTypeBitWidth() / 8;
        SmallVector<Value> loaded;
        if (slice.kInnermost && narrow && stepK % kVectorElements == 0 &&
            slice.stride % kVectorElements == 0) {
          SmallVector<Value> &cached = kVectors[&slice - slices.data()];
          if (step % kVectorElements == 0) {
            cached.clear();
            for (Value line : side.lines)
              cached.push_back(vector::LoadOp::create(
                  builder, loc, VectorType::get({kVectorElements}, element),
                  slice.buffer,
                  ValueRange{stage, line, indexMath.constant(step)},
                  /*nontemporal=*/false, llvm::MaybeAlign(alignment)));
          }
          for (Value vector : cached)
            loaded.push_back(vector::ExtractOp::create(
                builder, loc, vector,
                ArrayRef<int64_t>{step % kVectorElements}));
        } else if (!slice.kInnermost && narrow && side.vector > 1) {
          for (size_t run = 0; run < side.lines.size(); run += side.vector) {
            Value vector = vector::LoadOp::create(
                builder, loc, VectorType::get({side.vector}, element),
                slice.buffer,
                ValueRange{stage, indexMath.constant(step), side.lines[run]},
                /*nontemporal=*/false,
                llvm::MaybeAlign(side.vector * type.getElementTypeBitWidth() /
                                 8));
            for (int64_t offset = 0; offset < side.vector; ++offset)
              loaded.push_back(vector::ExtractOp::create(
                  builder, loc, vector, ArrayRef<int64_t>{offset}));
          }
        } else {
          for (Value line : side.lines)
            loaded.push_back(memref::LoadOp::create(
                builder, loc, slice.buffer,
                slice.kInnermost
                    ? ValueRange{stage, line, indexMath.constant(step)}
                    : ValueRange{stage, indexMath.constant(step), line}));
        }
        values.push_back(loaded);
      }
      for (int64_t r = 0; r < rowsPerThread; ++r)
        for (int64_t c = 0; c < columnsPerThread; ++c) {
          IRMapping mapping;
          for (auto [position, input] :
               llvm::enumerate(op.getDpsInputOperands()))
            mapping.map(op.getMatchingBlockArgument(input),
                        values[position][slices[position].alongRows ? r : c]);
          Value &partial = accumulators[r * columnsPerThread + c];
          mapping.map(accumulator, partial);
          for (Operation &nested : body->without_terminator())
            allowContraction(builder.clone(nested, mapping));
          partial = mapping.lookup(contraction.combiner->getResult(0));
        }
    }
  };
  scf::ForOp steps =
      ke::buildStagedSteps(builder, loc, contraction, slices, staging, position,
                           initial, computeStep);
  const ke::GPUContractionEpilogue &epilogue = contraction.epilogue;
  // Stores `values` (a run along the last index) into `buffer`.
  auto storeRun = [&](ValueRange values, Value buffer, ValueRange indices) {
    if (values.size() == 1) {
      memref::StoreOp::create(builder, loc, values.front(), buffer, indices);
      return;
    }
    vector::StoreOp::create(
        builder, loc,
        vector::FromElementsOp::create(builder, loc, runType, values), buffer,
        indices, /*nontemporal=*/false, runAlignment);
  };
  for (int64_t r = 0; r < rowsPerThread; ++r)
    for (int64_t c = 0; c < columnsPerThread; c += run) {
      auto [indices, inside] = outputAt(r, c);
      ValueRange results =
          steps.getResults().slice(r * columnsPerThread + c, run);
      emitGuarded(builder, loc, inside, [&] {
        if (epilogue) {
          SmallVector<Value> values;
          for (auto [offset, result] : llvm::enumerate(results)) {
            SmallVector<Value> at(indices);
            at.back() = indexMath.add(at.back(), int64_t(offset));
            values.push_back(
                epilogue.apply(builder, loc, init->get(), result, at));
          }
          if (epilogue.storeOutput)
            storeRun(results, init->get(), indices);
          storeRun(values, epilogue.written(), indices);
          return;
        }
        // The splits of K add their partial sums into the output.
        if (splitK) {
          for (auto [offset, result] : llvm::enumerate(results)) {
            SmallVector<Value> at(indices);
            at.back() = indexMath.add(at.back(), int64_t(offset));
            memref::AtomicRMWOp::create(builder, loc, arith::AtomicRMWKind::addf,
                                        result, init->get(), at);
          }
          return;
        }
        if (run == 1) {
          memref::StoreOp::create(builder, loc, results.front(), init->get(),
                                  indices);
          return;
        }
        vector::StoreOp::create(
            builder, loc,
            vector::FromElementsOp::create(builder, loc, runType, results),
            init->get(), indices, /*nontemporal=*/false, runAlignment);
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
    options.stages = this->stages;
    options.kSplits = this->kSplits;
    ke::GPUSchedule schedule = ke::GPUSchedule::get(getOperation(), options);
    int64_t tile = schedule.sharedTile;
    if (tile == 0)
      return;
    int64_t warps = schedule.warps;
    // A tile the search chose is taken exactly; the option's is a ceiling.
    bool exactTile =
        getOperation()->hasAttr(ke::KeDialect::kGPUSharedTileAttrName);
    // k-splits: 0 (as many as fill the grid) or a power of two up to 64,
    // as the search's knob.
    bool validSplits = schedule.kSplits == 0 ||
                       (schedule.kSplits > 0 && schedule.kSplits <= 64 &&
                        llvm::isPowerOf2_64(schedule.kSplits));
    if (tile % kThreadsPerSide != 0 || tile / kThreadsPerSide > 8 || tile < 0 ||
        stepK <= 0 || !llvm::is_contained({2, 4, 8, 16}, warps) ||
        schedule.stages < 1 || !validSplits) {
      getOperation().emitError()
          << "ke-stage-contractions-for-gpu: tile must be 16 to 128 in steps "
             "of 16, k-step positive, warps 2, 4, 8 or 16, stages at least 1 "
             "and k-splits 0 or a power of two up to 64 (got tile="
          << tile << ", k-step=" << stepK.getValue() << ", warps=" << warps
          << ", stages=" << schedule.stages
          << ", k-splits=" << schedule.kSplits << ")";
      return signalPassFailure();
    }
    int64_t threadRows = 2 * warps;
    SmallVector<std::pair<StagedContraction, ke::SharedStaging>, 2> staged;
    getOperation().walk([&](linalg::LinalgOp op) {
      std::optional<ke::GPUContraction> matched = ke::matchGPUContraction(op);
      if (!matched ||
          (matched->depth % stepK != 0 && !foldsZeroPastK(*matched)))
        return;
      std::optional<StagedContraction> contraction =
          StagedContraction{*matched};
      // A long reduction keeps the largest tile where K would be split
      // for it (not where splitting is off or K's steps do not divide).
      bool splitsInstead = false;
      if (!exactTile && hasLongReduction(*contraction)) {
        StagedContraction largest = *contraction;
        largest.rowTile = largest.columnTile = tile;
        splitsInstead =
            chooseKSplits(largest, stepK, schedule.kSplits, fillBlocks) > 1;
      }
      int64_t square = chooseTile(*contraction, tile, minBlocks,
                                  /*exact=*/exactTile || splitsInstead,
                                  threadRows);
      if (exactTile)
        contraction->rowTile = contraction->columnTile = square;
      else
        shapeTile(*contraction, square, threadRows, minBlocks, stepK,
                  asyncCopies);
      contraction->threadRows = threadRows;
      // Each thread row needs a row of the tile; more accumulators per
      // thread would spill.
      int64_t accumulators = (contraction->columnTile / kThreadsPerSide) *
                             (contraction->rowTile / threadRows);
      if (contraction->rowTile % threadRows != 0 ||
          contraction->columnTile % kThreadsPerSide != 0 ||
          accumulators > kMostAccumulators)
        return;
      ke::SharedStaging staging =
          stagingFor(*contraction, stepK, schedule.stages, asyncCopies);
      if (!fitsDevice(*contraction, staging))
        return;
      staging.kSplits =
          chooseKSplits(*contraction, stepK, schedule.kSplits, fillBlocks);
      // Split, the output's start (a fill's value) must be there before
      // the splits add into it: the fill stays.
      if (staging.kSplits == 1) {
        contraction->fill = findInitializingFill(op);
        if (!contraction->fill)
          contraction->broadcast = findInitializingBroadcast(op);
      }
      // Split, the output is complete only after every split's atomic
      // adds: the epilogue stays its own kernel.
      if (staging.kSplits == 1)
        contraction->epilogue = ke::findGPUContractionEpilogue(op);
      staged.emplace_back(*contraction, staging);
    });
    for (auto &[contraction, staging] : staged) {
      stage(contraction, staging);
      if (contraction.epilogue)
        contraction.epilogue.op->erase();
      if (contraction.fill)
        contraction.fill->erase();
      if (contraction.broadcast)
        contraction.broadcast->erase();
    }
  }
};
} // namespace
