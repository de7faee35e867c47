//===- ScheduleDetail.h - what the schedule's files share -------*- C++ -*-===//
//
// Private to lib/Propose: the attribute that tags a payload's linalg ops with
// their schedule entry (set by applySchedule, matched by the rendered
// script), and the printing of sizes as schedules and scripts write them.
//
//===----------------------------------------------------------------------===//

#ifndef KE_LIB_PROPOSE_SCHEDULEDETAIL_H
#define KE_LIB_PROPOSE_SCHEDULEDETAIL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace ke::propose::detail {

inline constexpr llvm::StringLiteral kOpIdAttr = "ke.op_id";

/// "64,128,0": sizes separated by commas.
std::string joinSizes(llvm::ArrayRef<int64_t> sizes);

} // namespace ke::propose::detail

namespace ke::propose {
struct OpSchedule;
struct OpShape;
} // namespace ke::propose

namespace ke::propose::detail {

/// The transform ops that apply one op's entry to `handle` (a
/// !transform.any_op of that op): cache tiling (on threads for `p`), split
/// reduction, register tiling, vectorization and unrolling. Names it defines
/// end in `index`. `shape` may be null (no contraction or convolution
/// specifics then).
void renderOpSteps(llvm::raw_ostream &os, const OpSchedule &op,
                   const OpShape *shape, llvm::StringRef handle, int64_t index);

/// The cleanup after every op's steps, on the function handle `func`:
/// contractions lowered to FMAs, loop-invariant subsets hoisted, folding.
void renderFunctionCleanup(llvm::raw_ostream &os, llvm::StringRef func);

} // namespace ke::propose::detail

#endif // KE_LIB_PROPOSE_SCHEDULEDETAIL_H
