//===- SharedSlices.cpp - a contraction's inputs through shared memory ----===//

#include "ke/Codegen/GPUSharedSlices.h"

#include "ke/Codegen/LinalgOnBuffers.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using ke::detail::applyMap;
using ke::detail::loadOrZero;
using ke::detail::loadVectorOrZero;
using ke::detail::scatterIvs;

namespace {
/// Bytes one thread moves per copy where the input allows it.
constexpr int64_t kVectorBytes = 16;

int64_t lines(const ke::SharedSlice &slice, const ke::SharedStaging &staging) {
  return slice.kInnermost ? staging.tileAlong(slice) : staging.stepK;
}

/// The bytes a slice buffer of `type` takes, up to the next 16: each
/// buffer starts on 16 bytes (ke-align-workgroup-memory, the views of
/// dynamic shared memory).
int64_t bufferBytes(MemRefType type) {
  return llvm::alignTo(
      type.getNumElements() * type.getElementTypeBitWidth() / 8, kVectorBytes);
}

/// `input`'s split offset, or nothing when its index is not a sum of
/// loops times constants into a static row-major buffer.
std::optional<ke::SplitOffset>
splitOffset(const ke::GPUContraction &contraction, OpOperand *input) {
  linalg::LinalgOp op = contraction.op;
  auto memref = dyn_cast<MemRefType>(input->get().getType());
  if (!memref || memref.getRank() == 0 || !memref.hasStaticShape() ||
      !memref.getLayout().isIdentity())
    return std::nullopt;
  AffineMap map = op.getMatchingIndexingMap(input);
  MLIRContext *context = op->getContext();
  AffineExpr flat = getAffineConstantExpr(0, context);
  int64_t stride = 1;
  for (int64_t r = memref.getRank() - 1; r >= 0; --r) {
    flat = flat + map.getResult(r) * stride;
    stride *= memref.getDimSize(r);
  }
  unsigned dims = map.getNumDims();
  flat = simplifyAffineExpr(flat, dims, 0);
  // Linear only: isPureAffine also admits divisions and remainders by
  // constants, whose terms do not split (k floordiv 2).
  bool divides = false;
  flat.walk([&](AffineExpr expr) {
    divides |= expr.getKind() == AffineExprKind::Mod ||
               expr.getKind() == AffineExprKind::FloorDiv ||
               expr.getKind() == AffineExprKind::CeilDiv;
  });
  if (!flat.isPureAffine() || divides)
    return std::nullopt;
  auto valueAt = [&](ArrayRef<int64_t> point) -> std::optional<int64_t> {
    SmallVector<AffineExpr> values;
    for (int64_t value : point)
      values.push_back(getAffineConstantExpr(value, context));
    auto constant = dyn_cast<AffineConstantExpr>(
        simplifyAffineExpr(flat.replaceDims(values), 0, 0));
    if (!constant)
      return std::nullopt;
    return constant.getValue();
  };
  SmallVector<int64_t> origin(dims, 0);
  std::optional<int64_t> atOrigin = valueAt(origin);
  if (!atOrigin)
    return std::nullopt;
  ke::SplitOffset split;
  SmallVector<AffineExpr> rest;
  for (unsigned d = 0; d < dims; ++d)
    rest.push_back(llvm::is_contained(contraction.reductionLoops, d)
                       ? getAffineConstantExpr(0, context)
                       : getAffineDimExpr(d, context));
  split.rest = simplifyAffineExpr(flat.replaceDims(rest), dims, 0);
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  int64_t largest = 0;
  split.fits32 = true;
  for (unsigned loop : contraction.reductionLoops) {
    SmallVector<int64_t> unit(dims, 0);
    unit[loop] = 1;
    std::optional<int64_t> atUnit = valueAt(unit);
    if (!atUnit)
      return std::nullopt;
    int64_t coefficient = *atUnit - *atOrigin;
    split.reductionCoefficients.push_back(coefficient);
    split.fits32 &= coefficient >= 0;
    largest += std::abs(coefficient) * (bounds[loop] - 1);
  }
  split.fits32 &= largest < (int64_t(1) << 31) &&
                  contraction.depth < (int64_t(1) << 31);
  ArrayRef<int64_t> coefficients = split.reductionCoefficients;
  ArrayRef<unsigned> loops = contraction.reductionLoops;
  split.linear = true;
  for (size_t l = 0; l + 1 < loops.size(); ++l)
    split.linear &=
        coefficients[l] == coefficients[l + 1] * bounds[loops[l + 1]];
  return split;
}

/// The K part of a split offset at the flat reduction index `k`: an
/// index, or the i32 itself where it fits and `asIndex` is false.
Value reductionOffset(OpBuilder &builder, Location loc,
                      const ke::GPUContraction &contraction,
                      const ke::SplitOffset &split, Value k,
                      bool asIndex = true) {
  linalg::LinalgOp op = contraction.op;
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  ArrayRef<unsigned> loops = contraction.reductionLoops;
  Type type = split.fits32 ? Type(builder.getI32Type())
                           : Type(builder.getIndexType());
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantOp::create(builder, loc,
                                     builder.getIntegerAttr(type, value));
  };
  Value rest = split.fits32
                   ? arith::IndexCastUIOp::create(builder, loc, type, k)
                   : k;
  ArrayRef<int64_t> coefficients = split.reductionCoefficients;
  Value offset;
  auto addTerm = [&](Value iv, int64_t coefficient) {
    if (coefficient == 0)
      return;
    Value term = coefficient == 1
                     ? iv
                     : arith::MulIOp::create(builder, loc, iv,
                                             constant(coefficient))
                           .getResult();
    offset = offset ? arith::AddIOp::create(builder, loc, offset, term)
                          .getResult()
                    : term;
  };
  if (split.linear) {
    addTerm(rest, coefficients.back());
  } else {
    for (int64_t l = loops.size() - 1; l >= 0; --l) {
      Value iv = rest;
      if (l > 0) {
        Value bound = constant(bounds[loops[l]]);
        iv = arith::RemUIOp::create(builder, loc, rest, bound);
        rest = arith::DivUIOp::create(builder, loc, rest, bound);
      }
      addTerm(iv, coefficients[l]);
    }
  }
  if (!offset)
    offset = constant(0);
  if (split.fits32 && asIndex)
    offset = arith::IndexCastUIOp::create(builder, loc,
                                          builder.getIndexType(), offset);
  return offset;
}

/// `memref` as one dimension (a view; row-major, static).
Value flatten(OpBuilder &builder, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  if (type.getRank() == 1)
    return memref;
  SmallVector<ReassociationIndices> all(1);
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.front().push_back(d);
  return memref::CollapseShapeOp::create(builder, loc, memref, all);
}

/// Starts copying the step at `k0` of `slice`'s input into `stage`;
/// appends the asynchronous copies' tokens to `tokens`.
void copyStep(OpBuilder &builder, Location loc,
              const ke::GPUContraction &contraction,
              const ke::SharedSlice &slice, const ke::SharedStaging &staging,
              const ke::BlockPosition &block, Value k0, Value stage,
              SmallVectorImpl<Value> &tokens) {
  ke::detail::IndexMath indexMath(builder, loc);
  linalg::LinalgOp op = contraction.op;
  OpOperand *input = op.getDpsInputOperand(slice.position);
  AffineMap map = op.getMatchingIndexingMap(input);
  ArrayRef<unsigned> sideLoops =
      slice.alongRows ? contraction.rowLoops : contraction.columnLoops;
  int64_t sideExtent = slice.alongRows ? contraction.rows : contraction.columns;
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  int64_t tile = staging.tileAlong(slice), stepK = staging.stepK,
          width = slice.width;
  int64_t chunks = tile * stepK / width;
  // Chunks along the innermost dimension first: neighbouring threads read
  // neighbouring addresses.
  int64_t chunksPerLine = (slice.kInnermost ? stepK : tile) / width;
  Type element = getElementTypeOrSelf(input->get().getType());
  for (int64_t first = 0; first < chunks; first += block.threads) {
    Value chunk = indexMath.add(block.linearThread, indexMath.constant(first));
    // In a last partial round the threads past the end copy the last
    // chunk again (the same bytes to the same place): no copy under a
    // condition, which would keep its token in a region.
    if (first + block.threads > chunks)
      chunk = arith::MinUIOp::create(builder, loc, chunk,
                                     indexMath.constant(chunks - 1));
    Value inner = arith::MulIOp::create(
        builder, loc,
        arith::RemUIOp::create(builder, loc, chunk,
                               indexMath.constant(chunksPerLine)),
        indexMath.constant(width));
    Value outer = arith::DivUIOp::create(builder, loc, chunk,
                                         indexMath.constant(chunksPerLine));
    Value kk = slice.kInnermost ? inner : outer;
    Value mm = slice.kInnermost ? outer : inner;
    Value along =
        indexMath.add(slice.alongRows ? block.firstRow : block.firstColumn, mm);
    Value k = indexMath.add(k0, kk);
    // Whole chunks are in or out: the width divides the extents. Outside
    // the operands the product's terms are zeros.
    Value alongInside, kInside;
    if (sideExtent % tile != 0)
      alongInside = indexMath.below(along, sideExtent);
    if (contraction.depth % stepK != 0 || staging.stages > 1)
      kInside = indexMath.below(k, contraction.depth);
    // A split block's last stages - 1 prefetches would copy the next
    // block's part of K, which it never reads: its copies end with its own
    // steps (a quarter of its loads at 8 steps and 3 stages).
    if (block.firstK && staging.stages > 1) {
      Value end = indexMath.add(
          block.firstK,
          staging.stepsPerBlock(contraction.depth) * stepK);
      kInside = indexMath.both(
          kInside, arith::CmpIOp::create(builder, loc,
                                         arith::CmpIPredicate::ult, k, end));
    }
    Value inside = indexMath.both(alongInside, kInside);
    Value zero = indexMath.constant(0);
    // Indices outside are clamped to 0: a copy of no elements still names
    // an address. Each on its own, so the side's index stays the same
    // from step to step.
    auto clamp = [&](Value index, Value condition) -> Value {
      return condition ? arith::SelectOp::create(builder, loc, condition,
                                                 index, zero)
                             .getResult()
                       : index;
    };
    Value safeAlong = clamp(along, alongInside), safeK = clamp(k, kInside);
    Value source = input->get();
    SmallVector<Value> indices;
    if (slice.flatInput) {
      SmallVector<Value> ivs(block.base);
      scatterIvs(builder, loc, safeAlong, sideLoops, bounds, ivs);
      Value rest = affine::AffineApplyOp::create(
          builder, loc, AffineMap::get(map.getNumDims(), 0, slice.split->rest),
          ivs);
      source = slice.flatInput;
      Value kOffset;
      if (slice.reductionOffsets) {
        Value entry = memref::LoadOp::create(builder, loc,
                                             slice.reductionOffsets, safeK);
        kOffset = arith::IndexCastUIOp::create(
            builder, loc, builder.getIndexType(), entry);
      } else {
        kOffset =
            reductionOffset(builder, loc, contraction, *slice.split, safeK);
      }
      indices.push_back(indexMath.add(rest, kOffset));
    } else {
      SmallVector<Value> ivs(block.base);
      scatterIvs(builder, loc, safeK, contraction.reductionLoops, bounds, ivs);
      scatterIvs(builder, loc, safeAlong, sideLoops, bounds, ivs);
      indices = applyMap(builder, loc, map, ivs);
    }
    SmallVector<Value> target = slice.kInnermost
                                    ? SmallVector<Value>{stage, mm, kk}
                                    : SmallVector<Value>{stage, kk, mm};
    // One 32-bit element straight to shared memory (cp.async.ca: 4 bytes
    // is the smallest copy), so that a convolution's input, which no
    // vector copy reads, still overlaps its loads with the math.
    if (width == 1 && staging.asyncCopies && element.isIntOrFloat() &&
        element.getIntOrFloatBitWidth() == 32 &&
        cast<MemRefType>(input->get().getType()).isLastDimUnitStride()) {
      Value count;
      if (inside)
        count = arith::SelectOp::create(builder, loc, inside,
                                        indexMath.constant(1), zero);
      auto copy = nvgpu::DeviceAsyncCopyOp::create(
          builder, loc, nvgpu::DeviceAsyncTokenType::get(op.getContext()),
          slice.buffer, target, source, indices,
          builder.getIndexAttr(1), count, UnitAttr());
      tokens.push_back(copy.getAsyncToken());
      continue;
    }
    if (width == 1) {
      Value value = loadOrZero(builder, loc, source, indices, inside);
      memref::StoreOp::create(builder, loc, value, slice.buffer, target);
      continue;
    }
    if (!staging.asyncCopies) {
      auto type = VectorType::get({width}, element);
      Value value =
          loadVectorOrZero(builder, loc, type, source, indices, inside,
                           llvm::Align(kVectorBytes));
      vector::StoreOp::create(builder, loc, value, slice.buffer, target);
      continue;
    }
    // 16 bytes straight to shared memory (cp.async.cg), zero-filled when
    // outside.
    Value count;
    if (inside)
      count = arith::SelectOp::create(builder, loc, inside,
                                      indexMath.constant(width), zero);
    auto copy = nvgpu::DeviceAsyncCopyOp::create(
        builder, loc, nvgpu::DeviceAsyncTokenType::get(op.getContext()),
        slice.buffer, target, source, indices,
        builder.getIndexAttr(width), count, builder.getUnitAttr());
    tokens.push_back(copy.getAsyncToken());
  }
}
} // namespace

ke::SharedSlice ke::planSharedSlice(const GPUContraction &contraction,
                                    unsigned position,
                                    const SharedStaging &staging) {
  linalg::LinalgOp op = contraction.op;
  OpOperand *input = op.getDpsInputOperand(position);
  AffineMap map = op.getMatchingIndexingMap(input);
  SharedSlice slice;
  slice.position = position;
  slice.alongRows = contraction.alongRows[position];
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  AffineExpr innermost = map.getResults().back();
  ArrayRef<unsigned> sideLoops = slice.alongRows ? contraction.rowLoops
                                                 : contraction.columnLoops;
  auto follows = [&](ArrayRef<unsigned> loops) {
    return llvm::any_of(
        loops, [&](unsigned l) { return innermost.isFunctionOfDim(l); });
  };
  slice.kInnermost = follows(contraction.reductionLoops);
  // A convolution's input at (ow + kw) follows both: the copies run along
  // the group whose innermost loop is longer (126 pixels rather than 3
  // taps), so that a warp's loads fall on few sectors.
  if (slice.kInnermost && follows(sideLoops)) {
    auto run = [&](ArrayRef<unsigned> loops) -> int64_t {
      return innermost.isFunctionOfDim(loops.back()) ? bounds[loops.back()]
                                                     : 1;
    };
    slice.kInnermost = run(contraction.reductionLoops) >= run(sideLoops);
  }
  // A vector copy needs consecutive flat indices to be consecutive
  // addresses: the innermost indices are the innermost loops of the
  // group, in order, each in no other index, over whole dimensions of a
  // row-major buffer (a filter's (c, kh, kw) run 576 elements), a run the
  // width divides (aligned vectors); and whole vectors in a step's lines.
  // Runs over several dimensions only for cp.async, which copies bytes: a
  // vector.load past its innermost dimension is left to the target.
  auto memref = cast<MemRefType>(input->get().getType());
  ArrayRef<unsigned> group =
      slice.kInnermost ? ArrayRef<unsigned>(contraction.reductionLoops)
                       : sideLoops;
  int64_t bits = memref.getElementTypeBitWidth();
  int64_t width = kVectorBytes * 8 / bits;
  int64_t contiguousRun = 0;
  if (!group.empty() && memref.getLayout().isIdentity() &&
      memref.hasStaticShape()) {
    unsigned results = map.getNumResults();
    int64_t mostDimensions = staging.asyncCopies ? group.size() : 1;
    for (unsigned j = 0; j < mostDimensions && j < results; ++j) {
      auto dim = dyn_cast<AffineDimExpr>(map.getResult(results - 1 - j));
      unsigned loop = group[group.size() - 1 - j];
      bool onlyHere = llvm::count_if(map.getResults(), [&](AffineExpr e) {
                        return e.isFunctionOfDim(loop);
                      }) == 1;
      if (!dim || dim.getPosition() != loop || !onlyHere)
        break;
      contiguousRun = std::max<int64_t>(contiguousRun, 1) * bounds[loop];
    }
  }
  int64_t lineLength =
      slice.kInnermost ? staging.stepK : staging.tileAlong(slice);
  // [line][k] rows get 16 bytes of padding: the rows one k-wise read
  // touches land on different banks.
  slice.stride = slice.kInnermost
                     ? staging.stepK + kVectorBytes * 8 / bits
                     : staging.tileAlong(slice) +
                           staging.linePaddingBytes * 8 / bits;
  // Every row of the slice must start on 16 bytes for 16-byte copies.
  bool alignedRows = (slice.stride * bits / 8) % kVectorBytes == 0;
  if (contiguousRun > 0 && contiguousRun % width == 0 &&
      lineLength % width == 0 && alignedRows)
    slice.width = width;
  slice.split = splitOffset(contraction, input);
  return slice;
}

MemRefType ke::sharedSliceType(const GPUContraction &contraction,
                               const SharedSlice &slice,
                               const SharedStaging &staging) {
  linalg::LinalgOp op = contraction.op;
  Type element = getElementTypeOrSelf(
      op.getDpsInputOperand(slice.position)->get().getType());
  return MemRefType::get(
      {staging.stages, lines(slice, staging), slice.stride}, element,
      MemRefLayoutAttrInterface{},
      gpu::AddressSpaceAttr::get(element.getContext(),
                                 gpu::AddressSpace::Workgroup));
}

int64_t ke::sharedStageBytes(const GPUContraction &contraction,
                             ArrayRef<SharedSlice> slices,
                             const SharedStaging &staging) {
  // Each slice's buffer starts on 16 bytes (ke-align-workgroup-memory,
  // the views below).
  int64_t bytes = 0;
  for (const SharedSlice &slice : slices) {
    MemRefType type = sharedSliceType(contraction, slice, staging);
    bytes += llvm::alignTo(lines(slice, staging) * slice.stride *
                               type.getElementTypeBitWidth() / 8,
                           kVectorBytes);
  }
  return bytes;
}

Value ke::dynamicSharedBytes(OpBuilder &builder, Location loc,
                             const GPUContraction &contraction,
                             ArrayRef<SharedSlice> slices,
                             const SharedStaging &staging) {
  int64_t bytes = 0;
  for (const SharedSlice &slice : slices)
    bytes += bufferBytes(sharedSliceType(contraction, slice, staging));
  if (bytes <= kMaxStaticSharedBytes)
    return Value();
  return arith::ConstantIntOp::create(builder, loc, builder.getI32Type(),
                                      bytes);
}

void ke::bindSharedSlices(OpBuilder &builder, Location loc,
                          gpu::LaunchOp launch,
                          const GPUContraction &contraction,
                          MutableArrayRef<SharedSlice> slices,
                          const SharedStaging &staging) {
  linalg::LinalgOp op = contraction.op;
  for (SharedSlice &slice : slices)
    if (slice.split)
      slice.flatInput = flatten(
          builder, loc, op.getDpsInputOperand(slice.position)->get());
  if (!launch.getDynamicSharedMemorySize()) {
    for (auto [slice, buffer] :
         llvm::zip(slices, launch.getWorkgroupAttributions()))
      slice.buffer = buffer;
    return;
  }
  auto workgroup = gpu::AddressSpaceAttr::get(builder.getContext(),
                                              gpu::AddressSpace::Workgroup);
  Value bytes = gpu::DynamicSharedMemoryOp::create(
      builder, loc,
      MemRefType::get({ShapedType::kDynamic}, builder.getI8Type(),
                      MemRefLayoutAttrInterface{}, workgroup));
  int64_t offset = 0;
  for (SharedSlice &slice : slices) {
    MemRefType type = sharedSliceType(contraction, slice, staging);
    slice.buffer = memref::ViewOp::create(
        builder, loc, type, bytes,
        arith::ConstantIndexOp::create(builder, loc, offset), ValueRange{});
    offset += bufferBytes(type);
  }
}

/// Whether `slice`'s K part is worth a table: it splits k (no linear
/// run), fits in 32 bits, and the table is small.
static bool wantsReductionTable(const ke::GPUContraction &contraction,
                                const ke::SharedSlice &slice) {
  return slice.split && !slice.split->linear && slice.split->fits32 &&
         contraction.depth <= ke::kMostReductionTableEntries;
}

SmallVector<MemRefType>
ke::reductionTableTypes(const GPUContraction &contraction,
                        ArrayRef<SharedSlice> slices,
                        const SharedStaging &staging) {
  linalg::LinalgOp op = contraction.op;
  MLIRContext *context = op->getContext();
  SmallVector<MemRefType> types;
  if (!staging.reductionTables)
    return types;
  for (const SharedSlice &slice : slices)
    if (wantsReductionTable(contraction, slice))
      types.push_back(MemRefType::get(
          {contraction.depth}, IntegerType::get(context, 32),
          MemRefLayoutAttrInterface{},
          gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup)));
  return types;
}

int64_t ke::reductionTableBytes(const GPUContraction &contraction,
                                ArrayRef<SharedSlice> slices,
                                const SharedStaging &staging) {
  int64_t bytes = 0;
  for (MemRefType type : reductionTableTypes(contraction, slices, staging))
    bytes += bufferBytes(type);
  return bytes;
}

void ke::fillReductionTables(OpBuilder &builder, Location loc,
                             const GPUContraction &contraction,
                             MutableArrayRef<SharedSlice> slices,
                             ValueRange tables, Value linearThread,
                             int64_t threads) {
  if (tables.empty())
    return;
  ke::detail::IndexMath indexMath(builder, loc);
  auto table = tables.begin();
  for (SharedSlice &slice : slices) {
    if (!wantsReductionTable(contraction, slice))
      continue;
    slice.reductionOffsets = *table++;
    auto loop = scf::ForOp::create(builder, loc, linearThread,
                                   indexMath.constant(contraction.depth),
                                   indexMath.constant(threads));
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(loop.getBody());
    Value k = loop.getInductionVar();
    Value offset = reductionOffset(builder, loc, contraction, *slice.split,
                                   k, /*asIndex=*/false);
    memref::StoreOp::create(builder, loc, offset, slice.reductionOffsets, k);
  }
  if (table != tables.begin())
    gpu::BarrierOp::create(builder, loc);
}

scf::ForOp ke::buildStagedSteps(
    OpBuilder &builder, Location loc, const GPUContraction &contraction,
    ArrayRef<SharedSlice> slices, const SharedStaging &staging,
    const BlockPosition &block, ValueRange initial,
    function_ref<void(Value, SmallVectorImpl<Value> &)> compute) {
  MLIRContext *context = builder.getContext();
  ke::detail::IndexMath indexMath(builder, loc);
  int64_t stages = staging.stages, stepK = staging.stepK;
  // Copies of step s go to stage s % stages, started stages - 1 steps
  // ahead of their use (cp.async groups), so the loads of later steps
  // overlap the math of this one.
  auto startStep = [&](Value k0, Value stage) -> Value {
    SmallVector<Value> tokens;
    for (const SharedSlice &slice : slices)
      copyStep(builder, loc, contraction, slice, staging, block, k0, stage,
               tokens);
    if (tokens.empty())
      return Value();
    return nvgpu::DeviceAsyncCreateGroupOp::create(
        builder, loc, nvgpu::DeviceAsyncTokenType::get(context), tokens);
  };
  // The block's steps count from 0 (stages follow them); k from its first.
  auto fromFirstK = [&](Value k) -> Value {
    return block.firstK ? indexMath.add(block.firstK, k) : k;
  };
  auto kOf = [&](Value step) -> Value {
    return fromFirstK(
        arith::MulIOp::create(builder, loc, step, indexMath.constant(stepK)));
  };
  for (int64_t step = 0; step + 1 < stages; ++step)
    startStep(fromFirstK(indexMath.constant(step * stepK)),
              indexMath.constant(step));
  int64_t steps = staging.stepsPerBlock(contraction.depth);
  auto loop = scf::ForOp::create(builder, loc, indexMath.constant(0),
                                 indexMath.constant(steps),
                                 indexMath.constant(1), initial);
  builder.setInsertionPointToStart(loop.getBody());
  Value kt = loop.getInductionVar();
  auto stageOf = [&](Value index) -> Value {
    return arith::RemUIOp::create(builder, loc, index,
                                  indexMath.constant(stages));
  };
  Value ahead =
      arith::AddIOp::create(builder, loc, kt, indexMath.constant(stages - 1));
  // Step kt's group done; the stages - 1 after it may still be in flight.
  if (Value group = startStep(kOf(ahead), stageOf(ahead)))
    nvgpu::DeviceAsyncWaitOp::create(builder, loc, group,
                                     builder.getI32IntegerAttr(stages - 1));
  gpu::BarrierOp::create(builder, loc);
  SmallVector<Value> accumulators(loop.getRegionIterArgs());
  compute(stageOf(kt), accumulators);
  // Nobody overwrites a stage another thread still reads.
  gpu::BarrierOp::create(builder, loc);
  scf::YieldOp::create(builder, loc, accumulators);
  builder.setInsertionPointAfter(loop);
  return loop;
}
