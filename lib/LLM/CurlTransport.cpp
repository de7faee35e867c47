//===- CurlTransport.cpp - HTTP requests through libcurl ------------------===//

#include "ke/LLM/HttpTransport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <curl/curl.h>
#include <mutex>

using namespace ke::llm;

HttpTransport::~HttpTransport() = default;

HttpResponse HttpTransport::get(const HttpRequest &) {
  HttpResponse response;
  response.transportError = "this transport does not send GET requests";
  return response;
}

namespace {
size_t appendBody(char *data, size_t size, size_t count, void *user) {
  static_cast<std::string *>(user)->append(data, size * count);
  return size * count;
}

size_t readHeader(char *data, size_t size, size_t count, void *user) {
  llvm::StringRef line(data, size * count);
  auto [name, value] = line.split(':');
  if (name.trim().equals_insensitive("retry-after")) {
    double seconds = 0;
    // Only the delay-seconds form; an HTTP date falls back to backoff.
    if (!value.trim().getAsDouble(seconds) && seconds >= 0)
      static_cast<HttpResponse *>(user)->retryAfterSeconds = seconds;
  }
  return size * count;
}
} // namespace

CurlTransport::CurlTransport() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

HttpResponse CurlTransport::post(const HttpRequest &request) {
  return perform(request, /*isPost=*/true);
}

HttpResponse CurlTransport::get(const HttpRequest &request) {
  return perform(request, /*isPost=*/false);
}

HttpResponse CurlTransport::perform(const HttpRequest &request, bool isPost) {
  HttpResponse response;
  CURL *curl = curl_easy_init();
  if (!curl) {
    response.transportError = "cannot initialize libcurl";
    return response;
  }
  curl_slist *headers = nullptr;
  for (const auto &[name, value] : request.headers)
    headers = curl_slist_append(headers, (name + ": " + value).c_str());
  char errorBuffer[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  if (isPost) {
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE,
                     static_cast<long>(request.body.size()));
  }
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, appendBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response.body);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, readHeader);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &response);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS,
                   static_cast<long>(request.timeoutSeconds * 1000));
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errorBuffer);
  CURLcode code = curl_easy_perform(curl);
  if (code == CURLE_OK) {
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
  } else {
    response.timedOut = code == CURLE_OPERATION_TIMEDOUT;
    response.transportError =
        errorBuffer[0] ? errorBuffer : curl_easy_strerror(code);
  }
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return response;
}
