//===- PrefixScanChains.h - log-step prefix scans in front-end IR -*- C++ -*-===//
//
// Front ends without a scan op (torch-mlir's linalg-on-tensors) write
// cumsum and cumprod as a log-step (Hillis-Steele) prefix scan: step k
// combines the tensor with itself shifted by 2^k along the scan dimension
// (a tensor.concat of a splat of the combiner's identity and a leading
// tensor.extract_slice). That reads and writes the whole tensor log2(n)
// times. The CPU and the GPU pipelines each replace such chains by a scan
// of their own; this is the match they share.
//
//===----------------------------------------------------------------------===//

#ifndef KE_CODEGEN_PREFIXSCANCHAINS_H
#define KE_CODEGEN_PREFIXSCANCHAINS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallVector.h"

namespace ke {

/// One step of a log-step scan: `result = combine(source, shift(source))`,
/// where shift moves `source` by `shift` along `dim` and fills with the
/// combiner's identity.
struct ScanStep {
  mlir::linalg::GenericOp op;
  mlir::Value source;
  /// The input of `op` that `source` is.
  unsigned sourceInput = 0;
  int64_t dim = 0;
  int64_t shift = 0;
  mlir::Operation *combiner = nullptr;
  /// Whether `source` is the combiner's first operand.
  bool sourceFirst = true;
  mlir::TypedAttr fill;
  mlir::tensor::ConcatOp concat;
  mlir::tensor::ExtractSliceOp slice;
};

/// The complete chains in `function` (shifts 1, 2, 4, ... until twice the
/// last reaches the dimension's length, every intermediate read only by
/// the chain; combiners addf, mulf, float and integer min/max, addi, muli;
/// fills that are the combiner's identity), first step first.
llvm::SmallVector<llvm::SmallVector<ScanStep>>
findPrefixScanChains(mlir::func::FuncOp function);

/// The tensor the chain scans (read again from its first step: an earlier
/// replacement may have changed it).
mlir::Value getScannedTensor(llvm::ArrayRef<ScanStep> chain);

/// `combiner(a, b)` with the chain's operand order and attributes; `a` is
/// the running value, `b` the element.
mlir::Value combineScanValues(mlir::OpBuilder &builder, mlir::Location loc,
                              const ScanStep &step, mlir::Value a,
                              mlir::Value b);

/// Replaces the chain's result by `scan` and erases the chain.
void replaceScanChain(mlir::RewriterBase &rewriter,
                      llvm::ArrayRef<ScanStep> chain, mlir::Value scan);

} // namespace ke

#endif // KE_CODEGEN_PREFIXSCANCHAINS_H
