//===- Store.h - the search database (SQLite) -------------------*- C++ -*-===//
//
// One SQLite file records every run, kernel and candidate node of every
// search. Each write is its own committed transaction, so a search killed at
// any point loses nothing it had already evaluated.
//
//===----------------------------------------------------------------------===//

#ifndef KE_STORE_STORE_H
#define KE_STORE_STORE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace ke::store::detail {
class Statement;
} // namespace ke::store::detail

namespace ke::store {

/// The schema version this build writes; older files are migrated on open.
constexpr int kSchemaVersion = 4;

struct RunRecord {
  int64_t id = 0;
  std::string inputHash;
  std::string options; ///< the search's options, as JSON
  double started = 0.0;
  std::optional<double> finished;
  std::string status; ///< running | finished | interrupted | ...
};

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
  std::string diagnosis;          ///< the ke-run JSON
  double created = 0.0;           ///< seconds since the epoch
  std::optional<int64_t> llmCall; ///< the LLM call that proposed it
};

/// The correct node of `nodes` with the highest speedup, if any: the best a
/// search found (reports and tuning specs read it alike).
const NodeRecord *findBestNode(const std::vector<NodeRecord> &nodes);

/// One request to a language model and its answer. The request is the
/// provider-neutral JSON of the messages: it never holds a credential.
struct LLMCallRecord {
  int64_t id = 0;
  std::optional<int64_t> run;
  std::string key; ///< hash of the model and the prompt (replay key)
  std::string provider;
  std::string model;
  std::string request;
  std::string response; ///< the reply's text
  std::string status;   ///< ok | error
  std::string error;
  std::optional<int64_t> promptTokens;
  std::optional<int64_t> completionTokens;
  std::string finishReason; ///< v4: "stop", "length", ...
  double latencySeconds = 0.0;
  int attempts = 1;
  double created = 0.0;
};

/// What a correct child that beat its parent teaches: distilled per op kind
/// and target, retrieved into later prompts and used to warm-start searches.
struct SkillRecord {
  int64_t id = 0;
  std::optional<int64_t> run, kernel, node;
  std::string target;
  std::string opKinds;  ///< e.g. "fill,matmul,generic"
  std::string proposer; ///< who found it
  std::string change;   ///< what changed, in words
  std::string schedule; ///< the child's library schedule, if any
  std::string rewrite;  ///< transform script or rewritten function
  double gain = 1.0;    ///< parent time / child time
  double speedup = 1.0; ///< the child's speedup over the naive reference
  double created = 0.0;
};

/// One retrievable section of a knowledge document.
struct KnowledgePassage {
  std::string path;
  std::string category;
  std::string targets; ///< space-separated
  std::string tags;    ///< space-separated
  std::string title;
  std::string heading;
  std::string body;
  double score = 0.0; ///< BM25 (lower is better), set by searches
};

class Store {
public:
  /// Opens (creating if needed) the database at `path`. Refuses files that
  /// are not SQLite, SQLite files of another application, and files of a
  /// newer schema, with a message naming the file.
  static llvm::Expected<std::unique_ptr<Store>> open(llvm::StringRef path);
  ~Store();

  int getSchemaVersion() const { return schemaVersion; }

  /// A new run, held by this process (see acquireRun).
  llvm::Expected<int64_t> beginRun(llvm::StringRef inputHash,
                                   llvm::StringRef options);
  /// The latest run over the same input, if any.
  llvm::Expected<std::optional<int64_t>>
  findLatestRun(llvm::StringRef inputHash);
  /// Ends the run with `status` and releases this process's lease on it.
  llvm::Error finishRun(int64_t run, llvm::StringRef status);

  /// Run leases (RunLease.cpp): one process at a time writes a run. The
  /// holder is "pid@host"; its heartbeat is renewed as the search commits.
  static std::string getThisHolder();
  /// Takes `run` for this process in one exclusive transaction. Refuses,
  /// naming the holder, while another process holds it: a process of this
  /// host that still runs, or one of another host whose heartbeat is younger
  /// than `staleSeconds`. A stale lease is taken over.
  llvm::Error acquireRun(int64_t run, double staleSeconds);
  /// Renews this process's lease; fails if another process took the run.
  llvm::Error renewRun(int64_t run);

  /// Every run, oldest first.
  llvm::Expected<std::vector<RunRecord>> loadRuns();
  llvm::Expected<std::optional<RunRecord>> getRun(int64_t id);

  llvm::Expected<int64_t> addKernel(const KernelRecord &kernel);
  /// The kernels of `run`, in the order they were searched.
  llvm::Expected<std::vector<KernelRecord>> loadKernels(int64_t run);
  llvm::Expected<std::optional<KernelRecord>> findKernel(int64_t run,
                                                         llvm::StringRef name);
  llvm::Error setNaiveTime(int64_t kernel, double naiveTimeNs);

  llvm::Expected<int64_t> addNode(const NodeRecord &node);
  llvm::Expected<std::vector<NodeRecord>> loadNodes(int64_t kernel);
  llvm::Expected<int64_t> countNodes(int64_t run);
  /// Every node of the database with an LLM call, in order (for exports).
  llvm::Expected<std::vector<NodeRecord>> loadLLMNodes();
  llvm::Expected<std::optional<NodeRecord>> getNode(int64_t id);
  llvm::Expected<std::optional<KernelRecord>> getKernel(int64_t id);
  /// Every skill, best gain first.
  llvm::Expected<std::vector<SkillRecord>> loadSkills();

  // What searches learn beyond one run, in the meta table (Store.cpp): an
  // LLM server's context window (so a replay decides as the recording did),
  // a target's cost-model weights.
  llvm::Expected<std::optional<std::string>> getMetaValue(llvm::StringRef key);
  llvm::Error setMetaValue(llvm::StringRef key, llvm::StringRef value);

  // LLM calls (LLMCalls.cpp).
  llvm::Expected<int64_t> addLLMCall(const LLMCallRecord &call);
  /// The calls recorded under `key`, oldest first: the successful ones, or
  /// with `withErrors` the failed ones too (a replay repeats failures).
  llvm::Expected<std::vector<LLMCallRecord>>
  findLLMCalls(llvm::StringRef key, bool withErrors = false);
  llvm::Expected<std::optional<LLMCallRecord>> getLLMCall(int64_t id);
  /// Every call, oldest first (for trajectory exports).
  llvm::Expected<std::vector<LLMCallRecord>> loadLLMCalls();

  // Skills (Skills.cpp).
  llvm::Expected<int64_t> addSkill(const SkillRecord &skill);
  /// Skills for `target`, those whose op kinds equal `opKinds` first, then
  /// those sharing an op kind; best gain first.
  llvm::Expected<std::vector<SkillRecord>>
  findSkills(llvm::StringRef target, llvm::StringRef opKinds, size_t limit);

  // The knowledge index (KnowledgeIndex.cpp).
  /// The stamp (content hash) a document was indexed with, if it was.
  llvm::Expected<std::optional<std::string>>
  getIndexedStamp(llvm::StringRef path);
  /// Replaces a document's passages, in one transaction.
  llvm::Error indexDocument(llvm::StringRef path, llvm::StringRef stamp,
                            llvm::ArrayRef<KnowledgePassage> passages);
  /// Drops documents under `root` that are not in `keep`.
  llvm::Error dropDocumentsExcept(llvm::StringRef root,
                                  llvm::ArrayRef<std::string> keep);
  /// BM25 search over passages; `ftsQuery` is an FTS5 MATCH expression.
  llvm::Expected<std::vector<KnowledgePassage>>
  searchPassages(llvm::StringRef ftsQuery, size_t limit);

  /// The message of the database's last error, prefixed with the file.
  llvm::Error fail(llvm::StringRef what) const;

  /// What recover() salvaged of each table: rows copied, rows lost (-1:
  /// the table could not be read at all).
  struct RecoveredTable {
    std::string name;
    int64_t copied = 0, lost = 0;
  };
  /// Copies every row SQLite can still read from the damaged database at
  /// `damaged` (opened read-only, never modified) into a new database at
  /// `output` (which must not exist), row by row, so that one unreadable
  /// page loses only its rows. The knowledge index is not copied (it is
  /// rebuilt from kb/ on the next search).
  static llvm::Expected<std::vector<RecoveredTable>>
  recover(llvm::StringRef damaged, llvm::StringRef output);

private:
  Store(sqlite3 *database, std::string path)
      : database(database), path(std::move(path)) {}
  llvm::Error execute(llvm::StringRef sql);
  llvm::Expected<std::optional<KernelRecord>>
  readOneKernel(detail::Statement &select);
  llvm::Error migrate();
  llvm::Error checkIdentity();

  sqlite3 *database;
  std::string path;
  int schemaVersion = 0;
};

} // namespace ke::store

#endif // KE_STORE_STORE_H
