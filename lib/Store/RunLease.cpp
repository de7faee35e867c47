//===- RunLease.cpp - one process at a time writes a run ------------------===//
//
// Two searches resuming the same run would evaluate the same IR twice and
// write two different "best" kernels. A run is held by "pid@host~boot" with
// a heartbeat; taking it is one exclusive transaction.
//
//===----------------------------------------------------------------------===//

#include "ke/Store/Store.h"
#include "Statement.h"
#include "ke/Support/ProcessState.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstdio>
#include <sqlite3.h>
#include <unistd.h>

using namespace ke::store;
using ke::store::detail::now;
using ke::store::detail::Statement;

namespace {
/// This machine as a lease names it: the host name and the start of the
/// kernel's boot id. Host names alone repeat (every machine lent for a
/// batch job may be called "vm"), and so do pids after a reboot: a holder
/// from another boot must not look alive because some process here got its
/// pid.
std::string getHostName() {
  char name[256] = {0};
  std::string host =
      gethostname(name, sizeof(name) - 1) == 0 ? name : "unknown-host";
  if (FILE *file = fopen("/proc/sys/kernel/random/boot_id", "r")) {
    char boot[9] = {0};
    if (fread(boot, 1, 8, file) == 8)
      host += std::string("~") + boot;
    fclose(file);
  }
  return host;
}

/// Whether the holder's process still runs: known only on this host.
std::optional<bool> isAliveHere(llvm::StringRef holder) {
  auto [pidText, host] = holder.split('@');
  long pid = 0;
  if (host != getHostName() || pidText.getAsInteger(10, pid) || pid <= 0)
    return std::nullopt;
  return ke::isProcessRunning(pid);
}
} // namespace

std::string Store::getThisHolder() {
  return std::to_string(getpid()) + "@" + getHostName();
}

llvm::Error Store::acquireRun(int64_t run, double staleSeconds) {
  if (llvm::Error error = execute("BEGIN IMMEDIATE;"))
    return error;
  auto rollback = [&](llvm::Error error) {
    llvm::consumeError(execute("ROLLBACK;"));
    return error;
  };
  std::string holder;
  std::optional<double> heartbeat;
  {
    Statement select(database,
                     "SELECT holder, heartbeat FROM runs WHERE id = ?");
    select.bind(1, run);
    if (!select.ok() || select.step() != SQLITE_ROW)
      return rollback(fail(llvm::formatv("no run {0}", run).str()));
    holder = select.getText(0);
    if (!select.isNull(1))
      heartbeat = select.getDouble(1);
  }
  std::string self = getThisHolder();
  if (!holder.empty() && holder != self) {
    double age = heartbeat ? now() - *heartbeat : 1e30;
    std::optional<bool> alive = isAliveHere(holder);
    bool held = alive ? *alive : age < staleSeconds;
    if (held)
      return rollback(llvm::createStringError(llvm::formatv(
          "database '{0}': run {1} is held by process {2} (last heartbeat "
          "{3:f0} s ago); wait for it to end or stop it, or start a new run "
          "(resume=false)",
          path, run, holder, age)));
  }
  Statement update(database,
                   "UPDATE runs SET holder = ?, heartbeat = ?, status = "
                   "'running', finished = NULL WHERE id = ?");
  update.bind(1, self);
  update.bind(2, now());
  update.bind(3, run);
  if (!update.ok() || update.step() != SQLITE_DONE)
    return rollback(fail("cannot take the run"));
  return execute("COMMIT;");
}

llvm::Error Store::renewRun(int64_t run) {
  Statement update(database,
                   "UPDATE runs SET heartbeat = ? WHERE id = ? AND holder = ?");
  update.bind(1, now());
  update.bind(2, run);
  update.bind(3, getThisHolder());
  if (!update.ok() || update.step() != SQLITE_DONE)
    return fail("cannot renew the run's lease");
  if (sqlite3_changes(database) == 0)
    return llvm::createStringError(llvm::formatv(
        "database '{0}': run {1} was taken over by another process", path,
        run));
  return llvm::Error::success();
}
