//===- KnowledgeIndex.cpp - the FTS5 index of the knowledge base ----------===//
//
// Passages (sections of kb/ documents) in an FTS5 table, one document
// replaced at a time in a transaction, so a crash mid-index leaves either
// the old or the new version of a document, never half of one.
//
//===----------------------------------------------------------------------===//

#include "Statement.h"
#include "ke/Store/Store.h"

#include "llvm/ADT/StringSet.h"

using namespace ke::store;
using detail::Statement;

llvm::Expected<std::optional<std::string>>
Store::getIndexedStamp(llvm::StringRef path) {
  Statement select(database, "SELECT stamp FROM kb_files WHERE path = ?");
  select.bind(1, path);
  if (!select.ok())
    return fail("cannot read the knowledge index");
  int status = select.step();
  if (status == SQLITE_ROW)
    return std::optional<std::string>(select.getText(0));
  if (status != SQLITE_DONE)
    return fail("cannot read the knowledge index");
  return std::optional<std::string>();
}

llvm::Error Store::indexDocument(llvm::StringRef path, llvm::StringRef stamp,
                                 llvm::ArrayRef<KnowledgePassage> passages) {
  if (llvm::Error error = execute("BEGIN;"))
    return error;
  auto rollback = [&](llvm::StringRef what) {
    llvm::Error error = fail(what);
    llvm::consumeError(execute("ROLLBACK;"));
    return error;
  };
  {
    Statement remove(database, "DELETE FROM kb_passages WHERE path = ?");
    remove.bind(1, path);
    if (!remove.ok() || remove.step() != SQLITE_DONE)
      return rollback("cannot index '" + path.str() + "'");
  }
  for (const KnowledgePassage &passage : passages) {
    Statement insert(database,
                     "INSERT INTO kb_passages(path, category, targets, tags, "
                     "title, heading, body) VALUES (?,?,?,?,?,?,?)");
    insert.bind(1, path);
    insert.bind(2, passage.category);
    insert.bind(3, passage.targets);
    insert.bind(4, passage.tags);
    insert.bind(5, passage.title);
    insert.bind(6, passage.heading);
    insert.bind(7, passage.body);
    if (!insert.ok() || insert.step() != SQLITE_DONE)
      return rollback("cannot index '" + path.str() + "'");
  }
  {
    Statement upsert(database, "INSERT INTO kb_files(path, stamp) VALUES "
                               "(?, ?) ON CONFLICT(path) DO UPDATE SET "
                               "stamp = excluded.stamp");
    upsert.bind(1, path);
    upsert.bind(2, stamp);
    if (!upsert.ok() || upsert.step() != SQLITE_DONE)
      return rollback("cannot index '" + path.str() + "'");
  }
  return execute("COMMIT;");
}

llvm::Error Store::dropDocumentsExcept(llvm::StringRef root,
                                       llvm::ArrayRef<std::string> keep) {
  llvm::StringSet<> kept;
  for (const std::string &path : keep)
    kept.insert(path);
  std::vector<std::string> gone;
  {
    Statement select(database, "SELECT path FROM kb_files");
    if (!select.ok())
      return fail("cannot read the knowledge index");
    while (select.step() == SQLITE_ROW) {
      std::string path = select.getText(0);
      if (llvm::StringRef(path).starts_with(root) && !kept.contains(path))
        gone.push_back(path);
    }
  }
  for (const std::string &path : gone) {
    Statement passages(database, "DELETE FROM kb_passages WHERE path = ?");
    passages.bind(1, path);
    Statement file(database, "DELETE FROM kb_files WHERE path = ?");
    file.bind(1, path);
    if (!passages.ok() || passages.step() != SQLITE_DONE || !file.ok() ||
        file.step() != SQLITE_DONE)
      return fail("cannot drop '" + path + "' from the knowledge index");
  }
  return llvm::Error::success();
}

llvm::Expected<std::vector<KnowledgePassage>>
Store::searchPassages(llvm::StringRef ftsQuery, size_t limit) {
  // Headings and tags say what a passage is about: weigh them above body.
  Statement select(database,
                   "SELECT path, category, targets, tags, title, heading, "
                   "body, bm25(kb_passages, 0.0, 0.0, 2.0, 3.0, 1.0, 3.0, 1.0) "
                   "AS score FROM kb_passages WHERE kb_passages MATCH ? "
                   "ORDER BY score LIMIT ?");
  select.bind(1, ftsQuery);
  select.bind(2, static_cast<int64_t>(limit));
  if (!select.ok())
    return fail("cannot search the knowledge index");
  std::vector<KnowledgePassage> passages;
  int status;
  while ((status = select.step()) == SQLITE_ROW) {
    KnowledgePassage passage;
    passage.path = select.getText(0);
    passage.category = select.getText(1);
    passage.targets = select.getText(2);
    passage.tags = select.getText(3);
    passage.title = select.getText(4);
    passage.heading = select.getText(5);
    passage.body = select.getText(6);
    passage.score = select.getDouble(7);
    passages.push_back(std::move(passage));
  }
  if (status != SQLITE_DONE)
    return fail("cannot search the knowledge index (query: " + ftsQuery.str() +
                ")");
  return passages;
}
