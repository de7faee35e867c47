//===- CostModel.cpp - ranking schedules before measuring them ------------===//

#include "ke/Search/CostModel.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace ke::search;

void CostModel::setPrior(const ScheduleFeatures &given) {
  prior = given;
  hasPrior = true;
  refit();
}

void CostModel::addSample(const ScheduleFeatures &features,
                          double logSpeedup) {
  if (!std::isfinite(logSpeedup))
    return;
  samples.push_back({features, logSpeedup});
  refit();
}

bool CostModel::canRank(size_t minimum) const {
  return samples.size() >= (hasPrior ? std::max<size_t>(2, minimum / 2)
                                     : minimum);
}

double CostModel::predict(const ScheduleFeatures &features) const {
  double score = 0.0;
  for (size_t i = 0; i < kNumScheduleFeatures; ++i)
    score += weights[i] * features[i];
  return score;
}

void CostModel::refit() {
  constexpr size_t n = kNumScheduleFeatures;
  if (samples.empty()) {
    weights = hasPrior ? prior : ScheduleFeatures{};
    return;
  }
  // Centred: the per-kernel constant drops out.
  ScheduleFeatures mean{};
  double meanTarget = 0.0;
  for (const auto &[x, y] : samples) {
    for (size_t i = 0; i < n; ++i)
      mean[i] += x[i] / samples.size();
    meanTarget += y / samples.size();
  }
  // (X^T X + ridge I) w = X^T y + ridge prior, solved by Gaussian
  // elimination with partial pivoting (n is small).
  std::array<std::array<double, n + 1>, n> system{};
  for (const auto &[x, y] : samples)
    for (size_t i = 0; i < n; ++i) {
      double xi = x[i] - mean[i];
      for (size_t j = 0; j < n; ++j)
        system[i][j] += xi * (x[j] - mean[j]);
      system[i][n] += xi * (y - meanTarget);
    }
  for (size_t i = 0; i < n; ++i) {
    system[i][i] += ridge;
    system[i][n] += ridge * (hasPrior ? prior[i] : 0.0);
  }
  for (size_t column = 0; column < n; ++column) {
    size_t pivot = column;
    for (size_t row = column + 1; row < n; ++row)
      if (std::fabs(system[row][column]) > std::fabs(system[pivot][column]))
        pivot = row;
    std::swap(system[column], system[pivot]);
    double diagonal = system[column][column];
    if (std::fabs(diagonal) < 1e-12)
      continue; // ridge > 0 keeps this from happening
    for (size_t row = 0; row < n; ++row) {
      if (row == column)
        continue;
      double factor = system[row][column] / diagonal;
      for (size_t k = column; k <= n; ++k)
        system[row][k] -= factor * system[column][k];
    }
  }
  for (size_t i = 0; i < n; ++i)
    weights[i] = std::fabs(system[i][i]) < 1e-12 ? 0.0
                                                  : system[i][n] / system[i][i];
}

std::vector<size_t> CostModel::select(llvm::ArrayRef<double> scores,
                                      size_t count, double exploration,
                                      std::mt19937_64 &generator) {
  std::vector<size_t> order(scores.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return scores[a] > scores[b]; });
  count = std::min(count, order.size());
  std::vector<size_t> chosen(order.begin(), order.begin() + count);
  std::vector<size_t> rest(order.begin() + count, order.end());
  std::bernoulli_distribution explore(exploration);
  // The last slots go to exploration first: the best prediction stays.
  for (size_t slot = count; slot-- > 0 && !rest.empty();) {
    if (!explore(generator))
      continue;
    std::uniform_int_distribution<size_t> pick(0, rest.size() - 1);
    size_t at = pick(generator);
    chosen[slot] = rest[at];
    rest.erase(rest.begin() + at);
  }
  return chosen;
}

double CostModel::rankAgreement(
    llvm::ArrayRef<std::pair<double, double>> pairs) {
  if (pairs.size() < 2)
    return 0.0;
  double concordant = 0.0, discordant = 0.0;
  for (size_t i = 0; i < pairs.size(); ++i)
    for (size_t j = i + 1; j < pairs.size(); ++j) {
      double order = (pairs[i].first - pairs[j].first) *
                     (pairs[i].second - pairs[j].second);
      concordant += order > 0;
      discordant += order < 0;
    }
  double total = pairs.size() * (pairs.size() - 1) / 2.0;
  return (concordant - discordant) / total;
}

std::string CostModel::serialize() const {
  llvm::json::Object object;
  for (size_t i = 0; i < kNumScheduleFeatures; ++i)
    object[getScheduleFeatureNames()[i]] = weights[i];
  return llvm::formatv("{0}", llvm::json::Value(std::move(object))).str();
}

llvm::Expected<ScheduleFeatures> CostModel::parseWeights(llvm::StringRef json) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(json);
  if (!parsed)
    return parsed.takeError();
  const llvm::json::Object *object = parsed->getAsObject();
  if (!object)
    return llvm::createStringError("cost model weights: not a JSON object");
  ScheduleFeatures weights{};
  for (size_t i = 0; i < kNumScheduleFeatures; ++i) {
    // A feature the stored model did not know (an older ke) starts at 0.
    if (std::optional<double> value =
            object->getNumber(getScheduleFeatureNames()[i]))
      weights[i] = *value;
  }
  return weights;
}
