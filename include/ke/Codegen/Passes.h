//===- Passes.h - ke code generation passes ---------------------*- C++ -*-===//

#ifndef KE_CODEGEN_PASSES_H
#define KE_CODEGEN_PASSES_H

#include "ke/Codegen/GPUSchedule.h"
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
#include "ke/Codegen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ke/Codegen/Passes.h.inc"

} // namespace ke

#endif // KE_CODEGEN_PASSES_H
