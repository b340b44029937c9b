// The scheduling half of a layer source: the byte ranges it may need, which of them are in
// flight, their progress and their stalls. A source lists its items once, then each pump says
// which are needed and how urgent they are; the queue starts the most urgent, at most
// max_in_flight at a time (sokol_fetch's "lanes"), and gives up one that brings too little for
// too long: fewer than stall_min_bytes (or all it still has to bring) in a window of stall_seconds,
// so a host trickling a byte a second stalls as surely as one that sends nothing. A 429 is
// honoured once: the item waits its Retry-After (or 2 s when it cannot be read), then is asked again. Answers and verification stay with the source: it finds the item an answer
// belongs to and marks it done or failed. Pure core: no clock of its own, no platform.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/stream/fetch_seam.h"
#include "core/stream/stream_error.h"

enum { FETCH_QUEUE_MAX_IN_FLIGHT = 2 };
#define FETCH_QUEUE_STALL_SECONDS 20.0  // the page's default window; tests pass a shorter one
// Bytes a request must bring per window: 16 KiB in 20 s (0.8 KB/s), far under a 2G link's 5 KB/s
// or fast 3G's 200 KB/s; a host sending a byte a second (20 bytes a window) stalls.
#define FETCH_QUEUE_STALL_MIN_BYTES (16u << 10)
// The longest Retry-After honoured: a host that asks for more is said to refuse, and Retry is the user's.
#define FETCH_QUEUE_RETRY_AFTER_MAX 60.0
// A 429 whose Retry-After the page cannot read (none sent, or another origin's answer whose CORS
// does not expose the header) waits this long, once, like one that said so.
#define FETCH_QUEUE_RETRY_AFTER_UNREAD 2.0

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
  uint64_t loaded = 0;        // of `bytes`, for progress
  uint64_t received = 0;      // body bytes come so far (a whole file's may pass `bytes`)
  double window_start = 0;    // the stall rule's window: its start and `received` then
  uint64_t window_received = 0;
  double not_before = 0;      // a 429's Retry-After: not asked again before this time (0 once it is)
  double waited = 0;          // seconds a 429 made it wait already (once only)
  bool bypass_cache = false;  // its cached copy failed verification: ask the network
  stream_error error;
};

struct fetch_queue {
  fetch_client* client = nullptr;
  fetch_sink* sink = nullptr;
  int max_in_flight = FETCH_QUEUE_MAX_IN_FLIGHT;
  double stall_seconds = FETCH_QUEUE_STALL_SECONDS;
  uint64_t stall_min_bytes = FETCH_QUEUE_STALL_MIN_BYTES;
  double now = 0;       // the last expire's time: a 429's wait is measured against it
  bool paused = false;  // after Cancel, until Retry
  std::vector<fetch_item> items;
  uint64_t bytes_network = 0, bytes_cache = 0;
};

// Gives up requests that brought too little in their window (STREAM_STALLED); returns how many
// are in flight.
int fetch_queue_expire(fetch_queue* q, double now);
// The most urgent needed idle item whose Retry-After has passed, or null (also when paused).
fetch_item* fetch_queue_next(fetch_queue* q);
// The same among the items `may_start(item)` lets start now (a source with two kinds of request,
// one of them full, starts the most urgent item of the other).
template <class MayStart>
fetch_item* fetch_queue_next(fetch_queue* q, MayStart may_start) {
  if (q->paused) return nullptr;
  fetch_item* best = nullptr;
  for (fetch_item& it : q->items)
    if (it.state == FETCH_ITEM_IDLE && it.needed && (!best || it.priority < best->priority) && it.not_before <= q->now &&
        may_start(it))
      best = &it;
  return best;
}
void fetch_queue_start(fetch_queue* q, fetch_item* it, double now);
// The loading item an answer belongs to, or null (cancelled, superseded, or never ours).
fetch_item* fetch_queue_find(fetch_queue* q, uint32_t id);
void fetch_queue_on_progress(fetch_queue* q, uint32_t id, uint64_t loaded, double now);
// The source accepted the item's bytes / rejected them.
void fetch_queue_done(fetch_queue* q, fetch_item* it);
void fetch_queue_fail(fetch_queue* q, fetch_item* it, const stream_error& e);
// A cached copy that failed verification: drop it and ask the network next time round.
void fetch_queue_refetch(fetch_item* it);
// A 429 with a Retry-After of at most FETCH_QUEUE_RETRY_AFTER_MAX (FETCH_QUEUE_RETRY_AFTER_UNREAD
// when it cannot be read), the first time: the item waits that long, then is asked again (true). Otherwise false: the caller fails it, and a second 429
// says how long it waited.
bool fetch_queue_retry_later(fetch_queue* q, fetch_item* it, const fetch_response& r);
// The fault of an answer with no usable body (fetch_answer_error), with the wait a 429 was given.
stream_error fetch_queue_answer_error(const fetch_item* it, const fetch_response& r);
// Counts an answer's body towards bytes_network / bytes_cache.
void fetch_queue_count(fetch_queue* q, const fetch_response& r);
// Cancel: what is in flight fails as cancelled, nothing new starts until retry.
void fetch_queue_cancel(fetch_queue* q);
void fetch_queue_retry(fetch_queue* q);
// Cancels everything in flight and forgets the items (opening another source).
void fetch_queue_close(fetch_queue* q);
int fetch_queue_loading(const fetch_queue* q);
