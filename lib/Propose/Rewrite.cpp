//===- Rewrite.cpp - from a model's reply to a candidate ------------------===//

#include "ke/Propose/Rewrite.h"
#include "ke/Support/DiagnosticCollector.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace ke::propose;

std::vector<FencedBlock>
ke::propose::extractFencedBlocks(llvm::StringRef reply) {
  std::vector<FencedBlock> blocks;
  llvm::SmallVector<llvm::StringRef> lines;
  reply.split(lines, '\n');
  std::optional<FencedBlock> open;
  for (llvm::StringRef line : lines) {
    llvm::StringRef trimmed = line.trim();
    if (trimmed.starts_with("```")) {
      if (open) {
        blocks.push_back(std::move(*open));
        open.reset();
      } else {
        open = FencedBlock();
        open->language = trimmed.drop_front(3).trim().lower();
      }
      continue;
    }
    if (open)
      open->text += line.rtrim("\r").str() + "\n";
  }
  // An unclosed fence (a reply cut by max_tokens) is still shown to the
  // parser: the error it gives is the useful message.
  if (open)
    blocks.push_back(std::move(*open));
  return blocks;
}

llvm::Expected<ParsedRewrite>
ke::propose::parseRewriteReply(llvm::StringRef reply) {
  std::vector<FencedBlock> blocks = extractFencedBlocks(reply);
  for (const FencedBlock &block : blocks) {
    if (!block.language.empty() && block.language != "mlir")
      continue;
    llvm::StringRef text = block.text;
    ParsedRewrite rewrite;
    if (text.contains("transform.named_sequence"))
      rewrite.kind = RewriteKind::TransformScript;
    else if (text.contains("func.func"))
      rewrite.kind = RewriteKind::Function;
    else
      continue;
    rewrite.text = block.text;
    llvm::StringRef prose = reply.split("```").first.trim();
    prose = prose.split('\n').first.trim();
    rewrite.explanation = prose.take_front(160).str();
    return rewrite;
  }
  return llvm::createStringError(
      blocks.empty()
          ? "the reply has no ```mlir block"
          : "no ```mlir block of the reply holds a transform script "
            "(transform.named_sequence @__transform_main) or a func.func");
}

llvm::Error ke::propose::applyTransformScript(func::FuncOp function,
                                              llvm::StringRef script) {
  MLIRContext *context = function.getContext();
  ke::DiagnosticCollector diagnostics(context);
  OwningOpRef<ModuleOp> transforms =
      parseSourceString<ModuleOp>(script, context);
  if (!transforms)
    return llvm::createStringError("cannot parse the transform script: " +
                                   diagnostics.str());
  transform::TransformOpInterface entry =
      transform::detail::findTransformEntryPoint(function, *transforms);
  if (!entry)
    return llvm::createStringError(
        "the transform script has no transform.named_sequence "
        "@__transform_main");
  if (failed(transform::applyTransforms(function, entry, {},
                                        transform::TransformOptions(),
                                        /*enforceToplevelTransformOp=*/false)))
    return llvm::createStringError("the transform script does not apply: " +
                                   diagnostics.str());
  return llvm::Error::success();
}

llvm::Expected<std::string> ke::propose::materializeRewrite(
    const ParsedRewrite &rewrite, llvm::StringRef parentModule,
    llvm::StringRef kernelName, MLIRContext *context) {
  ke::DiagnosticCollector diagnostics(context);
  OwningOpRef<ModuleOp> parent =
      parseSourceString<ModuleOp>(parentModule, context);
  if (!parent)
    return llvm::createStringError("internal: the parent does not parse: " +
                                   diagnostics.str());
  auto parentFunction = parent->lookupSymbol<func::FuncOp>(kernelName);
  if (!parentFunction)
    return llvm::createStringError("internal: the parent has no @" +
                                   kernelName.str());
  std::string text;
  llvm::raw_string_ostream os(text);

  if (rewrite.kind == RewriteKind::TransformScript) {
    if (llvm::Error error = applyTransformScript(parentFunction, rewrite.text))
      return std::move(error);
    if (failed(verify(*parent)))
      return llvm::createStringError(
          "the payload does not verify after the transform script: " +
          diagnostics.str());
    parent->print(os);
    return text;
  }

  OwningOpRef<ModuleOp> proposed =
      parseSourceString<ModuleOp>(rewrite.text, context);
  if (!proposed)
    return llvm::createStringError("the function does not parse: " +
                                   diagnostics.str());
  auto functions = llvm::to_vector(proposed->getOps<func::FuncOp>());
  size_t others =
      std::distance(proposed->getBody()->begin(), proposed->getBody()->end()) -
      functions.size();
  if (functions.size() != 1 || others != 0)
    return llvm::createStringError(
        "the rewrite must be exactly one func.func (no helper functions or "
        "other top-level ops)");
  func::FuncOp function = functions.front();
  if (function.getFunctionType() != parentFunction.getFunctionType()) {
    std::string expected, got;
    llvm::raw_string_ostream e(expected), g(got);
    e << parentFunction.getFunctionType();
    g << function.getFunctionType();
    return llvm::createStringError("the function's type " + got +
                                   " differs from the kernel's " + expected);
  }
  function.setSymName(kernelName);
  if (failed(verify(*proposed)))
    return llvm::createStringError("the function does not verify: " +
                                   diagnostics.str());
  proposed->print(os);
  return text;
}
