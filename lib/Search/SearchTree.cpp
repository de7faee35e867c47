//===- SearchTree.cpp - UCB over the candidate tree -----------------------===//

#include "ke/Search/SearchTree.h"

#include <cmath>

using namespace ke::search;

SearchTree::SearchTree() {
  TreeNode root;
  root.speedup = 1.0;
  root.expandable = true;
  root.subtreeSpeedup = 1.0;
  root.subtreeSize = 1;
  nodes.push_back(root);
}

size_t SearchTree::addChild(size_t parent, double speedup, bool expandable) {
  TreeNode node;
  node.parent = parent;
  node.speedup = speedup;
  node.expandable = expandable;
  size_t index = nodes.size();
  nodes.push_back(node);
  nodes[parent].children.push_back(index);
  // Back the reward up to the root.
  for (std::optional<size_t> at = index; at; at = nodes[*at].parent) {
    nodes[*at].subtreeSpeedup += speedup;
    nodes[*at].subtreeSize += 1;
  }
  if (expandable && speedup > bestSpeedup) {
    bestSpeedup = speedup;
    bestNode = index;
  }
  return index;
}

double SearchTree::getScore(size_t index, double exploration) const {
  const TreeNode &node = nodes[index];
  double mean = node.subtreeSpeedup / std::max(1, node.subtreeSize);
  double exploit = mean / bestSpeedup;
  double explore = exploration * std::sqrt(std::log(totalExpansions + 1.0) /
                                           (node.expansions + 1.0));
  return exploit + explore;
}

size_t SearchTree::selectForExpansion(double exploration) const {
  size_t best = 0;
  double bestScore = -1.0;
  for (size_t index = 0; index < nodes.size(); ++index) {
    if (!nodes[index].expandable)
      continue;
    double score = getScore(index, exploration);
    if (score > bestScore) {
      bestScore = score;
      best = index;
    }
  }
  return best;
}

void SearchTree::noteExpansion(size_t index) {
  ++nodes[index].expansions;
  ++totalExpansions;
}

void TerminationTracker::noteExpansion(bool improvedBest) {
  expansionsWithoutGain = improvedBest ? 0 : expansionsWithoutGain + 1;
}

std::optional<std::string> TerminationTracker::check(int evaluated,
                                                     double elapsedSeconds,
                                                     double bestSpeedup) const {
  if (rules.budget > 0 && evaluated >= rules.budget)
    return "budget of " + std::to_string(rules.budget) + " candidates spent";
  if (rules.timeLimitSeconds > 0 && elapsedSeconds >= rules.timeLimitSeconds)
    return "time limit reached";
  if (rules.targetSpeedup > 0 && bestSpeedup >= rules.targetSpeedup)
    return "target speedup reached";
  if (rules.stall > 0 && expansionsWithoutGain >= rules.stall)
    return "no gain in " + std::to_string(rules.stall) + " expansions";
  return std::nullopt;
}
