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

#include <cstdint>
#include <string>

namespace ke::propose::detail {

inline constexpr llvm::StringLiteral kOpIdAttr = "ke.op_id";

/// "64,128,0": sizes separated by commas.
std::string joinSizes(llvm::ArrayRef<int64_t> sizes);

} // namespace ke::propose::detail

#endif // KE_LIB_PROPOSE_SCHEDULEDETAIL_H
