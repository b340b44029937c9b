// The seam between the pack streamer (pack_stream.h, core) and the network: the page implements
// it with emscripten-fetch and IndexedDB (platform/web/fetch_web.cpp), the tests with files in
// memory and injected faults (platform/native/fetch_native.h). Answers come back asynchronously
// through pack_stream_on_progress / pack_stream_on_response / pack_stream_on_store_failed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

struct fetch_client {
  virtual ~fetch_client() = default;
  // GET url, asking for bytes [begin, begin + length) with a Range header (length 0: the whole
  // file, no Range). cache_key non-empty: look in the verified cache; cache_first says whether to
  // look there before the network (weights) or only when the network fails (the manifest).
  virtual void fetch_start(uint32_t id, const std::string& url, uint64_t begin, uint64_t length,
                           const std::string& cache_key, bool cache_first) = 0;
  virtual void fetch_cancel(uint32_t id) = 0;
  // Keeps bytes the streamer has verified, for the next visit and for offline use.
  virtual void cache_store(const std::string& cache_key, const void* data, size_t n) = 0;
};

struct fetch_response {
  int status = 0;            // HTTP status; 0 when the request never got one (network error)
  bool from_cache = false;
  const void* body = nullptr;  // as delivered: the whole file on 200, the range on 206
  size_t n = 0;
  uint64_t content_range_start = 0;  // from Content-Range on 206 (0 when absent)
  std::string error;         // the platform's words when status is 0
};
