//===- SkillMemory.cpp - skills distilled and used as warm starts ---------===//

#include "ke/Search/SkillMemory.h"

#include "ke/Propose/Schedule.h"
#include "ke/Propose/TransformLibraryProposer.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace ke;

void ke::search::distilSkill(store::Store &database, int64_t run,
                             llvm::StringRef target,
                             const store::NodeRecord &child,
                             const store::NodeRecord &parent, double naiveNs,
                             llvm::StringRef opKinds, llvm::StringRef rewrite,
                             Operation *anchor) {
  double parentNs = parent.timeNs.value_or(naiveNs);
  if (!child.timeNs || *child.timeNs <= 0 || parentNs / *child.timeNs < 1.05)
    return;
  store::SkillRecord skill;
  skill.run = run;
  skill.kernel = child.kernel;
  skill.node = child.id;
  skill.target = target.str();
  skill.opKinds = opKinds.str();
  skill.proposer = child.proposer;
  skill.gain = parentNs / *child.timeNs;
  skill.speedup = child.speedup.value_or(naiveNs / *child.timeNs);
  skill.schedule = child.schedule;
  skill.rewrite = rewrite.str();
  if (!child.schedule.empty())
    skill.change =
        "schedule " +
        (parent.schedule.empty() ? std::string("(none)") : parent.schedule) +
        " -> " + child.schedule;
  else
    skill.change = child.strategy;
  // Losing a skill loses no search result: warn and go on.
  auto id = database.addSkill(skill);
  if (!id)
    anchor->emitWarning()
        << "ke-evolve: " << llvm::toString(id.takeError());
}

void ke::search::addWarmStart(store::Store &database, llvm::StringRef target,
                              propose::TransformLibraryProposer &library,
                              llvm::ArrayRef<propose::OpShape> shapes,
                              llvm::StringRef opKinds, Operation *anchor) {
  auto found = database.findSkills(target, opKinds, 64);
  if (!found) {
    anchor->emitWarning()
        << "ke-evolve: " << llvm::toString(found.takeError());
    return;
  }
  std::vector<store::SkillRecord> candidates;
  for (store::SkillRecord &skill : *found)
    if (skill.opKinds == opKinds && !skill.schedule.empty())
      candidates.push_back(std::move(skill));
  llvm::stable_sort(candidates, [](const auto &a, const auto &b) {
    return a.speedup > b.speedup;
  });
  llvm::StringSet<> used;
  unsigned added = 0;
  for (const store::SkillRecord &skill : candidates) {
    if (added == 3)
      break;
    if (!used.insert(skill.schedule).second)
      continue;
    llvm::Expected<propose::Schedule> schedule =
        propose::Schedule::parse(skill.schedule);
    if (!schedule) {
      llvm::consumeError(schedule.takeError());
      continue;
    }
    // Learnt on another shape: it must fit this one.
    if (llvm::Error error = propose::verifySchedule(*schedule, shapes)) {
      llvm::consumeError(std::move(error));
      continue;
    }
    library.addWarmStart(
        *schedule, llvm::formatv("skill {0}, {1:f1}x on run {2}", skill.id,
                                 skill.speedup, skill.run.value_or(0))
                       .str());
    ++added;
  }
}
