//===- Store.h - the search database (SQLite) -------------------*- C++ -*-===//
//
// One SQLite file records every run, kernel and candidate node of every
// search. Each write is its own committed transaction, so a search killed at
// any point loses nothing it had already evaluated.
//
//===----------------------------------------------------------------------===//

#ifndef KE_STORE_STORE_H
#define KE_STORE_STORE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace ke::store {

/// The schema version this build writes; older files are migrated on open.
constexpr int kSchemaVersion = 1;

struct KernelRecord {
  int64_t id = 0;
  int64_t run = 0;
  std::string name;
  std::string target;
  std::string referenceIR;
  std::optional<double> naiveTimeNs;
};

struct NodeRecord {
  int64_t id = 0;
  int64_t run = 0;
  int64_t kernel = 0;
  std::optional<int64_t> parent; ///< none for children of the reference
  std::string payloadIR;
  std::string irHash;
  std::string proposer; ///< "library", "llm:<model>", "file"
  std::string strategy; ///< human-readable description
  std::string schedule; ///< machine-readable knobs (library proposer)
  std::string memoryOperator;
  std::string status; ///< correct | incorrect | failed
  std::string error;
  std::optional<double> timeNs;
  std::optional<double> speedup;
  std::string diagnosis; ///< the ke-run JSON
  double created = 0.0;  ///< seconds since the epoch
};

class Store {
public:
  /// Opens (creating if needed) the database at `path`. Refuses files that
  /// are not SQLite, SQLite files of another application, and files of a
  /// newer schema, with a message naming the file.
  static llvm::Expected<std::unique_ptr<Store>> open(llvm::StringRef path);
  ~Store();

  int getSchemaVersion() const { return schemaVersion; }

  llvm::Expected<int64_t> beginRun(llvm::StringRef inputHash,
                                   llvm::StringRef options);
  /// The latest run over the same input, if any.
  llvm::Expected<std::optional<int64_t>>
  findLatestRun(llvm::StringRef inputHash);
  llvm::Error finishRun(int64_t run, llvm::StringRef status);

  llvm::Expected<int64_t> addKernel(const KernelRecord &kernel);
  llvm::Expected<std::optional<KernelRecord>> findKernel(int64_t run,
                                                         llvm::StringRef name);
  llvm::Error setNaiveTime(int64_t kernel, double naiveTimeNs);

  llvm::Expected<int64_t> addNode(const NodeRecord &node);
  llvm::Expected<std::vector<NodeRecord>> loadNodes(int64_t kernel);
  llvm::Expected<int64_t> countNodes(int64_t run);

private:
  Store(sqlite3 *database, std::string path)
      : database(database), path(std::move(path)) {}
  llvm::Error execute(llvm::StringRef sql);
  llvm::Error fail(llvm::StringRef what) const;
  llvm::Error migrate();
  llvm::Error checkIdentity();

  sqlite3 *database;
  std::string path;
  int schemaVersion = 0;
};

} // namespace ke::store

#endif // KE_STORE_STORE_H
