//===- CostModel.h - ranking schedules before measuring them ----*- C++ -*-===//
//
// Ridge regression from schedule features to the log of the measured
// speedup, trained online on the search's own measurements. Features and
// speedups are centred per kernel, so the model ranks schedules of one
// kernel and its weights carry over between kernels: they are kept per
// target in the database and act as the prior of the next search (the fit is
// pulled towards them, not towards zero). With it, an expansion draws a pool
// of library proposals and measures only the best-predicted few, plus a share
// drawn at random so the model keeps seeing what it would not pick.
//
//===----------------------------------------------------------------------===//

#ifndef KE_SEARCH_COSTMODEL_H
#define KE_SEARCH_COSTMODEL_H

#include "ke/Search/ScheduleFeatures.h"

#include "llvm/Support/Error.h"

#include <random>
#include <string>
#include <vector>

namespace ke::search {

class CostModel {
public:
  /// `ridge`: how strongly the fit is pulled towards the prior.
  explicit CostModel(double ridge = 4.0) : ridge(ridge) { weights.fill(0.0); }

  /// Weights learnt before (on other kernels of the target).
  void setPrior(const ScheduleFeatures &prior);
  /// One measured schedule of this kernel.
  void addSample(const ScheduleFeatures &features, double logSpeedup);
  size_t getNumSamples() const { return samples.size(); }
  /// Whether the model has seen enough of this kernel to rank: `minimum`
  /// samples, or a prior and half as many.
  bool canRank(size_t minimum = 6) const;
  /// Predicted log speedup, up to a per-kernel constant.
  double predict(const ScheduleFeatures &features) const;
  const ScheduleFeatures &getWeights() const { return weights; }

  /// Of `pool` (predicted scores), the indices to measure: `count` of them,
  /// the best predicted first, each slot given instead to a random unchosen
  /// one with probability `exploration`.
  static std::vector<size_t> select(llvm::ArrayRef<double> scores,
                                    size_t count, double exploration,
                                    std::mt19937_64 &generator);

  /// Kendall's tau between predictions and outcomes (1: same order, -1:
  /// reversed, 0: unrelated); 0 for fewer than two pairs.
  static double rankAgreement(llvm::ArrayRef<std::pair<double, double>> pairs);

  /// The weights as JSON (for the database) and back.
  std::string serialize() const;
  static llvm::Expected<ScheduleFeatures> parseWeights(llvm::StringRef json);

private:
  void refit();
  double ridge;
  bool hasPrior = false;
  ScheduleFeatures prior{}, weights;
  std::vector<std::pair<ScheduleFeatures, double>> samples;
};

} // namespace ke::search

#endif // KE_SEARCH_COSTMODEL_H
