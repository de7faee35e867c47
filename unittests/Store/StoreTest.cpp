//===- StoreTest.cpp - the search database --------------------------------===//

#include "ke/Store/Store.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <sqlite3.h>

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
