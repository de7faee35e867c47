//===- Passes.h - transforms of the ke dialect ------------------*- C++ -*-===//

#ifndef KE_TRANSFORMS_PASSES_H
#define KE_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace ke {

#define GEN_PASS_DECL
#include "ke/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ke/Transforms/Passes.h.inc"

} // namespace ke

#endif // KE_TRANSFORMS_PASSES_H
