//===- Recover.cpp - salvaging the rows of a damaged database -------------===//
//
// A search's database can be damaged (a full disk, a copy taken while it
// was written); what SQLite can still read of it is worth keeping. Rows are
// read one rowid at a time, so an unreadable page costs only its own rows,
// and written into a fresh database of the current schema.
//
//===----------------------------------------------------------------------===//

#include "ke/Store/Store.h"
#include "Statement.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

#include <sqlite3.h>

using namespace ke::store;
using ke::store::detail::Statement;

namespace {
/// In dependency order; the knowledge index (kb_files, kb_passages) is
/// rebuilt from kb/ by the next search.
constexpr const char *kTables[] = {"meta",      "runs",  "kernels",
                                   "llm_calls", "nodes", "skills"};

llvm::Error sqliteError(sqlite3 *database, const llvm::Twine &what) {
  return llvm::createStringError(what + ": " +
                                 (database ? sqlite3_errmsg(database)
                                           : "out of memory"));
}

/// The columns `table` has in both files.
std::vector<std::string> sharedColumns(sqlite3 *from, sqlite3 *to,
                                       llvm::StringRef table) {
  auto columns = [&](sqlite3 *database) {
    std::vector<std::string> names;
    Statement info(database, ("PRAGMA table_info(" + table + ")").str());
    while (info.ok() && info.step() == SQLITE_ROW)
      names.push_back(info.getText(1));
    return names;
  };
  std::vector<std::string> source = columns(from), shared;
  for (const std::string &name : columns(to))
    if (llvm::is_contained(source, name))
      shared.push_back(name);
  return shared;
}
} // namespace

llvm::Expected<std::vector<Store::RecoveredTable>>
Store::recover(llvm::StringRef damaged, llvm::StringRef output) {
  if (llvm::sys::fs::exists(output))
    return llvm::createStringError(
        llvm::formatv("'{0}' exists; recovery writes a new file", output));
  sqlite3 *from = nullptr;
  if (sqlite3_open_v2(damaged.str().c_str(), &from, SQLITE_OPEN_READONLY,
                      nullptr) != SQLITE_OK) {
    llvm::Error error =
        sqliteError(from, llvm::formatv("cannot open '{0}'", damaged));
    sqlite3_close(from);
    return std::move(error);
  }
  // The new file gets the current schema through the normal path.
  {
    auto created = Store::open(output);
    if (!created) {
      sqlite3_close(from);
      return created.takeError();
    }
  }
  sqlite3 *to = nullptr;
  sqlite3_open_v2(output.str().c_str(), &to, SQLITE_OPEN_READWRITE, nullptr);
  // Children may have lost their parents to the damage.
  sqlite3_exec(to, "PRAGMA foreign_keys=OFF; BEGIN;", nullptr, nullptr,
               nullptr);
  std::vector<RecoveredTable> tables;
  for (const char *table : kTables) {
    RecoveredTable recovered;
    recovered.name = table;
    std::vector<std::string> columns = sharedColumns(from, to, table);
    if (columns.empty())
      continue;
    std::string list = llvm::join(columns, ", ");
    std::string placeholders;
    for (size_t i = 0; i < columns.size(); ++i)
      placeholders += i ? ", ?" : "?";
    // meta's rows are the new file's already.
    std::string insert =
        llvm::formatv("INSERT OR IGNORE INTO {0}({1}) VALUES ({2})", table,
                      list, placeholders)
            .str();
    int64_t low = 0, high = -1;
    {
      Statement bounds(from, llvm::formatv("SELECT min(rowid), max(rowid) "
                                           "FROM {0}",
                                           table)
                                 .str());
      int status = bounds.ok() ? bounds.step() : SQLITE_ERROR;
      if (status != SQLITE_ROW) {
        // Not even the table's extent can be read: nothing to salvage.
        recovered.lost = -1;
        tables.push_back(recovered);
        continue;
      }
      if (!bounds.isNull(0)) {
        low = bounds.getInt(0);
        high = bounds.getInt(1);
      }
    }
    Statement select(from, llvm::formatv("SELECT {0} FROM {1} WHERE rowid = ?",
                                         list, table)
                               .str());
    Statement write(to, insert);
    if (!select.ok() || !write.ok()) {
      recovered.lost = -1;
      tables.push_back(recovered);
      continue;
    }
    for (int64_t rowid = low; rowid <= high; ++rowid) {
      sqlite3_stmt *read = select.get(), *put = write.get();
      sqlite3_reset(read);
      sqlite3_bind_int64(read, 1, rowid);
      int status = sqlite3_step(read);
      if (status == SQLITE_DONE)
        continue; // no such row (deleted, or never written)
      if (status != SQLITE_ROW) {
        ++recovered.lost;
        continue;
      }
      sqlite3_reset(put);
      for (int column = 0; column < int(columns.size()); ++column)
        sqlite3_bind_value(put, column + 1, sqlite3_column_value(read, column));
      if (sqlite3_step(put) == SQLITE_DONE)
        ++recovered.copied;
      else
        ++recovered.lost;
    }
    tables.push_back(recovered);
  }
  int committed = sqlite3_exec(to, "COMMIT;", nullptr, nullptr, nullptr);
  llvm::Error error = committed == SQLITE_OK
                          ? llvm::Error::success()
                          : sqliteError(to, "cannot write the recovered rows");
  sqlite3_close(to);
  sqlite3_close(from);
  if (error)
    return std::move(error);
  return tables;
}
