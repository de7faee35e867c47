//===- RewriteTest.cpp - replies, rewrites and prompts --------------------===//

#include "ke/Propose/Rewrite.h"
#include "ke/InitKe.h"
#include "ke/Propose/PromptSynthesizer.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace ke::propose;

namespace {
const char *kParent = R"mlir(
func.func @k(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%f : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %m : tensor<8x4xf32>
}
)mlir";

const char *kScriptReply = R"(Tile the matmul by 2 rows.
```mlir
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %mm tile_sizes [2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
```
)";

class RewriteTest : public ::testing::Test {
protected:
  RewriteTest() {
    mlir::DialectRegistry registry;
    ke::registerEverything(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }
  mlir::MLIRContext context;
};
} // namespace

TEST(FencedBlockTest, ExtractsBlocksAndTheirLanguage) {
  auto blocks = extractFencedBlocks("text\n```python\nx = 1\n```\nmore\n"
                                    "```mlir\nfunc.func @f()\n```\n```\nopen");
  ASSERT_EQ(blocks.size(), 3u);
  EXPECT_EQ(blocks[0].language, "python");
  EXPECT_EQ(blocks[1].language, "mlir");
  EXPECT_EQ(blocks[1].text, "func.func @f()\n");
  EXPECT_EQ(blocks[2].text, "open\n"); // an unclosed fence still counts
}

TEST(FencedBlockTest, FindsTheRewriteOfAReply) {
  auto script = parseRewriteReply(kScriptReply);
  ASSERT_TRUE(bool(script)) << llvm::toString(script.takeError());
  EXPECT_EQ(script->kind, RewriteKind::TransformScript);
  EXPECT_EQ(script->explanation, "Tile the matmul by 2 rows.");

  auto function = parseRewriteReply(
      "```python\nfunc.func\n```\n```mlir\nfunc.func @k() { return }\n```");
  ASSERT_TRUE(bool(function));
  EXPECT_EQ(function->kind, RewriteKind::Function);

  auto prose = parseRewriteReply("I cannot help with that.");
  ASSERT_FALSE(bool(prose));
  EXPECT_EQ(llvm::toString(prose.takeError()),
            "the reply has no ```mlir block");
  auto other = parseRewriteReply("```mlir\n%x = arith.constant 0 : i32\n```");
  ASSERT_FALSE(bool(other));
  llvm::consumeError(other.takeError());
}

TEST_F(RewriteTest, AppliesATransformScriptToTheParent) {
  auto rewrite = parseRewriteReply(kScriptReply);
  ASSERT_TRUE(bool(rewrite));
  auto module = materializeRewrite(*rewrite, kParent, "k", &context);
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  EXPECT_NE(module->find("scf.for"), std::string::npos) << *module;
  EXPECT_NE(module->find("tensor<2x16xf32>"), std::string::npos) << *module;
}

TEST_F(RewriteTest, ChecksAWholeFunctionAgainstTheKernel) {
  ParsedRewrite rewrite;
  rewrite.kind = RewriteKind::Function;
  rewrite.text = "func.func @other(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>)"
                 " -> tensor<8x4xf32> {\n  %e = tensor.empty() : "
                 "tensor<8x4xf32>\n  return %e : tensor<8x4xf32>\n}\n";
  auto renamed = materializeRewrite(rewrite, kParent, "k", &context);
  ASSERT_TRUE(bool(renamed)) << llvm::toString(renamed.takeError());
  EXPECT_NE(renamed->find("func.func @k("), std::string::npos);

  rewrite.text = "func.func @k(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {\n"
                 "  return %a : tensor<8x16xf32>\n}\n";
  auto wrongType = materializeRewrite(rewrite, kParent, "k", &context);
  ASSERT_FALSE(bool(wrongType));
  EXPECT_NE(
      llvm::toString(wrongType.takeError()).find("differs from the kernel"),
      std::string::npos);

  rewrite.text = "func.func @k(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> "
                 "tensor<8x4xf32> {\n  return %a : tensor<8x4xf32>\n}\n";
  auto invalid = materializeRewrite(rewrite, kParent, "k", &context);
  ASSERT_FALSE(bool(invalid));
  EXPECT_NE(llvm::toString(invalid.takeError()).find("does not parse"),
            std::string::npos);
}

/// A correct parent of the matmul kernel with `diagnosis` as its ke-run JSON.
static NodeView makeParent(size_t index, llvm::StringRef strategy, double speedup,
                    llvm::StringRef diagnosis) {
  NodeView parent;
  parent.index = index;
  parent.strategy = strategy.str();
  parent.status = "correct";
  parent.correct = true;
  parent.speedup = speedup;
  parent.payloadIR = kParent;
  parent.diagnosis = diagnosis.str();
  return parent;
}

/// The proposal context of the matmul kernel on `target`, expanding `parent`.
static ProposalContext makeContext(llvm::StringRef target, const NodeView &parent) {
  ProposalContext context;
  context.kernelName = "k";
  context.target = target.str();
  context.opKinds = "fill,matmul";
  context.signature = "(tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>";
  context.parent = parent;
  NodeView root;
  root.strategy = "(reference)";
  context.trajectory = {root};
  return context;
}

TEST(PromptSynthesizerTest, HoldsTheEvidenceAndMasksMeasurements) {
  ProposalContext context = makeContext(
      "cpu", makeParent(3, "tile 8x32", 2.5,
                        R"({"time_ns": {"median": 1500.0}, "gflops": 12.5,)"
                        R"( "gbps": 3.0, "bound": "compute"})"));

  PromptInputs inputs;
  inputs.context = &context;
  inputs.baseIR = kParent;
  ke::store::KnowledgePassage passage;
  passage.title = "Tiling";
  passage.heading = "Register tiles";
  passage.body = "Keep accumulators in registers.";
  inputs.passages = {passage};
  ke::llm::ChatRequest request = synthesizePrompt(inputs);
  ASSERT_EQ(request.messages.size(), 2u);
  const std::string &user = request.messages[1].content;
  EXPECT_NE(user.find("linalg.matmul"), std::string::npos);
  EXPECT_NE(user.find("1.5 us"), std::string::npos);
  EXPECT_NE(user.find("12.5 GFLOP/s"), std::string::npos);
  EXPECT_NE(user.find("2.5x"), std::string::npos);
  EXPECT_NE(user.find("memory: inherit"), std::string::npos);
  EXPECT_NE(user.find("## Tiling / Register tiles"), std::string::npos);

  // The same decision on another day: other timings, the same replay key.
  context.parent.diagnosis =
      R"({"time_ns": {"median": 1700.0}, "gflops": 11.0,)"
      R"( "gbps": 2.9, "bound": "compute"})";
  context.parent.speedup = 2.2;
  ke::llm::ChatRequest again = synthesizePrompt(inputs);
  EXPECT_NE(again.messages[1].content, user);
  EXPECT_EQ(again.replayKeyText, request.replayKeyText);

  // A small budget drops the knowledge first, never the payload.
  inputs.tokenBudget = 600;
  ke::llm::ChatRequest small = synthesizePrompt(inputs);
  EXPECT_EQ(small.messages[1].content.find("# Knowledge"), std::string::npos);
  EXPECT_NE(small.messages[1].content.find("linalg.matmul"), std::string::npos);
}

TEST(PromptSynthesizerTest, GivesTheGPUProfileOfTheParent) {
  // 1 GFLOP and 1 GB in 1 ms against 10 TFLOP/s and 2 TB/s peaks.
  ProposalContext context = makeContext(
      "nvgpu",
      makeParent(
          2, "block tile 64", 1.5,
          R"({"time_ns": {"median": 1000000.0}, "gflops": 1000.0, "gbps": 1000.0,)"
          R"( "bound": "memory", "peak_gflops": 10000.0, "peak_gbps": 2000.0,)"
          R"( "gpu_code": {"chip": "sm_90", "launches_per_call": 3, "kernels": [)"
          R"({"name": "k_kernel", "registers": 40, "shared_bytes": 4096,)"
          R"( "occupancy": 6, "spill_bytes": 8}]}})"));
  PromptInputs inputs;
  inputs.context = &context;
  inputs.baseIR = kParent;
  const std::string user = synthesizePrompt(inputs).messages[1].content;
  EXPECT_NE(user.find("bound: memory (10% of the measured FLOP/s peak, 50% of "
                      "the measured bandwidth)"),
            std::string::npos)
      << user;
  EXPECT_NE(user.find("kernel launches per call: 3"), std::string::npos);
  EXPECT_NE(user.find("k_kernel=40/4096/6/8"), std::string::npos);
}
