//===- Passes.h - ke code generation passes ---------------------*- C++ -*-===//

#ifndef KE_CODEGEN_PASSES_H
#define KE_CODEGEN_PASSES_H

#include "ke/Codegen/GPUSchedule.h"
#include "mlir/Pass/Pass.h"

namespace ke {

#define GEN_PASS_DECL
#include "ke/Codegen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ke/Codegen/Passes.h.inc"

} // namespace ke

#endif // KE_CODEGEN_PASSES_H
