// The seam between whoever wants bytes from the network (a layer source, the page's fonts) and
// the transport: the page implements it with fetch() and IndexedDB
// (platform/web/fetch_web.cpp), the tests with files in memory and injected faults
// (platform/native/fetch_native.h). Data walks one way: the caller starts a request and names the
// sink its answers go to; the transport never knows what it carries.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

struct fetch_response {
  int status = 0;            // HTTP status; 0 when the request never got one (network error)
  bool from_cache = false;
  const void* body = nullptr;  // as delivered: the whole file on 200, the range on 206
  size_t n = 0;
  uint64_t content_range_start = 0;  // from Content-Range on 206 (0 when absent)
  uint64_t total_size = 0;           // the file's size from Content-Range ".../SIZE" or a 200's length (0: unknown)
  std::string etag;                  // the ETag header the server sent (and exposed), never a cache's
  // The Hugging Face Hub's X-Repo-Commit: the commit a file was served from (the branch or tag of
  // the link resolved), where the host sent it and CORS lets the page read it; "" otherwise.
  std::string repo_commit;
  std::string error;         // the platform's words when status is 0
  // The body passed the request's max_bytes and the transport stopped it as it arrived: body is
  // empty and n says how many bytes had come (more than max_bytes). Nothing of it is kept.
  bool cut = false;
  double retry_after = -1;   // a 429's Retry-After in seconds (-1: none sent)
  // status 0 after the host answered with a redirect the browser would not follow to its end (a
  // loop, another scheme, or a target that refuses this page by CORS), where the platform can tell.
  bool redirect_failed = false;
  // from_cache: the record's first request.cache_into_bytes bytes are at request.cache_into, and
  // body holds the rest of it.
  bool in_place = false;
};

// Where answers go. Called between frames, never from inside fetch_start.
struct fetch_sink {
  virtual ~fetch_sink() = default;
  virtual void on_fetch_progress(uint32_t id, uint64_t loaded, double now) = 0;
  virtual void on_fetch_response(uint32_t id, const fetch_response& r, double now) = 0;
  // The verified cache refused bytes this sink stored: "quota" (full) or "unavailable".
  virtual void on_store_failed(const std::string& why) = 0;
};

struct fetch_request {
  std::string url;
  uint64_t begin = 0, length = 0;  // bytes [begin, begin + length) with a Range header; length 0: the whole file
  // Non-empty: the verified cache's key. cache_first: look there before the network (weights);
  // otherwise only when the network fails (the manifest, which a teacher may have re-made).
  std::string cache_key;
  bool cache_first = false;
  // The transport stops the body once more than this many bytes have come, as they arrive (a
  // 3 GiB config.json is cut at its limit instead of filling the memory), and answers `cut`.
  // 0: no limit (the request's own length bounds a 206).
  uint64_t max_bytes = 0;
  // Past every HTTP cache, straight from the host: the answer's identity (its ETag and size) is
  // checked against the file's, so it must be the host's own (a browser revalidating a cached
  // range with If-Range reports the cached ETag while the host sends the new file's bytes).
  bool fresh = false;
  // A cache_first read may put the record's first cache_into_bytes bytes straight at cache_into
  // (the result's own memory, where the record is laid out as the result holds it) and answer
  // with the rest as the body (fetch_response::in_place): a warm start then copies nothing. The
  // transport writes there only while the request is live (not after fetch_cancel or
  // forget_sink), and the sink uses those bytes only once the answer's check passes.
  void* cache_into = nullptr;
  size_t cache_into_bytes = 0;
};

struct fetch_client {
  virtual ~fetch_client() = default;
  // Starts a GET whose answers go to `sink`; returns its id (never 0, unique for this client).
  virtual uint32_t fetch_start(fetch_sink* sink, const fetch_request& request) = 0;
  // After this the sink hears nothing more of `id` (a late answer that raced it is dropped by
  // the sink, which no longer knows the id).
  virtual void fetch_cancel(uint32_t id) = 0;
  // Keeps bytes the sink has verified, for the next visit and for offline use.
  virtual void cache_store(fetch_sink* sink, const std::string& cache_key, const void* data, size_t n) = 0;
  // The sink is going away: nothing more is delivered to it (requests, store answers).
  virtual void forget_sink(fetch_sink* sink) = 0;
  // Forgets every cached blob whose key starts with prefix ("" = all): the page's "clear cache".
  // Returns the bytes it freed. Both transports bound the cache the same way (cache_lru.h).
  virtual uint64_t cache_clear(const std::string& prefix) { (void)prefix; return 0; }
  virtual uint64_t cache_bytes() const { return 0; }  // what the verified cache holds now
  // The verified cache holds a blob under `key` (so a request for it will not use the network).
  virtual bool cache_has(const std::string& key) const { (void)key; return false; }
  // The cache's list of blobs is read, so cache_has answers for every blob (the page's IndexedDB
  // index loads while the page starts, and a fast host can answer before it is in).
  virtual bool cache_known() const { return true; }
};
