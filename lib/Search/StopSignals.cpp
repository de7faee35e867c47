//===- StopSignals.cpp - SIGTERM and SIGINT as a clean stop ---------------===//

#include "ke/Search/StopSignals.h"

using namespace ke::search;

static volatile sig_atomic_t stopSignal = 0;

static void onStopSignal(int signal) { stopSignal = signal; }

ScopedStopSignals::ScopedStopSignals() {
  stopSignal = 0;
  struct sigaction action = {};
  action.sa_handler = onStopSignal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGTERM, &action, &previousTerm);
  sigaction(SIGINT, &action, &previousInt);
}

ScopedStopSignals::~ScopedStopSignals() {
  sigaction(SIGTERM, &previousTerm, nullptr);
  sigaction(SIGINT, &previousInt, nullptr);
}

int ke::search::getStopSignal() { return stopSignal; }
