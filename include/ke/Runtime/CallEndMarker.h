//===- CallEndMarker.h - which event ends a timed GPU call ----------------===//
//
// A timed call ends by waiting for its stream. An event recorded on the
// stream right before that wait marks the end of the call's GPU work; one
// recorded after the call returns also counts the host's wake-up from the
// wait. The marker says which to use: the one at the last wait, unless
// something was launched after it.
//
//===----------------------------------------------------------------------===//

#ifndef KE_RUNTIME_CALLENDMARKER_H
#define KE_RUNTIME_CALLENDMARKER_H

#include <cstdint>

namespace ke::runtime {

class CallEndMarker {
public:
  /// Starts a call whose end `event` is to mark (null: marking off).
  void begin(void *event) {
    this->event = event;
    launchesAtMark = kNotRecorded;
  }
  /// The event to record at a wait on the call's stream, or null.
  void *eventAtWait() const { return event; }
  /// The event was recorded at a wait, `launches` kernels launched so far.
  void recorded(uint64_t launches) { launchesAtMark = launches; }
  /// Whether the event ends the call's GPU work: recorded at a wait after
  /// which nothing more was launched (`launches` so far).
  bool endsCall(uint64_t launches) const {
    return event && launchesAtMark == launches;
  }

private:
  static constexpr uint64_t kNotRecorded = ~uint64_t(0);
  void *event = nullptr;
  uint64_t launchesAtMark = kNotRecorded;
};

} // namespace ke::runtime

#endif // KE_RUNTIME_CALLENDMARKER_H
