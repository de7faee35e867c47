//===- WorkEstimateTest.cpp - FLOP and byte counting ----------------------===//

#include "ke/Eval/WorkEstimate.h"

#include "ke/InitKe.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <cmath>
#include <string>

using namespace mlir;
using namespace ke::eval;

namespace {
class WorkEstimateTest : public ::testing::Test {
protected:
  WorkEstimateTest() {
    ke::registerEverything(registry);
    context = std::make_unique<MLIRContext>(registry);
    context->loadAllAvailableDialects();
  }

  WorkEstimate estimate(llvm::StringRef source) {
    module = parseSourceString<ModuleOp>(source, context.get());
    EXPECT_TRUE(module);
    auto function = *module->getOps<func::FuncOp>().begin();
    return estimateWork(function);
  }

  DialectRegistry registry;
  std::unique_ptr<MLIRContext> context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(WorkEstimateTest, MatmulIsTwoMNK) {
  WorkEstimate work = estimate(R"mlir(
    func.func @mm(%a: tensor<8x4xf32>, %b: tensor<4x16xf32>) -> tensor<8x16xf32> {
      %z = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<8x16xf32>
      %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
      %r = linalg.matmul ins(%a, %b : tensor<8x4xf32>, tensor<4x16xf32>)
                         outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
      return %r : tensor<8x16xf32>
    })mlir");
  EXPECT_DOUBLE_EQ(work.flops, 2.0 * 8 * 4 * 16);
  EXPECT_DOUBLE_EQ(work.bytes, 4.0 * (8 * 4 + 4 * 16 + 8 * 16));
}

TEST_F(WorkEstimateTest, GenericBodyOpsCountPerIteration) {
  WorkEstimate work = estimate(R"mlir(
    #id = affine_map<(d0) -> (d0)>
    func.func @f(%x: tensor<100xf16>) -> tensor<100xf16> {
      %e = tensor.empty() : tensor<100xf16>
      %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
          ins(%x : tensor<100xf16>) outs(%e : tensor<100xf16>) {
      ^bb0(%in: f16, %out: f16):
        %w = arith.extf %in : f16 to f32
        %t = math.exp %w : f32
        %u = arith.mulf %t, %t : f32
        %n = arith.truncf %u : f32 to f16
        linalg.yield %n : f16
      } -> tensor<100xf16>
      return %r : tensor<100xf16>
    })mlir");
  EXPECT_DOUBLE_EQ(work.flops, 200.0); // exp + mul; casts are free
  EXPECT_DOUBLE_EQ(work.bytes, 2.0 * 200);
}

TEST_F(WorkEstimateTest, ElementwiseTensorArithCountsPerElement) {
  WorkEstimate work = estimate(R"mlir(
    func.func @add(%a: tensor<4x8xi8>, %b: tensor<4x8xi8>) -> tensor<4x8xi8> {
      %r = arith.addi %a, %b : tensor<4x8xi8>
      return %r : tensor<4x8xi8>
    })mlir");
  EXPECT_DOUBLE_EQ(work.flops, 32.0);
  EXPECT_DOUBLE_EQ(work.bytes, 96.0);
}
// A transposed convolution as front ends write it: the input spread by its
// stride into zeros, then an ordinary convolution. Only the iterations that
// can read the source count (4 of 9 input positions); a convolution over
// an input padded with stride 1 counts all of its iterations, as usual.
TEST_F(WorkEstimateTest, SpreadInputCountsItsSourceShare) {
  const char *source = R"mlir(
    func.func @conv(%x: tensor<1x1x4xf32>, %w: tensor<1x1x3xf32>) -> tensor<1x1x7xf32> {
      %z = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<1x1x9xf32>
      %zeros = linalg.fill ins(%z : f32) outs(%e : tensor<1x1x9xf32>) -> tensor<1x1x9xf32>
      %spread = tensor.insert_slice %x into %zeros[0, 0, 1] [1, 1, 4] [1, 1, STRIDE]
          : tensor<1x1x4xf32> into tensor<1x1x9xf32>
      %o = tensor.empty() : tensor<1x1x7xf32>
      %acc = linalg.fill ins(%z : f32) outs(%o : tensor<1x1x7xf32>) -> tensor<1x1x7xf32>
      %r = linalg.conv_1d_ncw_fcw ins(%spread, %w : tensor<1x1x9xf32>, tensor<1x1x3xf32>)
                                  outs(%acc : tensor<1x1x7xf32>) -> tensor<1x1x7xf32>
      return %r : tensor<1x1x7xf32>
    })mlir";
  std::string spread(source), padded(source);
  spread.replace(spread.find("STRIDE"), 6, "2");
  padded.replace(padded.find("STRIDE"), 6, "1");
  // 7 outputs x 3 taps, a multiply and an add each.
  EXPECT_DOUBLE_EQ(estimate(spread).flops, std::round(2.0 * 7 * 3 * 4 / 9));
  EXPECT_DOUBLE_EQ(estimate(padded).flops, 2.0 * 7 * 3);
  // Zeros as a splat constant instead of a fill.
  std::string splat(spread);
  splat.replace(splat.find("%zeros = linalg.fill"),
                splat.find("\n", splat.find("%zeros = linalg.fill")) -
                    splat.find("%zeros = linalg.fill"),
                "%zeros = arith.constant dense<0.0> : tensor<1x1x9xf32>");
  EXPECT_DOUBLE_EQ(estimate(splat).flops, std::round(2.0 * 7 * 3 * 4 / 9));
}
} // namespace
