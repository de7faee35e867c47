//===- HttpTransport.h - one HTTP request, through libcurl ------*- C++ -*-===//

#ifndef KE_LLM_HTTPTRANSPORT_H
#define KE_LLM_HTTPTRANSPORT_H

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ke::llm {

struct HttpRequest {
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  double timeoutSeconds = 120.0;
};

struct HttpResponse {
  long status = 0; ///< 0: no HTTP answer (see transportError)
  std::string body;
  std::optional<double> retryAfterSeconds;
  std::string transportError; ///< connection refused, DNS, ...
  bool timedOut = false;
};

class HttpTransport {
public:
  virtual ~HttpTransport();
  virtual HttpResponse post(const HttpRequest &request) = 0;
  /// A GET of `request.url` (the body is ignored). Transports that cannot
  /// answer with a transport error.
  virtual HttpResponse get(const HttpRequest &request);
};

/// The real transport (libcurl).
class CurlTransport : public HttpTransport {
public:
  CurlTransport();
  HttpResponse post(const HttpRequest &request) override;
  HttpResponse get(const HttpRequest &request) override;

private:
  HttpResponse perform(const HttpRequest &request, bool isPost);
};

} // namespace ke::llm

#endif // KE_LLM_HTTPTRANSPORT_H
