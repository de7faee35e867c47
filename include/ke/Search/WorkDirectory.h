//===- WorkDirectory.h - a search's scratch folder --------------*- C++ -*-===//

#ifndef KE_SEARCH_WORKDIRECTORY_H
#define KE_SEARCH_WORKDIRECTORY_H

#include "llvm/Support/Error.h"

#include <string>

namespace ke::search {

/// A fresh "ke-evolve-<pid>-XXXXXX" in `base` (default: the system's
/// temporary directory; for a cluster, a folder its nodes share). First
/// removes the ones processes of this host left there when they ended
/// without cleaning up (a search killed with SIGKILL); `removed` counts
/// them.
llvm::Expected<std::string> createWorkDirectory(unsigned &removed,
                                                llvm::StringRef base = "");

} // namespace ke::search

#endif // KE_SEARCH_WORKDIRECTORY_H
