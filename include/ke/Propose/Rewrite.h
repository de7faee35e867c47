//===- Rewrite.h - what a model's reply turns into --------------*- C++ -*-===//
//
// A reply holds fenced ```mlir blocks. One of them is the rewrite: either a
// transform script (a module with transform.named_sequence
// @__transform_main) applied to the parent's payload, or a whole new
// func.func with the kernel's name and signature replacing the payload.
//
//===----------------------------------------------------------------------===//

#ifndef KE_PROPOSE_REWRITE_H
#define KE_PROPOSE_REWRITE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace ke::propose {

struct FencedBlock {
  std::string language; ///< what follows the opening fence ("mlir", "")
  std::string text;
};

/// The fenced code blocks of a markdown reply, in order.
std::vector<FencedBlock> extractFencedBlocks(llvm::StringRef reply);

enum class RewriteKind { TransformScript, Function };

struct ParsedRewrite {
  RewriteKind kind = RewriteKind::Function;
  std::string text;        ///< the block's IR
  std::string explanation; ///< the reply's prose before the block, short
};

/// Finds the rewrite in a reply: the first ```mlir (or unlabelled) block
/// holding a transform entry point or a func.func.
llvm::Expected<ParsedRewrite> parseRewriteReply(llvm::StringRef reply);

/// Applies the rewrite to the parent's module (one func named
/// `kernelName`) and returns the new module's text: the script run by the
/// transform interpreter, or the new function checked against the parent's
/// signature. Errors carry MLIR's diagnostics (they go back to the model).
llvm::Expected<std::string> materializeRewrite(const ParsedRewrite &rewrite,
                                               llvm::StringRef parentModule,
                                               llvm::StringRef kernelName,
                                               mlir::MLIRContext *context);

/// Runs a transform script (text with @__transform_main) on `function`.
llvm::Error applyTransformScript(mlir::func::FuncOp function,
                                 llvm::StringRef script);

} // namespace ke::propose

#endif // KE_PROPOSE_REWRITE_H
