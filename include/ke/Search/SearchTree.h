//===- SearchTree.h - UCB over the candidate tree ---------------*- C++ -*-===//
//
// The search's bookkeeping, independent of IR: which node to expand next
// (UCB1 over the tree, rewards backed up to the ancestors) and when to stop.
//
//===----------------------------------------------------------------------===//

#ifndef KE_SEARCH_SEARCHTREE_H
#define KE_SEARCH_SEARCHTREE_H

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ke::search {

struct TreeNode {
  std::optional<size_t> parent;
  std::vector<size_t> children;
  /// Speedup over the naive reference; 0 for incorrect or failed nodes.
  double speedup = 0.0;
  /// Only correct nodes are expanded further.
  bool expandable = false;
  /// Sum of the speedups of this node and its descendants, and how many
  /// there are: the node's value is their mean.
  double subtreeSpeedup = 0.0;
  int subtreeSize = 0;
  /// How often the node was picked for expansion.
  int expansions = 0;
};

class SearchTree {
public:
  /// The root is the reference itself, speedup 1.
  SearchTree();

  size_t addChild(size_t parent, double speedup, bool expandable);
  const TreeNode &getNode(size_t index) const { return nodes[index]; }
  size_t size() const { return nodes.size(); }
  double getBestSpeedup() const { return bestSpeedup; }
  size_t getBestNode() const { return bestNode; }

  /// The expandable node with the highest UCB score
  ///   mean subtree speedup / best speedup + c * sqrt(ln(N + 1) / (n + 1)),
  /// N the total number of expansions, n this node's. Exploitation is
  /// normalized by the best speedup so c means the same on every kernel.
  size_t selectForExpansion(double exploration) const;
  double getScore(size_t index, double exploration) const;
  void noteExpansion(size_t index);

private:
  std::vector<TreeNode> nodes;
  int totalExpansions = 0;
  double bestSpeedup = 1.0;
  size_t bestNode = 0;
};

/// When a search stops. Zero or negative limits are off.
struct TerminationRules {
  int budget = 64;             ///< evaluated candidates
  double timeLimitSeconds = 0; ///< wall clock
  int stall = 0;               ///< expansions in a row without a new best
  double targetSpeedup = 0;    ///< stop once reached
};

class TerminationTracker {
public:
  explicit TerminationTracker(TerminationRules rules) : rules(rules) {}
  /// Records one expansion's outcome.
  void noteExpansion(bool improvedBest);
  /// Why the search must stop now, or nothing.
  std::optional<std::string> check(int evaluated, double elapsedSeconds,
                                   double bestSpeedup) const;

private:
  TerminationRules rules;
  int expansionsWithoutGain = 0;
};

} // namespace ke::search

#endif // KE_SEARCH_SEARCHTREE_H
