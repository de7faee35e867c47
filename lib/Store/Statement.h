//===- Statement.h - a prepared SQLite statement (private) ------*- C++ -*-===//
//
// Shared by the files that implement ke::store::Store; not installed.
//
//===----------------------------------------------------------------------===//

#ifndef KE_LIB_STORE_STATEMENT_H
#define KE_LIB_STORE_STATEMENT_H

#include "llvm/ADT/StringRef.h"

#include <chrono>
#include <optional>
#include <sqlite3.h>
#include <string>

namespace ke::store::detail {

inline double now() {
  return std::chrono::duration<double>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

/// A prepared statement, finalized on scope exit.
class Statement {
public:
  Statement(sqlite3 *database, llvm::StringRef sql) {
    status =
        sqlite3_prepare_v2(database, sql.data(), static_cast<int>(sql.size()),
                           &statement, nullptr);
  }
  ~Statement() { sqlite3_finalize(statement); }
  bool ok() const { return status == SQLITE_OK; }
  void bind(int index, llvm::StringRef text) {
    sqlite3_bind_text(statement, index, text.data(),
                      static_cast<int>(text.size()), SQLITE_TRANSIENT);
  }
  void bind(int index, int64_t value) {
    sqlite3_bind_int64(statement, index, value);
  }
  void bind(int index, double value) {
    sqlite3_bind_double(statement, index, value);
  }
  template <typename T> void bind(int index, const std::optional<T> &value) {
    if (value)
      bind(index, *value);
    else
      sqlite3_bind_null(statement, index);
  }
  int step() { return sqlite3_step(statement); }
  sqlite3_stmt *get() { return statement; }
  int64_t getInt(int column) { return sqlite3_column_int64(statement, column); }
  double getDouble(int column) {
    return sqlite3_column_double(statement, column);
  }
  bool isNull(int column) {
    return sqlite3_column_type(statement, column) == SQLITE_NULL;
  }
  std::string getText(int column) {
    const unsigned char *text = sqlite3_column_text(statement, column);
    return text ? reinterpret_cast<const char *>(text) : "";
  }

private:
  sqlite3_stmt *statement = nullptr;
  int status;
};
} // namespace ke::store::detail

#endif // KE_LIB_STORE_STATEMENT_H
