//===- Confirmation.h - choosing the output by re-timing --------*- C++ -*-===//
//
// During a search, the floor (ke's default lowering) and each candidate are
// timed minutes apart on a machine whose load changes, so the fastest as
// measured is not always the fastest. Before the output is chosen, the
// contenders (the floor and the best few correct nodes) are timed again back
// to back, one at a time, twice in opposite orders, and checked again
// against the reference; the output is the fastest of those times.
//
//===----------------------------------------------------------------------===//

#ifndef KE_SEARCH_CONFIRMATION_H
#define KE_SEARCH_CONFIRMATION_H

#include "ke/Eval/Evaluator.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace ke::search {

struct ConfirmedTime {
  /// The faster of the two re-timings (ns); none when either was not
  /// correct.
  std::optional<double> timeNs;
  std::string problem; ///< why not, when not
};

/// Re-times the candidates at `paths` (one at a time, in order and then in
/// reverse order) against the reference.
std::vector<ConfirmedTime> retimeBackToBack(eval::Evaluator &evaluator,
                                            llvm::ArrayRef<std::string> paths,
                                            llvm::StringRef referencePath,
                                            llvm::StringRef kernelName);

/// The index of the fastest confirmed time; none when none was confirmed.
std::optional<size_t> findFastest(llvm::ArrayRef<ConfirmedTime> times);

} // namespace ke::search

#endif // KE_SEARCH_CONFIRMATION_H
