//===- ProcessState.h - whether a process of this host runs -----*- C++ -*-===//
//
// Leases and work folders name the process that owns them; an owner that no
// longer runs has abandoned them.
//
//===----------------------------------------------------------------------===//

#ifndef KE_SUPPORT_PROCESSSTATE_H
#define KE_SUPPORT_PROCESSSTATE_H

#include <cerrno>
#include <csignal>
#include <fstream>
#include <string>

namespace ke {

/// Whether process `pid` of this host still runs: it exists (perhaps as
/// another user's) and is not a zombie, a process that ended and that its
/// parent has not reaped yet.
inline bool isProcessRunning(long pid) {
  if (pid <= 0)
    return false;
  if (kill(static_cast<pid_t>(pid), 0) != 0 && errno != EPERM)
    return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line))
    return true;
  // "pid (name) state ...": the name may hold spaces and parentheses.
  size_t close = line.rfind(')');
  return close == std::string::npos || close + 2 >= line.size() ||
         line[close + 2] != 'Z';
}

} // namespace ke

#endif // KE_SUPPORT_PROCESSSTATE_H
