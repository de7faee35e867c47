//===- RationalErf.h - erf as one rational function, no interval selects --===//
//
// Upstream's erf approximation picks the coefficients of three intervals per
// lane (about twenty selects a vector, as many as its arithmetic); GELU
// spends most of its time there. One rational function over the whole range
// needs no selects: about fifteen vector ops and one division.
//
//===----------------------------------------------------------------------===//

#ifndef KE_CODEGEN_RATIONALERF_H
#define KE_CODEGEN_RATIONALERF_H

#include "mlir/IR/PatternMatch.h"

namespace ke {

/// Rewrites f32 `math.erf` (scalar or vector) as x P(x^2) / Q(x^2) on x
/// clamped to [-4, 4] (erf rounds to +-1 beyond), the quotient clamped to
/// [-1, 1], within 3.1e-7 of erf
/// everywhere in f32 arithmetic and exact in its first-order term near 0.
/// NaN stays NaN. Its benefit is above upstream's erf approximation.
void populateRationalErfPattern(mlir::RewritePatternSet &patterns);

} // namespace ke

#endif // KE_CODEGEN_RATIONALERF_H
