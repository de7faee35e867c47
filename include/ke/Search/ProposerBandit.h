//===- ProposerBandit.h - which proposer expands next -----------*- C++ -*-===//
//
// With several proposers (proposer=mixed: the transform library and the
// LLM), each expansion is given to one of them, chosen by UCB1 over the
// rewards their expansions earned (the best normalized speedup among the
// children, 0 when none was correct).
//
//===----------------------------------------------------------------------===//

#ifndef KE_SEARCH_PROPOSERBANDIT_H
#define KE_SEARCH_PROPOSERBANDIT_H

#include <cstddef>
#include <vector>

namespace ke::search {

class ProposerBandit {
public:
  explicit ProposerBandit(size_t arms)
      : pulls(arms, 0), rewards(arms, 0.0), retired(arms, false) {}
  /// An arm never tried first (in order), then the highest UCB1 score;
  /// retired arms are never chosen.
  size_t select(double exploration) const;
  /// An arm with nothing more to propose.
  void retire(size_t arm) { retired[arm] = true; }
  bool hasActiveArm() const {
    for (bool done : retired)
      if (!done)
        return true;
    return false;
  }
  void record(size_t arm, double reward);
  size_t getPulls(size_t arm) const { return pulls[arm]; }
  double getMeanReward(size_t arm) const {
    return pulls[arm] ? rewards[arm] / pulls[arm] : 0.0;
  }

private:
  std::vector<size_t> pulls;
  std::vector<double> rewards;
  std::vector<bool> retired;
};

} // namespace ke::search

#endif // KE_SEARCH_PROPOSERBANDIT_H
