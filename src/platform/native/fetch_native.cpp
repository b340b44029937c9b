// The fetch seam's in-memory twin (see fetch_native.h).
#include "platform/native/fetch_native.h"

#include <algorithm>

#include "core/stream/pack_stream.h"

void native_fetch::fetch_start(uint32_t id, const std::string& url, uint64_t begin, uint64_t length,
                               const std::string& cache_key, bool cache_first) {
  queue.push_back({id, url, begin, length, cache_key, cache_first});
}

void native_fetch::fetch_cancel(uint32_t id) {
  for (auto it = queue.begin(); it != queue.end(); ++it)
    if (it->id == id) {
      queue.erase(it);
      return;
    }
}

void native_fetch::cache_store(const std::string& key, const void* data, size_t n) {
  if (cache_used + n > cache_quota) {
    store_failures.push_back("storage quota exceeded");
    return;
  }
  cache_used += n;
  cache[key].assign((const char*)data, n);
}

// One request's answer; false when it stalls.
bool native_fetch::answer(const request& q, fetch_response* r, std::string* body) {
  auto hit = q.key.empty() ? cache.end() : cache.find(q.key);
  if (hit != cache.end() && (q.cache_first || offline)) {
    cache_hits++;
    *body = hit->second;
    r->status = 200;
    r->from_cache = true;
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
  fetch_fault f;
  auto fi = faults.find(file);
  if (fi != faults.end() && fi->second.times != 0) {
    f = fi->second;
    if (fi->second.times > 0) fi->second.times--;
  }
  if (f.stall) return false;
  if (f.drop) {
    r->status = 0;
    r->error = "connection reset";
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
    return true;
  }
  const bool ranged = q.length > 0 && !f.ignore_range;
  if (ranged && q.begin >= size) {
    r->status = 416;
    return true;
  }
  const uint64_t begin = ranged ? q.begin : 0;
  const uint64_t n = ranged ? std::min<uint64_t>(q.length, size - q.begin) : size;
  body->assign((size_t)n, '\0');
  if (n) files->read(file, begin, (size_t)n, &(*body)[0], &err);
  if (f.truncate) body->resize(body->size() / 2);
  if (f.corrupt && !body->empty()) (*body)[body->size() / 3] ^= 0x40;
  network_bytes += body->size();
  r->status = ranged ? 206 : 200;
  r->content_range_start = begin;
  return true;
}

int native_fetch::deliver(pack_stream* s, double now) {
  int answered = 0;
  std::deque<request> stalled;
  while (!queue.empty()) {
    request q = queue.front();
    queue.pop_front();
    if (std::find(stalled_ids.begin(), stalled_ids.end(), q.id) != stalled_ids.end()) {
      stalled.push_back(q);
      continue;
    }
    fetch_response r;
    std::string body;
    if (!answer(q, &r, &body)) {
      stalled_ids.push_back(q.id);
      stalled.push_back(q);
      continue;
    }
    r.body = body.data();
    r.n = body.size();
    pack_stream_on_progress(s, q.id, r.n, now);
    pack_stream_on_response(s, q.id, r, now);  // may queue new requests: the loop answers them too
    answered++;
  }
  queue = stalled;
  for (const std::string& why : store_failures) pack_stream_on_store_failed(s, why);
  store_failures.clear();
  return answered;
}
