//===- TensorCoreContractionsForGPU.cpp - GEMMs on mma.sync ---------------===//
//
// An NVIDIA GPU multiplies small matrices per warp on its tensor cores
// (`mma.sync`): 16 x 8 x 16 for f16/bf16 inputs, 16 x 8 x 8 for f32 read
// as TF32, with f32 accumulators, many times the FMA units' rate. This
// rewrites GEMM-like contractions whose inputs allow it into one launch per
// tile of outputs: the block stages each step's slices of both inputs in
// shared memory (16-byte vector loads where the input is contiguous), and
// every warp loads its operand fragments from there and issues one mma.sync
// per 16 x 8 piece of its warp tile.
//
// f32 inputs only with the kernel's permission (`ke.precision = "tf32"`):
// TF32 keeps 10 of f32's 23 mantissa bits.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/GPUContraction.h"
#include "ke/Codegen/GPUContractionEpilogue.h"
#include "ke/Codegen/GPUSchedule.h"
#include "ke/Codegen/GPUSharedSlices.h"
#include "ke/Codegen/LinalgOnBuffers.h"
#include "ke/Codegen/Passes.h"
#include "ke/Codegen/StructuredMatchers.h"
#include "ke/KeDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace ke {
#define GEN_PASS_DEF_KETENSORCORECONTRACTIONSFORGPU
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;
using ke::detail::applyMap;
using ke::detail::emitGuarded;
using ke::detail::findInitializingFill;
using ke::detail::loadOrZero;
using ke::detail::scatterIvs;

namespace {
/// Warps per block along the rows of its tile; along the columns 2, or 4
/// for the largest tile (warp tiles of 64 x 32: half the accumulators of
/// 64 x 64, twice the warps to hide latency).
constexpr int64_t kWarpRows = 2;
constexpr int64_t kWarpSize = 32;
int64_t warpColumnsFor(int64_t tile) { return tile >= 128 ? 4 : 2; }

/// What the tensor cores take: the inputs' element type and the mma shape.
enum class MmaKind { F16, BF16, TF32 };

struct TensorCoreContraction : ke::GPUContraction {
  MmaKind kind = MmaKind::F16;
  /// The positions of the A-like and B-like inputs.
  unsigned a = 0, b = 1;
  /// Outputs per block along rows and columns.
  int64_t tile = 0;
  /// An elementwise op after the product that reads its output (a bias, an
  /// activation): applied to the accumulators before they are stored.
  ke::GPUContractionEpilogue epilogue;
};

Type inputElementType(const TensorCoreContraction &contraction,
                      unsigned position) {
  linalg::LinalgOp op = contraction.op;
  return getElementTypeOrSelf(op.getDpsInputOperand(position)->get().getType());
}

/// The mma's K: 16 for 16-bit inputs, 8 for TF32.
int64_t mmaDepth(MmaKind kind) { return kind == MmaKind::TF32 ? 8 : 16; }
/// Reduction iterations per shared-memory step (64 bytes of each row).
int64_t stepDepth(MmaKind kind) { return 4 * mmaDepth(kind) / 2; }
/// Elements of shared-memory padding per row: 16 bytes, which puts the
/// eight rows a fragment load touches on different banks.
int64_t rowPadding(MmaKind kind) { return kind == MmaKind::TF32 ? 4 : 8; }

/// `contraction` as a tensor-core product, when its body is exactly
/// acc + a * b (the inputs possibly extended to f32) and its inputs are
/// f16, bf16, or f32 under TF32 permission.
std::optional<TensorCoreContraction>
matchTensorCore(const ke::GPUContraction &matched, bool allowTF32) {
  linalg::LinalgOp op = matched.op;
  if (op.getNumDpsInputs() != 2 || matched.alongRows[0] == matched.alongRows[1])
    return std::nullopt;
  TensorCoreContraction contraction{matched};
  contraction.a = matched.alongRows[0] ? 0 : 1;
  contraction.b = 1 - contraction.a;
  if (!ke::isMultiplyAccumulateBody(op, contraction.a, contraction.b))
    return std::nullopt;
  Type aType = inputElementType(contraction, contraction.a),
       bType = inputElementType(contraction, contraction.b);
  if (aType != bType)
    return std::nullopt;
  if (aType.isF16())
    contraction.kind = MmaKind::F16;
  else if (aType.isBF16())
    contraction.kind = MmaKind::BF16;
  else if (aType.isF32() && allowTF32)
    contraction.kind = MmaKind::TF32;
  else
    return std::nullopt;
  constexpr int64_t kMaxGridYZ = 65535;
  if (contraction.batches > kMaxGridYZ)
    return std::nullopt;
  return contraction;
}

/// The tile: `largest`, halved (down to 32) while the grid would have fewer
/// than `minBlocks` blocks; exactly `largest` when `exact`.
int64_t chooseTile(const TensorCoreContraction &contraction, int64_t largest,
                   int64_t minBlocks, bool exact) {
  if (exact)
    return largest;
  auto blocks = [&](int64_t tile) {
    return llvm::divideCeil(contraction.rows, tile) *
           llvm::divideCeil(contraction.columns, tile) * contraction.batches;
  };
  int64_t tile = largest;
  while (tile > 32 && blocks(tile) < minBlocks)
    tile /= 2;
  return tile;
}

/// The walk through shared memory: steps of 64 bytes per row, [k][line]
/// rows padded by 8 elements (TF32 reads four k rows at 8 banks apart,
/// 16-bit pairs two rows per k pair).
ke::SharedStaging stagingFor(const TensorCoreContraction &contraction,
                             int64_t stages) {
  ke::SharedStaging staging;
  staging.rowTile = staging.columnTile = contraction.tile;
  staging.stepK = stepDepth(contraction.kind);
  staging.stages = stages;
  staging.linePaddingBytes = 8 * (contraction.kind == MmaKind::TF32 ? 4 : 2);
  return staging;
}

class TensorCoreKernelBuilder {
public:
  TensorCoreKernelBuilder(const TensorCoreContraction &contraction,
                          int64_t stages)
      : contraction(contraction), op(contraction.op), builder(op),
        loc(op.getLoc()), bounds(op.getStaticLoopRanges()),
        staging(stagingFor(contraction, stages)), indexMath(builder, loc) {}

  void build();

private:
  /// Element (line, k) of a slice at `stage`.
  Value loadShared(const ke::SharedSlice &copy, Value stage, Value line,
                   Value k);
  /// The TF32 mma operand registers of the A fragment whose rows start at
  /// `first` (four) or of the B fragment whose columns do (two), at `k`.
  SmallVector<Value> loadFragment(const ke::SharedSlice &copy, Value stage,
                                  Value first, Value k, bool isA);
  /// Four 8 x 8 matrices of 16-bit elements from a slice with one
  /// ldmatrix: matrix m at (line, k) = (first + 8 (m / 2 or m % 2), k + 8
  /// (the other)), each lane's register of a matrix holding the pair the
  /// mma fragments want (transposed where the slice is [k][line]).
  /// `linesFirst`: matrices 0 and 1 differ in their lines (A's rows),
  /// otherwise in k (B's columns).
  SmallVector<Value> loadMatrices(const ke::SharedSlice &copy, Value stage,
                                  Value first, Value k, bool linesFirst);
  /// `value` rounded to the nearest TF32, as the i32 the mma takes.
  Value roundToTF32(Value value);

  const TensorCoreContraction &contraction;
  linalg::LinalgOp op;
  OpBuilder builder;
  Location loc;
  SmallVector<int64_t> bounds;
  ke::SharedStaging staging;
  ke::detail::IndexMath indexMath;
  SmallVector<Value> base;
  Value firstRow, firstColumn, linearThread, lane, groupId, threadInGroup;
};

Value TensorCoreKernelBuilder::loadShared(const ke::SharedSlice &copy,
                                          Value stage, Value line, Value k) {
  return memref::LoadOp::create(builder, loc, copy.buffer,
                                copy.kInnermost ? ValueRange{stage, line, k}
                                                : ValueRange{stage, k, line});
}

SmallVector<Value>
TensorCoreKernelBuilder::loadMatrices(const ke::SharedSlice &copy, Value stage,
                                      Value first, Value k, bool linesFirst) {
  // Lane l names row l % 8 of matrix l / 8; "rows" are the slice's rows
  // (lines for [line][k], k for [k][line], which ldmatrix transposes).
  Value row = arith::RemUIOp::create(builder, loc, lane, indexMath.constant(8));
  Value matrix =
      arith::DivUIOp::create(builder, loc, lane, indexMath.constant(8));
  Value low =
      arith::RemUIOp::create(builder, loc, matrix, indexMath.constant(2));
  Value high =
      arith::DivUIOp::create(builder, loc, matrix, indexMath.constant(2));
  Value lineBlock = indexMath.mul(linesFirst ? low : high, 8);
  Value kBlock = indexMath.mul(linesFirst ? high : low, 8);
  Value line = indexMath.add(first, lineBlock), kk = indexMath.add(k, kBlock);
  if (copy.kInnermost)
    line = indexMath.add(line, row);
  else
    kk = indexMath.add(kk, row);
  Type element = getElementTypeOrSelf(copy.buffer.getType());
  auto loaded = nvgpu::LdMatrixOp::create(
      builder, loc, VectorType::get({4, 2}, element), copy.buffer,
      copy.kInnermost ? ValueRange{stage, line, kk}
                      : ValueRange{stage, kk, line},
      /*transpose=*/!copy.kInnermost, /*numTiles=*/4);
  SmallVector<Value> registers;
  for (int64_t m = 0; m < 4; ++m) {
    Value pair =
        vector::ExtractOp::create(builder, loc, loaded, ArrayRef<int64_t>{m});
    if (contraction.kind == MmaKind::BF16) {
      // bf16 pairs travel as one 32-bit register.
      auto word = vector::BitCastOp::create(
          builder, loc, VectorType::get({1}, builder.getI32Type()), pair);
      pair =
          vector::ExtractOp::create(builder, loc, word, ArrayRef<int64_t>{0});
    }
    registers.push_back(pair);
  }
  return registers;
}

Value TensorCoreKernelBuilder::roundToTF32(Value value) {
  // The mma would drop f32's low 13 bits; rounding halves the error, as
  // cuBLAS does.
  return NVVM::ConvertFloatToTF32Op::create(
      builder, loc, builder.getI32Type(), value, NVVM::FPRoundingMode::RNA,
      NVVM::SaturationMode::NONE, /*relu=*/false);
}

SmallVector<Value>
TensorCoreKernelBuilder::loadFragment(const ke::SharedSlice &copy, Value stage,
                                      Value first, Value k, bool isA) {
  // PTX's m16n8k8 TF32 fragments: lane = 4 group + t. A: rows group and
  // group + 8; B: column group; k t and t + 4.
  SmallVector<Value> registers;
  SmallVector<Value> lines = {indexMath.add(first, groupId)};
  if (isA)
    lines.push_back(indexMath.add(lines[0], 8));
  Value k1 = indexMath.add(k, threadInGroup);
  for (int64_t half : {0, 4})
    for (Value line : lines)
      registers.push_back(
          roundToTF32(loadShared(copy, stage, line, indexMath.add(k1, half))));
  return registers;
}

void TensorCoreKernelBuilder::build() {
  MLIRContext *context = op.getContext();
  int64_t tile = contraction.tile;
  int64_t warpColumns = warpColumnsFor(tile);
  int64_t threads = kWarpRows * warpColumns * kWarpSize;
  int64_t warpTileRows = tile / kWarpRows, warpTileColumns = tile / warpColumns;
  int64_t fragmentRows = warpTileRows / 16,
          fragmentColumns = warpTileColumns / 8;
  bool ragged = contraction.rows % tile != 0 || contraction.columns % tile != 0;
  SmallVector<ke::SharedSlice, 2> copies = {
      ke::planSharedSlice(contraction, contraction.a, staging),
      ke::planSharedSlice(contraction, contraction.b, staging)};
  // Up to 48 KB as workgroup attributions (static shared memory); past
  // that, views into the launch's dynamic shared memory, which the kernel
  // opts in to at launch.
  Value dynamicBytes =
      ke::dynamicSharedBytes(builder, loc, contraction, copies, staging);
  SmallVector<Type> sliceTypes;
  if (!dynamicBytes)
    for (const ke::SharedSlice &copy : copies)
      sliceTypes.push_back(ke::sharedSliceType(contraction, copy, staging));
  auto launch = gpu::LaunchOp::create(
      builder, loc,
      indexMath.constant(llvm::divideCeil(contraction.columns, tile)),
      indexMath.constant(llvm::divideCeil(contraction.rows, tile)),
      indexMath.constant(contraction.batches), indexMath.constant(threads),
      indexMath.constant(1), indexMath.constant(1), dynamicBytes,
      /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, sliceTypes);
  builder.setInsertionPointToStart(&launch.getBody().front());
  gpu::KernelDim3 block = launch.getBlockIds(), thread = launch.getThreadIds();
  ke::bindSharedSlices(builder, loc, launch, contraction, copies, staging);
  base.assign(bounds.size(), indexMath.constant(0));
  if (!contraction.batchLoops.empty())
    scatterIvs(builder, loc, block.z, contraction.batchLoops, bounds, base);
  firstRow = indexMath.mul(block.y, tile);
  firstColumn = indexMath.mul(block.x, tile);
  linearThread = thread.x;
  Value warp = arith::DivUIOp::create(builder, loc, thread.x,
                                      indexMath.constant(kWarpSize));
  lane = arith::RemUIOp::create(builder, loc, thread.x,
                                indexMath.constant(kWarpSize));
  groupId = arith::DivUIOp::create(builder, loc, lane, indexMath.constant(4));
  threadInGroup =
      arith::RemUIOp::create(builder, loc, lane, indexMath.constant(4));
  Value warpRow =
      indexMath.mul(arith::DivUIOp::create(builder, loc, warp,
                                           indexMath.constant(warpColumns)),
                    warpTileRows);
  Value warpColumn =
      indexMath.mul(arith::RemUIOp::create(builder, loc, warp,
                                           indexMath.constant(warpColumns)),
                    warpTileColumns);

  // Accumulator (fm, fn, i) of the lane: row group (+ 8 for i >= 2),
  // column 2t + i % 2 of the warp's 16 x 8 piece (fm, fn).
  OpOperand *init = op.getDpsInitOperand(0);
  AffineMap outputMap = op.getMatchingIndexingMap(init);
  auto outputAt = [&](int64_t fm, int64_t fn,
                      int64_t i) -> std::pair<SmallVector<Value>, Value> {
    Value row = indexMath.add(indexMath.add(firstRow, warpRow),
                              indexMath.add(groupId, fm * 16 + (i / 2) * 8));
    Value column = indexMath.add(
        indexMath.add(firstColumn, warpColumn),
        indexMath.add(arith::MulIOp::create(builder, loc, threadInGroup,
                                            indexMath.constant(2)),
                      fn * 8 + i % 2));
    SmallVector<Value> ivs(base);
    scatterIvs(builder, loc, row, contraction.rowLoops, bounds, ivs);
    scatterIvs(builder, loc, column, contraction.columnLoops, bounds, ivs);
    Value inside;
    if (ragged)
      inside = indexMath.both(indexMath.below(row, contraction.rows),
                              indexMath.below(column, contraction.columns));
    return {applyMap(builder, loc, outputMap, ivs), inside};
  };
  Type f32 = builder.getF32Type();
  SmallVector<Value> initial;
  for (int64_t fm = 0; fm < fragmentRows; ++fm)
    for (int64_t fn = 0; fn < fragmentColumns; ++fn)
      for (int64_t i = 0; i < 4; ++i) {
        if (linalg::FillOp fill = contraction.fill) {
          initial.push_back(fill.getInputs().front());
          continue;
        }
        // Outside the output the accumulator is never stored: any start.
        auto [indices, inside] = outputAt(fm, fn, i);
        initial.push_back(
            loadOrZero(builder, loc, init->get(), indices, inside));
      }

  ke::BlockPosition position{base, firstRow, firstColumn, linearThread,
                             threads};
  auto loop = ke::buildStagedSteps(
      builder, loc, contraction, copies, staging, position, initial,
      [&](Value stage, SmallVectorImpl<Value> &accumulators) {
        auto resultType =
            LLVM::LLVMStructType::getLiteral(context, {f32, f32, f32, f32});
        NVVM::MMATypes ptxType =
            contraction.kind == MmaKind::F16    ? NVVM::MMATypes::f16
            : contraction.kind == MmaKind::BF16 ? NVVM::MMATypes::bf16
                                                : NVVM::MMATypes::tf32;
        int64_t depth = mmaDepth(contraction.kind);
        for (int64_t kStep = 0; kStep < staging.stepK; kStep += depth) {
          Value k = indexMath.constant(kStep);
          SmallVector<SmallVector<Value>> aFragments, bFragments;
          if (contraction.kind == MmaKind::TF32) {
            for (int64_t fm = 0; fm < fragmentRows; ++fm)
              aFragments.push_back(loadFragment(
                  copies[0], stage, indexMath.add(warpRow, fm * 16), k,
                  /*isA=*/true));
            for (int64_t fn = 0; fn < fragmentColumns; ++fn)
              bFragments.push_back(loadFragment(
                  copies[1], stage, indexMath.add(warpColumn, fn * 8), k,
                  /*isA=*/false));
          } else {
            // 16-bit operands: one ldmatrix per A fragment (rows r, r + 8 by k,
            // k + 8) and per pair of B fragments (k, k + 8 by columns c, c +
            // 8).
            for (int64_t fm = 0; fm < fragmentRows; ++fm)
              aFragments.push_back(loadMatrices(
                  copies[0], stage, indexMath.add(warpRow, fm * 16), k,
                  /*linesFirst=*/true));
            for (int64_t fn = 0; fn < fragmentColumns; fn += 2) {
              SmallVector<Value> pair = loadMatrices(
                  copies[1], stage, indexMath.add(warpColumn, fn * 8), k,
                  /*linesFirst=*/false);
              bFragments.push_back({pair[0], pair[1]});
              bFragments.push_back({pair[2], pair[3]});
            }
          }
          for (int64_t fm = 0; fm < fragmentRows; ++fm)
            for (int64_t fn = 0; fn < fragmentColumns; ++fn) {
              MutableArrayRef<Value> c =
                  MutableArrayRef<Value>(accumulators)
                      .slice((fm * fragmentColumns + fn) * 4, 4);
              auto mma = NVVM::MmaOp::create(
                  builder, loc, resultType, aFragments[fm], bFragments[fn],
                  ValueRange(c), {16, 8, depth}, std::nullopt, std::nullopt,
                  std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
                  std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                                 NVVM::MMALayout::col});
              for (int64_t i = 0; i < 4; ++i)
                c[i] = LLVM::ExtractValueOp::create(builder, loc, mma, i);
            }
        }
      });
  for (int64_t fm = 0; fm < fragmentRows; ++fm)
    for (int64_t fn = 0; fn < fragmentColumns; ++fn)
      for (int64_t i = 0; i < 4; ++i) {
        auto [indices, inside] = outputAt(fm, fn, i);
        Value result = loop.getResult((fm * fragmentColumns + fn) * 4 + i);
        const ke::GPUContractionEpilogue &epilogue = contraction.epilogue;
        emitGuarded(builder, loc, inside, [&] {
          if (!epilogue || epilogue.storeOutput)
            memref::StoreOp::create(builder, loc, result, init->get(),
                                    indices);
          if (epilogue)
            memref::StoreOp::create(
                builder, loc,
                epilogue.apply(builder, loc, init->get(), result, indices),
                epilogue.written(), indices);
        });
      }
  gpu::TerminatorOp::create(builder, loc);
  op->erase();
}

struct TensorCoreContractionsForGPUPass
    : ke::impl::KeTensorCoreContractionsForGPUBase<
          TensorCoreContractionsForGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    ke::GPUSchedule options;
    options.tensorCoreTile = this->tile;
    ke::GPUSchedule schedule = ke::GPUSchedule::get(function, options);
    int64_t tile = schedule.tensorCoreTile;
    if (tile == 0)
      return;
    if (!llvm::is_contained({32, 64, 128}, tile) || stages < 1) {
      function.emitError()
          << "ke-tensor-core-contractions-for-gpu: tile must be 0, 32, 64 or "
             "128 and stages at least 1 (got tile="
          << tile << ", stages=" << stages.getValue() << ")";
      return signalPassFailure();
    }
    bool exactTile =
        function->hasAttr(ke::KeDialect::kGPUTensorCoreTileAttrName);
    auto precision =
        function->getAttrOfType<StringAttr>(ke::KeDialect::kPrecisionAttrName);
    bool allowTF32 = precision && precision.getValue() == "tf32";
    SmallVector<TensorCoreContraction, 2> rewritten;
    function.walk([&](linalg::LinalgOp op) {
      std::optional<ke::GPUContraction> matched = ke::matchGPUContraction(op);
      if (!matched)
        return;
      std::optional<TensorCoreContraction> contraction =
          matchTensorCore(*matched, allowTF32);
      if (!contraction)
        return;
      contraction->tile = chooseTile(*contraction, tile, minBlocks, exactTile);
      contraction->fill = findInitializingFill(op);
      contraction->epilogue = ke::findGPUContractionEpilogue(op);
      rewritten.push_back(*contraction);
    });
    for (TensorCoreContraction &contraction : rewritten) {
      // As many stages as asked for that fit `max-shared`.
      ke::SharedStaging staging = stagingFor(contraction, 1);
      int64_t perStage = ke::sharedStageBytes(
          contraction,
          {ke::planSharedSlice(contraction, contraction.a, staging),
           ke::planSharedSlice(contraction, contraction.b, staging)},
          staging);
      int64_t fitting =
          std::max<int64_t>(1, std::min<int64_t>(stages, maxShared / perStage));
      TensorCoreKernelBuilder(contraction, fitting).build();
      if (contraction.epilogue)
        contraction.epilogue.op->erase();
      if (contraction.fill)
        contraction.fill->erase();
    }
  }
};
} // namespace
