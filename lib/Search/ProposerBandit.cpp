//===- ProposerBandit.cpp - UCB1 over proposers ---------------------------===//

#include "ke/Search/ProposerBandit.h"

#include <cmath>

using namespace ke::search;

size_t ProposerBandit::select(double exploration) const {
  size_t total = 0;
  for (size_t arm = 0; arm < pulls.size(); ++arm) {
    if (retired[arm])
      continue;
    if (pulls[arm] == 0)
      return arm;
    total += pulls[arm];
  }
  size_t best = 0;
  double bestScore = -1.0;
  for (size_t arm = 0; arm < pulls.size(); ++arm) {
    if (retired[arm])
      continue;
    double score = getMeanReward(arm) +
                   exploration * std::sqrt(2.0 * std::log(double(total)) /
                                           double(pulls[arm]));
    if (score > bestScore) {
      bestScore = score;
      best = arm;
    }
  }
  return best;
}

void ProposerBandit::record(size_t arm, double reward) {
  ++pulls[arm];
  rewards[arm] += reward;
}
