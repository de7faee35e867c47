//===- RetryPolicy.cpp - backoff with jitter ------------------------------===//

#include "ke/LLM/RetryPolicy.h"

#include <algorithm>
#include <cmath>

using namespace ke::llm;

bool RetryPolicy::isRetryable(const HttpResponse &response) {
  if (response.status == 0)
    return true; // timeout or no connection: transient as far as we know
  return response.status == 429 || response.status == 408 ||
         response.status >= 500;
}

double RetryPolicy::delayAfter(unsigned attempt, const HttpResponse &response) {
  if (response.retryAfterSeconds)
    return std::min(*response.retryAfterSeconds, maxSeconds);
  double ceiling =
      std::min(maxSeconds, baseSeconds * std::ldexp(1.0, attempt - 1));
  std::uniform_real_distribution<double> jitter(0.5 * ceiling, ceiling);
  return jitter(random);
}
