//===- FoldTransposesIntoThinMatmuls.cpp - ke-fold-transposes-into-thin-matmuls
//
// Front ends write a Linear layer as a transpose of its [N][K] weight into
// [K][N] followed by a matmul. With many rows the transpose pays for
// itself: the schedule packs B into panels anyway, and the transpose is
// that packing. With a few rows (a Linear layer at batch 1, KernelBench's
// problems as ke-import shrinks them) the product is a pass over the
// weight, and the transpose three: read, write, read again. Read in place
// as B[n][k], each output is a dot product of contiguous rows (x . W[n]),
// which the schedule vectorizes along k: a 1 x 2048 x 2048 product took
// 1.3-1.7 ms through the transpose, 0.27-0.35 ms in place (2 threads).
//
// On the GPU an f32 product's staged copies read either layout of either
// input into shared memory, so a transpose of A or B there is only a
// launch and two passes over the operand: with `any-f32-product` every
// f32 product reads its transposed inputs in place.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

namespace ke {
#define GEN_PASS_DEF_KEFOLDTRANSPOSESINTOTHINMATMULS
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// The 2-D tensor whose transpose `value` is: the input of a
/// `linalg.transpose` with permutation [1, 0], or of a generic that copies
/// its one input read through (d0, d1) -> (d1, d0). Null otherwise.
Value getTransposedSource(Value value) {
  Operation *producer = value.getDefiningOp();
  if (auto transpose = dyn_cast_or_null<linalg::TransposeOp>(producer)) {
    if (transpose.getPermutation() == ArrayRef<int64_t>{1, 0})
      return transpose.getInput();
    return nullptr;
  }
  auto copy = dyn_cast_or_null<linalg::GenericOp>(producer);
  if (!copy || copy.getNumDpsInputs() != 1 || copy.getNumDpsInits() != 1 ||
      copy.getNumLoops() != 2 || copy.getNumReductionLoops() != 0 ||
      !copy.hasPureTensorSemantics())
    return nullptr;
  MLIRContext *context = copy.getContext();
  AffineExpr d0 = getAffineDimExpr(0, context), d1 = getAffineDimExpr(1, context);
  if (copy.getIndexingMapsArray()[0] != AffineMap::get(2, 0, {d1, d0}, context) ||
      !copy.getIndexingMapsArray()[1].isIdentity())
    return nullptr;
  Block *body = copy.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (body->getOperations().size() != 1 ||
      yield.getOperand(0) != body->getArgument(0))
    return nullptr;
  return copy.getDpsInputs()[0];
}

/// Whether `matmul` has the default maps (A[m][k], B[k][n], C[m][n]).
bool hasDefaultMaps(linalg::MatmulOp matmul) {
  return llvm::equal(matmul.getIndexingMapsArray(),
                     linalg::MatmulOp::getDefaultIndexingMaps(
                         matmul.getContext()));
}

/// The transposes a matmul reads in place: the [K][M] original of A, the
/// [N][K] original of B (null where that input stays).
struct TransposedSources {
  Value a, b;
};

/// `matmul` reading A as A[k][m] from `sources.a` and B as B[n][k] from
/// `sources.b`, where set.
void readInPlace(RewriterBase &rewriter, linalg::MatmulOp matmul,
                 TransposedSources sources) {
  MLIRContext *context = matmul.getContext();
  AffineExpr m = getAffineDimExpr(0, context), n = getAffineDimExpr(1, context),
             k = getAffineDimExpr(2, context);
  auto map = [&](AffineExpr first, AffineExpr second) -> Attribute {
    return AffineMapAttr::get(AffineMap::get(3, 0, {first, second}, context));
  };
  SmallVector<Attribute> maps = {sources.a ? map(k, m) : map(m, k),
                                 sources.b ? map(n, k) : map(k, n),
                                 map(m, n)};
  SmallVector<NamedAttribute> attributes;
  for (NamedAttribute attribute : matmul->getAttrs())
    if (attribute.getName() != "operandSegmentSizes" &&
        attribute.getName() != "indexing_maps")
      attributes.push_back(attribute);
  attributes.push_back(
      rewriter.getNamedAttr("indexing_maps", rewriter.getArrayAttr(maps)));
  rewriter.setInsertionPoint(matmul);
  auto replacement = linalg::MatmulOp::create(
      rewriter, matmul.getLoc(), matmul->getResultTypes(),
      ValueRange{sources.a ? sources.a : matmul.getDpsInputs()[0],
                 sources.b ? sources.b : matmul.getDpsInputs()[1]},
      matmul.getDpsInits(), attributes);
  rewriter.replaceOp(matmul, replacement->getResults());
}

struct FoldTransposesIntoThinMatmulsPass
    : ke::impl::KeFoldTransposesIntoThinMatmulsBase<
          FoldTransposesIntoThinMatmulsPass> {
  using KeFoldTransposesIntoThinMatmulsBase::
      KeFoldTransposesIntoThinMatmulsBase;

  void runOnOperation() override {
    SmallVector<std::pair<linalg::MatmulOp, TransposedSources>> folds;
    getOperation().walk([&](linalg::MatmulOp matmul) {
      if (!matmul.hasPureTensorSemantics() || !hasDefaultMaps(matmul))
        return;
      auto a = dyn_cast<RankedTensorType>(matmul.getDpsInputs()[0].getType());
      if (!a || a.getRank() != 2)
        return;
      TransposedSources sources;
      if (anyF32Product && llvm::all_of(matmul->getOperandTypes(), [](Type t) {
            return getElementTypeOrSelf(t).isF32();
          })) {
        sources.a = getTransposedSource(matmul.getDpsInputs()[0]);
        sources.b = getTransposedSource(matmul.getDpsInputs()[1]);
      } else if (!ShapedType::isDynamic(a.getDimSize(0)) &&
                 a.getDimSize(0) <= mostRows) {
        sources.b = getTransposedSource(matmul.getDpsInputs()[1]);
      }
      if (sources.a || sources.b)
        folds.push_back({matmul, sources});
    });
    IRRewriter rewriter(&getContext());
    for (auto [matmul, sources] : folds)
      readInPlace(rewriter, matmul, sources);
  }
};
} // namespace
