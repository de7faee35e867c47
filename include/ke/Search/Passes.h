//===- Passes.h - passes of the ke search -----------------------*- C++ -*-===//

#ifndef KE_SEARCH_PASSES_H
#define KE_SEARCH_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class ModuleOp;
namespace func {
class FuncOp;
} // namespace func
namespace arith {
class ArithDialect;
} // namespace arith
namespace math {
class MathDialect;
} // namespace math
namespace linalg {
class LinalgDialect;
} // namespace linalg
namespace scf {
class SCFDialect;
} // namespace scf
namespace tensor {
class TensorDialect;
} // namespace tensor
namespace transform {
class TransformDialect;
} // namespace transform
namespace vector {
class VectorDialect;
} // namespace vector
} // namespace mlir

namespace ke {
class KeDialect;

#define GEN_PASS_DECL
#include "ke/Search/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ke/Search/Passes.h.inc"

} // namespace ke

#endif // KE_SEARCH_PASSES_H
