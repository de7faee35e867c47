//===- WorkEstimate.h - FLOPs and bytes of a kernel, from its IR -*- C++
//-*-===//

#ifndef KE_EVAL_WORKESTIMATE_H
#define KE_EVAL_WORKESTIMATE_H

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace ke::eval {

struct WorkEstimate {
  /// Arithmetic operations: each arith/math op in a linalg body counts once
  /// per iteration of the op's loop nest (a mul and an add are 2 FLOPs);
  /// elementwise arith/math ops on whole tensors count once per element.
  /// Casts, constants, index computations and yields are free. A
  /// convolution over an input spread by strides into zeros (a transposed
  /// convolution as front ends write it) counts only the share of its
  /// iterations that read the spread source (the zeros of its padding
  /// discounted too); an input padded with stride 1 counts in full.
  double flops = 0.0;
  /// Compulsory memory traffic: the bytes of every argument and result,
  /// each moved once.
  double bytes = 0.0;
};

/// The work of `function`'s computation; a function with `ke.work` (a
/// scheduled search output) gives its reference's instead.
WorkEstimate estimateWork(mlir::func::FuncOp function);

} // namespace ke::eval

#endif // KE_EVAL_WORKESTIMATE_H
