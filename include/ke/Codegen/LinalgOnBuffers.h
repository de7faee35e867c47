//===- LinalgOnBuffers.h - helpers of the GPU rewrites of linalg ops -*- C++
//-*-===//
//
// What the GPU passes that replace linalg ops on buffers by launches share.
//
//===----------------------------------------------------------------------===//

#ifndef KE_CODEGEN_LINALGONBUFFERS_H
#define KE_CODEGEN_LINALGONBUFFERS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

namespace ke::detail {

/// The buffer `view` is a view of, through any chain of view-like ops
/// (`view` itself when it is none): two buffers with different roots do
/// not alias.
mlir::Value getRootBuffer(mlir::Value view);

/// The linalg.fill of `op`'s output number `init` right before it: same
/// buffer, same block, no use of the buffer in between and no views of it
/// (which could alias). A rewrite may start from its value and erase it.
mlir::linalg::FillOp findInitializingFill(mlir::linalg::LinalgOp op,
                                          unsigned init = 0);

/// The linalg.broadcast into `op`'s output number `init` right before it,
/// under the same conditions as findInitializingFill: a transposed
/// convolution's phase starts from its bias this way. A rewrite may start
/// from the broadcast's input and erase it.
mlir::linalg::BroadcastOp findInitializingBroadcast(mlir::linalg::LinalgOp op,
                                                    unsigned init = 0);

/// The indices `map` gives at `ivs`: the iv itself for a plain loop, an
/// affine.apply otherwise.
llvm::SmallVector<mlir::Value> applyMap(mlir::OpBuilder &builder,
                                        mlir::Location loc, mlir::AffineMap map,
                                        mlir::ValueRange ivs);

/// The indices of `shape` (row-major) that the flat index `linear` stands
/// for (`linear` itself for one dimension).
llvm::SmallVector<mlir::Value> delinearize(mlir::OpBuilder &builder,
                                           mlir::Location loc,
                                           mlir::Value linear,
                                           llvm::ArrayRef<int64_t> shape);

} // namespace ke::detail

#endif // KE_CODEGEN_LINALGONBUFFERS_H
