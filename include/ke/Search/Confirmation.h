//===- Confirmation.h - choosing the output by re-timing --------*- C++ -*-===//
//
// During a search, the floor (ke's default lowering) and each candidate are
// timed minutes apart on a machine whose load changes, so the fastest as
// measured is not always the fastest. Before the output is chosen, the
// contenders (the floor and the best few correct nodes) are timed again back
// to back, one at a time, in three rounds of alternating order, and checked
// again against the reference. A node replaces the floor only if it beats it
// in every round by a margin: programs within the machine's noise of each
// other (the default lowering's variants often are) would otherwise be
// chosen by that noise, half the time slower.
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
  std::string problem;         ///< why not, when not
  std::vector<double> roundNs; ///< each round's time, while correct
};

/// Rounds of re-timing, in alternating order.
inline constexpr int kConfirmationRounds = 3;
/// How much faster than the floor a node must be in every round.
inline constexpr double kConfirmationMargin = 0.03;

/// Re-times the candidates at `paths` (one at a time, kConfirmationRounds
/// rounds in alternating order) against the reference.
std::vector<ConfirmedTime> retimeBackToBack(eval::Evaluator &evaluator,
                                            llvm::ArrayRef<std::string> paths,
                                            llvm::StringRef referencePath,
                                            llvm::StringRef kernelName);

/// The output: the fastest confirmed contender that beats `floor` (an index
/// of `times`) in every round by kConfirmationMargin, else the floor; with
/// no floor, or one that failed, the fastest. None when none was confirmed.
std::optional<size_t> chooseConfirmed(llvm::ArrayRef<ConfirmedTime> times,
                                      std::optional<size_t> floor);

} // namespace ke::search

#endif // KE_SEARCH_CONFIRMATION_H
