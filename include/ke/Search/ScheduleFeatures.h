//===- ScheduleFeatures.h - what predicts a schedule's speed ----*- C++ -*-===//
//
// A fixed-length description of a schedule on a kernel's ops, for the cost
// model: how much of the work is vectorized and threaded, register-tile and
// vector sizes, the vector registers the tile keeps live (and so spills),
// cache-tile footprints against the host's L1 and L2, strided vector
// accesses, unrolling, reduction splits, fusion and fast math. Each op's
// features are weighted by its share of the kernel's iterations.
//
//===----------------------------------------------------------------------===//

#ifndef KE_SEARCH_SCHEDULEFEATURES_H
#define KE_SEARCH_SCHEDULEFEATURES_H

#include "ke/Propose/Schedule.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <array>

namespace ke::search {

/// Data-cache sizes in bytes (the host's, where it says them).
struct CacheSizes {
  double l1 = 32 * 1024;
  double l2 = 1024 * 1024;
  /// The host's sizes (sysconf), these defaults where it does not say.
  static CacheSizes detect();
};

inline constexpr size_t kNumScheduleFeatures = 18;
using ScheduleFeatures = std::array<double, kNumScheduleFeatures>;

/// Names of the features, in order (for reports and tests).
llvm::ArrayRef<llvm::StringLiteral> getScheduleFeatureNames();

/// The features of `schedule` on `shapes`; `threads` is what a parallel
/// loop may use.
ScheduleFeatures extractScheduleFeatures(const propose::Schedule &schedule,
                                         llvm::ArrayRef<propose::OpShape> shapes,
                                         unsigned threads,
                                         const CacheSizes &caches);

} // namespace ke::search

#endif // KE_SEARCH_SCHEDULEFEATURES_H
