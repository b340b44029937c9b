// fetch() + IndexedDB behind the fetch seam (see fetch_web.h).
#include "platform/web/fetch_web.h"

#include <emscripten.h>

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

// [SECTION] the verified cache's storage. Each blob (a pack's file, a checkpoint's chunk record)
// is stored by its key with its [bytes, use stamp] in IndexedDB's "meta", so the cache's byte
// budget (core/stream/cache_lru.h) survives a reload; "meta" is read whole as the database opens.
// The blobs themselves go where reading them back is cheapest:
//   - in a dedicated worker (the model worker), the Origin Private File System: a file per blob in
//     a directory named after the database, read through a synchronous access handle straight
//     into the wasm heap (no structured clone, no second copy). 1.5 GB of a real model's records
//     come back in seconds where IndexedDB took about twelve;
//   - elsewhere (the page's own thread has no synchronous handles) IndexedDB's "blobs".
// A file is [key length u32 LE][key][payload]: the key is checked on reading, so a name that two
// keys hash to reads as a miss, never as the other key's bytes. Whatever comes back is only a
// candidate: the core checks each record's checksum and fetches the chunk again when it fails.
// Database version 1 had no "meta": its blobs go.
EM_JS(void, js_idb_open, (const char* database), {
  if (Module.labIdb) return;
  const name = UTF8ToString(database);
  Module.labIdb = new Promise((resolve, reject) => {
    if (!self.indexedDB) { Module._lab_cache_index_done(); return reject(new Error("no IndexedDB")); }
    const open = indexedDB.open(name, 2);
    open.onupgradeneeded = () => {
      const db = open.result;
      if (db.objectStoreNames.contains("blobs")) open.transaction.objectStore("blobs").clear();
      else db.createObjectStore("blobs");
      if (!db.objectStoreNames.contains("meta")) db.createObjectStore("meta");
    };
    open.onerror = () => { Module._lab_cache_index_done(); reject(open.error); };
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
  // The blobs' directory, or null where there is no OPFS with synchronous handles (then IndexedDB).
  const opfs = typeof FileSystemSyncAccessHandle !== "undefined" && self.navigator && navigator.storage &&
               navigator.storage.getDirectory;
  Module.labOpfs = !opfs ? Promise.resolve(null)
                         : navigator.storage.getDirectory().then((root) => root.getDirectoryHandle(name, { create: true })).catch(() => null);
  // A record's file's synchronous handle, or null when none comes within 3 s: a page reloaded
  // while its worker read or wrote the file can find it held by that worker until the browser has
  // torn it down, and Chromium then keeps createSyncAccessHandle waiting (seen on isolated pages,
  // whose old worker has threads to stop). Once late, no handle is asked for (it would hold the
  // file against this page's own next write), and one that comes late is closed at once.
  Module.labHandle = (dir, name, create) => new Promise((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => { late = true; resolve(null); }, 3000);
    dir.getFileHandle(name, { create: create }).then((f) => (late ? null : f.createSyncAccessHandle())).then(
      (h) => { clearTimeout(timer); if (!late) resolve(h); else if (h) h.close(); },
      (e) => { clearTimeout(timer); if (!late) reject(e); });
  });
  // A blob's file name: 64 bits of FNV-1a over the key's UTF-16 units, in hex.
  Module.labBlobName = (k) => {
    let a = 0x811c9dc5, b = 0x050c5d1f;
    for (let i = 0; i < k.length; i++) {
      a = Math.imul(a ^ k.charCodeAt(i), 0x01000193) >>> 0;
      b = Math.imul(b ^ k.charCodeAt(i), 0x01000193) >>> 0;
      b = (b + (a >>> 7)) >>> 0;
    }
    return a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0");
  };
});

// The test-only budget (tests/browser: `self.labTestCacheBudget` set before the page starts), so
// a test can fill the cache past its bound with a few small files. 0: the real budget.
EM_JS(double, js_test_cache_budget, (void), {
  return self.labTestCacheBudget > 0 ? Number(self.labTestCacheBudget) : 0;
});

EM_JS(void, js_idb_get, (uint32_t id, const char* key), {
  const k = UTF8ToString(key);
  // From OPFS: the payload read into the heap by the handle itself. Anything odd is a miss, and so
  // is a file that gives no handle in time (labHandle): the part then comes from the host instead
  // of stalling the load. Everything after the handle is synchronous.
  const fromFile = async (dir) => {
    let h = null, p = 0;
    try {
      h = await Module.labHandle(dir, Module.labBlobName(k), false);
      if (!h) return false;
      const size = h.getSize(), head = new Uint8Array(4);
      if (size < 4 || h.read(head, { at: 0 }) !== 4) return false;
      const kl = (head[0] | (head[1] << 8) | (head[2] << 16) | (head[3] << 24)) >>> 0;
      const want = new TextEncoder().encode(k);
      if (kl !== want.length || size < 4 + kl) return false;
      const got = new Uint8Array(kl);
      if (h.read(got, { at: 4 }) !== kl || got.some((c, i) => c !== want[i])) return false;
      const n = size - 4 - kl;
      // Straight into the result's own memory (fetch_request::cache_into), the rest (the check)
      // into the heap: a warm start copies nothing. Not where the heap is shared (see below).
      const shared = typeof SharedArrayBuffer === "function" && HEAPU8.buffer instanceof SharedArrayBuffer;
      const intoBytes = shared ? 0 : Module._lab_cache_into_bytes(id);
      if (intoBytes > 0 && n >= intoBytes) {
        const rest = n - intoBytes;
        p = _malloc(rest || 1);
        if (rest > 0 && h.read(HEAPU8.subarray(p, p + rest), { at: 4 + kl + intoBytes }) !== rest) return false;
        // Asked last, with nothing run since: the place is the request's only while it is live
        // (cancelled, or its model closed, the memory may be gone).
        const into = Module._lab_cache_into(id);
        if (!into || h.read(HEAPU8.subarray(into, into + intoBytes), { at: 4 + kl }) !== intoBytes) return false;
        h.close();
        h = null;
        Module._lab_on_cache_answer_in_place(id, p, rest);
        return true;
      }
      p = _malloc(n || 1);
      if (n > 0) {
        // Straight into the heap, except where the heap is shared memory (the threaded module):
        // a handle reads into no SharedArrayBuffer, so through a plain buffer there.
        const into = shared ? new Uint8Array(n) : HEAPU8.subarray(p, p + n);
        if (h.read(into, { at: 4 + kl }) !== n) return false;
        if (shared) HEAPU8.set(into, p);
      }
      h.close();
      h = null;
      Module._lab_on_cache_answer(id, p, n);
      return true;
    } catch (e) {
      return false;  // no such file, or another tab holds it now
    } finally {
      if (h) h.close();
      if (p) _free(p);
    }
  };
  const fromDatabase = () => Module.labIdb.then((db) => new Promise((resolve, reject) => {
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
  });
  Module.labIdb.then(() => Module.labOpfs).then((dir) => {
    if (!dir) return fromDatabase();
    return fromFile(dir).then((done) => { if (!done) Module._lab_on_cache_answer(id, 0, 0); });
  }).catch(() => Module._lab_on_cache_answer(id, 0, 0));
});

EM_JS(void, js_idb_put, (uint32_t store, const char* key, const void* data, size_t n, double used), {
  const k = UTF8ToString(key);
  const bytes = HEAPU8.slice(data, data + n);  // a copy: the wasm heap may move
  const meta = (db, withBlob) => new Promise((resolve, reject) => {
    const tx = db.transaction(withBlob ? ["blobs", "meta"] : ["meta"], "readwrite");
    if (withBlob) tx.objectStore("blobs").put(bytes.buffer, k);
    tx.objectStore("meta").put([n, used], k);
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
  // The file first, whole and flushed, then its meta: a file without meta is found by nobody
  // (and goes with Clear); meta without a file reads as a miss.
  // A file that gives no handle in time (labHandle) stores nothing, and says so without a notice:
  // the record is fetched again next time.
  const toFile = async (dir) => {
    const name = Module.labBlobName(k), kb = new TextEncoder().encode(k);
    let h = null;
    try {
      h = await Module.labHandle(dir, name, true);
      if (!h) throw { name: "Busy" };
      h.truncate(0);
      const head = new Uint8Array(4 + kb.length);
      new DataView(head.buffer).setUint32(0, kb.length, true);
      head.set(kb, 4);
      h.write(head, { at: 0 });
      h.write(bytes, { at: head.length });
      h.flush();
    } catch (e) {
      if (h) { try { h.truncate(0); } catch (x) {} }
      if (h) { h.close(); h = null; }
      if (e.name !== "Busy") dir.removeEntry(name).catch(() => {});  // a busy file is another page's
      throw e;
    } finally {
      if (h) h.close();
    }
  };
  Module.labIdb.then((db) => Module.labOpfs.then((dir) => dir ? toFile(dir).then(() => meta(db, false)) : meta(db, true)))
    .then(() => Module._lab_on_cache_stored(store, 0),
          (e) => Module._lab_on_cache_stored(store, e && e.name === "QuotaExceededError" ? 1 : e && e.name === "Busy" ? 3 : 2));
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
  Module.labOpfs.then((dir) => dir && dir.removeEntry(Module.labBlobName(k))).catch(() => {});
});

EM_JS(void, js_idb_clear, (void), {
  Module.labIdb.then((db) => {
    const tx = db.transaction(["blobs", "meta"], "readwrite");
    tx.objectStore("blobs").clear();
    tx.objectStore("meta").clear();
  }).catch(() => {});
  // Every file of the directory, those of no meta too (a write cut short by a closed tab).
  Module.labOpfs.then(async (dir) => {
    if (!dir) return;
    const names = [];
    const it = dir.keys();
    for (let e = await it.next(); !e.done; e = await it.next()) names.push(e.value);
    await Promise.all(names.map((x) => dir.removeEntry(x).catch(() => {})));
  }).catch(() => {});
});

// [SECTION] requests: fetch() through EM_JS (not Emscripten's XHR-based Fetch). Three things an
// XHR cannot do, each a hostile host's way in:
//   - `cache: "no-store"` for a request whose identity is checked (fetch_request::fresh): Chromium
//     revalidated cached ranges with If-Range and the XHR then reported the cached entry's ETag
//     while the host sent the new file's bytes; past the cache, the ETag is the host's own. It is
//     also what lets a checkpoint have several ranges of one file in flight: given two ranges of one
//     URL at once, the HTTP cache sometimes sent the later one to the host twice. The verified
//     cache (IndexedDB, below) keeps what the page needs again; the HTTP cache has nothing to add;
//   - the body read as a stream, counted as it comes and stopped at max_bytes (a 3 GiB config.json
//     takes 4 MiB of the network and nothing of the heap: chunks stay in JS until the body is whole,
//     then are copied into the heap once);
//   - a request that got no answer asked again with `redirect: "manual"`: an opaque redirect there
//     means the host redirected and the browser would not follow (a loop, javascript:, CORS at the
//     target). A body that breaks off after the answer began is a network error, not asked again
//     (the Hub redirects every file, so that probe would blame the redirect).
// Nothing here touches the DOM: a worker's module can link this file with the same callbacks.
EM_JS(void, js_fetch_start, (uint32_t id, const char* url, double begin, double length, double max_bytes, int fresh), {
  const table = Module.labFetches || (Module.labFetches = new Map());
  const ctl = new AbortController();
  table.set(id, ctl);
  const u = UTF8ToString(url);
  const headers = {};
  if (length > 0) headers.Range = "bytes=" + begin + "-" + (begin + length - 1);
  const init = { headers: headers, signal: ctl.signal, cache: fresh ? "no-store" : "default" };
  const str = (s) => { const n = lengthBytesUTF8(s) + 1, p = _malloc(n); stringToUTF8(s, p, n); return p; };
  // Reports once to C: the status, the body (in the heap only when whole and within its limit).
  const answer = (status, chunks, n, cut, res, why, redirected) => {
    if (table.get(id) !== ctl) return;  // cancelled meanwhile
    table.delete(id);
    const h = (k) => (res && res.headers.get(k)) || "";
    let p = 0;
    if (!cut && chunks && n > 0) {
      p = _malloc(n);
      let at = 0;
      for (const c of chunks) { HEAPU8.set(c, p + at); at += c.length; }
    }
    const ra = h("retry-after");
    const wait = ra === "" ? -1 : /^[0-9]+$/.test(ra.trim()) ? Number(ra) : Math.max(0, (Date.parse(ra) - Date.now()) / 1000);
    const s = [str(h("etag")), str(h("content-range")), str(why || ""), str(h("x-repo-commit").slice(0, 64))];
    Module._lab_on_fetch_answer(id, status, p, n, cut ? 1 : 0, s[0], s[1], isFinite(wait) ? wait : -1, s[2], redirected ? 1 : 0, s[3]);
    s.forEach((x) => _free(x));
    if (p) _free(p);
  };
  fetch(u, init).then(async (res) => {
    const chunks = [];
    let n = 0;
    const reader = res.body ? res.body.getReader() : null;
    for (;;) {
      let got;
      try {
        got = reader ? await reader.read() : { done: true };
      } catch (e) {  // the connection broke after the answer began: not a redirect, whatever the host's
        if (table.get(id) !== ctl) return;
        return answer(0, null, 0, false, null, `the connection broke after ${n} bytes (${e})`, false);
      }
      if (table.get(id) !== ctl) return;
      if (got.done) break;
      n += got.value.length;
      if (max_bytes > 0 && n > max_bytes) {  // stopped as it comes: nothing of it is kept
        answer(res.status, null, n, true, res, "", false);
        ctl.abort();
        return;
      }
      chunks.push(got.value);
      Module._lab_on_fetch_progress(id, n);
    }
    answer(res.status, chunks, n, false, res, "", false);
  }).catch((e) => {
    if (table.get(id) !== ctl) return;  // our own abort
    fetch(u, Object.assign({}, init, { redirect: "manual" }))
      .then((r) => answer(0, null, 0, false, null, String(e), r.type === "opaqueredirect"),
            () => answer(0, null, 0, false, null, String(e), false));
  });
});

// Aborts a request; its promise's handlers find it gone and do nothing.
EM_JS(void, js_fetch_abort, (uint32_t id), {
  const table = Module.labFetches, ctl = table && table.get(id);
  if (!ctl) return;
  table.delete(id);
  ctl.abort();
});

namespace {
struct web_request {
  fetch_sink* sink = nullptr;
  std::string url, key;
  uint64_t begin = 0, length = 0;
  bool cache_first = false;
  bool fresh = false;     // past the HTTP cache (fetch_request::fresh)
  uint64_t max_bytes = 0;
  bool fallback = false;  // the network failed: the cache is the last resort (the manifest)
  bool in_flight = false; // a fetch() runs for it (js_fetch_abort on cancel)
  bool redirect_failed = false;  // why the network failed, if the cache has nothing either
  void* into = nullptr;   // fetch_request::cache_into: a cached record's first into_bytes go there
  size_t into_bytes = 0;
};

struct web_fetch : fetch_client {
  void (*on_event)() = nullptr;
  std::map<uint32_t, web_request> live;
  uint32_t next_id = 1;
  struct pending_store {
    fetch_sink* sink;
    std::string key;
    bool had = false;  // the budget counted this key before (a record already on disk)
  };
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
    store_sinks[store] = {sink, key, lru.has(key)};
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
  bool cache_has(const std::string& key) const override { return lru.has(key); }
  bool cache_known() const override { return index_done; }
  bool index_done = false;  // lab_cache_index_done: "meta" is read (or there is no database)
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

// Content-Range: "bytes 100-199/1000" -> start 100 and the file's size 1000 ("*": unknown, 0).
// Cross-origin hosts expose it only if they list it in Access-Control-Expose-Headers; without it a
// 206 is taken to start where it was asked, and the file's size is unknown.
void parse_content_range(const std::string& cr, uint64_t asked, uint64_t* start, uint64_t* total) {
  *start = asked;
  *total = 0;
  const size_t at = cr.find("bytes");
  if (at == std::string::npos) return;
  *start = std::strtoull(cr.c_str() + at + 5, nullptr, 10);
  const size_t slash = cr.find('/');
  if (slash != std::string::npos && slash + 1 < cr.size() && cr[slash + 1] != '*') *total = std::strtoull(cr.c_str() + slash + 1, nullptr, 10);
}

// [SECTION] the page's own first request (index.html): the default pack's manifest is
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
  q.in_flight = true;
  js_fetch_start(id, q.url.c_str(), (double)q.begin, (double)q.length, (double)q.max_bytes, q.fresh ? 1 : 0);
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
  q.fresh = request.fresh;
  q.max_bytes = request.max_bytes;
  q.into = request.cache_into;
  q.into_bytes = request.cache_into ? request.cache_into_bytes : 0;
  if (!q.key.empty() && q.cache_first) js_idb_get(id, q.key.c_str());
  else network(id);
  return id;
}

void web_fetch::fetch_cancel(uint32_t id) {
  auto it = live.find(id);
  if (it == live.end()) return;
  const bool in_flight = it->second.in_flight;
  live.erase(it);
  if (in_flight) js_fetch_abort(id);
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

extern "C" EMSCRIPTEN_KEEPALIVE void lab_on_fetch_progress(uint32_t id, double loaded) {
  auto it = g_fetch.live.find(id);
  if (it == g_fetch.live.end()) return;
  it->second.sink->on_fetch_progress(id, (uint64_t)loaded, platform_now_seconds());
  if (g_fetch.on_event) g_fetch.on_event();
}

// A network answer (js_fetch_start): status 0 when none came. A cut body brings no bytes, only
// how many had come when it was stopped.
extern "C" EMSCRIPTEN_KEEPALIVE void lab_on_fetch_answer(uint32_t id, int status, const void* body, double n, int cut,
                                                        const char* etag, const char* content_range, double retry_after,
                                                        const char* error, int redirect_failed, const char* repo_commit) {
  auto it = g_fetch.live.find(id);
  if (it == g_fetch.live.end()) return;  // cancelled meanwhile
  web_request& q = it->second;
  q.in_flight = false;
  if (status == 0 && !q.key.empty() && !q.cache_first) {  // offline: try the verified cache
    q.fallback = true;
    q.redirect_failed = redirect_failed != 0;
    js_idb_get(id, q.key.c_str());
    return;
  }
  fetch_response r;
  r.status = status;
  r.body = body;
  r.n = (size_t)n;
  r.cut = cut != 0;
  r.etag = etag;  // the host's own: past the HTTP cache when the request was `fresh`
  r.repo_commit = repo_commit;
  r.retry_after = retry_after;
  r.redirect_failed = redirect_failed != 0;
  if (status == 206) parse_content_range(content_range, q.begin, &r.content_range_start, &r.total_size);
  if (status == 200) r.total_size = (uint64_t)n;
  if (status == 0) r.error = *error ? error : "no answer";
  g_fetch.answer(id, r);
}

// A cached record's answer: `data` its n bytes, or with in_place the rest of it after the
// request's cache_into_bytes, which were read straight to its cache_into.
static void cache_answer(uint32_t id, const void* data, size_t n, bool in_place) {
  auto it = g_fetch.live.find(id);
  if (it == g_fetch.live.end()) return;  // cancelled meanwhile
  if (!data) {  // not cached
    if (it->second.fallback) {  // neither the network nor the cache has it
      fetch_response r;
      r.status = 0;
      r.error = "offline, and this pack was never opened here";
      r.redirect_failed = it->second.redirect_failed;
      g_fetch.answer(id, r);
      return;
    }
    g_fetch.network(id);
    return;
  }
  const std::string& key = it->second.key;  // a read is a use: the newest for the budget
  const size_t record = n + (in_place ? it->second.into_bytes : 0);
  const uint64_t used = g_fetch.lru.has(key) ? g_fetch.lru.touch(key) : g_fetch.lru.put(key, record);
  js_idb_touch(key.c_str(), (double)record, (double)used);
  g_fetch.evict();
  fetch_response r = whole_body(data, n);
  r.from_cache = true;
  r.in_place = in_place;
  g_fetch.answer(id, r);
}

extern "C" EMSCRIPTEN_KEEPALIVE void lab_on_cache_answer(uint32_t id, const void* data, size_t n) { cache_answer(id, data, n, false); }
extern "C" EMSCRIPTEN_KEEPALIVE void lab_on_cache_answer_in_place(uint32_t id, const void* rest, size_t n) {
  cache_answer(id, rest, n, true);
}

// Where request `id`'s cached record may begin (fetch_request::cache_into) and how many bytes go
// there: 0 once the request is gone (cancelled, or its sink forgotten: that memory may be freed).
extern "C" EMSCRIPTEN_KEEPALIVE void* lab_cache_into(uint32_t id) {
  auto it = g_fetch.live.find(id);
  return it == g_fetch.live.end() ? nullptr : it->second.into;
}
extern "C" EMSCRIPTEN_KEEPALIVE size_t lab_cache_into_bytes(uint32_t id) {
  auto it = g_fetch.live.find(id);
  return it == g_fetch.live.end() ? 0 : it->second.into_bytes;
}

extern "C" EMSCRIPTEN_KEEPALIVE void lab_on_cache_stored(uint32_t store, int failure) {
  auto it = g_fetch.store_sinks.find(store);
  if (it == g_fetch.store_sinks.end()) return;
  fetch_sink* sink = it->second.sink;
  // Not kept: not counted. But a file another page held (3) may be the record an earlier visit
  // stored, still whole with its meta: the budget goes on counting it.
  if (failure != 0 && !(failure == 3 && it->second.had)) g_fetch.lru.erase(it->second.key);
  g_fetch.store_sinks.erase(it);
  if (failure == 0 || failure == 3) return;  // 3: the file was another page's for now (not kept, no notice)
  sink->on_store_failed(failure == 1 ? "quota" : "unavailable");  // still there: forget_sink would have dropped it
  if (g_fetch.on_event) g_fetch.on_event();
}

// The budget's bookkeeping, rebuilt from "meta" as the database opens; then anything over the
// budget (a smaller one than last visit's) goes.
extern "C" EMSCRIPTEN_KEEPALIVE void lab_cache_index_add(const char* key, double bytes, double used) {
  g_fetch.lru.load(key, (uint64_t)bytes, (uint64_t)used);
}
extern "C" EMSCRIPTEN_KEEPALIVE void lab_cache_index_done() {
  g_fetch.index_done = true;
  g_fetch.evict();
  if (g_fetch.on_event) g_fetch.on_event();  // a model waiting to count its cached bytes goes on
}
extern "C" EMSCRIPTEN_KEEPALIVE void lab_on_prefetched(uint32_t id, int status, const void* data, size_t n) {
  auto it = g_fetch.live.find(id);
  if (it == g_fetch.live.end()) return;  // cancelled meanwhile
  if (status != 200) return g_fetch.network(id);  // the page's request failed: the app's own says why
  fetch_response r = whole_body(data, n);
  r.total_size = n;
  if (it->second.max_bytes && n > it->second.max_bytes) r.body = nullptr, r.cut = true;  // the same limit as the network's
  g_fetch.answer(id, r);
}

extern "C" EMSCRIPTEN_KEEPALIVE double lab_cache_bytes() { return (double)g_fetch.lru.bytes(); }

extern "C" EMSCRIPTEN_KEEPALIVE double lab_bench_max_answer_ms() { return g_fetch.max_answer_ms; }
extern "C" EMSCRIPTEN_KEEPALIVE double lab_bench_total_answer_ms() { return g_fetch.total_answer_ms; }

fetch_client* fetch_web_client(void (*on_event)(), const char* database, uint64_t budget) {
  if (!g_fetch.on_event) g_fetch.lru.set_budget(js_test_cache_budget() > 0 ? (uint64_t)js_test_cache_budget() : budget);
  js_idb_open(database);
  g_fetch.on_event = on_event;
  return &g_fetch;
}
