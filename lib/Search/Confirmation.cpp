//===- Confirmation.cpp - choosing the output by re-timing ----------------===//

#include "ke/Search/Confirmation.h"

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
  };
  for (size_t i = 0; i < paths.size(); ++i)
    timeOne(i);
  for (size_t i = paths.size(); i-- > 0;)
    timeOne(i);
  return times;
}

std::optional<size_t>
ke::search::findFastest(llvm::ArrayRef<ConfirmedTime> times) {
  std::optional<size_t> fastest;
  for (size_t i = 0; i < times.size(); ++i)
    if (times[i].timeNs &&
        (!fastest || *times[i].timeNs < *times[*fastest].timeNs))
      fastest = i;
  return fastest;
}
