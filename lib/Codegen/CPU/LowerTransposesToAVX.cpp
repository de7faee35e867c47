//===- LowerTransposesToAVX.cpp - ke-lower-transposes-to-avx --------------===//
//
// Packing B into panels, a convolution's change to channels-last and back,
// attention's K^T: each reads 8 x 8 f32 blocks with a transposing
// transfer_read, which unrolls into a vector.transpose with unit dimensions
// around the 8 x 8 (vector<1x8x1x8xf32>, [0, 2, 3, 1]). Lowered element by
// element, LLVM turns it into ~110 instructions with spills per block; the
// textbook AVX sequence (unpacks, shuffles, blends, lane permutes) is ~40.
// This pass views each such transpose as the 2-D one it is and lowers the
// 8 x 8 and 4 x 8 f32 ones with upstream's AVX2 sequences.
//
//===----------------------------------------------------------------------===//

#include "ke/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace ke {
#define GEN_PASS_DEF_KELOWERTRANSPOSESTOAVX
#include "ke/Codegen/Passes.h.inc"
} // namespace ke

using namespace mlir;

namespace {
/// A transpose whose dimensions of more than one element are two, swapped:
/// a shape_cast to those two, a 2-D transpose, a shape_cast back. Unit
/// dimensions move freely (no element changes place), so only the relative
/// order of the two long ones matters.
struct TransposeAsTwoDimensional : OpRewritePattern<vector::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransposeOp transpose,
                                PatternRewriter &rewriter) const override {
    VectorType sourceType = transpose.getSourceVectorType();
    VectorType resultType = transpose.getResultVectorType();
    if (sourceType.getRank() <= 2 || sourceType.isScalable())
      return failure();
    SmallVector<int64_t> longDims;
    for (auto [dim, size] : llvm::enumerate(sourceType.getShape()))
      if (size != 1)
        longDims.push_back(dim);
    if (longDims.size() != 2)
      return failure();
    // Where each long source dimension lands in the result.
    ArrayRef<int64_t> permutation = transpose.getPermutation();
    auto landing = [&](int64_t sourceDim) {
      return llvm::find(permutation, sourceDim) - permutation.begin();
    };
    if (landing(longDims[0]) < landing(longDims[1]))
      return failure(); // Not swapped: a shape_cast (upstream folds it).
    int64_t rows = sourceType.getDimSize(longDims[0]);
    int64_t columns = sourceType.getDimSize(longDims[1]);
    Type elementType = sourceType.getElementType();
    Location loc = transpose.getLoc();
    Value matrix = vector::ShapeCastOp::create(
        rewriter, loc, VectorType::get({rows, columns}, elementType),
        transpose.getVector());
    Value transposed = vector::TransposeOp::create(rewriter, loc, matrix,
                                                   ArrayRef<int64_t>{1, 0});
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(transpose, resultType,
                                                     transposed);
    return success();
  }
};

struct LowerTransposesToAVXPass
    : ke::impl::KeLowerTransposesToAVXBase<LowerTransposesToAVXPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<TransposeAsTwoDimensional>(&getContext());
    x86vector::avx2::populateSpecializedTransposeLoweringPatterns(
        patterns, x86vector::avx2::LoweringOptions().setTransposeOptions(
                      x86vector::avx2::TransposeLoweringOptions()
                          .lower4x8xf32()
                          .lower8x8xf32()));
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
