//===- TileAndVectorize.cpp - ke-tile-and-vectorize -----------------------===//
//
// The default, search-free CPU schedule: tile every linalg op down to one
// vector of work along its best-suited loop and vectorize the tile.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/TileAndVectorize.h"
#include "ke/Codegen/FilterPanels.h"
#include "ke/Codegen/LoopInterchange.h"
#include "ke/Codegen/PaddingTaps.h"
#include "ke/Codegen/Passes.h"
#include "ke/Codegen/ReductionLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"

#include <cmath>
#include <limits>

namespace ke {
#define GEN_PASS_DEF_KETILEANDVECTORIZE
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// Picks the loop to vectorize: the one that is the fastest-varying index of
/// the most data (operands weighted by their element count), so vector loads
/// are contiguous where the bytes are. Parallel loops win ties. Only loops
/// whose trip count is a multiple of `width` qualify (no masking needed;
/// tileAndVectorizeOp splits off the rest of a contiguous loop first).
std::optional<unsigned>
chooseVectorLoop(linalg::LinalgOp op, ArrayRef<int64_t> bounds, int64_t width) {
  SmallVector<int64_t> contiguousElements(bounds.size(), 0);
  for (OpOperand &operand : op->getOpOperands()) {
    auto shaped = dyn_cast<ShapedType>(operand.get().getType());
    if (!shaped || !shaped.hasStaticShape() || shaped.getRank() == 0)
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    auto innermost = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (innermost)
      contiguousElements[innermost.getPosition()] += shaped.getNumElements();
  }
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  std::optional<unsigned> best;
  auto better = [&](unsigned loop) {
    if (!best)
      return true;
    if (contiguousElements[loop] != contiguousElements[*best])
      return contiguousElements[loop] > contiguousElements[*best];
    return iterators[loop] == utils::IteratorType::parallel &&
           iterators[*best] != utils::IteratorType::parallel;
  };
  for (unsigned loop = 0; loop < bounds.size(); ++loop) {
    if (bounds[loop] % width != 0)
      continue;
    if (better(loop))
      best = loop;
  }
  return best;
}

/// Whether `loop` is the innermost (contiguous) index of some operand.
bool isInnermostOfAnOperand(linalg::LinalgOp op, unsigned loop) {
  return llvm::any_of(op.getIndexingMapsArray(), [&](AffineMap map) {
    return map.getNumResults() > 0 &&
           map.getResults().back() == getAffineDimExpr(loop, op.getContext());
  });
}

/// Whether `loop` is the innermost (contiguous) index of some input.
bool isInnermostOfAnInput(linalg::LinalgOp op, unsigned loop) {
  return llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *input) {
    AffineMap map = op.getMatchingIndexingMap(input);
    return map.getNumResults() > 0 &&
           map.getResults().back() == getAffineDimExpr(loop, op.getContext());
  });
}

/// Whether `value` is never negative: an absolute value, a square, an exp,
/// a square root, an even power, a non-negative constant, or sums,
/// products, quotients and extensions of such. Block arguments (inputs of
/// unknown sign) are not.
bool isNeverNegative(Value value, unsigned depth = 0) {
  Operation *def = value.getDefiningOp();
  if (!def || depth > 8)
    return false;
  auto recurse = [&](Value operand) {
    return isNeverNegative(operand, depth + 1);
  };
  if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
    auto number = dyn_cast<FloatAttr>(constant.getValue());
    return number && !number.getValue().isNegative();
  }
  if (isa<math::AbsFOp, math::ExpOp, math::Exp2Op, math::SqrtOp>(def))
    return true;
  if (auto multiply = dyn_cast<arith::MulFOp>(def))
    return multiply.getLhs() == multiply.getRhs() ||
           (recurse(multiply.getLhs()) && recurse(multiply.getRhs()));
  if (isa<arith::AddFOp, arith::DivFOp>(def))
    return recurse(def->getOperand(0)) && recurse(def->getOperand(1));
  if (isa<arith::ExtFOp, arith::TruncFOp>(def))
    return recurse(def->getOperand(0));
  if (auto power = dyn_cast<math::PowFOp>(def)) {
    FloatAttr exponent;
    if (matchPattern(power.getRhs(), m_Constant(&exponent))) {
      double half = exponent.getValueAsDouble() / 2;
      if (half == std::floor(half))
        return true; // an even integer power
    }
    return recurse(power.getLhs());
  }
  return false;
}

/// Whether splitting `loop` keeps each output close to the reference's, the
/// loop split in two (whole vectors, then the rest) and the whole vectors
/// summed in lanes: `loop` is parallel; or each output's combiner gives the
/// same result in any order (max, min, integer ops), or adds terms that are
/// never negative (a sum of squares: reordered, within a few ulps of
/// itself). A sum of mixed signs reordered can differ by far more than its
/// own size: a mean subtracted from its inputs (KernelBench's
/// ConvTranspose3d + BatchNorm + Subtract) showed 1.4e-4 against a
/// tolerance of 1e-4.
bool splitKeepsResultsClose(linalg::LinalgOp op, unsigned loop) {
  if (op.getIteratorTypesArray()[loop] == utils::IteratorType::parallel)
    return true;
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || generic.hasIndexSemantics())
    return false;
  Block *body = generic.getBody();
  Operation *yield = body->getTerminator();
  for (BlockArgument total : generic.getRegionOutputArgs()) {
    Value yielded = yield->getOperand(total.getArgNumber() -
                                      generic.getNumDpsInputs());
    Operation *combiner = yielded.getDefiningOp();
    if (!combiner || combiner->getNumOperands() != 2 ||
        !total.hasOneUse() || !llvm::is_contained(combiner->getOperands(), total))
      return false;
    Value term = combiner->getOperand(0) == total ? combiner->getOperand(1)
                                                  : combiner->getOperand(0);
    if (isa<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
            arith::MinNumFOp, arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp,
            arith::MinUIOp, arith::AddIOp, arith::MulIOp, arith::AndIOp,
            arith::OrIOp, arith::XOrIOp>(combiner))
      continue;
    if (isa<arith::AddFOp>(combiner) && isNeverNegative(term))
      continue;
    return false;
  }
  return true;
}

/// The output width loop of a channels-first depthwise convolution (as a
/// generic: `linalg.depthwise_conv_2d_nchw_chw` is generalized first): a
/// convolution whose channels are read by input, filter and output alike
/// (no input or output channel loops of its own) and whose output is
/// contiguous along an output image loop. Its tiles vectorize along that
/// loop as out += in * weight, the weight a broadcast scalar.
std::optional<unsigned> getChannelsFirstDepthwiseWidth(linalg::LinalgOp op) {
  if (!isa<linalg::GenericOp>(op) || op.getNumDpsInits() != 1 ||
      !linalg::isaConvolutionOpInterface(op))
    return std::nullopt;
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalg::inferConvolutionDims(op);
  if (failed(dims) || dims->depth.empty() || !dims->inputChannel.empty() ||
      !dims->outputChannel.empty())
    return std::nullopt;
  AffineMap output = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  auto width = dyn_cast<AffineDimExpr>(output.getResults().back());
  if (!width || !llvm::is_contained(dims->outputImage, width.getPosition()))
    return std::nullopt;
  return width.getPosition();
}
bool isChannelsFirstDepthwise(linalg::LinalgOp op) {
  return getChannelsFirstDepthwiseWidth(op).has_value();
}

/// The loops of a transposing op: its output contiguous along `written`,
/// its largest input along `read`, another loop.
struct TransposedLoops {
  unsigned read;
  unsigned written;
};

/// The two loops of an op without reduction loops whose output and largest
/// input (a quarter of the output's elements at least) are contiguous along
/// different loops, each at least `width` long: a channels-last
/// convolution's result written back to NCHW. Vectors along either loop make
/// every access to the other operand a gather or a scatter (8 stores to 8
/// pages per vector of a [4, 64, 126, 126] output).
std::optional<TransposedLoops> getTransposedLoops(linalg::LinalgOp op,
                                                  ArrayRef<int64_t> bounds,
                                                  int64_t width) {
  if (op.getNumReductionLoops() != 0 || op.getNumDpsInits() != 1 ||
      width < 2)
    return std::nullopt;
  auto innermostLoop = [&](OpOperand *operand) -> std::optional<unsigned> {
    AffineMap map = op.getMatchingIndexingMap(operand);
    if (map.getNumResults() == 0)
      return std::nullopt;
    auto dim = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!dim)
      return std::nullopt;
    return dim.getPosition();
  };
  auto numElements = [](Value value) -> int64_t {
    auto shaped = dyn_cast<ShapedType>(value.getType());
    return shaped && shaped.hasStaticShape() ? shaped.getNumElements() : 0;
  };
  OpOperand *output = op.getDpsInitOperand(0);
  OpOperand *largest = nullptr;
  for (OpOperand *input : op.getDpsInputOperands())
    if (!largest || numElements(input->get()) > numElements(largest->get()))
      largest = input;
  std::optional<unsigned> written = innermostLoop(output);
  if (!largest || !written ||
      4 * numElements(largest->get()) < numElements(output->get()))
    return std::nullopt;
  std::optional<unsigned> read = innermostLoop(largest);
  if (!read || *read == *written || bounds[*read] < width ||
      bounds[*written] < width)
    return std::nullopt;
  return TransposedLoops{*read, *written};
}

/// A contiguous loop the width does not divide is split (vectors for the
/// whole ones, an op of its own for the rest) when it is this many vectors
/// long at least.
constexpr int64_t kFewestPeeledVectors = 4;
/// A convolution tile with fewer output pixels than this has too few
/// accumulators; whole blocks of kPeeledPixels are split off instead.
constexpr int64_t kFewestBlockPixels = 4;
constexpr int64_t kPeeledPixels = 8;

/// The most rows of a contraction's register block and pixels of a
/// convolution's.
constexpr int64_t kMostBlockRows = 8;
constexpr int64_t kMostBlockPixels = 16;
/// The reduction steps from which a contraction's rows are split where its
/// best block does not divide them: the output fill is then a pass of its
/// own, not fused into the blocks, and with a short reduction writing the
/// output is most of the work (KernelBench's 2048 x 32 x 2048 matmul: 1.4
/// ms as 2 x 32 blocks, 2.3 split into 6 x 16 and 2 x 32).
constexpr int64_t kFewestStepsToSplitRows = 256;

/// The row counts a contraction's block takes, as before registers were
/// counted (8, 6, 4, 2; one where none divides).
constexpr int64_t kContractionBlockRows[] = {8, 6, 4, 2, 1};

/// Elements of `op`'s output type one vector register holds.
int64_t getRegisterLanes(linalg::LinalgOp op,
                         ke::VectorRegisterFile registers) {
  Type element = getElementTypeOrSelf(op->getResult(0).getType());
  int64_t bits = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 32;
  return std::max<int64_t>(1, registers.bits / std::max<int64_t>(bits, 8));
}

/// Independent accumulator vectors that keep both FMA pipes busy: an FMA's
/// latency times the pipes (4 x 2 on Intel since Skylake, 5 x 2 on AMD Zen
/// 2 and 3). More only help through fewer loads per FMA.
constexpr int64_t kEnoughAccumulators = 10;

/// How a register block of `rows` by `columns` (`lanes` per register) ranks,
/// least first: enough accumulators (up to kEnoughAccumulators), then the
/// most FMAs per load in a reduction step (a vector per register of
/// columns, a broadcast per row), then the most outputs, the fewest loads,
/// the widest. On AVX2 a convolution's 14 x 8 f32 block (14 FMAs for 15
/// loads) lost to 6 x 16 (12 for 8).
std::tuple<int64_t, double, int64_t, int64_t, int64_t>
registerBlockCost(int64_t rows, int64_t columns, int64_t lanes) {
  int64_t columnRegisters = llvm::divideCeil(columns, lanes);
  int64_t accumulators = rows * columnRegisters;
  int64_t loads = columnRegisters + rows;
  return std::make_tuple(-std::min(accumulators, kEnoughAccumulators),
                         -static_cast<double>(accumulators) / loads,
                         -rows * columns, loads, -columns);
}

/// A register block of `rows` (up to `mostRows`, dividing `rowCount`; with
/// `anyRowCount` any divisor, else 8, 6, 4, 2 or 1) by `columns` (4, 2 or 1
/// vectors of `width`, dividing `columnCount`) that fits in `registers`
/// registers of `lanes` elements: its accumulators, the step's vectors of
/// columns and one broadcast row element. Beyond that the accumulators spill,
/// and each FMA goes through memory: 16 x 32 f32 blocks ran at 22-35 % of
/// AVX-512's peak where 14 x 32 ran at 64 %, and AVX2's 16 registers made
/// 8 x 32 blocks 2-3x slower than 2 x 32. Of those, registerBlockCost's
/// least. Nothing when no column count divides. With `rowsMayNotDivide`,
/// the rows need not divide `rowCount` (at most it): the caller splits the
/// rest off.
std::optional<std::pair<int64_t, int64_t>>
chooseRegisterBlock(int64_t rowCount, int64_t columnCount, int64_t width,
                    int64_t lanes, int64_t registers, int64_t mostRows,
                    bool anyRowCount, bool rowsMayNotDivide = false) {
  std::optional<std::pair<int64_t, int64_t>> best;
  auto cost = [&](int64_t rows, int64_t columns) {
    return registerBlockCost(rows, columns, lanes);
  };
  for (int64_t columns : {4 * width, 2 * width, width}) {
    if (columnCount % columns != 0)
      continue;
    int64_t columnRegisters = llvm::divideCeil(columns, lanes);
    for (int64_t rows = std::min(mostRows, rowCount); rows >= 1; --rows) {
      bool allowed =
          anyRowCount || llvm::is_contained(kContractionBlockRows, rows);
      if (!allowed || (!rowsMayNotDivide && rowCount % rows != 0) ||
          (rows > 1 && (rows + 1) * columnRegisters + 1 > registers))
        continue;
      if (!best || cost(rows, columns) < cost(best->first, best->second))
        best = {rows, columns};
      break; // the most rows that fit; fewer only cost outputs
    }
  }
  return best;
}

struct ChannelsLastLoops {
  unsigned pixelLoop;
  unsigned channelLoop;
};
/// The positions of a channels-last convolution's ow and f loops.
std::optional<ChannelsLastLoops> getChannelsLastLoops(linalg::LinalgOp op,
                                                      ArrayRef<int64_t> bounds) {
  if (isa<linalg::Conv1DNwcWcfOp>(op) && bounds.size() == 5)
    return ChannelsLastLoops{1, 2}; // (n, ow, f, kw, c)
  if (isa<linalg::Conv2DNhwcHwcfOp>(op) && bounds.size() == 7)
    return ChannelsLastLoops{2, 3};
  if (isa<linalg::Conv3DNdhwcDhwcfOp>(op) && bounds.size() == 9)
    return ChannelsLastLoops{3, 4};
  // (n, oh, ow, c, kh, kw): the channels are the vector.
  if (isa<linalg::DepthwiseConv2DNhwcHwcOp>(op) && bounds.size() == 6)
    return ChannelsLastLoops{2, 3};
  return std::nullopt;
}

/// The tile of a channels-last convolution, (n, oh, ow, f, kh, kw, c): a
/// few output pixels (ow, up to 16) by up to 32 output channels, the
/// multiple of `width` that vectorizes along f; one of everything else (oh
/// and kh must be 1 for the 1-D decomposition). Empty when `width` does not
/// divide f.
/// The same for a 1-D one, (n, ow, f, kw, c), for a 3-D one, (n, od, oh, ow,
/// f, kd, kh, kw, c), with od and kd of 1 as well, and for a depthwise one,
/// (n, oh, ow, c, kh, kw), whose channels are the vector.
SmallVector<int64_t> chooseChannelsLastTile(linalg::LinalgOp op,
                                            ArrayRef<int64_t> bounds,
                                            int64_t width,
                                            ke::VectorRegisterFile registers) {
  std::optional<ChannelsLastLoops> loops = getChannelsLastLoops(op, bounds);
  if (!loops)
    return {};
  unsigned pixelLoop = loops->pixelLoop, channelLoop = loops->channelLoop;
  // Any pixel count dividing the loop.
  auto choice = chooseRegisterBlock(
      bounds[pixelLoop], bounds[channelLoop], width,
      getRegisterLanes(op, registers), registers.count, kMostBlockPixels,
      /*anyRowCount=*/true);
  if (!choice)
    return {};
  auto [pixels, channels] = *choice;
  SmallVector<int64_t> tile(bounds.size(), 1);
  tile[pixelLoop] = pixels;
  tile[channelLoop] = channels;
  return tile;
}

/// The register block of a contraction (matmul, batch_matmul and generics
/// like them): `rows` of its row loop by `columns` (whole vectors) of its
/// column loop, one of everything else, so that every element of A and B
/// read into registers feeds several FMAs. The column loop is the output's
/// innermost; the column group is it and the output loops just outside it
/// that B (the input reading the columns) also reads, as a contraction on
/// packed panels has (panel, lane); the row loop is the output loop just
/// outside the group. Empty when these are not parallel loops, when an input
/// reads across rows along the columns (each vector would be a gather), or
/// when `width` does not divide the columns.
struct ContractionBlock {
  SmallVector<int64_t> tile;
  unsigned rowLoop;
  SmallVector<unsigned> columnGroup;
};
std::optional<ContractionBlock>
chooseContractionTile(linalg::LinalgOp op, ArrayRef<int64_t> bounds,
                      int64_t width, ke::VectorRegisterFile registers,
                      bool rowsMayNotDivide = false) {
  if (!linalg::isaContractionOpInterface(op) || op.getNumDpsInits() != 1)
    return std::nullopt;
  AffineMap outputMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  unsigned rank = outputMap.getNumResults();
  if (rank < 2)
    return std::nullopt;
  auto column = dyn_cast<AffineDimExpr>(outputMap.getResult(rank - 1));
  if (!column)
    return std::nullopt;
  unsigned columnLoop = column.getPosition();
  OpOperand *b = nullptr;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    for (unsigned dim = 0; dim + 1 < map.getNumResults(); ++dim)
      if (map.getResult(dim).isFunctionOfDim(columnLoop))
        return std::nullopt;
    if (map.isFunctionOfDim(columnLoop))
      b = input;
  }
  if (!b)
    return std::nullopt;
  AffineMap bMap = op.getMatchingIndexingMap(b);
  ContractionBlock block;
  block.columnGroup.push_back(columnLoop);
  int64_t position = rank - 2;
  for (; position >= 0; --position) {
    auto dim = dyn_cast<AffineDimExpr>(outputMap.getResult(position));
    if (!dim)
      return std::nullopt;
    if (!bMap.isFunctionOfDim(dim.getPosition()))
      break;
    block.columnGroup.insert(block.columnGroup.begin(), dim.getPosition());
  }
  if (position < 0)
    return std::nullopt;
  block.rowLoop =
      cast<AffineDimExpr>(outputMap.getResult(position)).getPosition();
  // At most 8 x 32 f32 (AVX-512's: the library's best 1024^3 block).
  auto choice = chooseRegisterBlock(
      bounds[block.rowLoop], bounds[columnLoop], width,
      getRegisterLanes(op, registers), registers.count, kMostBlockRows,
      /*anyRowCount=*/false, rowsMayNotDivide);
  if (!choice)
    return std::nullopt;
  auto [rows, columns] = *choice;
  block.tile.assign(bounds.size(), 1);
  block.tile[block.rowLoop] = rows;
  block.tile[columnLoop] = columns;
  return block;
}

/// The tile each thread gets (0: the loop is not split): the outer parallel
/// loops cut, outermost first, into at least `kThreadChunks` chunks of whole
/// register tiles where their trip counts allow. Empty when the op is too
/// small for threads to pay off or has no parallel loop to split.
constexpr int64_t kThreadChunks = 16;
constexpr int64_t kMinThreadedIterations = int64_t(1) << 15;

/// Whether an op of these loop bounds has enough work for threads to pay off.
bool isWorthThreading(ArrayRef<int64_t> bounds) {
  int64_t iterations = 1;
  for (int64_t bound : bounds)
    iterations *= bound;
  return iterations >= kMinThreadedIterations;
}

/// Cuts the outer parallel loops of `op` (but those `skip` names) into
/// chunks, outermost first, until there are `kThreadChunks` of them: each
/// loop's chunk is the largest multiple of its register tile dividing it
/// that still makes enough chunks, else the register tile itself. Writes the
/// chunk sizes into `tile` (0: not cut) and returns how many chunks there
/// are.
int64_t cutOuterParallelLoops(linalg::LinalgOp op, ArrayRef<int64_t> bounds,
                              ArrayRef<int64_t> registerTile,
                              llvm::function_ref<bool(unsigned)> skip,
                              MutableArrayRef<int64_t> tile) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  int64_t chunks = 1;
  for (unsigned loop = 0; loop < bounds.size() && chunks < kThreadChunks;
       ++loop) {
    if (iterators[loop] != utils::IteratorType::parallel ||
        bounds[loop] <= registerTile[loop] || skip(loop))
      continue;
    int64_t chosen = registerTile[loop];
    for (int64_t size = bounds[loop] / 2; size > registerTile[loop]; --size)
      if (bounds[loop] % size == 0 && size % registerTile[loop] == 0 &&
          chunks * (bounds[loop] / size) >= kThreadChunks) {
        chosen = size;
        break;
      }
    tile[loop] = chosen;
    chunks *= bounds[loop] / chosen;
  }
  return chunks;
}

SmallVector<int64_t> chooseThreadTile(linalg::LinalgOp op,
                                      ArrayRef<int64_t> bounds,
                                      ArrayRef<int64_t> registerTile) {
  if (!isWorthThreading(bounds))
    return {};
  SmallVector<int64_t> tile(bounds.size(), 0);
  int64_t chunks = cutOuterParallelLoops(
      op, bounds, registerTile, [](unsigned) { return false; }, tile);
  if (chunks < 2)
    return {};
  return tile;
}

/// `op` in chunks of `chooseThreadTile` across the threads (one
/// scf.forall, OpenMP in ke-lower-cpu): the op inside the chunk loop, or
/// `op` itself where threads do not pay off or tiling fails.
linalg::LinalgOp chunkAcrossThreads(RewriterBase &rewriter, linalg::LinalgOp op,
                                    ArrayRef<int64_t> bounds,
                                    ArrayRef<int64_t> registerTile) {
  SmallVector<int64_t> threadTile = chooseThreadTile(op, bounds, registerTile);
  if (threadTile.empty())
    return op;
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), threadTile));
  options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> chunked = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(chunked) || chunked->tiledOps.size() != 1)
    return op;
  rewriter.replaceOp(op, chunked->replacements);
  return cast<linalg::LinalgOp>(chunked->tiledOps.front());
}

/// The threads' tile of a contraction: batches first (as for any op), then,
/// for the chunks still missing, a grid of row chunks by column chunks. A
/// chunk reads its rows of A and its columns of B, so the grid with enough
/// chunks that reads the least in all is chosen (a 1024^2 output in 16
/// chunks of 128 x 512, not 16 x 1 of 64 rows that each read all of B),
/// with a thread's rows of A (rows x K) kept to half a typical L2 so they
/// stay there while B's column blocks sweep them. The column chunk is counted
/// in blocks of the column group's outer loop (a packed contraction's panels)
/// or of the register tile's columns.
constexpr int64_t kRowChunkBytes = 512 * 1024;
SmallVector<int64_t>
chooseContractionThreadTile(linalg::LinalgOp op, ArrayRef<int64_t> bounds,
                            ArrayRef<int64_t> registerTile,
                            const ContractionBlock &block) {
  if (!isWorthThreading(bounds))
    return {};
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> tile(bounds.size(), 0);
  // Batches (their register tile is 1): whole batches per chunk.
  int64_t chunks = cutOuterParallelLoops(
      op, bounds, registerTile,
      [&](unsigned loop) {
        return loop == block.rowLoop ||
               llvm::is_contained(block.columnGroup, loop);
      },
      tile);
  if (chunks < kThreadChunks) {
    int64_t reduction = 1;
    for (unsigned loop = 0; loop < bounds.size(); ++loop)
      if (iterators[loop] == utils::IteratorType::reduction)
        reduction *= bounds[loop];
    unsigned rowLoop = block.rowLoop;
    unsigned columnLoop = block.columnGroup.front();
    int64_t rowStep = registerTile[rowLoop],
            columnStep = registerTile[columnLoop];
    // Elements of B per column block: the group's inner extents.
    int64_t columnWidth = 1;
    for (unsigned loop : block.columnGroup)
      if (loop != columnLoop)
        columnWidth *= bounds[loop];
    int64_t needed = (kThreadChunks + chunks - 1) / chunks;
    int64_t bestCost = std::numeric_limits<int64_t>::max(), bestGrid = 0;
    int64_t bestRows = bounds[rowLoop], bestColumns = bounds[columnLoop];
    for (int64_t rows = rowStep; rows <= bounds[rowLoop]; rows += rowStep) {
      if (bounds[rowLoop] % rows != 0)
        continue;
      for (int64_t columns = columnStep; columns <= bounds[columnLoop];
           columns += columnStep) {
        if (bounds[columnLoop] % columns != 0)
          continue;
        int64_t grid =
            (bounds[rowLoop] / rows) * (bounds[columnLoop] / columns);
        if (grid < needed)
          continue;
        // Elements of A and B all chunks read (each chunk its rows of A
        // and its columns of B); rows past the L2 share count double.
        int64_t rowElements = rows * reduction;
        if (rowElements * 4 > kRowChunkBytes)
          rowElements *= 2;
        int64_t cost = grid * (rowElements + columns * columnWidth * reduction);
        // Among equal costs, fewer chunks (less scheduling, longer sweeps).
        if (cost < bestCost || (cost == bestCost && grid < bestGrid)) {
          bestCost = cost;
          bestGrid = grid;
          bestRows = rows;
          bestColumns = columns;
        }
      }
    }
    if (bestCost != std::numeric_limits<int64_t>::max()) {
      if (bestRows < bounds[rowLoop])
        tile[rowLoop] = bestRows;
      if (bestColumns < bounds[columnLoop])
        tile[columnLoop] = bestColumns;
      chunks *=
          (bounds[rowLoop] / bestRows) * (bounds[columnLoop] / bestColumns);
    }
  }
  if (chunks < 2)
    return {};
  return tile;
}

/// A channels-last 3-D convolution with unit od, oh, kd and kh extents as the
/// 1-D convolution along w it is (upstream decomposes 2-D convolutions
/// only); null when the extents are not 1.
Operation *decompose3DConvolution(linalg::Conv3DNdhwcDhwcfOp conv) {
  auto inputType = cast<RankedTensorType>(conv.getInputs()[0].getType());
  auto filterType = cast<RankedTensorType>(conv.getInputs()[1].getType());
  auto outputType = cast<RankedTensorType>(conv.getOutputs()[0].getType());
  if (!inputType.hasStaticShape() || !filterType.hasStaticShape() ||
      !outputType.hasStaticShape() || inputType.getDimSize(1) != 1 ||
      inputType.getDimSize(2) != 1 || filterType.getDimSize(0) != 1 ||
      filterType.getDimSize(1) != 1 || outputType.getDimSize(1) != 1 ||
      outputType.getDimSize(2) != 1 || conv->getNumResults() != 1)
    return nullptr;
  IRRewriter rewriter(conv);
  Location loc = conv.getLoc();
  // The operands without their unit dimensions (rank-reducing slices).
  auto reduce = [&](Value value, ArrayRef<int64_t> drop) -> Value {
    auto type = cast<RankedTensorType>(value.getType());
    SmallVector<int64_t> shape;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (!llvm::is_contained(drop, d))
        shape.push_back(type.getDimSize(d));
    return tensor::createCanonicalRankReducingExtractSliceOp(
        rewriter, loc, value,
        RankedTensorType::get(shape, type.getElementType()));
  };
  Value input = reduce(conv.getInputs()[0], {1, 2});
  Value filter = reduce(conv.getInputs()[1], {0, 1});
  Value output = reduce(conv.getOutputs()[0], {1, 2});
  auto alongW = [&](DenseIntElementsAttr values) {
    int64_t value = values.getValues<int64_t>()[2];
    return DenseIntElementsAttr::get(
        RankedTensorType::get({1}, rewriter.getI64Type()), {value});
  };
  auto conv1D = linalg::Conv1DNwcWcfOp::create(
      rewriter, loc, TypeRange{output.getType()}, ValueRange{input, filter},
      ValueRange{output},
      {rewriter.getNamedAttr("strides", alongW(conv.getStrides())),
       rewriter.getNamedAttr("dilations", alongW(conv.getDilations()))});
  Value result = tensor::createCanonicalRankReducingInsertSliceOp(
      rewriter, loc, conv1D->getResult(0), conv.getOutputs()[0]);
  rewriter.replaceOp(conv, result);
  return conv1D;
}

/// `op` as a `Conv1D` when it is a `Conv2D` with unit oh and kh extents
/// (upstream's decomposition), `op` itself when it does not decompose, null
/// when it is not a `Conv2D`.
template <typename Conv2D, typename Conv1D>
Operation *decomposeAs(Operation *op) {
  auto conv = dyn_cast<Conv2D>(op);
  if (!conv)
    return nullptr;
  PatternRewriter rewriter(op->getContext());
  rewriter.setInsertionPoint(op);
  linalg::DownscaleSizeOneWindowed2DConvolution<Conv2D, Conv1D> pattern(
      op->getContext());
  FailureOr<Conv1D> lowered = pattern.returningMatchAndRewrite(conv, rewriter);
  return succeeded(lowered) ? lowered->getOperation() : op;
}

/// `op` as the 1-D convolution a 2-D one (NCHW or NHWC) with unit oh and kh
/// extents decomposes to, else `op` itself.
Operation *decomposeConvolution(Operation *op) {
  if (Operation *lowered =
          decomposeAs<linalg::Conv2DNchwFchwOp, linalg::Conv1DNcwFcwOp>(op))
    return lowered;
  if (Operation *lowered =
          decomposeAs<linalg::Conv2DNhwcHwcfOp, linalg::Conv1DNwcWcfOp>(op))
    return lowered;
  if (auto depthwise = dyn_cast<linalg::DepthwiseConv2DNhwcHwcOp>(op)) {
    PatternRewriter rewriter(op->getContext());
    rewriter.setInsertionPoint(op);
    linalg::DownscaleDepthwiseConv2DNhwcHwcOp pattern(op->getContext());
    FailureOr<linalg::DepthwiseConv1DNwcWcOp> lowered =
        pattern.returningMatchAndRewrite(depthwise, rewriter);
    return succeeded(lowered) ? lowered->getOperation() : op;
  }
  if (auto conv3D = dyn_cast<linalg::Conv3DNdhwcDhwcfOp>(op))
    if (Operation *lowered = decompose3DConvolution(conv3D))
      return lowered;
  return op;
}

/// Keeps what the loops of a convolution's tile nest read and write back at
/// the same place (the accumulator tile) in registers across the reduction
/// loops, with its contractions as outer products, as the transform library
/// does: tile copies folded first, then hoisted innermost loop first.
void keepAccumulatorsInRegisters(Operation *nest) {
  MLIRContext *context = nest->getContext();
  RewritePatternSet patterns(context);
  tensor::populateFoldTensorSubsetOpPatterns(patterns);
  vector::populateVectorContractLoweringPatterns(
      patterns, vector::VectorContractLowering::OuterProduct);
  vector::populateVectorOuterProductLoweringPatterns(patterns);
  vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
  for (Dialect *dialect : context->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName name : context->getRegisteredOperations())
    name.getCanonicalizationPatterns(patterns, context);
  if (failed(applyPatternsGreedily(nest, std::move(patterns))))
    return;
  SmallVector<scf::ForOp> loops;
  nest->walk([&](scf::ForOp loop) { loops.push_back(loop); });
  IRRewriter rewriter(context);
  for (scf::ForOp loop : loops)
    hoistLoopInvariantSubsets(rewriter, loop);
}

/// Vectorizes one tile in place; a tile that does not vectorize stays
/// scalar. A 2-D convolution tile (oh and kh are 1 here) vectorizes as the
/// 1-D convolution it decomposes to; the 2-D op itself does not vectorize.
void vectorizeTile(RewriterBase &rewriter, Operation *tile,
                   bool namedContraction) {
  tile = decomposeConvolution(tile);
  // The vector takes the tile's loops in order, so unit loops after the
  // vector loop (a reduction's h and w after its channels) would make it
  // vector<16x1xf32>: sixteen one-lane vectors to LLVM. Unit loops go
  // first instead.
  if (auto generic = dyn_cast<linalg::GenericOp>(tile)) {
    SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
    SmallVector<unsigned> order;
    for (unsigned loop = 0; loop < ranges.size(); ++loop)
      if (ranges[loop] == 1)
        order.push_back(loop);
    for (unsigned loop = 0; loop < ranges.size(); ++loop)
      if (ranges[loop] != 1)
        order.push_back(loop);
    if (!llvm::is_sorted(order)) {
      rewriter.setInsertionPoint(generic);
      FailureOr<linalg::GenericOp> interchanged =
          linalg::interchangeGenericOp(rewriter, generic, order);
      if (succeeded(interchanged))
        tile = *interchanged;
    }
  }
  // A tile whose reduction loops are all one iteration long (the reduction
  // runs in the loops around it) but whose body is no combiner upstream
  // recognizes (an argmax's position select) does not vectorize as a
  // reduction; with those loops dropped it is elementwise and does
  // (KernelBench's argmax over a middle dimension ran scalar: 14 ms where
  // torch.compile takes 2.2).
  if (auto generic = dyn_cast<linalg::GenericOp>(tile);
      generic && generic.getNumReductionLoops() > 0 &&
      failed(linalg::vectorizeOpPrecondition(generic, {}, {},
                                             /*vectorizeNDExtract=*/true))) {
    SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
    SmallVector<unsigned> unitReductions;
    for (auto [loop, iterator] :
         llvm::enumerate(generic.getIteratorTypesArray()))
      if (iterator == utils::IteratorType::reduction && ranges[loop] == 1)
        unitReductions.push_back(loop);
    if (unitReductions.size() == generic.getNumReductionLoops()) {
      linalg::ControlDropUnitDims control;
      control.controlFn = [&](Operation *) { return unitReductions; };
      rewriter.setInsertionPoint(generic);
      FailureOr<linalg::DropUnitDimsResult> dropped =
          linalg::dropUnitDims(rewriter, generic, control);
      if (succeeded(dropped)) {
        rewriter.replaceOp(generic, dropped->replacements);
        tile = dropped->resultOp;
      }
    }
  }
  rewriter.setInsertionPoint(tile);
  FailureOr<linalg::VectorizationResult> vectorized =
      linalg::vectorize(rewriter, tile, /*inputVectorSizes=*/{},
                        /*inputScalableVecDims=*/{},
                        /*vectorizeNDExtract=*/true,
                        /*flatten1DDepthwiseConv=*/false,
                        /*assumeDynamicDimsMatchVecSizes=*/false,
                        /*createNamedContraction=*/namedContraction);
  if (succeeded(vectorized))
    rewriter.replaceOp(tile, vectorized->replacements);
}

/// Whether `op` is a reduction worth splitting into vector accumulators:
/// one reduction loop, which is the vector loop, contiguous in an input and
/// at least eight vectors long, and no `linalg.index` (upstream's split
/// leaves an index of the split loop unchanged, which would then count the
/// outer part only). Several results (sibling reductions fused into one op)
/// split with ke::splitInnermostReductionLoop, whose loop must be the last.
/// Outputs read through a constant index (a row sum into [n, 1] read as
/// (d0, 0), as torch-mlir writes it before ke's clean-up) are not split:
/// upstream's split gives the partial results the map (d0, d0, lane), which
/// writes row i at [i, i] of an [n, 1, lanes] tensor, out of its bounds.
bool splitsIntoVectorAccumulators(linalg::LinalgOp op, ArrayRef<int64_t> bounds,
                                  unsigned vectorLoop, int64_t vectorWidth) {
  for (OpOperand &init : op.getDpsInitsMutable())
    if (!op.getMatchingIndexingMap(&init).isProjectedPermutation(
            /*allowZeroInResults=*/false))
      return false;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  // The lanes must be contiguous in an input: split along a strided loop
  // (the vector loop where no contiguous loop divides), every vector of
  // input is a gather and the partial results go through memory.
  bool contiguous = isInnermostOfAnInput(op, vectorLoop);
  return contiguous &&
         iterators[vectorLoop] == utils::IteratorType::reduction &&
         !op.hasIndexSemantics() && op.getNumReductionLoops() == 1 &&
         op.getNumDpsInits() == op->getNumResults() &&
         (op->getNumResults() == 1 || vectorLoop + 1 == bounds.size()) &&
         vectorWidth > 1 && bounds[vectorLoop] % vectorWidth == 0 &&
         bounds[vectorLoop] >= 8 * vectorWidth;
}

/// The most vectors of accumulators a reduction keeps in registers when its
/// vector runs along a parallel loop with the reduction loops outside it in
/// memory (a global average pool over NHWC: the channels contiguous, h and
/// w reduced). One vector per tile reads each cache line in part and sweeps
/// the whole input once per vector; up to this many cover whole lines and
/// sweep it once per tile (KernelBench's Conv2d + GELU + GlobalAvgPool:
/// its reduction 5.1 ms with two vectors, 3.8 with four). Also the lanes
/// of a reduction split along its vector loop (getAccumulatorLanes).
constexpr int64_t kMostAccumulatorVectors = 4;

/// How many lanes of partial results a reduction split along its vector
/// loop (of `length`) keeps: several vectors where the loop is long enough,
/// so that the adds (or maxes) of one step are independent. With one vector,
/// each step waited for the previous one's result: a max reduction's chain
/// (a max and a NaN select per vector) ran at 15 GB/s (KernelBench's
/// softmax over rows of 393216).
int64_t getAccumulatorLanes(int64_t length, int64_t vectorWidth) {
  int64_t lanes = kMostAccumulatorVectors * vectorWidth;
  return length % lanes == 0 && length >= 8 * lanes ? lanes : vectorWidth;
}

/// Whether `op` is a reduction over several loops (a batch norm's per
/// channel sums over n, h and w) whose innermost loop is the vector loop,
/// contiguous in an input, a reduction loop of at least eight vectors, with
/// each result its own reduction: then that loop is split into lanes
/// (getAccumulatorLanes;
/// ke::splitInnermostReductionLoop, lanes innermost), partial sums kept in
/// a vector across all the reduction loops and the lanes folded after.
/// Without it each vector step ends in a horizontal reduction.
bool splitsMultiLoopReductionIntoLanes(linalg::LinalgOp op,
                                       ArrayRef<int64_t> bounds,
                                       unsigned vectorLoop,
                                       int64_t vectorWidth) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  bool contiguous = isInnermostOfAnInput(op, vectorLoop);
  return contiguous && vectorLoop + 1 == bounds.size() &&
         iterators[vectorLoop] == utils::IteratorType::reduction &&
         op.getNumReductionLoops() > 1 &&
         op->getNumResults() == op.getNumDpsInits() &&
         vectorWidth > 1 && bounds[vectorLoop] % vectorWidth == 0 &&
         bounds[vectorLoop] >= 8 * vectorWidth;
}

/// The most accumulator vectors of a channels-first depthwise convolution's
/// tile: each (kh, kw) step is a broadcast weight and one FMA per vector,
/// each vector a chain of kh x kw dependent FMAs; eight chains cover an
/// FMA's latency on both pipes, and with the step's input vector and
/// weight they fit AVX2's 16 registers.
constexpr int64_t kMostDepthwiseVectors = 8;

/// The tile of a channels-first depthwise convolution along its output
/// width `widthLoop`: a power of two of vectors of width (LLVM splits a
/// vector<40xf32> badly: KernelBench's 120-wide rows in 5-vector tiles ran
/// at 13 GFLOP/s), times as many output rows (the loop outside the width)
/// as make up kMostDepthwiseVectors where they divide; one of the rest.
SmallVector<int64_t> chooseDepthwiseTile(linalg::LinalgOp op,
                                         ArrayRef<int64_t> bounds,
                                         unsigned widthLoop,
                                         int64_t vectorWidth) {
  SmallVector<int64_t> tile(bounds.size(), 1);
  int64_t vectors = kMostDepthwiseVectors;
  while (vectors > 1 && bounds[widthLoop] % (vectors * vectorWidth) != 0)
    vectors /= 2;
  tile[widthLoop] = vectors * vectorWidth;
  AffineMap output = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  unsigned rank = output.getNumResults();
  if (rank < 2)
    return tile;
  auto rowDim = dyn_cast<AffineDimExpr>(output.getResult(rank - 2));
  if (!rowDim)
    return tile;
  unsigned rowLoop = rowDim.getPosition();
  for (int64_t rows = kMostDepthwiseVectors / vectors; rows > 1; --rows)
    if (bounds[rowLoop] % rows == 0) {
      tile[rowLoop] = rows;
      break;
    }
  return tile;
}

/// How many vectors along `vectorLoop` a tile of `op` takes: one, or for a
/// reduction whose vector loop is parallel (not a contraction or
/// convolution, which have register blocks of their own) the most up to
/// kMostAccumulatorVectors that divide the loop.
int64_t getAccumulatorVectors(linalg::LinalgOp op, ArrayRef<int64_t> bounds,
                              unsigned vectorLoop, int64_t vectorWidth) {
  if (op.getNumReductionLoops() == 0 ||
      op.getIteratorTypesArray()[vectorLoop] != utils::IteratorType::parallel ||
      linalg::isaContractionOpInterface(op) ||
      linalg::isaConvolutionOpInterface(op))
    return 1;
  for (int64_t vectors = kMostAccumulatorVectors; vectors > 1; vectors /= 2)
    if (bounds[vectorLoop] % (vectors * vectorWidth) == 0)
      return vectors;
  return 1;
}

/// Whether `op` is a long reduction with too few outputs for threads (a
/// reduction to a scalar, a norm over a few huge rows): then its one
/// reduction loop is split into `kThreadChunks` chunks of partial results,
/// an outer parallel loop the threads take, combined after. The same
/// conditions as for vector lanes (contiguous in an input, no
/// `linalg.index`; several results only along the last loop), and every
/// chunk whole vectors.
bool splitsAcrossThreads(linalg::LinalgOp op, ArrayRef<int64_t> bounds,
                         unsigned vectorLoop, int64_t vectorWidth) {
  if (!splitsIntoVectorAccumulators(op, bounds, vectorLoop, vectorWidth) ||
      !isWorthThreading(bounds))
    return false;
  int64_t length = bounds[vectorLoop];
  return ke::getNumOutputElements(op) < kThreadChunks &&
         length % kThreadChunks == 0 &&
         (length / kThreadChunks) % (8 * vectorWidth) == 0;
}

/// How many thread chunks read each element of `input`: the product of the
/// chunk counts of the cut loops its indexing map does not use.
constexpr int64_t kMostChunksRecomputingAnInput = 2;
int64_t countChunksReading(linalg::LinalgOp op, OpOperand *input,
                           ArrayRef<int64_t> bounds,
                           ArrayRef<int64_t> threadTile) {
  AffineMap map = op.getMatchingIndexingMap(input);
  int64_t chunks = 1;
  for (unsigned loop = 0; loop < threadTile.size(); ++loop)
    if (threadTile[loop] > 0 && threadTile[loop] < bounds[loop] &&
        !map.isFunctionOfDim(loop))
      chunks *= llvm::divideCeil(bounds[loop], threadTile[loop]);
  return chunks;
}

/// What tiling with fused initializers made: the tiled op, the initializer
/// tiles computed inside its loops, the tiles of fused input producers (see
/// tileAndFuseInitializers), and the loops (outermost first).
struct FusedTiling {
  linalg::LinalgOp tiled;
  SmallVector<Operation *> initializers;
  SmallVector<linalg::LinalgOp> inputProducers;
  SmallVector<LoopLikeOpInterface> loops;
};

/// The producer of `input` when it is data movement (packed panels) that
/// only `op` reads, so that tiles of `op` can compute its tiles themselves.
Operation *getFusableInputProducer(linalg::LinalgOp op, OpOperand *input) {
  auto producer = input->get().getDefiningOp<linalg::GenericOp>();
  if (producer && ke::isDataMovementInitializer(producer) &&
      llvm::all_of(input->get().getUsers(), [&](Operation *user) {
        return user == op.getOperation();
      }))
    return producer;
  return nullptr;
}

/// The inputs of a contraction that its thread chunks under `threadTile`
/// compute themselves (see tileAndFuseInitializers): those whose elements
/// few enough chunks read, since each such chunk computes them again.
SmallVector<unsigned> getInputsComputedPerChunk(linalg::LinalgOp op,
                                                ArrayRef<int64_t> bounds,
                                                ArrayRef<int64_t> threadTile) {
  SmallVector<unsigned> inputs;
  for (OpOperand *input : op.getDpsInputOperands())
    if (countChunksReading(op, input, bounds, threadTile) <=
        kMostChunksRecomputingAnInput)
      inputs.push_back(input->getOperandNumber());
  return inputs;
}

/// Tiles `op` by `options`, computing each tile of the data-movement op that
/// initializes its output (a fill, a bias broadcast) inside the loops, so
/// the tile's accumulators start from it in registers instead of memory
/// written by a separate pass and read back. The caller must not tile
/// reduction loops here: an initializer fused into a reduction loop would
/// run on every step of it. The data-movement ops that produce the inputs
/// numbered in `fusedInputs` and that only `op` reads (a contraction's
/// packed panels of B) are computed per tile too: a thread packs the panels
/// its chunk reads right before it reads them, while they are in its
/// cache, instead of every panel going out to memory in a pass of its own
/// and coming back.
FailureOr<FusedTiling>
tileAndFuseInitializers(RewriterBase &rewriter, linalg::LinalgOp op,
                        const scf::SCFTilingOptions &options,
                        ArrayRef<unsigned> fusedInputs = {}) {
  scf::SCFTileAndFuseOptions fuseOptions;
  fuseOptions.setTilingOptions(options);
  // Decided before tiling: the tiled loops add readers of every input.
  llvm::SmallPtrSet<Operation *, 2> fusedInputProducers;
  for (unsigned number : fusedInputs)
    if (Operation *producer =
            getFusableInputProducer(op, op.getDpsInputOperand(number)))
      fusedInputProducers.insert(producer);
  fuseOptions.setFusionControlFn(
      [&](tensor::ExtractSliceOp, OpResult producer, bool isDestination)
          -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        Operation *owner = producer.getOwner();
        if ((isDestination && ke::isDataMovementInitializer(owner)) ||
            (!isDestination && fusedInputProducers.contains(owner)))
          return scf::SCFTileAndFuseOptions::ControlFnResult{};
        return std::nullopt;
      });
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTileAndFuseResult> result =
      scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, cast<TilingInterface>(op.getOperation()), fuseOptions);
  if (failed(result) || result->tiledAndFusedOps.empty())
    return failure();
  FusedTiling tiling;
  // The tiled consumer comes first, the fused producers' tiles after it.
  tiling.tiled = dyn_cast<linalg::LinalgOp>(result->tiledAndFusedOps[0]);
  if (!tiling.tiled)
    return failure();
  // A fused tile feeding the tiled op's inputs is an input producer; the
  // rest initialize its outputs (directly or through another fused tile).
  for (Operation *tiled : llvm::drop_begin(result->tiledAndFusedOps)) {
    bool feedsInput = llvm::any_of(
        tiling.tiled.getDpsInputOperands(), [&](OpOperand *input) {
          return input->get().getDefiningOp() == tiled;
        });
    auto producer = dyn_cast<linalg::LinalgOp>(tiled);
    if (feedsInput && producer)
      tiling.inputProducers.push_back(producer);
    else
      tiling.initializers.push_back(tiled);
  }
  for (OpResult value : op->getResults())
    if (Value replacement = result->replacements.lookup(value))
      rewriter.replaceAllUsesWith(value, replacement);
  if (isOpTriviallyDead(op))
    rewriter.eraseOp(op);
  // The slices fusion replaced are left behind; without them a fused input
  // producer is dead and the pass drops it instead of scheduling it.
  for (Operation *producer : fusedInputProducers)
    for (Operation *user : llvm::make_early_inc_range(producer->getUsers()))
      if (isa<tensor::ExtractSliceOp>(user) && isOpTriviallyDead(user))
        rewriter.eraseOp(user);
  tiling.loops = result->loops;
  return tiling;
}

/// The most bytes of B one column block of a contraction reads over a
/// reduction block: a column block's B over a longer reduction does not stay
/// in L2 while the row blocks of a thread's chunk sweep it, so each row
/// block read it from memory again. On the 2-core Xeon (2 MB of L2 a
/// core), 2 threads: 256 x 16384 x 256 12.0-12.5 -> 9.3-9.6 ms, KernelBench's
/// 256 x 8192 x 256 4.7-4.8 -> 4.4 ms; blocks of 128 KiB were no faster
/// there and cost 4 % on a 2048-long reduction that already fit.
constexpr int64_t kReductionBlockBytes = 512 * 1024;

/// The tile of a contraction's reduction blocks (see kReductionBlockBytes):
/// its one reduction loop cut by the largest divisor whose column block of
/// B fits, at least 64 steps; empty where the whole reduction fits, where
/// the op has several reduction loops, or where its chunk holds one row
/// block (no row block would read the block again).
SmallVector<int64_t> chooseReductionBlocks(linalg::LinalgOp op,
                                           ArrayRef<int64_t> registerTile,
                                           const ContractionBlock &contraction) {
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  SmallVector<unsigned> reductions;
  op.getReductionDims(reductions);
  if (reductions.size() != 1 || ShapedType::isDynamicShape(bounds))
    return {};
  unsigned rowLoop = contraction.rowLoop;
  if (bounds[rowLoop] <= registerTile[rowLoop])
    return {};
  OpOperand *b = nullptr;
  for (OpOperand *input : op.getDpsInputOperands())
    if (op.getMatchingIndexingMap(input).isFunctionOfDim(
            contraction.columnGroup.back()))
      b = input;
  if (!b)
    return {};
  int64_t elementBytes = llvm::divideCeil(
      getElementTypeOrSelf(b->get().getType()).getIntOrFloatBitWidth(), 8);
  int64_t columns = 1;
  for (unsigned loop : contraction.columnGroup)
    columns *= registerTile[loop];
  int64_t extent = bounds[reductions.front()];
  int64_t fitting = kReductionBlockBytes / (columns * elementBytes);
  if (extent <= fitting)
    return {};
  for (int64_t block = fitting; block >= 64; --block) {
    if (extent % block != 0)
      continue;
    SmallVector<int64_t> tile(bounds.size(), 0);
    tile[reductions.front()] = block;
    return tile;
  }
  return {};
}

/// `op` (a contraction) with its reduction cut into blocks where
/// chooseReductionBlocks says so and the output starts from a fill read by
/// `op` alone or from no op (another initializer would no longer fuse into
/// the register blocks): the op inside the blocks' loop, else `op`. The
/// fill stays before the blocks; a copy of it, used instead, goes to
/// `scheduleLater` (the fill itself may be on another list, the pass's walk
/// or a split's initializer tiles, which then finds it dead and drops it).
linalg::LinalgOp cutReductionIntoBlocks(
    RewriterBase &rewriter, linalg::LinalgOp op,
    ArrayRef<int64_t> registerTile, const ContractionBlock &contraction,
    SmallVectorImpl<linalg::LinalgOp> &scheduleLater) {
  Operation *initializer = op.getDpsInitOperand(0)->get().getDefiningOp();
  auto fill = dyn_cast_or_null<linalg::FillOp>(initializer);
  if (!(fill && fill->hasOneUse()) &&
      isa_and_nonnull<linalg::LinalgOp>(initializer))
    return op;
  SmallVector<int64_t> blockTile =
      chooseReductionBlocks(op, registerTile, contraction);
  if (blockTile.empty())
    return op;
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), blockTile));
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> blocks = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(blocks))
    return op;
  if (blocks->tiledOps.size() != 1) {
    for (LoopLikeOpInterface loop : llvm::reverse(blocks->loops))
      rewriter.eraseOp(loop);
    return op;
  }
  rewriter.replaceOp(op, blocks->replacements);
  if (fill) {
    rewriter.setInsertionPoint(fill);
    Operation *copy = rewriter.clone(*fill);
    rewriter.replaceAllUsesWith(fill->getResults(), copy->getResults());
    scheduleLater.push_back(cast<linalg::LinalgOp>(copy));
  }
  return cast<linalg::LinalgOp>(blocks->tiledOps.front());
}

/// Narrows the reduction loops of `tiled` (tiled with `tileSizes` in the
/// loop order of an op with `iterators`) to the taps that read data (see
/// PaddingTaps.h).
void skipPaddingTaps(RewriterBase &rewriter,
                     const scf::SCFTilingResult &tiled,
                     ArrayRef<int64_t> tileSizes,
                     ArrayRef<utils::IteratorType> iterators) {
  if (tiled.tiledOps.size() != 1)
    return;
  auto tile = dyn_cast<linalg::LinalgOp>(tiled.tiledOps.front());
  if (!tile)
    return;
  // tileUsingSCF makes a loop for each nonzero size, in loop order.
  SmallVector<scf::ForOp> reductionLoops;
  unsigned next = 0;
  for (auto [size, iterator] : llvm::zip_equal(tileSizes, iterators)) {
    if (size == 0)
      continue;
    if (next >= tiled.loops.size())
      return;
    LoopLikeOpInterface tileLoop = tiled.loops[next++];
    auto loop = dyn_cast<scf::ForOp>(tileLoop.getOperation());
    if (loop && iterator == utils::IteratorType::reduction)
      reductionLoops.push_back(loop);
  }
  ke::skipTapsReadingOnlyPadding(rewriter, tile, reductionLoops);
}

/// The register tiling of a contraction or convolution: its parallel loops
/// (a contraction's column blocks outside its rows, so a thread's rows of A
/// stay in cache while one block of B's columns is swept down them) with the
/// fill of its output fused, then its reduction loops inside them, the tile
/// vectorized and its accumulators kept in registers across the reduction.
/// A contraction with a long reduction is first cut into reduction blocks
/// (cutReductionIntoBlocks), the blocks outermost: the output's fill then
/// stays an op over the chunk before them. Summation order is unchanged:
/// each output still adds its terms in order.
/// Ops it creates or leaves that still need their own schedule (a
/// convolution filter's packing into panels, that fill) are appended to
/// `scheduleLater`.
void tileBlocked(RewriterBase &rewriter, linalg::LinalgOp op,
                 ArrayRef<int64_t> registerTile,
                 const std::optional<ContractionBlock> &contraction,
                 bool namedContraction,
                 SmallVectorImpl<linalg::LinalgOp> &scheduleLater) {
  if (contraction)
    op = cutReductionIntoBlocks(rewriter, op, registerTile, *contraction,
                                scheduleLater);
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> parallelTile(registerTile), reductionTile(registerTile);
  for (unsigned loop = 0; loop < registerTile.size(); ++loop) {
    if (iterators[loop] == utils::IteratorType::reduction)
      parallelTile[loop] = 0;
    else
      reductionTile[loop] = 0;
  }
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), parallelTile));
  if (contraction) {
    SmallVector<int64_t> order;
    for (unsigned loop = 0; loop < registerTile.size(); ++loop) {
      if (llvm::is_contained(contraction->columnGroup, loop))
        continue;
      if (loop == contraction->rowLoop)
        order.append(contraction->columnGroup.begin(),
                     contraction->columnGroup.end());
      order.push_back(loop);
    }
    options.setInterchange(order);
  }
  // A convolution's filter in panels of its block's output channels: each
  // reduction step reads the next 64 bytes of one array instead of a new
  // cache line F channels on.
  std::optional<ke::FilterPanels> panels;
  std::optional<ChannelsLastLoops> convolutionLoops =
      getChannelsLastLoops(op, op.getStaticLoopRanges());
  // (Depthwise ones have no output-channel loop of their own: none.)
  if (!contraction && convolutionLoops)
    panels = ke::packFilterIntoPanels(
        rewriter, op, registerTile[convolutionLoops->channelLoop]);
  FailureOr<FusedTiling> blocks =
      tileAndFuseInitializers(rewriter, op, options);
  if (panels && (failed(blocks) ||
                 failed(ke::readFilterFromPanel(rewriter, blocks->tiled,
                                                *panels)))) {
    rewriter.eraseOp(panels->packing);
    panels.reset();
  }
  if (panels)
    scheduleLater.push_back(panels->packing);
  if (failed(blocks))
    return;
  scf::SCFTilingOptions reductionOptions;
  reductionOptions.setTileSizes(
      getAsIndexOpFoldResult(rewriter.getContext(), reductionTile));
  rewriter.setInsertionPoint(blocks->tiled);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(blocks->tiled.getOperation()),
      reductionOptions);
  if (failed(tiled))
    return;
  rewriter.replaceOp(blocks->tiled, tiled->replacements);
  skipPaddingTaps(rewriter, *tiled, reductionTile, iterators);
  for (Operation *initializer : blocks->initializers)
    vectorizeTile(rewriter, initializer, /*namedContraction=*/false);
  for (Operation *tile : tiled->tiledOps)
    vectorizeTile(rewriter, tile, namedContraction);
  Operation *outermost =
      !blocks->loops.empty()  ? blocks->loops.front().getOperation()
      : !tiled->loops.empty() ? tiled->loops.front().getOperation()
                              : nullptr;
  if (outermost)
    keepAccumulatorsInRegisters(outermost);
}

/// Tiles a transposing op (see getTransposedLoops) into `width` x `width`
/// blocks of its read and written loops, innermost and in that order (the
/// reads stream, each written line is completed one sweep of the read loop
/// later), each vectorized as a 2-D vector: rows read along the one loop,
/// transposed in registers, rows written along the other. A loop the width
/// does not divide is split first; when too short for that, the op gets the
/// one-loop vectors of any other.
void tileTransposed(RewriterBase &rewriter, linalg::LinalgOp op,
                    ArrayRef<int64_t> bounds, TransposedLoops loops,
                    int64_t width, ke::VectorRegisterFile registers) {
  for (unsigned loop : {loops.written, loops.read}) {
    if (bounds[loop] % width == 0)
      continue;
    if (bounds[loop] < kFewestPeeledVectors * width)
      break;
    rewriter.setInsertionPoint(op);
    auto [body, rest] = linalg::splitOp(
        rewriter, cast<TilingInterface>(op.getOperation()), loop,
        rewriter.getIndexAttr(bounds[loop] / width * width));
    if (!body || !rest)
      break;
    ke::tileAndVectorizeOp(rewriter, cast<linalg::LinalgOp>(body.getOperation()),
                           width, registers);
    ke::tileAndVectorizeOp(rewriter, cast<linalg::LinalgOp>(rest.getOperation()),
                           width, registers);
    return;
  }
  SmallVector<int64_t> registerTile(bounds.size(), 1);
  registerTile[loops.read] = width;
  registerTile[loops.written] = width;
  bool divides = bounds[loops.read] % width == 0 &&
                 bounds[loops.written] % width == 0;
  if (!divides) {
    // Too short to split: one loop of vectors, as for any op.
    registerTile[loops.read] = 1;
    if (bounds[loops.written] % width != 0) {
      registerTile[loops.written] = 1;
      if (bounds[loops.read] % width != 0)
        return;
      registerTile[loops.read] = width;
    }
  }
  if (!op->getParentOfType<scf::ForallOp>())
    op = chunkAcrossThreads(rewriter, op, bounds, registerTile);
  SmallVector<int64_t> order;
  for (unsigned loop = 0; loop < bounds.size(); ++loop)
    if (loop != loops.read && loop != loops.written)
      order.push_back(loop);
  order.push_back(loops.written);
  order.push_back(loops.read);
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), registerTile));
  options.setInterchange(order);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled))
    return;
  rewriter.replaceOp(op, tiled->replacements);
  for (Operation *tile : tiled->tiledOps)
    vectorizeTile(rewriter, tile, /*namedContraction=*/false);
}

struct TileAndVectorizePass
    : ke::impl::KeTileAndVectorizeBase<TileAndVectorizePass> {
  using Base::Base;

  void runOnOperation() override {
    if (vectorWidth < 1 || elementwiseVectorWidth < 0) {
      getOperation().emitError()
          << "ke-tile-and-vectorize: vector-width must be positive and "
             "elementwise-vector-width not negative, found "
          << static_cast<int64_t>(vectorWidth) << " and "
          << static_cast<int64_t>(elementwiseVectorWidth);
      return signalPassFailure();
    }
    if (vectorRegisters < 1 || vectorRegisterBits < 8) {
      getOperation().emitError()
          << "ke-tile-and-vectorize: vector-registers must be positive and "
             "vector-register-bits at least 8, found "
          << static_cast<int64_t>(vectorRegisters) << " and "
          << static_cast<int64_t>(vectorRegisterBits);
      return signalPassFailure();
    }
    ke::VectorRegisterFile registerFile{vectorRegisters, vectorRegisterBits};
    int64_t elementwiseWidth =
        elementwiseVectorWidth > 0 ? elementwiseVectorWidth : vectorWidth;
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    // Consumers first: a contraction fuses the fill of its output while the
    // fill is still one; a fill left without users is then dropped.
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : llvm::reverse(ops)) {
      if (isOpTriviallyDead(op)) {
        rewriter.eraseOp(op);
        continue;
      }
      ke::tileAndVectorizeOp(rewriter, op,
                             isElementwise(op, elementwiseWidth)
                                 ? elementwiseWidth
                                 : vectorWidth,
                             registerFile);
    }
  }

  /// No reduction loops and every operand read in loop order (broadcasts
  /// allowed, transposes not: a transpose's wide vectors become shuffles):
  /// no register block depends on the width.
  /// Elements of at most 32 bits: the width counts f32 lanes (f64 takes
  /// whole registers at vector-width already).
  /// And an innermost loop (contiguous in every operand that reads it)
  /// that `width` divides: otherwise the vector would run along an outer,
  /// strided loop (KernelBench's L2 norm over rows of 65535).
  static bool isElementwise(linalg::LinalgOp op, int64_t width) {
    SmallVector<int64_t> bounds = op.getStaticLoopRanges();
    if (bounds.empty() || ShapedType::isDynamic(bounds.back()) ||
        bounds.back() % width != 0)
      return false;
    auto narrow = [](Value operand) {
      Type element = getElementTypeOrSelf(operand.getType());
      return element.isIntOrFloat() && element.getIntOrFloatBitWidth() <= 32;
    };
    return op.getNumReductionLoops() == 0 &&
           llvm::all_of(op->getOperands(), narrow) &&
           llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
             int64_t previous = -1;
             for (AffineExpr result : map.getResults()) {
               if (auto constant = dyn_cast<AffineConstantExpr>(result)) {
                 if (constant.getValue() != 0)
                   return false;
                 continue;
               }
               auto dim = dyn_cast<AffineDimExpr>(result);
               if (!dim || static_cast<int64_t>(dim.getPosition()) <= previous)
                 return false;
               previous = dim.getPosition();
             }
             return true;
           });
  }
};
} // namespace

bool ke::hasNonMonotoneIndexing(linalg::LinalgOp op) {
  return llvm::any_of(op.getIndexingMapsArray(), [](AffineMap map) {
    return llvm::any_of(map.getResults(), [](AffineExpr result) {
      bool found = false;
      result.walk([&](AffineExpr expr) {
        found |= expr.getKind() == AffineExprKind::Mod ||
                 expr.getKind() == AffineExprKind::FloorDiv ||
                 expr.getKind() == AffineExprKind::CeilDiv;
      });
      return found;
    });
  });
}

/// `op`, a generic without reductions whose innermost loop `width` does not
/// divide, with the longest run of innermost loops that every operand reads
/// contiguously collapsed into one, or null. An elementwise op over
/// [2, 64, 11, 23] otherwise takes its vectors along the 64 channels, each
/// a gather 253 elements apart (KernelBench's average pool: its division
/// took 20 us for 32K elements, 7 collapsed into 32384 in a row).
static linalg::LinalgOp collapseInnermostParallelLoops(RewriterBase &rewriter,
                                                       linalg::LinalgOp op,
                                                       int64_t width) {
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  if (!isa<linalg::GenericOp>(op) || op.getNumReductionLoops() != 0 ||
      op.hasIndexSemantics() || bounds.size() < 2 ||
      bounds.back() % width == 0 ||
      llvm::any_of(op.getIndexingMapsArray(), [](AffineMap map) {
        return !map.isProjectedPermutation(/*allowZeroInResults=*/false);
      }))
    return nullptr;
  // A slice (a pooling window's rows, strided) does not collapse in place:
  // bufferization would copy it first (the pool's window sums ran 3.7x
  // slower).
  if (llvm::any_of(op->getOperands(), [](Value operand) {
        return operand.getDefiningOp<tensor::ExtractSliceOp>();
      }))
    return nullptr;
  return ke::collapseContiguousTail(rewriter, op, /*first=*/0,
                                    static_cast<int64_t>(bounds.size()) - 1);
}

/// Makes `value` the only init of `tile`, a tile tiling just made, and
/// erases the slice it had as init when nothing else reads it: the whole op
/// that slice was taken from is then dead when the pass reaches it.
static void setInitDroppingItsSlice(RewriterBase &rewriter,
                                    DestinationStyleOpInterface tile,
                                    Value value) {
  Value previous = tile.getDpsInitOperand(0)->get();
  rewriter.modifyOpInPlace(tile,
                           [&] { tile.getDpsInitOperand(0)->set(value); });
  if (auto slice = previous.getDefiningOp<tensor::ExtractSliceOp>())
    if (slice->use_empty())
      rewriter.eraseOp(slice);
}

/// Splits `op` at `at` along its parallel loop `loop` where its only output
/// starts from a data-movement initializer (a fill, a bias broadcast) that
/// only `op` reads: each part gets its own tile of that initializer, written
/// into its part of the result, so that each part's tiling computes the
/// initializer in its blocks. linalg::splitOp leaves the whole initializer
/// read by both parts, a pass of its own over memory (KernelBench's
/// depthwise convolution 122 pixels wide, split into 120 + 2: its fill took
/// 13 % of the time). The initializer's tiles go to `initialTiles`. Nulls
/// where this does not apply. The whole initializer is left to the pass,
/// which drops it once dead.
static std::pair<Operation *, Operation *>
splitWithInitializer(RewriterBase &rewriter, linalg::LinalgOp op,
                     unsigned loop, int64_t at,
                     SmallVectorImpl<Operation *> &initialTiles) {
  if (op->getNumResults() != 1 || op.getNumDpsInits() != 1 ||
      op.getIteratorTypesArray()[loop] != utils::IteratorType::parallel)
    return {};
  OpOperand *output = op.getDpsInitOperand(0);
  // The two parts' slices of the output must not overlap.
  AffineMap outputMap = op.getMatchingIndexingMap(output);
  if (!outputMap.isProjectedPermutation() || !outputMap.isFunctionOfDim(loop))
    return {};
  auto initializer =
      output->get().getDefiningOp<DestinationStyleOpInterface>();
  if (!initializer || !ke::isDataMovementInitializer(initializer) ||
      initializer->getNumResults() != 1 || !output->get().hasOneUse() ||
      !isa<TilingInterface>(initializer.getOperation()))
    return {};
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  if (ShapedType::isDynamicShape(bounds) || at <= 0 || at >= bounds[loop])
    return {};
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  auto tileable = cast<TilingInterface>(op.getOperation());
  // The parts are inserted in turn into the initializer's destination, the
  // second part's output a slice of the first insert (as linalg::splitOp
  // chains them, so that bufferization writes both in place).
  Value result = initializer.getDpsInitOperand(0)->get();
  SmallVector<Operation *, 2> parts;
  for (auto [begin, end] : {std::pair<int64_t, int64_t>{0, at},
                            std::pair<int64_t, int64_t>{at, bounds[loop]}}) {
    SmallVector<OpFoldResult> offsets(bounds.size(), rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes =
        getAsIndexOpFoldResult(op->getContext(), bounds);
    offsets[loop] = rewriter.getIndexAttr(begin);
    sizes[loop] = rewriter.getIndexAttr(end - begin);
    SmallVector<OpFoldResult> resultOffsets, resultSizes;
    if (failed(tileable.getResultTilePosition(rewriter, 0, offsets, sizes,
                                              resultOffsets, resultSizes)))
      return {};
    SmallVector<OpFoldResult> strides(resultOffsets.size(),
                                      rewriter.getIndexAttr(1));
    // This part's tile of the initializer, written into this part's slice.
    Value slice = tensor::ExtractSliceOp::create(
        rewriter, loc, result, resultOffsets, resultSizes, strides);
    FailureOr<TilingResult> initialTile =
        cast<TilingInterface>(initializer.getOperation())
            .generateResultTileValue(rewriter, 0, resultOffsets, resultSizes);
    if (failed(initialTile) || initialTile->tiledOps.size() != 1 ||
        initialTile->tiledValues.size() != 1)
      return {};
    auto initialOp =
        dyn_cast<DestinationStyleOpInterface>(initialTile->tiledOps[0]);
    if (!initialOp || initialOp.getNumDpsInits() != 1)
      return {};
    setInitDroppingItsSlice(rewriter, initialOp, slice);
    FailureOr<TilingResult> part =
        tileable.getTiledImplementation(rewriter, offsets, sizes);
    if (failed(part) || part->tiledOps.size() != 1 ||
        part->tiledValues.size() != 1)
      return {};
    auto partOp = cast<DestinationStyleOpInterface>(part->tiledOps[0]);
    setInitDroppingItsSlice(rewriter, partOp, initialTile->tiledValues[0]);
    result = tensor::InsertSliceOp::create(rewriter, loc,
                                           part->tiledValues[0], result,
                                           resultOffsets, resultSizes, strides);
    parts.push_back(partOp);
    initialTiles.push_back(initialOp);
  }
  rewriter.replaceOp(op, result);
  return {parts[0], parts[1]};
}

/// Threads a contraction whose best register block does not divide its rows
/// in chunks of its dividing `block`'s grid, then tiles each chunk, which
/// splits its rows into whole best blocks and the rest. Only where the
/// chunks then pack their own panels of B (few chunks share them): split
/// before the threads, the rest's op reads the panels too, so they were
/// packed in a pass of their own, out to memory and back (KernelBench's
/// 256 x 1024 x 2048 Linear layers). False, `op` unchanged, otherwise.
static bool chunkThenSplitRows(RewriterBase &rewriter, linalg::LinalgOp op,
                               ArrayRef<int64_t> bounds,
                               const ContractionBlock &block,
                               int64_t vectorWidth,
                               ke::VectorRegisterFile registers) {
  if (op->getParentOfType<scf::ForallOp>())
    return false;
  SmallVector<int64_t> threadTile =
      chooseContractionThreadTile(op, bounds, block.tile, block);
  if (threadTile.empty())
    return false;
  // B's panels only: a transposed A computed per chunk too (KernelBench's
  // A^T B) ran slower than its own pass.
  SmallVector<unsigned> fusedInputs;
  for (unsigned number : getInputsComputedPerChunk(op, bounds, threadTile)) {
    OpOperand *input = op.getDpsInputOperand(number);
    if (op.getMatchingIndexingMap(input).isFunctionOfDim(
            block.columnGroup.front()) &&
        getFusableInputProducer(op, input))
      fusedInputs.push_back(number);
  }
  if (fusedInputs.empty())
    return false;
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), threadTile));
  options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  FailureOr<FusedTiling> chunked =
      tileAndFuseInitializers(rewriter, op, options, fusedInputs);
  if (failed(chunked))
    return false;
  ke::tileAndVectorizeOp(rewriter, chunked->tiled, vectorWidth, registers);
  for (linalg::LinalgOp producer : chunked->inputProducers)
    ke::tileAndVectorizeOp(rewriter, producer, vectorWidth, registers);
  return true;
}

/// Splits `op` along `loop` at `at` and tiles both parts, the rest with
/// vectors of `restWidth`; false (and `op` unchanged) when it does not
/// split.
static bool splitAndTileBoth(RewriterBase &rewriter, linalg::LinalgOp op,
                             unsigned loop, int64_t at, int64_t vectorWidth,
                             ke::VectorRegisterFile registers,
                             int64_t restWidth) {
  SmallVector<Operation *, 2> initialTiles;
  auto [body, rest] =
      splitWithInitializer(rewriter, op, loop, at, initialTiles);
  if (!body || !rest) {
    // Tiles made before a failure are dead; canonicalization drops them.
    initialTiles.clear();
    rewriter.setInsertionPoint(op);
    auto [first, second] =
        linalg::splitOp(rewriter, cast<TilingInterface>(op.getOperation()),
                        loop, rewriter.getIndexAttr(at));
    body = first;
    rest = second;
  }
  if (!body || !rest)
    return false;
  ke::tileAndVectorizeOp(rewriter, cast<linalg::LinalgOp>(body), vectorWidth,
                         registers);
  ke::tileAndVectorizeOp(rewriter, cast<linalg::LinalgOp>(rest), restWidth,
                         registers);
  // A part whose tiling did not compute its initializer in its blocks (a
  // reduction's chunks) still reads the initializer's tile: that tile is
  // tiled and vectorized on its own, as the whole one would have been.
  for (Operation *initial : initialTiles) {
    if (isOpTriviallyDead(initial))
      rewriter.eraseOp(initial);
    else if (auto linalgInitial = dyn_cast<linalg::LinalgOp>(initial))
      ke::tileAndVectorizeOp(rewriter, linalgInitial, vectorWidth, registers);
  }
  return true;
}

bool ke::isDataMovementInitializer(Operation *producer) {
  if (isa<linalg::FillOp, linalg::BroadcastOp>(producer))
    return true;
  auto generic = dyn_cast<linalg::GenericOp>(producer);
  if (!generic || generic.getNumReductionLoops() != 0 ||
      generic->getNumResults() != 1 || generic.hasIndexSemantics() ||
      !llvm::all_of(generic.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isProjectedPermutation(); }))
    return false;
  Block *body = generic.getBody();
  auto yielded = dyn_cast<BlockArgument>(body->getTerminator()->getOperand(0));
  return body->getOperations().size() == 1 && yielded &&
         yielded.getOwner() == body &&
         yielded.getArgNumber() < generic.getNumDpsInputs();
}

ke::VectorRegisterFile ke::getHostVectorRegisterFile() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  if (features.lookup("avx512f"))
    return {32, 512};
  if (features.lookup("avx"))
    return {16, 256};
  if (features.lookup("sse2"))
    return {16, 128};
  if (features.lookup("neon"))
    return {32, 128};
  return {};
}

void ke::tileAndVectorizeOp(RewriterBase &rewriter, linalg::LinalgOp op,
                            int64_t vectorWidth, VectorRegisterFile registers) {
  if (hasNonMonotoneIndexing(op))
    return;
  // Ops without results (side effects only, e.g. index checks left behind
  // by elementwise fusion) have nothing to vectorize.
  if (!op.hasPureTensorSemantics() || op->getNumResults() == 0)
    return;
  // LLVM packs vectors of i1 into bits while memory holds one byte per i1:
  // vector loads and stores of i1 would read the wrong bytes.
  auto isBoolean = [](Value value) {
    return getElementTypeOrSelf(value.getType()).isInteger(1);
  };
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  if (bounds.empty() || llvm::any_of(bounds, ShapedType::isDynamic))
    return;
  if (llvm::any_of(op->getOperands(), isBoolean) ||
      llvm::any_of(op->getResults(), isBoolean)) {
    // Still split across the threads, element by element in each (a
    // mask applied to 2M elements ran on one thread: 83 % of a masked
    // cumsum).
    if (!op->getParentOfType<scf::ForallOp>())
      chunkAcrossThreads(rewriter, op, bounds,
                         SmallVector<int64_t>(bounds.size(), 1));
    return;
  }
  // linalg.depthwise_conv_2d_nchw_chw's loops are (n, oh, ow, c, kh, kw):
  // tiled in that order, a row's tiles sweep every channel, each a plane
  // of its own (KernelBench's 128-channel 3 x 7 one: 16 ms). As a generic
  // with the channels outside the image, a thread's channels are swept
  // plane by plane.
  if (isa<linalg::DepthwiseConv2DNchwChwOp>(op.getOperation())) {
    FailureOr<linalg::GenericOp> interchanged =
        ke::interchangeLoops(rewriter, op, {0, 3, 1, 2, 4, 5});
    if (succeeded(interchanged))
      tileAndVectorizeOp(rewriter, *interchanged, vectorWidth, registers);
    return;
  }
  if (std::optional<TransposedLoops> transposed =
          getTransposedLoops(op, bounds, vectorWidth)) {
    tileTransposed(rewriter, op, bounds, *transposed, vectorWidth, registers);
    return;
  }
  if (linalg::LinalgOp collapsed =
          collapseInnermostParallelLoops(rewriter, op, vectorWidth)) {
    tileAndVectorizeOp(rewriter, collapsed, vectorWidth, registers);
    return;
  }
  // The loop most data is contiguous along, when the width does not divide
  // it (rows of 65535): vectors along it for all but its last few
  // iterations, which become an op of their own, instead of vectors along
  // a strided outer loop (each a gather) or none at all.
  std::optional<unsigned> contiguousLoop =
      chooseVectorLoop(op, bounds, /*width=*/1);
  if (contiguousLoop && vectorWidth > 1 &&
      bounds[*contiguousLoop] % vectorWidth != 0 &&
      bounds[*contiguousLoop] >= kFewestPeeledVectors * vectorWidth &&
      isInnermostOfAnOperand(op, *contiguousLoop) &&
      (!linalg::isaConvolutionOpInterface(op) ||
       isChannelsFirstDepthwise(op)) &&
      splitKeepsResultsClose(op, *contiguousLoop)) {
    int64_t whole = bounds[*contiguousLoop] / vectorWidth * vectorWidth;
    // A contraction's last few columns (740 = 736 + 4) take vectors of
    // their own length: at the full width none of their loops vectorizes
    // and they ran as scalar loops on one thread (1025 x 737 x 4: 40 % of
    // the whole product's time).
    int64_t restWidth = vectorWidth;
    if (bounds[*contiguousLoop] - whole > 1 &&
        op.getIteratorTypesArray()[*contiguousLoop] ==
            utils::IteratorType::parallel &&
        linalg::isaContractionOpInterface(op))
      restWidth = bounds[*contiguousLoop] - whole;
    if (splitAndTileBoth(rewriter, op, *contiguousLoop, whole, vectorWidth,
                         registers, restWidth))
      return;
  }
  std::optional<unsigned> vectorLoop =
      chooseVectorLoop(op, bounds, vectorWidth);
  if (!vectorLoop)
    return;
  // A depthwise convolution's last few output columns (the width split
  // above) would take their vector down the channels, a gather per tap;
  // they take a short vector along the width instead (vector<7x2xf32>: one
  // per output row of the block, 0.4 ms of scalar loops on KernelBench's
  // 122-wide output).
  if (std::optional<unsigned> width = getChannelsFirstDepthwiseWidth(op);
      width && *vectorLoop != *width) {
    if (bounds[*width] >= vectorWidth) {
      if (!op->getParentOfType<scf::ForallOp>())
        chunkAcrossThreads(rewriter, op, bounds,
                           SmallVector<int64_t>(bounds.size(), 1));
      return;
    }
    vectorLoop = *width;
  }

  // Named contractions vectorize straight to vector.contract, which lowers
  // to FMAs; but only for one element type and a non-scalar result (mixed
  // types and 0-d accumulators do not lower or do not verify upstream).
  Type elementType = getElementTypeOrSelf(op->getResult(0).getType());
  bool namedContraction =
      cast<ShapedType>(op->getResult(0).getType()).getRank() > 0 &&
      llvm::all_of(op->getOperands(), [&](Value operand) {
        return getElementTypeOrSelf(operand.getType()) == elementType;
      });
  // A channels-last convolution or a contraction gets a register block of
  // several output rows (pixels) by several vectors, its accumulators kept in
  // registers: one vector of outputs per tile would spend its time in loop
  // overhead and tile copies, and reload every input per FMA.
  SmallVector<int64_t> registerTile =
      chooseChannelsLastTile(op, bounds, vectorWidth, registers);
  bool convolution = !registerTile.empty();
  if (convolution) {
    // A width with no divisor of at least kFewestBlockPixels (29, prime,
    // after a 4-wide kernel) left one pixel per tile: one accumulator
    // vector, each FMA waiting on the last (KernelBench's Conv3d + GroupNorm
    // at 18 % of peak). Its whole blocks of kPeeledPixels are split off.
    // Not a depthwise one: each pixel reads a vector of its own there, and
    // KernelBench's (122 = 2 x 61 pixels wide) ran 1.4x slower split.
    std::optional<ChannelsLastLoops> loops = getChannelsLastLoops(op, bounds);
    unsigned pixelLoop = loops->pixelLoop, channelLoop = loops->channelLoop;
    // As for contractions: where the block that fits best does not divide
    // the pixels and has more accumulators (AVX2's 6 x 16 f32 in a 34-pixel
    // row, whose divisors left 2 x 32: 8 accumulators, 13 of 16
    // registers), its whole blocks become an op of their own and the last
    // pixels another. Not for FMAs per load alone: 65 pixels as 60 + 5
    // (6 x 16, then 5 x 16) ran 1.2x slower than as 5 x 16 blocks.
    int64_t lanes = getRegisterLanes(op, registers);
    std::optional<std::pair<int64_t, int64_t>> best = chooseRegisterBlock(
        bounds[pixelLoop], bounds[channelLoop], vectorWidth, lanes,
        registers.count, kMostBlockPixels, /*anyRowCount=*/true,
        /*rowsMayNotDivide=*/true);
    if (!isa<linalg::DepthwiseConv2DNhwcHwcOp>(op) && best &&
        bounds[pixelLoop] % best->first != 0 &&
        std::get<0>(registerBlockCost(best->first, best->second, lanes)) <
            std::get<0>(registerBlockCost(registerTile[pixelLoop],
                                          registerTile[channelLoop], lanes)) &&
        ke::getReductionLength(op) >= kFewestStepsToSplitRows) {
      if (splitAndTileBoth(rewriter, op, pixelLoop,
                           bounds[pixelLoop] / best->first * best->first,
                           vectorWidth, registers, vectorWidth))
        return;
    }
    if (!isa<linalg::DepthwiseConv2DNhwcHwcOp>(op) &&
        registerTile[pixelLoop] < kFewestBlockPixels &&
        bounds[pixelLoop] > kPeeledPixels) {
      int64_t whole = bounds[pixelLoop] / kPeeledPixels * kPeeledPixels;
      if (splitAndTileBoth(rewriter, op, pixelLoop, whole, vectorWidth,
                           registers, vectorWidth))
        return;
    }
  }
  std::optional<ContractionBlock> contraction;
  if (!convolution && namedContraction)
    contraction = chooseContractionTile(op, bounds, vectorWidth, registers);
  if (contraction) {
    // The rows of the block that fits best need not divide the row loop
    // (AVX2: 6 x 16 f32, 12 accumulators, where the blocks dividing 1024
    // rows hold 8): the whole blocks become an op of their own, the last
    // rows another.
    std::optional<ContractionBlock> best = chooseContractionTile(
        op, bounds, vectorWidth, registers, /*rowsMayNotDivide=*/true);
    unsigned rowLoop = contraction->rowLoop;
    auto cost = [&](const ContractionBlock &block) {
      return registerBlockCost(block.tile[rowLoop],
                               block.tile[block.columnGroup.back()],
                               getRegisterLanes(op, registers));
    };
    if (best && cost(*best) < cost(*contraction) &&
        ke::getReductionLength(op) >= kFewestStepsToSplitRows) {
      if (chunkThenSplitRows(rewriter, op, bounds, *contraction, vectorWidth,
                             registers))
        return;
      int64_t rows = best->tile[rowLoop];
      if (splitAndTileBoth(rewriter, op, rowLoop,
                           bounds[rowLoop] / rows * rows, vectorWidth,
                           registers, vectorWidth))
        return;
    }
    registerTile = contraction->tile;
  }
  // A channels-first depthwise convolution's block of output rows by
  // vectors of width: tiled like a register block (the fill of its output
  // fused, its accumulators kept in registers across kh and kw).
  if (registerTile.empty() && isChannelsFirstDepthwise(op))
    registerTile = chooseDepthwiseTile(
        op, bounds, *vectorLoop,
        std::min(vectorWidth, bounds[*vectorLoop]));
  bool blocked = !registerTile.empty();
  if (!blocked) {
    if (linalg::LinalgOp collapsed = ke::collapseReductionLoops(rewriter, op)) {
      tileAndVectorizeOp(rewriter, collapsed, vectorWidth, registers);
      return;
    }
  }
  if (!blocked &&
      splitsAcrossThreads(op, bounds, *vectorLoop, vectorWidth)) {
    // Partial results per chunk, the chunks an outer parallel loop (each
    // then split into vector lanes), combined by a short reduction.
    // Several results (sibling reductions fused into one op): ke's split,
    // which folds every result's partials (upstream's takes one result).
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::SplitReductionResult> split =
        op->getNumResults() == 1
            ? ke::splitReductionIntoChunks(rewriter, op, kThreadChunks)
            : ke::splitInnermostReductionLoop(rewriter, op, kThreadChunks,
                                              /*chunkInnermost=*/false);
    if (succeeded(split)) {
      tileAndVectorizeOp(rewriter, split->splitLinalgOp, vectorWidth, registers);
      tileAndVectorizeOp(rewriter, split->resultCombiningLinalgOp, vectorWidth, registers);
      return;
    }
  }
  if (!blocked &&
      splitsIntoVectorAccumulators(op, bounds, *vectorLoop, vectorWidth)) {
    // A long reduction along the vector: partial results in a vector of
    // `vectorWidth` lanes, one elementwise step per vector of input, then
    // one short reduction of the lanes per row; reduced into one scalar
    // per vector instead, each step is a chain of dependent scalar adds.
    auto control = [&](linalg::LinalgOp) {
      return linalg::SplitReductionOptions{
          getAccumulatorLanes(bounds[*vectorLoop], vectorWidth),
          static_cast<unsigned>(
              cast<ShapedType>(op->getResult(0).getType()).getRank()),
          /*innerParallel=*/true};
    };
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::SplitReductionResult> split =
        op->getNumResults() == 1
            ? linalg::splitReduction(rewriter, op, control)
            : ke::splitInnermostReductionLoop(
                  rewriter, op,
                  getAccumulatorLanes(bounds[*vectorLoop], vectorWidth),
                  /*chunkInnermost=*/true);
    if (succeeded(split)) {
      tileAndVectorizeOp(rewriter, split->splitLinalgOp, vectorWidth, registers);
      tileAndVectorizeOp(rewriter, split->resultCombiningLinalgOp, vectorWidth, registers);
      return;
    }
  }
  if (!blocked &&
      splitsMultiLoopReductionIntoLanes(op, bounds, *vectorLoop, vectorWidth)) {
    FailureOr<linalg::SplitReductionResult> split =
        ke::splitInnermostReductionLoop(
            rewriter, op, getAccumulatorLanes(bounds[*vectorLoop], vectorWidth),
                                        /*chunkInnermost=*/true);
    if (succeeded(split)) {
      tileAndVectorizeOp(rewriter, split->splitLinalgOp, vectorWidth, registers);
      tileAndVectorizeOp(rewriter, split->resultCombiningLinalgOp, vectorWidth, registers);
      return;
    }
  }
  if (!blocked) {
    registerTile.assign(bounds.size(), 1);
    registerTile[*vectorLoop] =
        getAccumulatorVectors(op, bounds, *vectorLoop, vectorWidth) *
        vectorWidth;
  }

  // Threads: the outer parallel loops in chunks, one scf.forall (OpenMP in
  // ke-lower-cpu), unless the op already runs inside a schedule's threads.
  SmallVector<linalg::LinalgOp> inputProducers;
  if (!op->getParentOfType<scf::ForallOp>()) {
    SmallVector<int64_t> threadTile =
        contraction ? chooseContractionThreadTile(op, bounds, registerTile,
                                                  *contraction)
                    : chooseThreadTile(op, bounds, registerTile);
    if (!threadTile.empty()) {
      scf::SCFTilingOptions options;
      options.setTileSizes(
          getAsIndexOpFoldResult(op->getContext(), threadTile));
      options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
      if (blocked) {
        // Thread tiles cut parallel loops only: initializers fuse safely.
        // A contraction's inputs made by data movement (packed panels) are
        // computed in the chunks that read them where few chunks read the
        // same part: each of them computes it again.
        SmallVector<unsigned> fusedInputs;
        if (contraction)
          fusedInputs = getInputsComputedPerChunk(op, bounds, threadTile);
        FailureOr<FusedTiling> chunked =
            tileAndFuseInitializers(rewriter, op, options, fusedInputs);
        if (succeeded(chunked)) {
          op = chunked->tiled;
          inputProducers = chunked->inputProducers;
        }
      } else {
        rewriter.setInsertionPoint(op);
        FailureOr<scf::SCFTilingResult> chunked = scf::tileUsingSCF(
            rewriter, cast<TilingInterface>(op.getOperation()), options);
        if (succeeded(chunked) && chunked->tiledOps.size() == 1) {
          rewriter.replaceOp(op, chunked->replacements);
          op = cast<linalg::LinalgOp>(chunked->tiledOps.front());
        }
      }
    }
  }

  if (blocked) {
    SmallVector<linalg::LinalgOp> scheduleLater;
    tileBlocked(rewriter, op, registerTile, contraction, namedContraction,
                scheduleLater);
    // Inside the thread chunk now: tiled and vectorized without threads.
    for (linalg::LinalgOp producer : inputProducers)
      tileAndVectorizeOp(rewriter, producer, vectorWidth, registers);
    // A filter's packing, outside the threads' loop where the filter is:
    // threads of its own; a fill before reduction blocks: the chunk's.
    for (linalg::LinalgOp later : scheduleLater)
      tileAndVectorizeOp(rewriter, later, vectorWidth, registers);
    return;
  }
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), registerTile));
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled))
    return;
  // A reduction whose vector runs along a parallel loop keeps its output
  // tile in registers across the reduction loops inside its tile loops (the
  // partial results of a split reduction). Not an unblocked convolution or
  // contraction: lowered to outer products along the wrong loop, its vector
  // FMAs became one per lane.
  bool accumulatesAcrossLoops = op.getIteratorTypesArray()[*vectorLoop] ==
                                    utils::IteratorType::parallel &&
                                op.getNumReductionLoops() > 0 &&
                                !linalg::isaContractionOpInterface(op) &&
                                !linalg::isaConvolutionOpInterface(op);
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  rewriter.replaceOp(op, tiled->replacements);
  skipPaddingTaps(rewriter, *tiled, registerTile, iterators);

  for (Operation *tile : tiled->tiledOps)
    vectorizeTile(rewriter, tile, namedContraction);
  if (accumulatesAcrossLoops && !tiled->loops.empty())
    keepAccumulatorsInRegisters(tiled->loops.front());
}
