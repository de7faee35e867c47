//===- Store.cpp - the search database (SQLite) ---------------------------===//

#include "ke/Store/Store.h"
#include "Statement.h"

#include "llvm/Support/FormatVariadic.h"

#include <sqlite3.h>

using namespace ke::store;
using ke::store::detail::now;
using ke::store::detail::Statement;

namespace {
/// The schema, one step per version: migration N brings a file from version
/// N-1 to N. Never edit a step that has shipped; append a new one.
const char *const kMigrations[] = {
    // 1: runs, kernels, nodes.
    R"sql(
    CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
    INSERT INTO meta(key, value) VALUES ('application', 'ke');
    CREATE TABLE runs(
      id INTEGER PRIMARY KEY,
      input_hash TEXT NOT NULL,
      options TEXT NOT NULL,
      started REAL NOT NULL,
      finished REAL,
      status TEXT NOT NULL DEFAULT 'running');
    CREATE TABLE kernels(
      id INTEGER PRIMARY KEY,
      run INTEGER NOT NULL REFERENCES runs(id),
      name TEXT NOT NULL,
      target TEXT NOT NULL,
      reference_ir TEXT NOT NULL,
      naive_time_ns REAL,
      UNIQUE(run, name));
    CREATE TABLE nodes(
      id INTEGER PRIMARY KEY,
      run INTEGER NOT NULL REFERENCES runs(id),
      kernel INTEGER NOT NULL REFERENCES kernels(id),
      parent INTEGER REFERENCES nodes(id),
      payload_ir TEXT NOT NULL,
      ir_hash TEXT NOT NULL,
      proposer TEXT NOT NULL,
      strategy TEXT NOT NULL,
      schedule TEXT NOT NULL,
      memory_operator TEXT NOT NULL,
      status TEXT NOT NULL,
      error TEXT NOT NULL,
      time_ns REAL,
      speedup REAL,
      diagnosis TEXT NOT NULL,
      created REAL NOT NULL);
    CREATE INDEX nodes_by_kernel ON nodes(kernel, ir_hash);
    )sql",
    // 2: LLM calls (record/replay), distilled skills, the knowledge index.
    R"sql(
    CREATE TABLE llm_calls(
      id INTEGER PRIMARY KEY,
      run INTEGER REFERENCES runs(id),
      key TEXT NOT NULL,
      provider TEXT NOT NULL,
      model TEXT NOT NULL,
      request TEXT NOT NULL,
      response TEXT NOT NULL,
      status TEXT NOT NULL,
      error TEXT NOT NULL,
      prompt_tokens INTEGER,
      completion_tokens INTEGER,
      latency_s REAL NOT NULL,
      attempts INTEGER NOT NULL,
      created REAL NOT NULL);
    CREATE INDEX llm_calls_by_key ON llm_calls(key, id);
    ALTER TABLE nodes ADD COLUMN llm_call INTEGER REFERENCES llm_calls(id);
    CREATE TABLE skills(
      id INTEGER PRIMARY KEY,
      run INTEGER REFERENCES runs(id),
      kernel INTEGER REFERENCES kernels(id),
      node INTEGER REFERENCES nodes(id),
      target TEXT NOT NULL,
      op_kinds TEXT NOT NULL,
      proposer TEXT NOT NULL,
      change TEXT NOT NULL,
      schedule TEXT NOT NULL,
      rewrite TEXT NOT NULL,
      gain REAL NOT NULL,
      speedup REAL NOT NULL,
      created REAL NOT NULL);
    CREATE INDEX skills_by_target ON skills(target, op_kinds);
    CREATE TABLE kb_files(path TEXT PRIMARY KEY, stamp TEXT NOT NULL);
    CREATE VIRTUAL TABLE kb_passages USING fts5(
      path UNINDEXED, category UNINDEXED, targets, tags, title, heading, body,
      tokenize = 'porter unicode61');
    )sql",
    // 3: run leases (holder "pid@host" and its last heartbeat).
    R"sql(
    ALTER TABLE runs ADD COLUMN holder TEXT NOT NULL DEFAULT '';
    ALTER TABLE runs ADD COLUMN heartbeat REAL;
    )sql",
    // 4: why each LLM reply ended (a reply cut at max_tokens is "length").
    R"sql(
    ALTER TABLE llm_calls ADD COLUMN finish_reason TEXT NOT NULL DEFAULT '';
    )sql",
};

} // namespace

Store::~Store() { sqlite3_close(database); }

llvm::Error Store::fail(llvm::StringRef what) const {
  return llvm::createStringError(llvm::formatv("database '{0}': {1}: {2}", path,
                                               what, sqlite3_errmsg(database)));
}

llvm::Error Store::execute(llvm::StringRef sql) {
  char *message = nullptr;
  if (sqlite3_exec(database, sql.str().c_str(), nullptr, nullptr, &message) !=
      SQLITE_OK) {
    std::string text = message ? message : "unknown error";
    sqlite3_free(message);
    return llvm::createStringError(
        llvm::formatv("database '{0}': {1}", path, text));
  }
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<Store>> Store::open(llvm::StringRef path) {
  sqlite3 *database = nullptr;
  int status =
      sqlite3_open_v2(path.str().c_str(), &database,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  std::unique_ptr<Store> store(new Store(database, path.str()));
  if (status != SQLITE_OK)
    return store->fail("cannot open");
  sqlite3_busy_timeout(database, 5000);
  if (llvm::Error error = store->checkIdentity())
    return std::move(error);
  if (store->schemaVersion > kSchemaVersion)
    return llvm::createStringError(llvm::formatv(
        "database '{0}' has schema version {1}, newer than this ke ({2})", path,
        store->schemaVersion, kSchemaVersion));

  // Switching to WAL takes an exclusive lock for which SQLite does not wait:
  // processes opening one new file at once retry it for a while.
  for (int attempt = 0;; ++attempt) {
    int status = sqlite3_exec(database, "PRAGMA journal_mode=WAL;", nullptr,
                              nullptr, nullptr);
    if (status == SQLITE_OK)
      break;
    if ((status != SQLITE_BUSY && status != SQLITE_LOCKED) || attempt == 500)
      return store->fail("cannot switch to WAL mode");
    sqlite3_sleep(10);
  }
  if (llvm::Error error = store->execute("PRAGMA synchronous=NORMAL;"
                                         "PRAGMA foreign_keys=ON;"))
    return std::move(error);
  if (llvm::Error error = store->migrate())
    return std::move(error);
  // Fail now, not in the middle of a search, if the file is damaged.
  Statement check(database, "PRAGMA quick_check");
  if (!check.ok() || check.step() != SQLITE_ROW || check.getText(0) != "ok")
    return llvm::createStringError(llvm::formatv(
        "database '{0}' is corrupt ({1}); refusing to write to it", path,
        check.ok() ? check.getText(0) : sqlite3_errmsg(database)));
  return store;
}

llvm::Error Store::checkIdentity() {
  // The first real read tells a foreign or corrupt file apart. Statements
  // are scoped: an unfinished one holds a read transaction open.
  // The version and the tables in one statement, so one snapshot: another
  // ke process may be creating the schema right now.
  int64_t tableCount = 0;
  {
    Statement version(database,
                      "SELECT user_version, (SELECT count(*) FROM "
                      "sqlite_master) FROM pragma_user_version");
    if (!version.ok() || version.step() != SQLITE_ROW)
      return llvm::createStringError(llvm::formatv(
          "database '{0}' is not a ke database (not a readable SQLite file: "
          "{1}); refusing to touch it",
          path, sqlite3_errmsg(database)));
    schemaVersion = static_cast<int>(version.getInt(0));
    tableCount = version.getInt(1);
  }
  if (schemaVersion == 0) {
    if (tableCount > 0)
      return llvm::createStringError(llvm::formatv(
          "database '{0}' is an SQLite file of another application (it has "
          "tables but no ke schema); refusing to touch it",
          path));
  } else {
    Statement application(database,
                          "SELECT value FROM meta WHERE key = 'application'");
    if (!application.ok() || application.step() != SQLITE_ROW ||
        application.getText(0) != "ke")
      return llvm::createStringError(llvm::formatv(
          "database '{0}' is an SQLite file of another application; "
          "refusing to touch it",
          path));
  }
  return llvm::Error::success();
}

llvm::Error Store::migrate() {
  if (schemaVersion >= kSchemaVersion)
    return llvm::Error::success();
  // One exclusive transaction: processes opening a new file at once wait
  // for each other, and each re-reads the version the previous one left.
  if (llvm::Error error = execute("BEGIN EXCLUSIVE;"))
    return error;
  {
    Statement version(database, "PRAGMA user_version");
    if (!version.ok() || version.step() != SQLITE_ROW) {
      llvm::consumeError(execute("ROLLBACK;"));
      return fail("cannot read the schema version");
    }
    schemaVersion = static_cast<int>(version.getInt(0));
  }
  while (schemaVersion < kSchemaVersion) {
    int next = schemaVersion + 1;
    std::string sql = std::string(kMigrations[next - 1]) +
                      "PRAGMA user_version = " + std::to_string(next) + ";";
    if (llvm::Error error = execute(sql)) {
      llvm::consumeError(execute("ROLLBACK;"));
      return error;
    }
    schemaVersion = next;
  }
  return execute("COMMIT;");
}

llvm::Expected<int64_t> Store::beginRun(llvm::StringRef inputHash,
                                        llvm::StringRef options) {
  Statement insert(database, "INSERT INTO runs(input_hash, options, started, "
                             "holder, heartbeat) VALUES (?, ?, ?, ?, ?)");
  insert.bind(1, inputHash);
  insert.bind(2, options);
  insert.bind(3, now());
  insert.bind(4, getThisHolder());
  insert.bind(5, now());
  if (!insert.ok() || insert.step() != SQLITE_DONE)
    return fail("cannot record the run");
  return sqlite3_last_insert_rowid(database);
}

llvm::Expected<std::optional<int64_t>>
Store::findLatestRun(llvm::StringRef inputHash) {
  Statement select(database, "SELECT id FROM runs WHERE input_hash = ? "
                             "ORDER BY id DESC LIMIT 1");
  select.bind(1, inputHash);
  if (!select.ok())
    return fail("cannot look up runs");
  int status = select.step();
  if (status == SQLITE_ROW)
    return std::optional<int64_t>(select.getInt(0));
  if (status != SQLITE_DONE)
    return fail("cannot look up runs");
  return std::optional<int64_t>();
}

llvm::Error Store::finishRun(int64_t run, llvm::StringRef status) {
  Statement update(database, "UPDATE runs SET finished = ?, status = ?, "
                             "holder = '' WHERE id = ?");
  update.bind(1, now());
  update.bind(2, status);
  update.bind(3, run);
  if (!update.ok() || update.step() != SQLITE_DONE)
    return fail("cannot finish the run");
  return llvm::Error::success();
}

llvm::Expected<int64_t> Store::addKernel(const KernelRecord &kernel) {
  Statement insert(database,
                   "INSERT INTO kernels(run, name, target, reference_ir, "
                   "naive_time_ns) VALUES (?, ?, ?, ?, ?)");
  insert.bind(1, kernel.run);
  insert.bind(2, kernel.name);
  insert.bind(3, kernel.target);
  insert.bind(4, kernel.referenceIR);
  insert.bind(5, kernel.naiveTimeNs);
  if (!insert.ok() || insert.step() != SQLITE_DONE)
    return fail("cannot record kernel '" + kernel.name + "'");
  return sqlite3_last_insert_rowid(database);
}

namespace {
constexpr const char *kKernelColumns =
    "id, run, name, target, reference_ir, naive_time_ns";

KernelRecord readKernel(Statement &select) {
  KernelRecord kernel;
  kernel.id = select.getInt(0);
  kernel.run = select.getInt(1);
  kernel.name = select.getText(2);
  kernel.target = select.getText(3);
  kernel.referenceIR = select.getText(4);
  if (!select.isNull(5))
    kernel.naiveTimeNs = select.getDouble(5);
  return kernel;
}
} // namespace

/// The kernel the prepared `select` finds, if any.
llvm::Expected<std::optional<KernelRecord>>
Store::readOneKernel(Statement &select) {
  if (!select.ok())
    return fail("cannot look up kernels");
  int status = select.step();
  if (status == SQLITE_DONE)
    return std::optional<KernelRecord>();
  if (status != SQLITE_ROW)
    return fail("cannot look up kernels");
  return std::optional<KernelRecord>(readKernel(select));
}

llvm::Expected<std::optional<KernelRecord>>
Store::findKernel(int64_t run, llvm::StringRef name) {
  Statement select(database, std::string("SELECT ") + kKernelColumns +
                                 " FROM kernels WHERE run = ? AND name = ?");
  select.bind(1, run);
  select.bind(2, name);
  return readOneKernel(select);
}

llvm::Expected<std::vector<KernelRecord>> Store::loadKernels(int64_t run) {
  Statement select(database, std::string("SELECT ") + kKernelColumns +
                                 " FROM kernels WHERE run = ? ORDER BY id");
  select.bind(1, run);
  if (!select.ok())
    return fail("cannot read kernels");
  std::vector<KernelRecord> kernels;
  int status;
  while ((status = select.step()) == SQLITE_ROW)
    kernels.push_back(readKernel(select));
  if (status != SQLITE_DONE)
    return fail("cannot read kernels");
  return kernels;
}

namespace {
constexpr const char *kRunColumns =
    "id, input_hash, options, started, finished, status";

RunRecord readRun(Statement &select) {
  RunRecord run;
  run.id = select.getInt(0);
  run.inputHash = select.getText(1);
  run.options = select.getText(2);
  run.started = select.getDouble(3);
  if (!select.isNull(4))
    run.finished = select.getDouble(4);
  run.status = select.getText(5);
  return run;
}
} // namespace

llvm::Expected<std::vector<RunRecord>> Store::loadRuns() {
  Statement select(database, std::string("SELECT ") + kRunColumns +
                                 " FROM runs ORDER BY id");
  if (!select.ok())
    return fail("cannot read runs");
  std::vector<RunRecord> runs;
  int status;
  while ((status = select.step()) == SQLITE_ROW)
    runs.push_back(readRun(select));
  if (status != SQLITE_DONE)
    return fail("cannot read runs");
  return runs;
}

llvm::Expected<std::optional<RunRecord>> Store::getRun(int64_t id) {
  Statement select(database, std::string("SELECT ") + kRunColumns +
                                 " FROM runs WHERE id = ?");
  select.bind(1, id);
  if (!select.ok())
    return fail("cannot read runs");
  int status = select.step();
  if (status == SQLITE_DONE)
    return std::optional<RunRecord>();
  if (status != SQLITE_ROW)
    return fail("cannot read runs");
  return std::optional<RunRecord>(readRun(select));
}

llvm::Error Store::setNaiveTime(int64_t kernel, double naiveTimeNs) {
  Statement update(database,
                   "UPDATE kernels SET naive_time_ns = ? WHERE id = ?");
  update.bind(1, naiveTimeNs);
  update.bind(2, kernel);
  if (!update.ok() || update.step() != SQLITE_DONE)
    return fail("cannot record the naive time");
  return llvm::Error::success();
}

llvm::Expected<int64_t> Store::addNode(const NodeRecord &node) {
  Statement insert(
      database,
      "INSERT INTO nodes(run, kernel, parent, payload_ir, ir_hash, proposer, "
      "strategy, schedule, memory_operator, status, error, time_ns, speedup, "
      "diagnosis, created, llm_call) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  insert.bind(1, node.run);
  insert.bind(2, node.kernel);
  insert.bind(3, node.parent);
  insert.bind(4, node.payloadIR);
  insert.bind(5, node.irHash);
  insert.bind(6, node.proposer);
  insert.bind(7, node.strategy);
  insert.bind(8, node.schedule);
  insert.bind(9, node.memoryOperator);
  insert.bind(10, node.status);
  insert.bind(11, node.error);
  insert.bind(12, node.timeNs);
  insert.bind(13, node.speedup);
  insert.bind(14, node.diagnosis);
  insert.bind(15, node.created > 0 ? node.created : now());
  insert.bind(16, node.llmCall);
  if (!insert.ok() || insert.step() != SQLITE_DONE)
    return fail("cannot record a node");
  return sqlite3_last_insert_rowid(database);
}

namespace {
constexpr const char *kNodeColumns =
    "id, run, kernel, parent, payload_ir, ir_hash, proposer, strategy, "
    "schedule, memory_operator, status, error, time_ns, speedup, diagnosis, "
    "created, llm_call";

NodeRecord readNode(Statement &select) {
  NodeRecord node;
  node.id = select.getInt(0);
  node.run = select.getInt(1);
  node.kernel = select.getInt(2);
  if (!select.isNull(3))
    node.parent = select.getInt(3);
  node.payloadIR = select.getText(4);
  node.irHash = select.getText(5);
  node.proposer = select.getText(6);
  node.strategy = select.getText(7);
  node.schedule = select.getText(8);
  node.memoryOperator = select.getText(9);
  node.status = select.getText(10);
  node.error = select.getText(11);
  if (!select.isNull(12))
    node.timeNs = select.getDouble(12);
  if (!select.isNull(13))
    node.speedup = select.getDouble(13);
  node.diagnosis = select.getText(14);
  node.created = select.getDouble(15);
  if (!select.isNull(16))
    node.llmCall = select.getInt(16);
  return node;
}
} // namespace

const NodeRecord *ke::store::findBestNode(const std::vector<NodeRecord> &nodes) {
  const NodeRecord *best = nullptr;
  for (const NodeRecord &node : nodes)
    if (node.status == "correct" && node.speedup &&
        (!best || *node.speedup > *best->speedup))
      best = &node;
  return best;
}

llvm::Expected<std::vector<NodeRecord>> Store::loadNodes(int64_t kernel) {
  Statement select(database, std::string("SELECT ") + kNodeColumns +
                                 " FROM nodes WHERE kernel = ? ORDER BY id");
  select.bind(1, kernel);
  if (!select.ok())
    return fail("cannot read nodes");
  std::vector<NodeRecord> nodes;
  int status;
  while ((status = select.step()) == SQLITE_ROW)
    nodes.push_back(readNode(select));
  if (status != SQLITE_DONE)
    return fail("cannot read nodes");
  return nodes;
}

llvm::Expected<std::vector<NodeRecord>> Store::loadLLMNodes() {
  Statement select(database,
                   std::string("SELECT ") + kNodeColumns +
                       " FROM nodes WHERE llm_call IS NOT NULL ORDER BY id");
  if (!select.ok())
    return fail("cannot read nodes");
  std::vector<NodeRecord> nodes;
  int status;
  while ((status = select.step()) == SQLITE_ROW)
    nodes.push_back(readNode(select));
  if (status != SQLITE_DONE)
    return fail("cannot read nodes");
  return nodes;
}

llvm::Expected<std::optional<NodeRecord>> Store::getNode(int64_t id) {
  Statement select(database, std::string("SELECT ") + kNodeColumns +
                                 " FROM nodes WHERE id = ?");
  select.bind(1, id);
  if (!select.ok())
    return fail("cannot read nodes");
  int status = select.step();
  if (status == SQLITE_ROW)
    return std::optional<NodeRecord>(readNode(select));
  if (status != SQLITE_DONE)
    return fail("cannot read nodes");
  return std::optional<NodeRecord>();
}

llvm::Expected<std::optional<KernelRecord>> Store::getKernel(int64_t id) {
  Statement select(database, std::string("SELECT ") + kKernelColumns +
                                 " FROM kernels WHERE id = ?");
  select.bind(1, id);
  return readOneKernel(select);
}

llvm::Expected<int64_t> Store::countNodes(int64_t run) {
  Statement select(database, "SELECT count(*) FROM nodes WHERE run = ?");
  select.bind(1, run);
  if (!select.ok() || select.step() != SQLITE_ROW)
    return fail("cannot count nodes");
  return select.getInt(0);
}

llvm::Expected<std::optional<std::string>>
Store::getMetaValue(llvm::StringRef key) {
  Statement select(database, "SELECT value FROM meta WHERE key = ?");
  select.bind(1, key);
  if (!select.ok())
    return fail("cannot read the meta table");
  if (select.step() != SQLITE_ROW)
    return std::nullopt;
  return select.getText(0);
}

llvm::Error Store::setMetaValue(llvm::StringRef key, llvm::StringRef value) {
  Statement upsert(database,
                   "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) "
                   "DO UPDATE SET value = excluded.value");
  upsert.bind(1, key);
  upsert.bind(2, value);
  if (!upsert.ok() || upsert.step() != SQLITE_DONE)
    return fail("cannot write the meta table");
  return llvm::Error::success();
}
