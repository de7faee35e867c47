//===- StopSignals.h - SIGTERM and SIGINT as a clean stop -------*- C++ -*-===//
//
// A search that is asked to stop (Ctrl-C, a job scheduler's SIGTERM) ends
// after the evaluations in flight: everything evaluated stays committed, the
// summary is printed, the work directory removed, and the run can be resumed.
//
//===----------------------------------------------------------------------===//

#ifndef KE_SEARCH_STOPSIGNALS_H
#define KE_SEARCH_STOPSIGNALS_H

#include <csignal>

namespace ke::search {

/// While alive, SIGTERM and SIGINT only record that a stop was asked for;
/// the previous handlers come back when it is destroyed.
class ScopedStopSignals {
public:
  ScopedStopSignals();
  ~ScopedStopSignals();
  ScopedStopSignals(const ScopedStopSignals &) = delete;
  ScopedStopSignals &operator=(const ScopedStopSignals &) = delete;

private:
  struct sigaction previousTerm = {}, previousInt = {};
};

/// The signal that asked the search to stop, or 0.
int getStopSignal();

} // namespace ke::search

#endif // KE_SEARCH_STOPSIGNALS_H
