// emscripten-fetch + IndexedDB behind the fetch seam (see fetch_web.h).
#include "platform/web/fetch_web.h"

#include <emscripten.h>
#include <emscripten/fetch.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "core/stream/cache_lru.h"
#include "platform/platform.h"

// [SECTION] IndexedDB: "blobs" holds verified blobs by key (a pack's file, a checkpoint's chunk);
// "meta" holds each blob's [bytes, use stamp], written in the same transaction, so the cache's
// byte budget (core/stream/cache_lru.h) survives a reload. Version 1 had no "meta": its blobs go.
EM_JS(void, js_idb_open, (void), {
  if (Module.labIdb) return;
  Module.labIdb = new Promise((resolve, reject) => {
    if (!self.indexedDB) return reject(new Error("no IndexedDB"));
    const open = indexedDB.open("swiglu-lab", 2);
    open.onupgradeneeded = () => {
      const db = open.result;
      if (db.objectStoreNames.contains("blobs")) open.transaction.objectStore("blobs").clear();
      else db.createObjectStore("blobs");
      if (!db.objectStoreNames.contains("meta")) db.createObjectStore("meta");
    };
    open.onerror = () => reject(open.error);
    // Every get and put waits for this: the budget's bookkeeping knows every stored blob first.
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction("meta");
      const cursor = tx.objectStore("meta").openCursor();
      cursor.onsuccess = () => {
        const c = cursor.result;
        if (!c) return;
        const k = String(c.key), n = lengthBytesUTF8(k) + 1, p = _malloc(n);
        stringToUTF8(k, p, n);
        Module._lab_cache_index_add(p, Number(c.value[0]) || 0, Number(c.value[1]) || 0);
        _free(p);
        c.continue();
      };
      tx.oncomplete = () => { Module._lab_cache_index_done(); resolve(db); };
      tx.onerror = () => { Module._lab_cache_index_done(); resolve(db); };
    };
  });
  Module.labIdb.catch(() => {});  // reported where it is used
});

// The test-only budget (tests/browser: `self.labTestCacheBudget` set before the page starts), so
// a test can fill the cache past its bound with a few small files. 0: the real budget.
EM_JS(double, js_test_cache_budget, (void), {
  return self.labTestCacheBudget > 0 ? Number(self.labTestCacheBudget) : 0;
});

EM_JS(void, js_idb_get, (uint32_t id, const char* key), {
  const k = UTF8ToString(key);
  Module.labIdb.then((db) => new Promise((resolve, reject) => {
    const r = db.transaction("blobs").objectStore("blobs").get(k);
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  })).then((v) => {
    if (!v) return Module._lab_on_cache_answer(id, 0, 0);
    const bytes = new Uint8Array(v);
    const p = _malloc(bytes.length || 1);
    HEAPU8.set(bytes, p);
    Module._lab_on_cache_answer(id, p, bytes.length);
    _free(p);
  }).catch(() => Module._lab_on_cache_answer(id, 0, 0));
});

EM_JS(void, js_idb_put, (uint32_t store, const char* key, const void* data, size_t n, double used), {
  const k = UTF8ToString(key);
  const bytes = HEAPU8.slice(data, data + n);  // a copy: the wasm heap may move
  Module.labIdb.then((db) => new Promise((resolve, reject) => {
    const tx = db.transaction(["blobs", "meta"], "readwrite");
    tx.objectStore("blobs").put(bytes.buffer, k);
    tx.objectStore("meta").put([n, used], k);
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  })).then(() => Module._lab_on_cache_stored(store, 0),
           (e) => Module._lab_on_cache_stored(store, e && e.name === "QuotaExceededError" ? 1 : 2));
});

// A read counts as use: the blob's stamp moves to the newest.
EM_JS(void, js_idb_touch, (const char* key, double n, double used), {
  const k = UTF8ToString(key);
  Module.labIdb.then((db) => { db.transaction("meta", "readwrite").objectStore("meta").put([n, used], k); }).catch(() => {});
});

EM_JS(void, js_idb_delete, (const char* key), {
  const k = UTF8ToString(key);
  Module.labIdb.then((db) => {
    const tx = db.transaction(["blobs", "meta"], "readwrite");
    tx.objectStore("blobs").delete(k);
    tx.objectStore("meta").delete(k);
  }).catch(() => {});
});

EM_JS(void, js_idb_clear, (void), {
  Module.labIdb.then((db) => {
    const tx = db.transaction(["blobs", "meta"], "readwrite");
    tx.objectStore("blobs").clear();
    tx.objectStore("meta").clear();
  }).catch(() => {});
});

// [SECTION] requests
// One GET into memory; `done` gets success and failure alike (read f->status, then close it).
// `range` ("bytes=0-99") and `progress` may be null.
//
// EMSCRIPTEN_FETCH_REPLACE (with -sFETCH_SUPPORT_INDEXEDDB=0, cmake/web.cmake) is what makes
// cancelling safe: the XHR is opened, given its headers and sent inside emscripten_fetch. Without
// it Emscripten 3.1.6 first looks in its own IndexedDB and opens the XHR later, from the fetch
// struct; a request cancelled meanwhile (a host refusing CORS fails the source, which cancels
// what is in flight) had its struct and header strings freed by emscripten_fetch_close, and the
// late XHR read them: Chromium's "setRequestHeader ... non ISO-8859-1 code point", and a request
// nobody could abort. js_fetch_started checks that the XHR exists once emscripten_fetch returns.
static emscripten_fetch_t* fetch_web_get(const char* url, const char* range, void* user, void (*done)(emscripten_fetch_t*),
                                  void (*progress)(emscripten_fetch_t*)) {
  emscripten_fetch_attr_t attr;
  emscripten_fetch_attr_init(&attr);
  std::strcpy(attr.requestMethod, "GET");
  attr.attributes = EMSCRIPTEN_FETCH_LOAD_TO_MEMORY | EMSCRIPTEN_FETCH_REPLACE;  // skip Emscripten's own IndexedDB cache
  attr.onsuccess = done;
  attr.onerror = done;
  attr.onprogress = progress;
  attr.userData = user;
  const char* headers[] = {"Range", range, nullptr};
  if (range) attr.requestHeaders = headers;  // copied by emscripten_fetch before it returns
  return emscripten_fetch(&attr, url);
}

namespace {
struct web_request {
  fetch_sink* sink = nullptr;
  std::string url, key;
  uint64_t begin = 0, length = 0;
  bool cache_first = false;
  bool fallback = false;  // the network failed: the cache is the last resort (the manifest)
  emscripten_fetch_t* fetch = nullptr;
};

struct web_fetch : fetch_client {
  void (*on_event)() = nullptr;
  std::map<uint32_t, web_request> live;
  uint32_t next_id = 1;
  struct pending_store { fetch_sink* sink; std::string key; };
  std::map<uint32_t, pending_store> store_sinks;  // who stored what, for quota answers (by store id)
  uint32_t next_store = 1;
  cache_lru lru;  // the cache's byte budget: one policy for packs and checkpoints

  uint32_t fetch_start(fetch_sink* sink, const fetch_request& request) override;
  void fetch_cancel(uint32_t id) override;
  void forget_sink(fetch_sink* sink) override {
    std::vector<uint32_t> ids;
    for (const auto& kv : live)
      if (kv.second.sink == sink) ids.push_back(kv.first);
    for (uint32_t id : ids) fetch_cancel(id);
    for (auto it = store_sinks.begin(); it != store_sinks.end();) it = it->second.sink == sink ? store_sinks.erase(it) : std::next(it);
  }
  void cache_store(fetch_sink* sink, const std::string& key, const void* data, size_t n) override {
    if (!lru.admit(n)) return;  // larger than the whole budget: not kept
    const uint32_t store = next_store++;
    store_sinks[store] = {sink, key};
    js_idb_put(store, key.c_str(), data, n, (double)lru.put(key, n));
    evict();
  }
  void evict() {
    for (const std::string& old : lru.evictions()) js_idb_delete(old.c_str());
  }
  uint64_t cache_clear(const std::string& prefix) override {
    if (!prefix.empty()) {
      uint64_t freed = 0;
      for (const std::string& k : lru.keys())
        if (k.rfind(prefix, 0) == 0) freed += lru.bytes_of(k), lru.erase(k), js_idb_delete(k.c_str());
      return freed;
    }
    js_idb_clear();
    return lru.clear();
  }
  uint64_t cache_bytes() const override { return lru.bytes(); }
  void network(uint32_t id);
  double max_answer_ms = 0;  // the longest hash + copy + conversion of one answer (the benchmark reads it)
  double total_answer_ms = 0;  // all answers' work together (the benchmark divides it per matrix)
  void answer(uint32_t id, const fetch_response& r) {
    auto it = live.find(id);
    if (it == live.end()) return;
    fetch_sink* sink = it->second.sink;
    live.erase(it);
    const double t0 = emscripten_get_now();
    sink->on_fetch_response(id, r, platform_now_seconds());
    max_answer_ms = std::max(max_answer_ms, emscripten_get_now() - t0);
    total_answer_ms += emscripten_get_now() - t0;
    if (on_event) on_event();
  }
};

web_fetch g_fetch;

uint32_t fetch_id(emscripten_fetch_t* f) { return (uint32_t)(uintptr_t)f->userData; }

// Content-Range: bytes 100-199/1000 -> 100. Cross-origin servers expose it only if they list it
// in Access-Control-Expose-Headers; without it a 206 is taken to start where it was asked.
uint64_t content_range_start(emscripten_fetch_t* f, uint64_t asked) {
  size_t n = emscripten_fetch_get_response_headers_length(f);
  std::string h(n + 1, '\0');
  emscripten_fetch_get_response_headers(f, &h[0], n + 1);
  for (char& c : h) c = (char)std::tolower((unsigned char)c);
  size_t at = h.find("content-range:");
  if (at == std::string::npos) return asked;
  at = h.find("bytes", at);
  if (at == std::string::npos) return asked;
  return std::strtoull(h.c_str() + at + 5, nullptr, 10);
}

// One response header's value, "" when absent (or not exposed to this page by CORS).
std::string response_header(emscripten_fetch_t* f, const char* name) {
  size_t n = emscripten_fetch_get_response_headers_length(f);
  std::string h(n + 1, '\0');
  emscripten_fetch_get_response_headers(f, &h[0], n + 1);
  h = "\n" + std::string(h.c_str());
  std::string lower = h;
  for (char& c : lower) c = (char)std::tolower((unsigned char)c);
  size_t at = lower.find("\n" + std::string(name) + ":");
  if (at == std::string::npos) return "";
  at += std::strlen(name) + 2;
  size_t end = h.find_first_of("\r\n", at);
  std::string v = h.substr(at, end == std::string::npos ? std::string::npos : end - at);
  const size_t b = v.find_first_not_of(' '), e = v.find_last_not_of(' ');
  return b == std::string::npos ? "" : v.substr(b, e - b + 1);
}

// The file's size and version, which a checkpoint read by ranges checks every answer against:
// Content-Range's "/SIZE" on a 206 (the whole body's length on a 200), and the ETag.
void response_file_identity(emscripten_fetch_t* f, fetch_response* r) {
  r->etag = response_header(f, "etag");
  if (f->status == 200) r->total_size = (uint64_t)f->numBytes;
  if (f->status == 206) {
    const std::string cr = response_header(f, "content-range");
    const size_t slash = cr.find('/');
    if (slash != std::string::npos && slash + 1 < cr.size() && cr[slash + 1] != '*')
      r->total_size = std::strtoull(cr.c_str() + slash + 1, nullptr, 10);
  }
}

void on_fetch_done(emscripten_fetch_t* f) {
  const uint32_t id = fetch_id(f);
  auto it = g_fetch.live.find(id);
  if (it == g_fetch.live.end() || it->second.fetch != f) return;  // cancelled: fetch_cancel closes it
  web_request& q = it->second;
  q.fetch = nullptr;
  if (f->status == 0 && !q.key.empty() && !q.cache_first) {  // offline: try the verified cache
    emscripten_fetch_close(f);
    q.fallback = true;
    js_idb_get(id, q.key.c_str());
    return;
  }
  fetch_response r;
  r.status = f->status;
  r.body = f->data;
  r.n = (size_t)f->numBytes;
  if (f->status == 206) r.content_range_start = content_range_start(f, q.begin);
  response_file_identity(f, &r);
  if (f->status == 0) r.error = "no answer";
  g_fetch.answer(id, r);
  emscripten_fetch_close(f);
}

void on_fetch_progress(emscripten_fetch_t* f) {
  auto it = g_fetch.live.find(fetch_id(f));
  if (it == g_fetch.live.end() || it->second.fetch != f) return;
  it->second.sink->on_fetch_progress(fetch_id(f), f->dataOffset + f->numBytes, platform_now_seconds());
  if (g_fetch.on_event) g_fetch.on_event();
}

EM_JS(int, js_fetch_started, (unsigned id), { return Fetch.xhrs[id - 1] ? 1 : 0; });

// [SECTION] the page's own first request (index.html, issue 16): the default pack's manifest is
// fetched by the page before this wasm runs, for the early text's rows and for the app alike.
// The first whole-file request for that URL takes the page's answer instead of a second request;
// anything but a 200 asks the network again. Once only: Retry and a reload's re-open ask anew.
EM_JS(int, js_take_prefetched, (uint32_t id, const char* url), {
  const k = UTF8ToString(url), all = self.labPrefetched, got = all && all[k];
  if (!got) return 0;
  delete all[k];
  got.then((a) => {
    const bytes = new Uint8Array(a && a.status == 200 ? a.bytes : new ArrayBuffer(0)), p = _malloc(bytes.length || 1);
    HEAPU8.set(bytes, p);
    Module._lab_on_prefetched(id, a ? a.status : 0, p, bytes.length);
    _free(p);
  });
  return 1;
});

void web_fetch::network(uint32_t id) {
  web_request& q = live[id];
  if (q.length == 0 && !q.fallback && js_take_prefetched(id, q.url.c_str())) return;  // lab_on_prefetched answers
  char range[64];
  if (q.length > 0)
    std::snprintf(range, sizeof range, "bytes=%llu-%llu", (unsigned long long)q.begin,
                  (unsigned long long)(q.begin + q.length - 1));
  q.fetch = fetch_web_get(q.url.c_str(), q.length > 0 ? range : nullptr, (void*)(uintptr_t)id, on_fetch_done,
                          on_fetch_progress);
  // A deferred XHR could outlive a cancel (above): say so loudly, the browser tests fail on it.
  if (q.fetch && !js_fetch_started(q.fetch->id)) emscripten_log(EM_LOG_ERROR, "fetch_web: the XHR for %s did not start at once", q.url.c_str());
}

uint32_t web_fetch::fetch_start(fetch_sink* sink, const fetch_request& request) {
  const uint32_t id = next_id++;
  web_request& q = live[id];
  q.sink = sink;
  q.url = request.url;
  q.key = request.cache_key;
  q.begin = request.begin;
  q.length = request.length;
  q.cache_first = request.cache_first;
  if (!q.key.empty() && q.cache_first) js_idb_get(id, q.key.c_str());
  else network(id);
  return id;
}

// Emscripten 3.1.6's emscripten_fetch_close frees an in-flight fetch without aborting its XHR,
// whose handlers would later write into the freed struct. So the XHR is aborted first (no
// handler of Emscripten's runs after abort()), then the fetch closed; the onerror that close
// calls finds no request any more and does nothing.
EM_JS(void, js_fetch_abort, (unsigned id), {
  const xhr = Fetch.xhrs[id - 1];  // Emscripten's own table, off by one (its issue #8803)
  if (xhr) xhr.abort();
});

void web_fetch::fetch_cancel(uint32_t id) {
  auto it = live.find(id);
  if (it == live.end()) return;
  emscripten_fetch_t* f = it->second.fetch;
  live.erase(it);
  if (f) {
    js_fetch_abort(f->id);
    emscripten_fetch_close(f);
  }
}
}  // namespace

// [SECTION] answers from JS
// A whole file's bytes, from the cache or the page's own request: an answer like the network's 200.
static fetch_response whole_body(const void* data, size_t n) {
  fetch_response r;
  r.status = 200;
  r.body = data;
  r.n = n;
  return r;
}

extern "C" EMSCRIPTEN_KEEPALIVE void lab_on_cache_answer(uint32_t id, const void* data, size_t n) {
  auto it = g_fetch.live.find(id);
  if (it == g_fetch.live.end()) return;  // cancelled meanwhile
  if (!data) {  // not cached
    if (it->second.fallback) {  // neither the network nor the cache has it
      fetch_response r;
      r.status = 0;
      r.error = "offline, and this pack was never opened here";
      g_fetch.answer(id, r);
      return;
    }
    g_fetch.network(id);
    return;
  }
  const std::string& key = it->second.key;  // a read is a use: the newest for the budget
  const uint64_t used = g_fetch.lru.has(key) ? g_fetch.lru.touch(key) : g_fetch.lru.put(key, n);
  js_idb_touch(key.c_str(), (double)n, (double)used);
  g_fetch.evict();
  fetch_response r = whole_body(data, n);
  r.from_cache = true;
  g_fetch.answer(id, r);
}

extern "C" EMSCRIPTEN_KEEPALIVE void lab_on_cache_stored(uint32_t store, int failure) {
  auto it = g_fetch.store_sinks.find(store);
  if (it == g_fetch.store_sinks.end()) return;
  fetch_sink* sink = it->second.sink;
  if (failure != 0) g_fetch.lru.erase(it->second.key);  // not kept: not counted
  g_fetch.store_sinks.erase(it);
  if (failure == 0) return;
  sink->on_store_failed(failure == 1 ? "quota" : "unavailable");  // still there: forget_sink would have dropped it
  if (g_fetch.on_event) g_fetch.on_event();
}

// The budget's bookkeeping, rebuilt from "meta" as the database opens; then anything over the
// budget (a smaller one than last visit's) goes.
extern "C" EMSCRIPTEN_KEEPALIVE void lab_cache_index_add(const char* key, double bytes, double used) {
  g_fetch.lru.load(key, (uint64_t)bytes, (uint64_t)used);
}
extern "C" EMSCRIPTEN_KEEPALIVE void lab_cache_index_done() { g_fetch.evict(); }
extern "C" EMSCRIPTEN_KEEPALIVE void lab_on_prefetched(uint32_t id, int status, const void* data, size_t n) {
  if (g_fetch.live.find(id) == g_fetch.live.end()) return;  // cancelled meanwhile
  if (status != 200) return g_fetch.network(id);  // the page's request failed: the app's own says why
  fetch_response r = whole_body(data, n);
  r.total_size = n;
  g_fetch.answer(id, r);
}

extern "C" EMSCRIPTEN_KEEPALIVE double lab_cache_bytes() { return (double)g_fetch.lru.bytes(); }

extern "C" EMSCRIPTEN_KEEPALIVE double lab_bench_max_answer_ms() { return g_fetch.max_answer_ms; }
extern "C" EMSCRIPTEN_KEEPALIVE double lab_bench_total_answer_ms() { return g_fetch.total_answer_ms; }

fetch_client* fetch_web_client(void (*on_event)()) {
  if (!g_fetch.on_event && js_test_cache_budget() > 0) g_fetch.lru.set_budget((uint64_t)js_test_cache_budget());
  js_idb_open();
  g_fetch.on_event = on_event;
  return &g_fetch;
}
