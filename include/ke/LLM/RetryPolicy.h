//===- RetryPolicy.h - when and how long to wait before a retry -*- C++ -*-===//

#ifndef KE_LLM_RETRYPOLICY_H
#define KE_LLM_RETRYPOLICY_H

#include "ke/LLM/HttpTransport.h"

#include <cstdint>
#include <random>

namespace ke::llm {

class RetryPolicy {
public:
  RetryPolicy(unsigned maxRetries, double baseSeconds, double maxSeconds,
              uint64_t seed)
      : maxRetries(maxRetries), baseSeconds(baseSeconds),
        maxSeconds(maxSeconds), random(seed) {}

  /// Rate limits (429), server errors (5xx), timeouts and failed
  /// connections are worth another try; other answers are not.
  static bool isRetryable(const HttpResponse &response);
  /// Whether attempt `attempt` (1-based) may be followed by another.
  bool allowsAnother(unsigned attempt) const { return attempt <= maxRetries; }
  /// Seconds to wait after failed attempt `attempt`: the server's
  /// Retry-After when it gave one, else base * 2^(attempt-1) with "full
  /// jitter" (uniform in [half, all] of it); capped at the maximum.
  double delayAfter(unsigned attempt, const HttpResponse &response);

private:
  unsigned maxRetries;
  double baseSeconds, maxSeconds;
  std::mt19937_64 random;
};

} // namespace ke::llm

#endif // KE_LLM_RETRYPOLICY_H
