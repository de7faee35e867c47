//===- WarpgroupContractionsForGPU.cpp - GEMMs on Hopper's wgmma + TMA ----===//
//
// Hopper multiplies per warpgroup (4 warps) with `wgmma`: 64 x N x 16 for
// 16-bit inputs, both operands read straight from shared memory through
// matrix descriptors, asynchronously, faster than `mma.sync` can be fed
// from registers. Its operands come best from the Tensor Memory
// Accelerator: one thread starts a copy of a whole 2-D box
// (`cp.async.bulk.tensor`), which lands 128-byte-swizzled (the layout
// wgmma's descriptors read without bank conflicts) and signals an mbarrier
// with its byte count.
//
// Large f16/bf16 GEMMs with f32 results, B either [K][N] or [N][K] (a
// Linear's weight, also read through the transposing copy front ends put
// before the product), become one launch per
// 128 or 64 x `tile` outputs: one warpgroup (two for 128 x 256; with B as
// [N][K], one per 64 rows) holding the f32 accumulators in registers, K in blocks of 64 through `stages`
// shared buffers that thread 0 refills `stages` - 1 blocks ahead, the
// tensor maps made on the host (nvgpu.tma.create.descriptor, which
// ke-run's runtime serves from the CUDA driver).
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/GPUContraction.h"
#include "ke/Codegen/GPUSchedule.h"
#include "ke/Codegen/LinalgOnBuffers.h"
#include "ke/Codegen/Passes.h"
#include "ke/Codegen/StructuredMatchers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace ke {
#define GEN_PASS_DEF_KEWARPGROUPCONTRACTIONSFORGPU
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;
using ke::detail::findInitializingFill;
using ke::detail::IndexMath;

namespace {
/// K per shared-memory step: 64 16-bit elements are the 128 bytes one
/// swizzled row holds.
constexpr int64_t kStepK = 64;
/// Rows of outputs per warpgroup's wgmma.
constexpr int64_t kWgmmaRows = 64;
/// K per wgmma instruction for 16-bit inputs.
constexpr int64_t kWgmmaDepth = 16;
/// Columns of B per TMA box: its rows are also 128 swizzled bytes.
constexpr int64_t kBoxColumns = 64;
constexpr int64_t kWarpgroupThreads = 128;
/// 128-byte swizzling repeats every 8 rows of 128 bytes: shared buffers
/// start on 1024-byte boundaries so the pattern the TMA writes is the one
/// the descriptors read.
constexpr int64_t kSwizzleAlignment = 1024;
/// Output tiles along the rows that consecutive blocks sweep before moving
/// to the next columns, so the blocks running together share B's panels
/// in L2.
constexpr int64_t kGroupRows = 8;

struct WarpgroupContraction {
  linalg::LinalgOp op;
  Value a, b, c;
  int64_t m = 0, n = 0, k = 0;
  Type element;
  linalg::FillOp fill;
  /// B is [N][K] (each column's K contiguous) rather than [K][N].
  bool bAlongK = false;
  /// The transposing copy that made B's [K][N] buffer from the [N][K] `b`,
  /// read through: it goes away with the contraction.
  linalg::LinalgOp transposingCopy;
};

/// Whether `op` may write `buffer`: it says it does, or writes memory it
/// does not name, or cannot say.
bool mayWrite(Operation *op, Value buffer) {
  if (isMemoryEffectFree(op))
    return false;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return true;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [&](MemoryEffects::EffectInstance &effect) {
    if (!isa<MemoryEffects::Write>(effect.getEffect()))
      return false;
    Value written = effect.getValue();
    // Through views to the buffer they view.
    while (written && written != buffer)
      if (auto view = written.getDefiningOp<ViewLikeOpInterface>())
        written = view.getViewSource();
      else
        return false;
    return true;
  });
}

/// The copy writing `buffer`, a temporary that only it writes and only
/// `reader` reads, when it transposes a 2-D buffer: the copy, else null.
/// Front ends write x @ W.T as a linalg.transpose of W into a temporary
/// before the product.
linalg::LinalgOp findTransposingCopy(Value buffer, Operation *reader) {
  auto alloc = buffer.getDefiningOp<memref::AllocOp>();
  if (!alloc)
    return nullptr;
  linalg::LinalgOp copy;
  for (Operation *user : alloc->getUsers()) {
    if (user == reader || isa<memref::DeallocOp>(user))
      continue;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
    if (copy || !linalgOp || linalgOp.getNumDpsInputs() != 1 ||
        linalgOp.getNumDpsInits() != 1 ||
        linalgOp.getDpsInitOperand(0)->get() != buffer)
      return nullptr;
    copy = linalgOp;
  }
  if (!copy || copy->getBlock() != reader->getBlock() ||
      !copy->isBeforeInBlock(reader) ||
      copy.getNumParallelLoops() != copy.getNumLoops() ||
      copy.getNumLoops() != 2)
    return nullptr;
  Block *body = copy.getBlock();
  if (body->getOperations().size() != 1 ||
      body->getTerminator()->getOperand(0) != body->getArgument(0))
    return nullptr;
  AffineMap input = copy.getMatchingIndexingMap(copy.getDpsInputOperand(0));
  AffineMap output = copy.getMatchingIndexingMap(copy.getDpsInitOperand(0));
  if (!input.isPermutation() || !output.isPermutation() ||
      input.getResult(0) != output.getResult(1) ||
      input.getResult(1) != output.getResult(0))
    return nullptr;
  // Nothing between the copy and the product writes the copied buffer.
  Value source = copy.getDpsInputOperand(0)->get();
  for (Operation *op = copy->getNextNode(); op != reader;
       op = op->getNextNode()) {
    if (mayWrite(op, source))
      return nullptr;
  }
  return copy;
}

/// A plain C[m][n] (f32, zero-filled) += A[m][k] * B[k][n] on whole
/// row-major buffers of f16 or bf16, B given as [K][N] or as [N][K] (read
/// directly or through a transposing copy), or nothing.
std::optional<WarpgroupContraction> match(linalg::LinalgOp op) {
  std::optional<ke::GPUContraction> contraction = ke::matchGPUContraction(op);
  if (!contraction || op.getNumDpsInputs() != 2 ||
      contraction->rowLoops.size() != 1 ||
      contraction->columnLoops.size() != 1 ||
      contraction->reductionLoops.size() != 1 ||
      !contraction->batchLoops.empty() || !contraction->alongRows[0] ||
      contraction->alongRows[1] || !ke::isMultiplyAccumulateBody(op, 0, 1))
    return std::nullopt;
  MLIRContext *context = op.getContext();
  AffineExpr row = getAffineDimExpr(contraction->rowLoops[0], context),
             column = getAffineDimExpr(contraction->columnLoops[0], context),
             reduction =
                 getAffineDimExpr(contraction->reductionLoops[0], context);
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  auto is = [](AffineMap map, AffineExpr outer, AffineExpr inner) {
    return map.getNumResults() == 2 && map.getResult(0) == outer &&
           map.getResult(1) == inner;
  };
  bool bAlongK = is(maps[1], column, reduction);
  if (!is(maps[0], row, reduction) ||
      !(bAlongK || is(maps[1], reduction, column)) ||
      !is(maps[2], row, column))
    return std::nullopt;
  WarpgroupContraction matched;
  matched.op = op;
  matched.a = op.getDpsInputOperand(0)->get();
  matched.b = op.getDpsInputOperand(1)->get();
  matched.c = op.getDpsInitOperand(0)->get();
  matched.bAlongK = bAlongK;
  if (!bAlongK) {
    if ((matched.transposingCopy = findTransposingCopy(matched.b, op))) {
      matched.b = matched.transposingCopy.getDpsInputOperand(0)->get();
      matched.bAlongK = true;
    }
  }
  for (Value buffer : {matched.a, matched.b, matched.c}) {
    auto type = dyn_cast<MemRefType>(buffer.getType());
    // The tensor maps and the result stores assume dense rows.
    if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity())
      return std::nullopt;
  }
  matched.element = getElementTypeOrSelf(matched.a.getType());
  if (matched.element != getElementTypeOrSelf(matched.b.getType()) ||
      !(matched.element.isF16() || matched.element.isBF16()) ||
      !getElementTypeOrSelf(matched.c.getType()).isF32())
    return std::nullopt;
  matched.m = contraction->rows;
  matched.n = contraction->columns;
  matched.k = contraction->depth;
  // The accumulators start at zero: only a zero fill folds into them.
  matched.fill = findInitializingFill(op);
  if (!matched.fill || !matchPattern(matched.fill.getInputs().front(),
                                     m_AnyZeroFloat()))
    return std::nullopt;
  return matched;
}

class WarpgroupKernelBuilder {
public:
  WarpgroupKernelBuilder(WarpgroupContraction contraction, int64_t rows,
                         int64_t tile, int64_t stages)
      : contraction(contraction), builder(contraction.op),
        loc(contraction.op.getLoc()), indexMath(builder, loc), rows(rows),
        tile(tile), stages(stages), context(builder.getContext()),
        workgroup(gpu::AddressSpaceAttr::get(context,
                                             gpu::AddressSpace::Workgroup)) {}

  void build();

private:
  MemRefType sharedType(ArrayRef<int64_t> shape) const {
    return MemRefType::get(shape, contraction.element,
                           MemRefLayoutAttrInterface{}, workgroup);
  }
  nvgpu::TensorMapDescriptorType mapType(ArrayRef<int64_t> box) const {
    return nvgpu::TensorMapDescriptorType::get(
        context, sharedType(box), nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
        nvgpu::TensorMapL2PromoKind::L2PROMO_256B,
        nvgpu::TensorMapOOBKind::OOB_ZERO,
        nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  }
  /// The host-side tensor map of `buffer` in boxes of `box`.
  Value createMap(Value buffer, ArrayRef<int64_t> box) {
    auto type = cast<MemRefType>(buffer.getType());
    Value unranked = memref::CastOp::create(
        builder, loc,
        UnrankedMemRefType::get(type.getElementType(), type.getMemorySpace()),
        buffer);
    SmallVector<Value> sizes;
    for (int64_t size : box)
      sizes.push_back(indexMath.constant(size));
    return nvgpu::TmaCreateDescriptorOp::create(builder, loc, mapType(box),
                                                unranked, sizes);
  }
  /// A view of `shape` at `byteOffset` of the aligned shared memory.
  Value sharedView(ArrayRef<int64_t> shape, Value byteOffset) {
    return memref::ViewOp::create(builder, loc, sharedType(shape), shared,
                                  indexMath.add(base, byteOffset),
                                  ValueRange{});
  }
  /// The wgmma descriptor of the `shape` tile at `byteOffset`, which
  /// `map`'s copies wrote (swizzled as its type says).
  Value descriptor(ArrayRef<int64_t> shape, Value byteOffset, Value map) {
    return nvgpu::WarpgroupGenerateDescriptorOp::create(
        builder, loc,
        nvgpu::WarpgroupMatrixDescriptorType::get(context, sharedType(shape)),
        sharedView(shape, byteOffset), map);
  }
  int64_t elementBytes() const {
    return contraction.element.getIntOrFloatBitWidth() / 8;
  }
  int64_t aStageBytes() const { return rows * kStepK * elementBytes(); }
  int64_t bStageBytes() const { return kStepK * tile * elementBytes(); }
  Value aStageOffset(Value stage) {
    return arith::MulIOp::create(builder, loc, stage,
                                 indexMath.constant(aStageBytes()));
  }
  Value bStageOffset(Value stage) {
    return indexMath.add(
        arith::MulIOp::create(builder, loc, stage,
                              indexMath.constant(bStageBytes())),
        stages * aStageBytes());
  }
  /// Thread 0's copies of K block `block` into `stage`, announced to the
  /// stage's barrier with their byte count.
  void issueLoads(Value stage, Value block);
  /// The mma of one K block in `stage` on `accumulators`.
  Value multiplyBlock(Value stage, Value aRowsOffset, Value accumulators);

  WarpgroupContraction contraction;
  OpBuilder builder;
  Location loc;
  IndexMath indexMath;
  /// Outputs per block along M and N.
  int64_t rows, tile, stages;
  MLIRContext *context;
  gpu::AddressSpaceAttr workgroup;
  Value aMap, bMap, shared, base, barriers, firstRow, firstColumn;
};

void WarpgroupKernelBuilder::issueLoads(Value stage, Value block) {
  Value k = arith::MulIOp::create(builder, loc, block,
                                  indexMath.constant(kStepK));
  nvgpu::MBarrierArriveExpectTxOp::create(
      builder, loc, barriers, indexMath.constant(aStageBytes() + bStageBytes()),
      stage, /*predicate=*/Value());
  // TMA coordinates run innermost first.
  Value aTile = sharedView({rows, kStepK}, aStageOffset(stage));
  nvgpu::TmaAsyncLoadOp::create(builder, loc, aTile, barriers, aMap,
                                ValueRange{k, firstRow}, stage,
                                /*multicastMask=*/Value(), /*predicate=*/Value());
  if (contraction.bAlongK) {
    // B's `tile` rows of 64 K: one box.
    nvgpu::TmaAsyncLoadOp::create(
        builder, loc, sharedView({tile, kStepK}, bStageOffset(stage)),
        barriers, bMap, ValueRange{k, firstColumn}, stage,
        /*multicastMask=*/Value(), /*predicate=*/Value());
    return;
  }
  for (int64_t box = 0; box < tile / kBoxColumns; ++box) {
    Value bBox = sharedView(
        {kStepK, kBoxColumns},
        indexMath.add(bStageOffset(stage),
                      box * kStepK * kBoxColumns * elementBytes()));
    nvgpu::TmaAsyncLoadOp::create(
        builder, loc, bBox, barriers, bMap,
        ValueRange{indexMath.add(firstColumn, box * kBoxColumns), k}, stage,
        /*multicastMask=*/Value(), /*predicate=*/Value());
  }
}

void WarpgroupKernelBuilder::build() {
  linalg::LinalgOp op = contraction.op;
  // 128 x 256 outputs take two warpgroups of 64 x 256 (128 accumulators
  // per thread each); smaller tiles one.
  // With B read along K every warpgroup takes 64 rows: the mma lowering
  // steps a descriptor to its second 64 rows by K rows of K elements,
  // wrong for the 16-wide descriptors of the per-16 mmas.
  int64_t warpgroups = contraction.bAlongK ? rows / kWgmmaRows
                       : rows * tile / (kWgmmaRows * 256) > 1 ? 2
                                                                : 1;
  int64_t groupRows = rows / warpgroups;
  int64_t rowTiles = contraction.m / rows,
          columnTiles = contraction.n / tile;
  int64_t blocks = contraction.k / kStepK;
  aMap = createMap(contraction.a, {rows, kStepK});
  bMap = contraction.bAlongK ? createMap(contraction.b, {tile, kStepK})
                             : createMap(contraction.b, {kStepK, kBoxColumns});
  int64_t sharedBytes =
      stages * (aStageBytes() + bStageBytes()) + kSwizzleAlignment;
  auto launch = gpu::LaunchOp::create(
      builder, loc, indexMath.constant(rowTiles * columnTiles),
      indexMath.constant(1), indexMath.constant(1),
      indexMath.constant(warpgroups * kWarpgroupThreads),
      indexMath.constant(1), indexMath.constant(1),
      arith::ConstantIntOp::create(builder, loc, builder.getI32Type(),
                                   sharedBytes));
  builder.setInsertionPointToStart(&launch.getBody().front());
  Value thread = launch.getThreadIds().x, block = launch.getBlockIds().x;

  // Blocks sweep kGroupRows row tiles per column tile, then the next
  // column tile (the last group may be shorter).
  Value perGroup = indexMath.constant(kGroupRows * columnTiles);
  Value group = arith::DivUIOp::create(builder, loc, block, perGroup);
  Value inGroup = arith::RemUIOp::create(builder, loc, block, perGroup);
  Value groupFirstRow = indexMath.mul(group, kGroupRows);
  Value groupHeight = arith::MinUIOp::create(
      builder, loc, indexMath.constant(kGroupRows),
      arith::SubIOp::create(builder, loc, indexMath.constant(rowTiles),
                            groupFirstRow));
  Value rowTile = indexMath.add(
      groupFirstRow,
      arith::RemUIOp::create(builder, loc, inGroup, groupHeight).getResult());
  Value columnTile = arith::DivUIOp::create(builder, loc, inGroup, groupHeight);
  firstRow = indexMath.mul(rowTile, rows);
  firstColumn = indexMath.mul(columnTile, tile);

  shared = gpu::DynamicSharedMemoryOp::create(
      builder, loc,
      MemRefType::get({ShapedType::kDynamic}, builder.getI8Type(),
                      MemRefLayoutAttrInterface{}, workgroup));
  // The buffers start at the first 1024-byte boundary past the dynamic
  // shared memory's symbol. NVPTX declares that symbol as a one-byte
  // static variable, which ptxas may place among the other static ones
  // (the mbarriers) before the launch's dynamic bytes: all of them lie in
  // the first 1024 bytes, so the boundary strictly above the symbol's
  // 1024-byte line is past them.
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, shared);
  Value alignment = indexMath.constant(kSwizzleAlignment);
  base = arith::SubIOp::create(
      builder, loc, alignment,
      arith::RemUIOp::create(builder, loc, address, alignment));

  barriers = nvgpu::MBarrierCreateOp::create(
      builder, loc,
      nvgpu::MBarrierGroupType::get(context, workgroup, stages));
  Value zero = indexMath.constant(0), one = indexMath.constant(1);
  Value leader = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                       thread, zero);
  auto ifLeader = [&](function_ref<void()> body) {
    auto branch = scf::IfOp::create(builder, loc, leader);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(branch.thenBlock());
    body();
  };
  ifLeader([&] {
    for (int64_t stage = 0; stage < stages; ++stage)
      nvgpu::MBarrierInitOp::create(builder, loc, barriers, one,
                                    indexMath.constant(stage),
                                    /*predicate=*/Value());
    nvgpu::TmaPrefetchOp::create(builder, loc, aMap, /*predicate=*/Value());
    nvgpu::TmaPrefetchOp::create(builder, loc, bMap, /*predicate=*/Value());
    for (int64_t stage = 0; stage < std::min(stages, blocks); ++stage)
      issueLoads(indexMath.constant(stage), indexMath.constant(stage));
  });
  // Every thread waits on barriers that thread 0 initialized.
  gpu::BarrierOp::create(builder, loc);

  auto accumulatorType = nvgpu::WarpgroupAccumulatorType::get(
      context, VectorType::get({groupRows, tile}, builder.getF32Type()));
  Value initial =
      nvgpu::WarpgroupMmaInitAccumulatorOp::create(builder, loc,
                                                   accumulatorType);
  Value warpgroup = arith::DivUIOp::create(
      builder, loc, thread, indexMath.constant(kWarpgroupThreads));
  Value aRowsOffset = arith::MulIOp::create(
      builder, loc, warpgroup,
      indexMath.constant(groupRows * kStepK * elementBytes()));
  Value ticks = indexMath.constant(10000000);
  auto loop = scf::ForOp::create(builder, loc, zero,
                                 indexMath.constant(blocks), one,
                                 ValueRange{initial});
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(loop.getBody());
    Value step = loop.getInductionVar();
    Value stageCount = indexMath.constant(stages);
    Value stage = arith::RemUIOp::create(builder, loc, step, stageCount);
    // The stage's barrier completes one phase per refill: this block's is
    // the (step / stages)-th.
    Value phase = arith::DivUIOp::create(builder, loc, step, stageCount);
    Value parity = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::ne,
        arith::RemUIOp::create(builder, loc, phase, indexMath.constant(2)),
        zero);
    nvgpu::MBarrierTryWaitParityOp::create(builder, loc, barriers, parity,
                                           ticks, stage);
    Value accumulators =
        multiplyBlock(stage, aRowsOffset, loop.getRegionIterArgs().front());
    // The previous step's stage is free once every warpgroup is past its
    // mma: thread 0 refills it with the block `stages` - 1 ahead.
    Value previous = arith::SubIOp::create(builder, loc, step, one);
    Value refill = indexMath.add(previous, stages);
    Value due = arith::AndIOp::create(
        builder, loc,
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::uge, step,
                              one),
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult, refill,
                              indexMath.constant(blocks)));
    auto ifDue = scf::IfOp::create(builder, loc, due);
    {
      OpBuilder::InsertionGuard inner(builder);
      builder.setInsertionPointToStart(ifDue.thenBlock());
      gpu::BarrierOp::create(builder, loc);
      ifLeader([&] {
        issueLoads(arith::RemUIOp::create(builder, loc, previous, stageCount),
                   refill);
      });
    }
    scf::YieldOp::create(builder, loc, accumulators);
  }
  NVVM::WgmmaWaitGroupSyncOp::create(builder, loc, uint64_t(0));
  // The store puts warp w's rows at 16 w of its view, w counting the
  // block's warps: every warpgroup stores through the view at the tile's
  // first row.
  SmallVector<OpFoldResult> offsets = {firstRow, firstColumn};
  SmallVector<OpFoldResult> sizes = {builder.getIndexAttr(groupRows),
                                     builder.getIndexAttr(tile)};
  SmallVector<OpFoldResult> strides(2, builder.getIndexAttr(1));
  Value output = memref::SubViewOp::create(builder, loc, contraction.c,
                                           offsets, sizes, strides);
  nvgpu::WarpgroupMmaStoreOp::create(builder, loc, loop.getResult(0), output);
  gpu::TerminatorOp::create(builder, loc);
  contraction.fill->erase();
  op->erase();
  if (linalg::LinalgOp copy = contraction.transposingCopy) {
    Value temporary = copy.getDpsInitOperand(0)->get();
    copy->erase();
    for (Operation *user : llvm::make_early_inc_range(temporary.getUsers()))
      user->erase(); // deallocations: the reader and the writer are gone
    temporary.getDefiningOp()->erase();
  }
}

Value WarpgroupKernelBuilder::multiplyBlock(Value stage, Value aRowsOffset,
                                            Value accumulators) {
  Value aOffset = indexMath.add(aStageOffset(stage), aRowsOffset);
  // Each warpgroup's rows of A.
  int64_t groupRows = cast<nvgpu::WarpgroupAccumulatorType>(
                          accumulators.getType())
                          .getFragmented()
                          .getDimSize(0);
  if (!contraction.bAlongK) {
    // B's boxes hold rows of N: one mma reads it N-major ("transposed"),
    // its lowering stepping both descriptors along K. It returns once the
    // previous step's mma is done (wait group 1).
    Value aDescriptor = descriptor({groupRows, kStepK}, aOffset, aMap);
    Value bDescriptor = descriptor({kStepK, tile}, bStageOffset(stage), bMap);
    return nvgpu::WarpgroupMmaOp::create(
        builder, loc, accumulators.getType(), aDescriptor, bDescriptor,
        /*waitGroup=*/uint64_t(1), /*transposeA=*/UnitAttr(),
        /*transposeB=*/builder.getUnitAttr(), accumulators);
  }
  // B's rows hold K, like A's: both are read K-major, one mma per 16 of K,
  // each starting 32 bytes further into the swizzled rows (upstream's
  // lowering steps a K-major B by whole rows). Each returns once the
  // previous block's mmas are done: the K block's own stay in flight.
  int64_t steps = kStepK / kWgmmaDepth;
  int64_t stepBytes = kWgmmaDepth * elementBytes();
  for (int64_t step = 0; step < steps; ++step) {
    Value aDescriptor = descriptor(
        {groupRows, kWgmmaDepth}, indexMath.add(aOffset, step * stepBytes),
        aMap);
    Value bDescriptor = descriptor(
        {kWgmmaDepth, tile},
        indexMath.add(bStageOffset(stage), step * stepBytes), bMap);
    accumulators = nvgpu::WarpgroupMmaOp::create(
        builder, loc, accumulators.getType(), aDescriptor, bDescriptor,
        /*waitGroup=*/uint64_t(steps), /*transposeA=*/UnitAttr(),
        /*transposeB=*/UnitAttr(), accumulators);
  }
  return accumulators;
}

struct WarpgroupContractionsForGPUPass
    : ke::impl::KeWarpgroupContractionsForGPUBase<
          WarpgroupContractionsForGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    ke::GPUSchedule options;
    options.warpgroupTile = this->tile;
    int64_t largest = ke::GPUSchedule::get(function, options).warpgroupTile;
    if (largest == 0)
      return;
    if (largest != 128 && largest != 256) {
      function.emitError()
          << "ke-warpgroup-contractions-for-gpu: tile must be 0, 128 or 256 "
             "(got "
          << largest << ")";
      return signalPassFailure();
    }
    SmallVector<WarpgroupContraction> matched;
    function.walk([&](linalg::LinalgOp op) {
      if (std::optional<WarpgroupContraction> contraction = match(op))
        matched.push_back(*contraction);
    });
    for (WarpgroupContraction &contraction : matched) {
      if (contraction.k % kStepK != 0)
        continue;
      // The largest tile (128 x 256, 128 x 128, 64 x 256, 64 x 128, up to
      // `tile` columns) that divides the output and gives `min-blocks`
      // blocks; else 64 x 128 if it gives half as many; else none
      // (mma.sync's smaller tiles fill the GPU better).
      auto blocks = [&](int64_t rows, int64_t columns) -> int64_t {
        if (contraction.m % rows != 0 || contraction.n % columns != 0)
          return 0;
        return (contraction.m / rows) * (contraction.n / columns);
      };
      int64_t rows = 0, tile = 0;
      for (int64_t tileRows : {128, 64})
        for (int64_t width = largest; width >= 128 && !tile; width /= 2)
          if (blocks(tileRows, width) >= minBlocks) {
            rows = tileRows;
            tile = width;
          }
      if (!tile && 2 * blocks(kWgmmaRows, 128) >= minBlocks) {
        rows = kWgmmaRows;
        tile = 128;
      }
      if (!tile)
        continue;
      int64_t stageBytes = (rows + tile) * kStepK *
                           contraction.element.getIntOrFloatBitWidth() / 8;
      int64_t fitting = std::min<int64_t>(
          stages, (maxShared - kSwizzleAlignment) / stageBytes);
      if (fitting < 2)
        continue;
      WarpgroupKernelBuilder(contraction, rows, tile, fitting).build();
    }
  }
};
} // namespace
