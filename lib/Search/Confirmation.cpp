//===- Confirmation.cpp - choosing the output by re-timing ----------------===//

#include "ke/Search/Confirmation.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace ke;
using namespace ke::search;

std::vector<ConfirmedTime>
ke::search::retimeBackToBack(eval::Evaluator &evaluator,
                             llvm::ArrayRef<std::string> paths,
                             llvm::StringRef referencePath,
                             llvm::StringRef kernelName) {
  std::vector<ConfirmedTime> times(paths.size());
  std::vector<bool> failed(paths.size(), false);
  auto timeOne = [&](size_t i) {
    if (failed[i])
      return;
    eval::EvaluationRequest request{paths[i], referencePath.str(),
                                    kernelName.str(), /*naive=*/true};
    // One at a time: candidates timed side by side slow each other down.
    eval::EvaluationResult result = evaluator.evaluate(request).front();
    if (result.status != "correct" || !result.timeNs) {
      failed[i] = true;
      times[i].timeNs.reset();
      times[i].problem = result.status + (result.error.empty()
                                              ? std::string()
                                              : ": " + result.error);
      return;
    }
    times[i].timeNs = times[i].timeNs
                          ? std::min(*times[i].timeNs, *result.timeNs)
                          : *result.timeNs;
    times[i].roundNs.push_back(*result.timeNs);
  };
  for (int round = 0; round < kConfirmationRounds; ++round) {
    if (round % 2 == 0)
      for (size_t i = 0; i < paths.size(); ++i)
        timeOne(i);
    else
      for (size_t i = paths.size(); i-- > 0;)
        timeOne(i);
  }
  return times;
}

std::optional<size_t>
ke::search::chooseConfirmed(llvm::ArrayRef<ConfirmedTime> times,
                            std::optional<size_t> floor) {
  bool floorConfirmed = floor && times[*floor].timeNs;
  auto beatsFloor = [&](const ConfirmedTime &time) {
    const std::vector<double> &mine = time.roundNs,
                              &its = times[*floor].roundNs;
    if (mine.size() != its.size())
      return false;
    for (auto [node, baseline] : llvm::zip_equal(mine, its))
      if (node >= baseline * (1.0 - kConfirmationMargin))
        return false;
    return true;
  };
  std::optional<size_t> chosen = floorConfirmed ? floor : std::nullopt;
  for (size_t i = 0; i < times.size(); ++i) {
    if (!times[i].timeNs || (floorConfirmed && i == *floor))
      continue;
    if (floorConfirmed && !beatsFloor(times[i]))
      continue;
    if (!chosen || chosen == floor || *times[i].timeNs < *times[*chosen].timeNs)
      chosen = i;
  }
  return chosen;
}
