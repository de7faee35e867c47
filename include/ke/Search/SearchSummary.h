//===- SearchSummary.h - what a search reports as it goes -------*- C++ -*-===//
//
// The per-kernel counts ke-evolve prints as progress lines while it runs and
// as one table row per kernel when it ends.
//
//===----------------------------------------------------------------------===//

#ifndef KE_SEARCH_SEARCHSUMMARY_H
#define KE_SEARCH_SEARCHSUMMARY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace ke::search {

struct KernelSummary {
  std::string name;
  double naiveNs = 0, bestNs = 0, speedup = 1;
  std::optional<double> defaultNs; ///< the floor, when it was measured
  int evaluated = 0, correct = 0, failed = 0, incorrect = 0, duplicates = 0;
  std::string strategy = "(reference)";
  std::string stopReason;
  std::string notes; ///< what the search had to do without

  /// Counts one evaluated node of status `status`.
  void account(llvm::StringRef status);
};

/// One progress line on stderr (rewritten in place on a terminal).
void reportProgress(const KernelSummary &summary, int budget, double best,
                    double elapsedSeconds, bool final);

/// The run's table and the kernels' notes, on stderr.
void printSummaryTable(int64_t run, llvm::StringRef database,
                       llvm::ArrayRef<KernelSummary> summaries);

} // namespace ke::search

#endif // KE_SEARCH_SEARCHSUMMARY_H
