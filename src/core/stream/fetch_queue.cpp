// Scheduling of byte ranges (see fetch_queue.h).
#include "core/stream/fetch_queue.h"

int fetch_queue_expire(fetch_queue* q, double now) {
  q->now = now;
  int loading = 0;
  for (fetch_item& it : q->items) {
    if (it.state != FETCH_ITEM_LOADING) continue;
    if (now - it.window_start <= q->stall_seconds) {
      loading++;
      continue;
    }
    // The window is over: enough came (or all that was still to come), or it has stalled. With
    // nothing left to come, the answer itself is late: one byte stands for it.
    const uint64_t left = it.bytes > it.received ? it.bytes - it.received : 0;
    uint64_t need = it.bytes > 0 && left < q->stall_min_bytes ? left : q->stall_min_bytes;
    if (need == 0) need = 1;
    const uint64_t came = it.received - it.window_received;
    if (came >= need) {
      it.window_start = now;
      it.window_received = it.received;
      loading++;
      continue;
    }
    q->client->fetch_cancel(it.id);
    it.state = FETCH_ITEM_FAILED;
    it.error = stream_error();
    it.error.fault = STREAM_STALLED;
    it.error.seconds = q->stall_seconds;
    it.error.got = came;
  }
  return loading;
}

fetch_item* fetch_queue_next(fetch_queue* q) {
  return fetch_queue_next(q, [](const fetch_item&) { return true; });
}

void fetch_queue_start(fetch_queue* q, fetch_item* it, double now) {
  it->state = FETCH_ITEM_LOADING;
  it->loaded = it->received = it->window_received = 0;
  it->window_start = now;
  it->not_before = 0;
  it->error = stream_error();
  fetch_request r = it->request;
  if (it->bypass_cache) r.cache_key.clear();
  it->id = q->client->fetch_start(q->sink, r);
}

fetch_item* fetch_queue_find(fetch_queue* q, uint32_t id) {
  if (id == 0) return nullptr;
  for (fetch_item& it : q->items)
    if (it.state == FETCH_ITEM_LOADING && it.id == id) return &it;
  return nullptr;
}

void fetch_queue_on_progress(fetch_queue* q, uint32_t id, uint64_t loaded, double now) {
  (void)now;  // the stall rule looks at windows (fetch_queue_expire)
  if (fetch_item* it = fetch_queue_find(q, id)) {
    it->received = loaded;
    it->loaded = loaded < it->bytes ? loaded : it->bytes;
  }
}

void fetch_queue_done(fetch_queue*, fetch_item* it) {
  it->state = FETCH_ITEM_DONE;
  it->waited = 0;  // a later request of it may be told to wait once again
  it->loaded = it->bytes;
  it->bypass_cache = false;
  it->error = stream_error();
}

void fetch_queue_fail(fetch_queue*, fetch_item* it, const stream_error& e) {
  it->state = FETCH_ITEM_FAILED;
  it->error = e;
  if (e.fault == STREAM_TOO_MANY_REQUESTS) it->error.seconds = it->waited;
}

bool fetch_queue_retry_later(fetch_queue* q, fetch_item* it, const fetch_response& r) {
  const double wait = r.retry_after >= 0 ? r.retry_after : FETCH_QUEUE_RETRY_AFTER_UNREAD;
  if (r.from_cache || r.status != 429 || wait > FETCH_QUEUE_RETRY_AFTER_MAX || it->waited > 0) return false;
  it->state = FETCH_ITEM_IDLE;
  it->waited = wait > 0 ? wait : 0.001;  // "0": asked again at once, but only once
  it->not_before = q->now + wait;
  return true;
}

void fetch_queue_refetch(fetch_item* it) {
  it->state = FETCH_ITEM_IDLE;
  it->bypass_cache = true;
}

stream_error fetch_queue_answer_error(const fetch_item* it, const fetch_response& r) {
  stream_error e = fetch_answer_error(r);
  if (e.fault == STREAM_TOO_MANY_REQUESTS) e.seconds = it->waited;
  return e;
}

void fetch_queue_count(fetch_queue* q, const fetch_response& r) { (r.from_cache ? q->bytes_cache : q->bytes_network) += r.n; }

void fetch_queue_cancel(fetch_queue* q) {
  for (fetch_item& it : q->items)
    if (it.state == FETCH_ITEM_LOADING) {
      q->client->fetch_cancel(it.id);
      it.state = FETCH_ITEM_FAILED;
      it.error = stream_error();
      it.error.fault = STREAM_CANCELLED;
    }
  q->paused = true;
}

void fetch_queue_retry(fetch_queue* q) {
  q->paused = false;
  for (fetch_item& it : q->items)
    if (it.state == FETCH_ITEM_FAILED) it.state = FETCH_ITEM_IDLE, it.waited = 0, it.not_before = 0;
}

void fetch_queue_close(fetch_queue* q) {
  if (q->client)
    for (fetch_item& it : q->items)
      if (it.state == FETCH_ITEM_LOADING) q->client->fetch_cancel(it.id);
  q->items.clear();
  q->paused = false;
}

int fetch_queue_loading(const fetch_queue* q) {
  int n = 0;
  for (const fetch_item& it : q->items) n += it.state == FETCH_ITEM_LOADING;
  return n;
}
