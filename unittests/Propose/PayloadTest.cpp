//===- PayloadTest.cpp - payloads prepared per target ---------------------===//

#include "ke/InitKe.h"
#include "ke/Propose/Schedule.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <string>

using namespace ke::propose;

namespace {
/// A log-step cumsum over 4 elements (shifts 1 and 2) and an NCHW
/// convolution, as torch-mlir writes them.
const char *kFrontEndKernel = R"mlir(
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @k(%x: tensor<2x4xf32>, %i: tensor<1x3x6x6xf32>, %w: tensor<8x3x3x3xf32>)
    -> (tensor<2x4xf32>, tensor<1x8x4x4xf32>) {
  %z1 = arith.constant dense<0.0> : tensor<2x1xf32>
  %z2 = arith.constant dense<0.0> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x4xf32>
  %s0 = tensor.extract_slice %x[0, 0] [2, 3] [1, 1] : tensor<2x4xf32> to tensor<2x3xf32>
  %c0 = tensor.concat dim(1) %z1, %s0 : (tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x4xf32>
  %r0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %c0 : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<2x4xf32>
  %s1 = tensor.extract_slice %r0[0, 0] [2, 2] [1, 1] : tensor<2x4xf32> to tensor<2x2xf32>
  %c1 = tensor.concat dim(1) %z2, %s1 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x4xf32>
  %r1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r0, %c1 : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<2x4xf32>
  %zero = arith.constant 0.0 : f32
  %ce = tensor.empty() : tensor<1x8x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%ce : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %conv = linalg.conv_2d_nchw_fchw ins(%i, %w : tensor<1x3x6x6xf32>, tensor<8x3x3x3xf32>)
      outs(%init : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %r1, %conv : tensor<2x4xf32>, tensor<1x8x4x4xf32>
}
)mlir";

class PayloadTest : public ::testing::Test {
protected:
  PayloadTest() {
    mlir::DialectRegistry registry;
    ke::registerEverything(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// The kernel prepared for `target`, printed.
  std::string prepare(PayloadTarget target) {
    auto module =
        mlir::parseSourceString<mlir::ModuleOp>(kFrontEndKernel, &context);
    EXPECT_TRUE(module);
    if (!module)
      return "";
    auto function = *module->getOps<mlir::func::FuncOp>().begin();
    std::string skipped;
    llvm::Error error = canonicalizeForScheduling(function, target, &skipped);
    EXPECT_FALSE(error) << llvm::toString(std::move(error));
    EXPECT_EQ(skipped, "");
    std::string text;
    llvm::raw_string_ostream os(text);
    function->print(os);
    return text;
  }

  mlir::MLIRContext context;
};
} // namespace

TEST_F(PayloadTest, CPUPayloadVectorizesScansAndGoesChannelsLast) {
  std::string text = prepare(PayloadTarget::CPU);
  EXPECT_EQ(text.find("tensor.concat"), std::string::npos) << text;
  EXPECT_NE(text.find("vector.shuffle"), std::string::npos) << text;
  EXPECT_EQ(text.find("linalg.conv_2d_nchw_fchw"), std::string::npos) << text;
  EXPECT_NE(text.find("linalg.conv_2d_nhwc_hwcf"), std::string::npos) << text;
}

TEST_F(PayloadTest, GPUPayloadKeepsScansAndLayouts) {
  std::string text = prepare(PayloadTarget::GPU);
  EXPECT_NE(text.find("tensor.concat"), std::string::npos) << text;
  EXPECT_EQ(text.find("vector."), std::string::npos) << text;
  EXPECT_NE(text.find("linalg.conv_2d_nchw_fchw"), std::string::npos) << text;
  EXPECT_EQ(text.find("linalg.conv_2d_nhwc_hwcf"), std::string::npos) << text;
}
