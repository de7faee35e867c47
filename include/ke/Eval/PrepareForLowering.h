//===- PrepareForLowering.h - a kernel copy ready for a pipeline -*- C++ -*-===//

#ifndef KE_EVAL_PREPAREFORLOWERING_H
#define KE_EVAL_PREPAREFORLOWERING_H

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace ke::eval {

/// Readies a copy of a kernel for a lowering pipeline: ke's attributes
/// mean nothing there and are dropped (but the GPU schedule knob
/// `ke.gpu_block_tile`, which the GPU pipelines read), and tensor
/// arguments are marked read-only (the kernel may not write its inputs).
void prepareForLowering(mlir::func::FuncOp copy);

} // namespace ke::eval

#endif // KE_EVAL_PREPAREFORLOWERING_H
