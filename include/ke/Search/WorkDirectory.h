//===- WorkDirectory.h - a search's scratch folder --------------*- C++ -*-===//

#ifndef KE_SEARCH_WORKDIRECTORY_H
#define KE_SEARCH_WORKDIRECTORY_H

#include "llvm/Support/Error.h"

#include <string>

namespace ke::search {

/// A fresh "ke-evolve-<pid>-XXXXXX" in the system's temporary directory.
/// First removes the ones processes of this host left when they ended
/// without cleaning up (a search killed with SIGKILL); `removed` counts
/// them.
llvm::Expected<std::string> createWorkDirectory(unsigned &removed);

} // namespace ke::search

#endif // KE_SEARCH_WORKDIRECTORY_H
