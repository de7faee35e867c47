//===- StoreTest.cpp - the search database --------------------------------===//

#include "ke/Store/Store.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <chrono>
#include <csignal>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace ke::store;

namespace {
class StoreTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ke-store", directory));
    path = directory;
    llvm::sys::path::append(path, "ke.db");
  }
  void TearDown() override { llvm::sys::fs::remove_directories(directory); }

  std::unique_ptr<Store> openOrFail() {
    auto store = Store::open(path);
    EXPECT_TRUE(bool(store)) << llvm::toString(store.takeError());
    return store ? std::move(*store) : nullptr;
  }

  NodeRecord makeNode(int64_t run, int64_t kernel, llvm::StringRef hash) {
    NodeRecord node;
    node.run = run;
    node.kernel = kernel;
    node.payloadIR = "func.func @k() { return }";
    node.irHash = hash.str();
    node.proposer = "library";
    node.strategy = "tile 8";
    node.schedule = "{}";
    node.memoryOperator = "inherit";
    node.status = "correct";
    node.timeNs = 100.0;
    node.speedup = 4.0;
    node.diagnosis = "{}";
    return node;
  }

  llvm::SmallString<128> directory, path;
};

TEST_F(StoreTest, CreatesTheCurrentSchema) {
  auto store = openOrFail();
  ASSERT_TRUE(store);
  EXPECT_EQ(store->getSchemaVersion(), kSchemaVersion);
}

TEST_F(StoreTest, NodesSurviveReopening) {
  int64_t run, kernel, first;
  {
    auto store = openOrFail();
    ASSERT_TRUE(store);
    run = cantFail(store->beginRun("hash-of-input", "{\"budget\":4}"));
    KernelRecord record;
    record.run = run;
    record.name = "matmul";
    record.target = "cpu";
    record.referenceIR = "func.func @matmul";
    kernel = cantFail(store->addKernel(record));
    cantFail(store->setNaiveTime(kernel, 1000.0));
    first = cantFail(store->addNode(makeNode(run, kernel, "a")));
    NodeRecord child = makeNode(run, kernel, "b");
    child.parent = first;
    child.status = "failed";
    child.error = "run: the kernel crashed (SIGSEGV)";
    child.timeNs.reset();
    child.speedup.reset();
    cantFail(store->addNode(child));
    // No finishRun: as if the search were killed here.
  }
  auto store = openOrFail();
  ASSERT_TRUE(store);
  EXPECT_EQ(cantFail(store->findLatestRun("hash-of-input")),
            std::optional<int64_t>(run));
  EXPECT_EQ(cantFail(store->findLatestRun("other")), std::nullopt);
  auto kernelRecord = cantFail(store->findKernel(run, "matmul"));
  ASSERT_TRUE(kernelRecord.has_value());
  EXPECT_EQ(kernelRecord->naiveTimeNs, std::optional<double>(1000.0));
  std::vector<NodeRecord> nodes = cantFail(store->loadNodes(kernel));
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0].irHash, "a");
  EXPECT_EQ(nodes[0].speedup, std::optional<double>(4.0));
  EXPECT_EQ(nodes[1].parent, std::optional<int64_t>(first));
  EXPECT_EQ(nodes[1].status, "failed");
  EXPECT_FALSE(nodes[1].timeNs.has_value());
  EXPECT_EQ(cantFail(store->countNodes(run)), 2);
  std::vector<RunRecord> runs = cantFail(store->loadRuns());
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].id, run);
  EXPECT_EQ(runs[0].options, "{\"budget\":4}");
  EXPECT_EQ(runs[0].status, "running");
  EXPECT_FALSE(runs[0].finished.has_value());
  EXPECT_EQ(cantFail(store->getRun(run))->inputHash, "hash-of-input");
  EXPECT_FALSE(cantFail(store->getRun(run + 1)).has_value());
  std::vector<KernelRecord> kernels = cantFail(store->loadKernels(run));
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].name, "matmul");
  EXPECT_TRUE(cantFail(store->loadKernels(run + 1)).empty());
}

TEST_F(StoreTest, RefusesAFileThatIsNotSQLite) {
  {
    std::error_code ec;
    llvm::raw_fd_ostream out(path, ec);
    out << "this is not a database, just some text that is long enough "
           "to fill the header of an SQLite file and more of it ........";
  }
  auto store = Store::open(path);
  ASSERT_FALSE(bool(store));
  std::string message = llvm::toString(store.takeError());
  EXPECT_NE(message.find("is not a ke database"), std::string::npos) << message;
  EXPECT_NE(message.find(path.str().str()), std::string::npos) << message;
}

TEST_F(StoreTest, RefusesAnotherApplicationsDatabase) {
  sqlite3 *database = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &database), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(database, "CREATE TABLE users(id INTEGER)", nullptr,
                         nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(database);
  auto store = Store::open(path);
  ASSERT_FALSE(bool(store));
  EXPECT_NE(llvm::toString(store.takeError()).find("another application"),
            std::string::npos);
}

TEST_F(StoreTest, RefusesANewerSchema) {
  { ASSERT_TRUE(openOrFail()); }
  sqlite3 *database = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &database), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(database, "PRAGMA user_version = 99", nullptr, nullptr,
                         nullptr),
            SQLITE_OK);
  sqlite3_close(database);
  auto store = Store::open(path);
  ASSERT_FALSE(bool(store));
  EXPECT_NE(llvm::toString(store.takeError()).find("newer than this ke"),
            std::string::npos);
}
} // namespace

TEST_F(StoreTest, MigratesAVersion1File) {
  // A file as ke wrote it before LLM calls and skills existed.
  sqlite3 *database = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &database), SQLITE_OK);
  const char *version1 = R"sql(
    CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
    INSERT INTO meta(key, value) VALUES ('application', 'ke');
    CREATE TABLE runs(id INTEGER PRIMARY KEY, input_hash TEXT NOT NULL,
      options TEXT NOT NULL, started REAL NOT NULL, finished REAL,
      status TEXT NOT NULL DEFAULT 'running');
    CREATE TABLE kernels(id INTEGER PRIMARY KEY, run INTEGER NOT NULL
      REFERENCES runs(id), name TEXT NOT NULL, target TEXT NOT NULL,
      reference_ir TEXT NOT NULL, naive_time_ns REAL, UNIQUE(run, name));
    CREATE TABLE nodes(id INTEGER PRIMARY KEY, run INTEGER NOT NULL
      REFERENCES runs(id), kernel INTEGER NOT NULL REFERENCES kernels(id),
      parent INTEGER REFERENCES nodes(id), payload_ir TEXT NOT NULL,
      ir_hash TEXT NOT NULL, proposer TEXT NOT NULL, strategy TEXT NOT NULL,
      schedule TEXT NOT NULL, memory_operator TEXT NOT NULL,
      status TEXT NOT NULL, error TEXT NOT NULL, time_ns REAL, speedup REAL,
      diagnosis TEXT NOT NULL, created REAL NOT NULL);
    CREATE INDEX nodes_by_kernel ON nodes(kernel, ir_hash);
    INSERT INTO runs VALUES (1, 'h', '{}', 0, NULL, 'finished');
    INSERT INTO kernels VALUES (1, 1, 'k', 'cpu', 'ir', 100.0);
    INSERT INTO nodes VALUES (1, 1, 1, NULL, 'ir', 'x', 'library', 's', 's',
      'inherit', 'correct', '', 50.0, 2.0, '{}', 0);
    PRAGMA user_version = 1;
  )sql";
  ASSERT_EQ(sqlite3_exec(database, version1, nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(database);

  std::unique_ptr<Store> store = openOrFail();
  ASSERT_TRUE(store);
  EXPECT_EQ(store->getSchemaVersion(), kSchemaVersion);
  auto nodes = store->loadNodes(1);
  ASSERT_TRUE(bool(nodes)) << llvm::toString(nodes.takeError());
  ASSERT_EQ(nodes->size(), 1u);
  EXPECT_EQ((*nodes)[0].speedup, 2.0);
  EXPECT_FALSE((*nodes)[0].llmCall);
  SkillRecord skill;
  skill.target = "cpu";
  skill.opKinds = "matmul";
  skill.gain = 1.5;
  ASSERT_TRUE(bool(store->addSkill(skill)));
  auto skills = store->findSkills("cpu", "fill,matmul", 5);
  ASSERT_TRUE(bool(skills));
  EXPECT_EQ(skills->size(), 1u); // shares the matmul
}

namespace {
/// Sets a run's holder and heartbeat as another process would.
void setHolder(llvm::StringRef path, int64_t run, const std::string &holder,
               double heartbeat) {
  sqlite3 *database = nullptr;
  ASSERT_EQ(sqlite3_open(path.str().c_str(), &database), SQLITE_OK);
  std::string sql = "UPDATE runs SET holder = '" + holder +
                    "', heartbeat = " + std::to_string(heartbeat) +
                    " WHERE id = " + std::to_string(run);
  ASSERT_EQ(sqlite3_exec(database, sql.c_str(), nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(database);
}

double secondsNow() {
  return std::chrono::duration<double>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string hostOf(const std::string &holder) {
  return holder.substr(holder.find('@') + 1);
}
} // namespace

TEST_F(StoreTest, ARunHasOneHolderAtATime) {
  std::unique_ptr<Store> store = openOrFail();
  ASSERT_TRUE(store);
  auto run = store->beginRun("h", "{}");
  ASSERT_TRUE(bool(run));
  std::string self = Store::getThisHolder();
  EXPECT_FALSE(bool(store->acquireRun(*run, 600))); // its own: fine
  ASSERT_FALSE(bool(store->renewRun(*run)));

  // A live process of this host holds it: refused, naming the holder.
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    sleep(30);
    _exit(0);
  }
  std::string other = std::to_string(child) + "@" + hostOf(self);
  setHolder(path, *run, other, secondsNow());
  llvm::Error refused = store->acquireRun(*run, 600);
  ASSERT_TRUE(bool(refused));
  EXPECT_NE(llvm::toString(std::move(refused)).find("is held by process " + other),
            std::string::npos);
  // Taken while we were not looking: our heartbeat says so.
  llvm::Error renewed = store->renewRun(*run);
  ASSERT_TRUE(bool(renewed));
  EXPECT_NE(llvm::toString(std::move(renewed)).find("taken over"),
            std::string::npos);

  // Its process died: the lease is stale and taken over.
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  EXPECT_FALSE(bool(store->acquireRun(*run, 600)));
  EXPECT_FALSE(bool(store->renewRun(*run)));

  // Another host: held while its heartbeat is fresh, stale after.
  setHolder(path, *run, "1@elsewhere", secondsNow() - 10);
  llvm::Error remote = store->acquireRun(*run, 600);
  EXPECT_TRUE(bool(remote));
  llvm::consumeError(std::move(remote));
  setHolder(path, *run, "1@elsewhere", secondsNow() - 700);
  EXPECT_FALSE(bool(store->acquireRun(*run, 600)));

  // A machine of the same name that was rebooted (or another one lent under
  // that name): its holder's pid is some live process here, but the boot
  // differs, so only its heartbeat counts, and a stale one is taken over.
  std::string hostName = hostOf(self).substr(0, hostOf(self).find('~'));
  setHolder(path, *run, std::to_string(getppid()) + "@" + hostName,
            secondsNow() - 700);
  EXPECT_FALSE(bool(store->acquireRun(*run, 600)));

  // Finishing releases it.
  ASSERT_FALSE(bool(store->finishRun(*run, "finished")));
  setHolder(path, *run, "", 0);
  EXPECT_FALSE(bool(store->acquireRun(*run, 600)));
}

TEST_F(StoreTest, ProcessesCreatingOneFileAtOnceAllSucceed) {
  constexpr int kProcesses = 6;
  std::vector<pid_t> children;
  for (int i = 0; i < kProcesses; ++i) {
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      auto store = Store::open(path);
      if (!store) {
        llvm::errs() << llvm::toString(store.takeError()) << "\n";
        _exit(1);
      }
      auto run = (*store)->beginRun("h", "{}");
      _exit(run ? 0 : 2);
    }
    children.push_back(child);
  }
  for (pid_t child : children) {
    int status = 0;
    waitpid(child, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
}
