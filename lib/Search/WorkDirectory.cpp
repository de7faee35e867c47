//===- WorkDirectory.cpp - a search's scratch folder ----------------------===//
//
// ke-evolve writes candidates and reports to a folder it removes when it
// ends, also on SIGINT/SIGTERM. A SIGKILL leaves it behind: the folder's
// name carries the pid, so the next search removes folders whose process
// no longer runs.
//
//===----------------------------------------------------------------------===//

#include "ke/Search/WorkDirectory.h"
#include "ke/Support/ProcessState.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <unistd.h>

using namespace ke::search;

static constexpr llvm::StringLiteral kPrefix = "ke-evolve-";

llvm::Expected<std::string>
ke::search::createWorkDirectory(unsigned &removed, llvm::StringRef base) {
  removed = 0;
  llvm::SmallString<128> temporary(base);
  if (base.empty())
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, temporary);
  else if (std::error_code error = llvm::sys::fs::make_absolute(temporary))
    return llvm::createStringError(error, "work-dir '" + base.str() +
                                              "': " + error.message());
  if (!llvm::sys::fs::is_directory(temporary))
    return llvm::createStringError("work-dir '" + base.str() +
                                   "' is not a directory");
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator entry(temporary, ec), end;
       entry != end && !ec; entry.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(entry->path());
    if (!name.consume_front(kPrefix))
      continue;
    long pid = 0;
    if (name.split('-').first.getAsInteger(10, pid) || pid <= 0 ||
        pid == getpid())
      continue;
    if (ke::isProcessRunning(pid))
      continue; // still running (or another user's)
    if (!llvm::sys::fs::remove_directories(entry->path()))
      ++removed;
  }
  llvm::SmallString<128> directory;
  llvm::SmallString<128> prefix(temporary);
  llvm::sys::path::append(prefix, kPrefix + std::to_string(getpid()));
  if (std::error_code error =
          llvm::sys::fs::createUniqueDirectory(prefix, directory))
    return llvm::createStringError(error, "cannot create a work directory: " +
                                              error.message());
  return std::string(directory);
}
