// The scheduling half of a layer source: the byte ranges it may need, which of them are in
// flight, their progress and their stalls. A source lists its items once, then each pump says
// which are needed and how urgent they are; the queue starts the most urgent, at most
// max_in_flight at a time (sokol_fetch's "lanes"), and gives up one that brings no byte for
// stall_seconds. Answers and verification stay with the source: it finds the item an answer
// belongs to and marks it done or failed. Pure core: no clock of its own, no platform.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/stream/fetch_seam.h"
#include "core/stream/stream_error.h"

enum { FETCH_QUEUE_MAX_IN_FLIGHT = 2 };
#define FETCH_QUEUE_STALL_SECONDS 20.0  // the page's default; tests pass a shorter one

enum fetch_item_state { FETCH_ITEM_IDLE, FETCH_ITEM_LOADING, FETCH_ITEM_DONE, FETCH_ITEM_FAILED };

struct fetch_item {
  fetch_request request;  // url, range and cache key
  uint64_t bytes = 0;     // what it should bring (progress)
  int owner_tag = 0;      // the source's own index for it
  // Set by the source before each pump:
  bool needed = false;
  int priority = 0;       // lower is sooner
  // Kept by the queue:
  fetch_item_state state = FETCH_ITEM_IDLE;
  uint32_t id = 0;
  uint64_t loaded = 0;
  double last_progress = 0;
  bool bypass_cache = false;  // its cached copy failed verification: ask the network
  stream_error error;
};

struct fetch_queue {
  fetch_client* client = nullptr;
  fetch_sink* sink = nullptr;
  int max_in_flight = FETCH_QUEUE_MAX_IN_FLIGHT;
  double stall_seconds = FETCH_QUEUE_STALL_SECONDS;
  bool paused = false;  // after Cancel, until Retry
  // At most one request per URL in flight: a browser's HTTP cache, given two range requests of one
  // URL at once, may send one of them to the host twice (native_fetch::cache_race).
  bool one_per_url = false;
  std::vector<fetch_item> items;
  uint64_t bytes_network = 0, bytes_cache = 0;
};

// Gives up requests that brought nothing for stall_seconds; returns how many are in flight.
int fetch_queue_expire(fetch_queue* q, double now);
// The most urgent needed idle item, or null (also when paused).
fetch_item* fetch_queue_next(fetch_queue* q);
void fetch_queue_start(fetch_queue* q, fetch_item* it, double now);
// The loading item an answer belongs to, or null (cancelled, superseded, or never ours).
fetch_item* fetch_queue_find(fetch_queue* q, uint32_t id);
void fetch_queue_on_progress(fetch_queue* q, uint32_t id, uint64_t loaded, double now);
// The source accepted the item's bytes / rejected them.
void fetch_queue_done(fetch_queue* q, fetch_item* it);
void fetch_queue_fail(fetch_queue* q, fetch_item* it, const stream_error& e);
// A cached copy that failed verification: drop it and ask the network next time round.
void fetch_queue_refetch(fetch_item* it);
// Counts an answer's body towards bytes_network / bytes_cache.
void fetch_queue_count(fetch_queue* q, const fetch_response& r);
// Cancel: what is in flight fails as cancelled, nothing new starts until retry.
void fetch_queue_cancel(fetch_queue* q);
void fetch_queue_retry(fetch_queue* q);
// Cancels everything in flight and forgets the items (opening another source).
void fetch_queue_close(fetch_queue* q);
int fetch_queue_loading(const fetch_queue* q);
