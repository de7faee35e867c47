//===- CallEndMarkerTest.cpp - which event ends a timed GPU call ----------===//

#include "ke/Runtime/CallEndMarker.h"

#include <gtest/gtest.h>

using ke::runtime::CallEndMarker;

namespace {
int event; // any address stands for an event
} // namespace

TEST(CallEndMarkerTest, TheLastWaitEndsTheCall) {
  CallEndMarker marker;
  marker.begin(&event);
  EXPECT_EQ(marker.eventAtWait(), &event);
  // Not recorded yet: the event after the call is used.
  EXPECT_FALSE(marker.endsCall(3));
  marker.recorded(3);
  EXPECT_TRUE(marker.endsCall(3));
  // A second wait later in the call moves the end.
  marker.recorded(5);
  EXPECT_TRUE(marker.endsCall(5));
}

TEST(CallEndMarkerTest, ALaunchAfterTheWaitIsNotMissed) {
  CallEndMarker marker;
  marker.begin(&event);
  marker.recorded(3);
  EXPECT_FALSE(marker.endsCall(4));
}

TEST(CallEndMarkerTest, EachCallStartsUnrecordedAndOffMeansNone) {
  CallEndMarker marker;
  marker.begin(&event);
  marker.recorded(3);
  marker.begin(&event);
  EXPECT_FALSE(marker.endsCall(3));
  marker.begin(nullptr);
  EXPECT_EQ(marker.eventAtWait(), nullptr);
  marker.recorded(3);
  EXPECT_FALSE(marker.endsCall(3));
}
