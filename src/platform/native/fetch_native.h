// The fetch seam's twin (core/stream/fetch_seam.h): answers from a byte source (files in memory
// or a directory) instead of the network, as a Range-honouring static server would, with a
// cache in memory and faults to inject per file: HTTP errors, a server that ignores Range, a
// truncated or corrupted body, a dropped connection, a stall, a host that trickles, a 429 with
// Retry-After, a redirect the browser would not follow, a full cache. Like the page's transport it
// stops a body at the request's max_bytes (answering `cut`) and sends each file's ETag. Nothing in
// it is specific to a platform, so the streaming tests run natively and as wasm.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "core/io/byte_source.h"
#include "core/stream/cache_lru.h"
#include "core/stream/fetch_seam.h"

struct fetch_fault {
  int status = 0;          // answer this HTTP status instead (404, 416, 500, ...)
  bool ignore_range = false;  // 200 with the whole file
  bool truncate = false;   // the body stops halfway
  bool corrupt = false;    // one byte flipped
  bool drop = false;       // the connection drops: status 0
  bool stall = false;      // never answers
  uint64_t trickle = 0;    // sends this many bytes per deliver() and never finishes (a 1 byte/s host)
  double retry_after = -1; // with status 429: the Retry-After it sends
  bool redirect_failed = false;  // status 0 after a redirect the browser would not follow
  int times = -1;          // how many requests it hits (-1: all)
  uint64_t from_byte = 0;  // only ranges that begin here or later, and the whole file (its weights, not its header)
};

struct native_fetch : fetch_client {
  byte_source* files = nullptr;
  std::string base;  // URLs under this prefix map to files; others are 404
  std::map<std::string, fetch_fault> faults;  // by file name
  std::map<std::string, std::string> etags;   // the ETag each file is sent with (none when absent)
  // Where a whole answer (no Range) is sent with another ETag than the file's ranges: Apache names
  // its compressed answers so ("\"v1-gzip\"").
  std::map<std::string, std::string> whole_etags;
  std::string repo_commit;                     // sent with every answer as the Hub's X-Repo-Commit ("" : none)
  std::map<std::string, std::string> cache;
  size_t cache_quota = (size_t)-1, cache_used = 0;  // the storage's quota (full: "quota")
  cache_lru lru;  // the cache's own byte budget, as in the page: least recently used out
  bool offline = false;  // every network request fails (status 0)
  // A cancelled request still answers (the browser raced the cancel): sinks must drop it.
  bool answer_after_cancel = false;
  // A browser's HTTP cache racing itself: Chromium, given two range requests of one URL at once
  // (the host's answers are cacheable: an ETag, max-age=0), sometimes sent the later one to the
  // host twice after the 302 (seen in the browser tests under load: one request by the page, two
  // at the host). Modelled as always: such a request's bytes are sent twice, unless it goes past
  // the HTTP cache (fetch_request::fresh: the page's `cache: "no-store"`), as every checkpoint
  // range does, so several ranges of one file may be in flight at once.
  bool cache_race = false;
  // What went over the "network", for the tests' byte counts (a cut body counts what came).
  uint64_t network_bytes = 0;
  uint64_t largest_body = 0;  // the largest body it handed to a sink (the memory a hostile file could take)
  int network_requests = 0, cache_hits = 0;
  int in_place_reads = 0;  // cache hits whose record went straight to fetch_request::cache_into
  std::vector<std::string> requested;  // file names in request order
  std::vector<std::pair<uint64_t, uint64_t>> requested_ranges;  // beside them: [begin, begin + length) (0, 0: the whole file)

  uint32_t fetch_start(fetch_sink* sink, const fetch_request& request) override;
  void fetch_cancel(uint32_t id) override;
  void forget_sink(fetch_sink* sink) override;
  void cache_store(fetch_sink* sink, const std::string& cache_key, const void* data, size_t n) override;
  uint64_t cache_clear(const std::string& prefix) override;
  uint64_t cache_bytes() const override { return lru.bytes(); }
  bool cache_has(const std::string& key) const override { return cache_index_known && lru.has(key); }
  bool cache_known() const override { return cache_index_known; }
  bool cache_index_known = true;  // false: as the page before its IndexedDB index is read (has: no)
  // Answers every pending request (in order) into its sink, as the browser would between
  // frames; stalled ones stay pending. Returns how many were answered.
  int deliver(double now);
  size_t pending() const;
  size_t pending_into() const;  // of them, requests that may read a record straight in (cache_into)
  std::vector<std::string> pending_urls() const;  // what is in flight now

 private:
  struct request { uint32_t id; fetch_sink* sink; fetch_request q; bool cancelled; bool doubled; uint64_t trickled; };
  std::deque<request> queue;
  uint32_t next_id = 1;
  std::vector<std::pair<fetch_sink*, std::string>> store_failures;
  std::vector<uint32_t> stalled_ids;  // never answered (until cancelled)
  std::map<uint32_t, uint64_t> trickling;  // id -> bytes per deliver
  bool answer(const request& q, fetch_response* r, std::string* body);
};
