//===- PrepareForLowering.h - a kernel copy ready for a pipeline -*- C++ -*-===//

#ifndef KE_EVAL_PREPAREFORLOWERING_H
#define KE_EVAL_PREPAREFORLOWERING_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace ke::eval {

/// Readies a copy of a kernel for a lowering pipeline: ke's attributes
/// mean nothing there and are dropped (but the GPU schedule knob
/// `ke.gpu_block_tile`, which the GPU pipelines read), and tensor
/// arguments are marked read-only (the kernel may not write its inputs).
void prepareForLowering(mlir::func::FuncOp copy);

/// A copy of `function` as the first op of a new module, with a copy of
/// every symbol it references (helper functions it calls, memref globals it
/// reads), transitively, from the symbol tables around it: what a pipeline
/// needs to lower the kernel on its own. Sets `module`; returns the copy.
mlir::func::FuncOp cloneIntoNewModule(mlir::func::FuncOp function,
                                      mlir::OwningOpRef<mlir::ModuleOp> &module);

} // namespace ke::eval

#endif // KE_EVAL_PREPAREFORLOWERING_H
