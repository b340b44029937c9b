// Scheduling of byte ranges (see fetch_queue.h).
#include "core/stream/fetch_queue.h"

int fetch_queue_expire(fetch_queue* q, double now) {
  int loading = 0;
  for (fetch_item& it : q->items) {
    if (it.state != FETCH_ITEM_LOADING) continue;
    if (now - it.last_progress > q->stall_seconds) {
      q->client->fetch_cancel(it.id);
      it.state = FETCH_ITEM_FAILED;
      it.error = stream_error();
      it.error.fault = STREAM_STALLED;
      it.error.seconds = q->stall_seconds;
    } else {
      loading++;
    }
  }
  return loading;
}

static bool url_loading(const fetch_queue* q, const std::string& url) {
  for (const fetch_item& it : q->items)
    if (it.state == FETCH_ITEM_LOADING && it.request.url == url) return true;
  return false;
}

fetch_item* fetch_queue_next(fetch_queue* q) {
  if (q->paused) return nullptr;
  fetch_item* best = nullptr;
  for (fetch_item& it : q->items)
    if (it.state == FETCH_ITEM_IDLE && it.needed && (!best || it.priority < best->priority) &&
        !(q->one_per_url && url_loading(q, it.request.url)))
      best = &it;
  return best;
}

void fetch_queue_start(fetch_queue* q, fetch_item* it, double now) {
  it->state = FETCH_ITEM_LOADING;
  it->loaded = 0;
  it->last_progress = now;
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
  if (fetch_item* it = fetch_queue_find(q, id)) {
    it->loaded = loaded < it->bytes ? loaded : it->bytes;
    it->last_progress = now;
  }
}

void fetch_queue_done(fetch_queue*, fetch_item* it) {
  it->state = FETCH_ITEM_DONE;
  it->loaded = it->bytes;
  it->bypass_cache = false;
  it->error = stream_error();
}

void fetch_queue_fail(fetch_queue*, fetch_item* it, const stream_error& e) {
  it->state = FETCH_ITEM_FAILED;
  it->error = e;
}

void fetch_queue_refetch(fetch_item* it) {
  it->state = FETCH_ITEM_IDLE;
  it->bypass_cache = true;
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
    if (it.state == FETCH_ITEM_FAILED) it.state = FETCH_ITEM_IDLE;
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
