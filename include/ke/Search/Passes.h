//===- Passes.h - passes of the ke search -----------------------*- C++ -*-===//

#ifndef KE_SEARCH_PASSES_H
#define KE_SEARCH_PASSES_H

#include "mlir/Pass/Pass.h"

namespace ke {

#define GEN_PASS_DECL
#include "ke/Search/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ke/Search/Passes.h.inc"

} // namespace ke

#endif // KE_SEARCH_PASSES_H
