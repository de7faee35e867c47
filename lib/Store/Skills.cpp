//===- Skills.cpp - the self-evolving skill library -----------------------===//

#include "Statement.h"
#include "ke/Store/Store.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace ke::store;
using detail::Statement;

llvm::Expected<int64_t> Store::addSkill(const SkillRecord &skill) {
  Statement insert(
      database, "INSERT INTO skills(run, kernel, node, target, op_kinds, "
                "proposer, change, schedule, rewrite, gain, speedup, created) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)");
  insert.bind(1, skill.run);
  insert.bind(2, skill.kernel);
  insert.bind(3, skill.node);
  insert.bind(4, skill.target);
  insert.bind(5, skill.opKinds);
  insert.bind(6, skill.proposer);
  insert.bind(7, skill.change);
  insert.bind(8, skill.schedule);
  insert.bind(9, skill.rewrite);
  insert.bind(10, skill.gain);
  insert.bind(11, skill.speedup);
  insert.bind(12, skill.created > 0 ? skill.created : detail::now());
  if (!insert.ok() || insert.step() != SQLITE_DONE)
    return fail("cannot record a skill");
  return sqlite3_last_insert_rowid(database);
}

namespace {
constexpr const char *kSkillColumns =
    "id, run, kernel, node, target, op_kinds, proposer, change, schedule, "
    "rewrite, gain, speedup, created";

SkillRecord readSkill(Statement &select) {
  SkillRecord skill;
  skill.id = select.getInt(0);
  if (!select.isNull(1))
    skill.run = select.getInt(1);
  if (!select.isNull(2))
    skill.kernel = select.getInt(2);
  if (!select.isNull(3))
    skill.node = select.getInt(3);
  skill.target = select.getText(4);
  skill.opKinds = select.getText(5);
  skill.proposer = select.getText(6);
  skill.change = select.getText(7);
  skill.schedule = select.getText(8);
  skill.rewrite = select.getText(9);
  skill.gain = select.getDouble(10);
  skill.speedup = select.getDouble(11);
  skill.created = select.getDouble(12);
  return skill;
}
} // namespace

llvm::Expected<std::vector<SkillRecord>> Store::loadSkills() {
  Statement select(database, std::string("SELECT ") + kSkillColumns +
                                 " FROM skills ORDER BY gain DESC, id");
  if (!select.ok())
    return fail("cannot read skills");
  std::vector<SkillRecord> skills;
  int status;
  while ((status = select.step()) == SQLITE_ROW)
    skills.push_back(readSkill(select));
  if (status != SQLITE_DONE)
    return fail("cannot read skills");
  return skills;
}

llvm::Expected<std::vector<SkillRecord>>
Store::findSkills(llvm::StringRef target, llvm::StringRef opKinds,
                  size_t limit) {
  Statement select(database, std::string("SELECT ") + kSkillColumns +
                                 " FROM skills WHERE target = ? ORDER BY "
                                 "gain DESC, id");
  select.bind(1, target);
  if (!select.ok())
    return fail("cannot read skills");
  llvm::SmallVector<llvm::StringRef> wanted;
  opKinds.split(wanted, ',', -1, /*KeepEmpty=*/false);
  std::vector<SkillRecord> exact, related;
  int status;
  while ((status = select.step()) == SQLITE_ROW) {
    SkillRecord skill = readSkill(select);
    if (skill.opKinds == opKinds) {
      exact.push_back(std::move(skill));
      continue;
    }
    llvm::SmallVector<llvm::StringRef> kinds;
    llvm::StringRef(skill.opKinds).split(kinds, ',', -1, false);
    bool shares = llvm::any_of(kinds, [&](llvm::StringRef kind) {
      return kind != "fill" && llvm::is_contained(wanted, kind);
    });
    if (shares)
      related.push_back(std::move(skill));
  }
  if (status != SQLITE_DONE)
    return fail("cannot read skills");
  for (SkillRecord &skill : related)
    exact.push_back(std::move(skill));
  if (exact.size() > limit)
    exact.resize(limit);
  return exact;
}
