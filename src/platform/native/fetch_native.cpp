// The fetch seam's in-memory twin (see fetch_native.h).
#include "platform/native/fetch_native.h"

#include <algorithm>
#include <cstring>

#include <iterator>

uint32_t native_fetch::fetch_start(fetch_sink* sink, const fetch_request& q) {
  const uint32_t id = next_id++;
  bool doubled = false;
  for (const request& other : queue) doubled |= cache_race && !q.fresh && !other.cancelled && other.q.url == q.url;
  queue.push_back({id, sink, q, false, doubled, 0});
  return id;
}

void native_fetch::fetch_cancel(uint32_t id) {
  for (auto it = queue.begin(); it != queue.end(); ++it)
    if (it->id == id) {
      if (answer_after_cancel) it->cancelled = true;
      else queue.erase(it);
      return;
    }
}

void native_fetch::forget_sink(fetch_sink* sink) {
  for (auto it = queue.begin(); it != queue.end();) it = it->sink == sink ? queue.erase(it) : std::next(it);
  for (auto it = store_failures.begin(); it != store_failures.end();)
    it = it->first == sink ? store_failures.erase(it) : std::next(it);
}

std::vector<std::string> native_fetch::pending_urls() const {
  std::vector<std::string> urls;
  for (const request& r : queue)
    if (!r.cancelled) urls.push_back(r.q.url);
  return urls;
}

size_t native_fetch::pending() const {
  size_t n = 0;
  for (const request& r : queue) n += !r.cancelled;
  return n;
}

size_t native_fetch::pending_into() const {
  size_t n = 0;
  for (const request& r : queue) n += !r.cancelled && r.q.cache_into;
  return n;
}

void native_fetch::cache_store(fetch_sink* sink, const std::string& key, const void* data, size_t n) {
  if (!lru.admit(n)) return;  // larger than the whole budget: not kept (the page does the same)
  const size_t before = cache.count(key) ? cache[key].size() : 0;
  if (cache_used - before + n > cache_quota) {
    store_failures.push_back({sink, "quota"});
    return;
  }
  cache_used = cache_used - before + n;
  cache[key].assign((const char*)data, n);
  lru.put(key, n);
  for (const std::string& old : lru.evictions()) {
    cache_used -= cache[old].size();
    cache.erase(old);
  }
}

uint64_t native_fetch::cache_clear(const std::string& prefix) {
  uint64_t freed = 0;
  for (auto it = cache.begin(); it != cache.end();)
    if (it->first.rfind(prefix, 0) == 0) {
      cache_used -= it->second.size();
      freed += it->second.size();
      lru.erase(it->first);
      it = cache.erase(it);
    } else {
      ++it;
    }
  return freed;
}

// One request's answer; false when it stalls.
bool native_fetch::answer(const request& rq, fetch_response* r, std::string* body) {
  const fetch_request& q = rq.q;
  auto hit = q.cache_key.empty() ? cache.end() : cache.find(q.cache_key);
  if (hit != cache.end() && (q.cache_first || offline)) {
    cache_hits++;
    lru.touch(q.cache_key);
    r->status = 200;
    r->from_cache = true;
    // As the page's transport: the record's first bytes straight into the sink's memory, never
    // for a request that was cancelled (that memory may be gone).
    if (q.cache_into && !rq.cancelled && hit->second.size() >= q.cache_into_bytes) {
      std::memcpy(q.cache_into, hit->second.data(), q.cache_into_bytes);
      *body = hit->second.substr(q.cache_into_bytes);
      r->in_place = true;
      in_place_reads++;
      return true;
    }
    *body = hit->second;
    return true;
  }
  if (offline) {
    r->status = 0;
    r->error = "offline";
    return true;
  }
  const std::string file = q.url.rfind(base, 0) == 0 ? q.url.substr(base.size()) : std::string();
  network_requests++;
  requested.push_back(file);
  requested_ranges.push_back({q.begin, q.begin + q.length});
  fetch_fault f;
  auto fi = faults.find(file);
  if (fi != faults.end() && fi->second.times != 0 && (q.length == 0 || q.begin >= fi->second.from_byte)) {
    f = fi->second;
    if (fi->second.times > 0) fi->second.times--;
  }
  if (f.stall) return false;
  if (f.trickle) {
    trickling[rq.id] = f.trickle;
    return false;
  }
  if (f.drop || f.redirect_failed) {
    r->status = 0;
    r->error = f.drop ? "connection reset" : "redirect not followed";
    r->redirect_failed = f.redirect_failed;
    return true;
  }
  uint64_t size = 0;
  std::string err;
  if (file.empty() || !files->exists(file) || !files->size(file, &size, &err)) {
    r->status = 404;
    return true;
  }
  if (f.status) {
    r->status = f.status;
    r->retry_after = f.retry_after;
    return true;
  }
  auto tag = etags.find(file);
  if (tag != etags.end()) r->etag = tag->second;
  r->repo_commit = repo_commit;
  const bool ranged = q.length > 0 && !f.ignore_range;
  auto whole_tag = whole_etags.find(file);
  if (!ranged && whole_tag != whole_etags.end()) r->etag = whole_tag->second;
  if (ranged && q.begin >= size) {
    r->status = 416;
    return true;
  }
  const uint64_t begin = ranged ? q.begin : 0;
  const uint64_t n = ranged ? std::min<uint64_t>(q.length, size - q.begin) : size;
  r->status = ranged ? 206 : 200;
  r->content_range_start = begin;
  r->total_size = size;
  if (q.max_bytes && n > q.max_bytes) {  // stopped as it came: one byte past the limit, nothing kept
    r->cut = true;
    r->n = (size_t)q.max_bytes + 1;
    network_bytes += r->n;
    return true;
  }
  body->assign((size_t)n, '\0');
  if (n) files->read(file, begin, (size_t)n, &(*body)[0], &err);
  if (f.truncate) body->resize(body->size() / 2);
  if (f.corrupt && !body->empty()) (*body)[body->size() / 3] ^= 0x40;
  network_bytes += body->size() * (rq.doubled ? 2 : 1);
  return true;
}

int native_fetch::deliver(double now) {
  int answered = 0;
  std::deque<request> stalled;
  while (!queue.empty()) {
    request q = queue.front();
    queue.pop_front();
    if (std::find(stalled_ids.begin(), stalled_ids.end(), q.id) != stalled_ids.end()) {
      if (!q.cancelled) stalled.push_back(q);
      continue;
    }
    auto trickle = trickling.find(q.id);
    if (trickle != trickling.end()) {  // a few more bytes, never the answer
      if (!q.cancelled) {
        q.trickled += trickle->second;
        network_bytes += trickle->second;
        q.sink->on_fetch_progress(q.id, q.trickled, now);
        stalled.push_back(q);
      }
      continue;
    }
    fetch_response r;
    std::string body;
    if (!answer(q, &r, &body)) {
      if (!trickling.count(q.id)) stalled_ids.push_back(q.id);
      if (!q.cancelled) stalled.push_back(q);
      continue;
    }
    r.body = body.data();
    if (!r.cut) r.n = body.size();
    largest_body = std::max<uint64_t>(largest_body, body.size());
    q.sink->on_fetch_progress(q.id, r.n, now);
    q.sink->on_fetch_response(q.id, r, now);  // may queue new requests: the loop answers them too
    answered++;
  }
  queue = stalled;
  std::vector<std::pair<fetch_sink*, std::string>> failures;
  failures.swap(store_failures);
  for (const auto& f : failures) f.first->on_store_failed(f.second);
  return answered;
}
