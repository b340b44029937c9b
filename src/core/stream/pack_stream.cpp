// The pack streamer (see pack_stream.h).
#include "core/stream/pack_stream.h"

#include <algorithm>
#include <cstring>

#include "core/checkpoint/dtype.h"

static const uint32_t kNoRequest = 0;

std::string pack_stream_cache_key(const pack_stream* s, const pack_blob& b) {
  return s->base + b.file + "@" + std::to_string(b.offset) + "#" + pack_hash_hex(b.xxh3);
}

void pack_stream_open(pack_stream* s, fetch_client* client, const std::string& base_url, double now) {
  if (s->client) {
    for (const pack_item& it : s->items)
      if (it.state == PACK_ITEM_LOADING) s->client->fetch_cancel(it.request);
    if (s->phase == PACK_STREAM_MANIFEST) s->client->fetch_cancel(s->manifest_request);
  }
  const uint32_t next = s->next_request;
  *s = pack_stream();
  s->next_request = next;
  s->client = client;
  s->base = base_url;
  if (s->base.empty() || s->base.back() != '/') s->base += '/';
  s->phase = PACK_STREAM_MANIFEST;
  s->manifest_request = s->next_request++;
  s->manifest_progress_at = now;
  // Network first (a teacher may have re-converted the pack); the cached copy only when offline.
  client->fetch_start(s->manifest_request, s->base + PACK_MANIFEST_FILE, 0, 0, s->base + PACK_MANIFEST_FILE, false);
}

static void pack_stream_build_items(pack_stream* s) {
  const pack_manifest& m = s->manifest;
  s->items.clear();
  s->layers.assign(m.layers.size(), pack_stream_layer());
  s->inputs.assign(m.probes.size(), {});
  s->precomputed.assign(m.probes.size(), std::vector<std::vector<float>>(m.layers.size()));
  for (size_t p = 0; p < m.probes.size(); p++) {
    pack_item in;
    in.kind = PACK_ITEM_INPUT;
    in.probe = (int)p;
    in.blob = m.probes[p].input;
    s->items.push_back(in);
    for (size_t l = 0; l < m.layers.size(); l++) {
      pack_item pre;
      pre.kind = PACK_ITEM_PRECOMPUTED;
      pre.probe = (int)p;
      pre.layer = (int)l;
      pre.blob = m.probes[p].layers[l].silu_gate;
      s->items.push_back(pre);
    }
  }
  for (size_t l = 0; l < m.layers.size(); l++)
    for (int part = 0; part < PACK_PART_COUNT; part++) {
      pack_item w;
      w.kind = PACK_ITEM_WEIGHT;
      w.layer = (int)l;
      w.part = part;
      w.blob = m.layers[l].part[part];
      s->items.push_back(w);
    }
  for (size_t l = 0; l < m.layers.size(); l++) s->layers[l].silu.assign(m.probes.size(), {});
}

int pack_stream_layer_index(const pack_stream* s, int model_layer) {
  return s->phase == PACK_STREAM_READY ? s->manifest.find_layer(model_layer) : -1;
}

void pack_stream_want(pack_stream* s, const std::vector<int>& result_layers, int whole_layer) {
  s->want_results.clear();
  for (int l : result_layers) {
    const int i = s->manifest.find_layer(l);
    if (i >= 0 && std::find(s->want_results.begin(), s->want_results.end(), i) == s->want_results.end())
      s->want_results.push_back(i);
  }
  s->want_whole = whole_layer >= 0 ? s->manifest.find_layer(whole_layer) : -1;
}

static bool pack_stream_wants_results(const pack_stream* s, int layer) {
  return std::find(s->want_results.begin(), s->want_results.end(), layer) != s->want_results.end();
}

// Whether the current wants need this item's bytes (again).
static bool pack_item_needed(const pack_stream* s, const pack_item& it) {
  switch (it.kind) {
    case PACK_ITEM_INPUT: return it.state != PACK_ITEM_DONE;
    case PACK_ITEM_PRECOMPUTED:
      return it.state != PACK_ITEM_DONE && pack_stream_wants_results(s, it.layer) && !s->layers[it.layer].live;
    case PACK_ITEM_WEIGHT: {
      const pack_stream_layer& L = s->layers[it.layer];
      if (L.weights.has[it.part]) return false;
      if (it.layer == s->want_whole) return true;
      return it.part == PACK_GATE && pack_stream_wants_results(s, it.layer) && !L.live;
    }
  }
  return false;
}

// Lower is sooner: inputs, precomputed results, the whole layer's gate, up, down, other gates.
static int pack_item_priority(const pack_stream* s, const pack_item& it) {
  if (it.kind == PACK_ITEM_INPUT) return 0;
  if (it.kind == PACK_ITEM_PRECOMPUTED) return 1;
  if (it.layer == s->want_whole) return 2 + it.part;
  return 5;
}

static bool pack_layer_has_weights(const pack_stream_layer& L) {
  return L.weights.has[0] || L.weights.has[1] || L.weights.has[2];
}

static bool pack_layer_loading(const pack_stream* s, int layer) {
  for (const pack_item& it : s->items)
    if (it.kind == PACK_ITEM_WEIGHT && it.layer == layer && it.state == PACK_ITEM_LOADING) return true;
  return false;
}

static int pack_stream_resident(const pack_stream* s) {
  int n = 0;
  for (const pack_stream_layer& L : s->layers) n += pack_layer_has_weights(L);
  return n;
}

int pack_stream_resident_layers(const pack_stream* s) { return pack_stream_resident(s); }

uint64_t pack_stream_resident_bytes(const pack_stream* s) {
  uint64_t b = 0;
  for (size_t l = 0; l < s->layers.size(); l++)
    for (int p = 0; p < PACK_PART_COUNT; p++)
      if (s->layers[l].weights.has[p]) b += s->manifest.layers[l].part[p].bytes;
  return b;
}

// Frees the least recently used layer's matrices (never the one wanted whole, never one with a
// request in flight) so that a new layer fits. Its live results stay.
// A layer occupies a slot from its first request until its matrices are freed.
static bool pack_stream_make_room(pack_stream* s, int for_layer) {
  if (pack_layer_has_weights(s->layers[for_layer]) || pack_layer_loading(s, for_layer)) return true;
  int occupied = 0;
  for (size_t l = 0; l < s->layers.size(); l++) occupied += pack_layer_has_weights(s->layers[l]) || pack_layer_loading(s, (int)l);
  if (occupied < PACK_STREAM_MAX_RESIDENT) return true;
  int victim = -1;
  for (size_t l = 0; l < s->layers.size(); l++) {
    const pack_stream_layer& L = s->layers[l];
    if ((int)l == s->want_whole || !pack_layer_has_weights(L) || pack_layer_loading(s, (int)l)) continue;
    if (victim < 0 || L.last_used < s->layers[victim].last_used) victim = (int)l;
  }
  if (victim < 0) return false;
  s->layers[victim].weights = pack_layer_data();
  for (pack_item& it : s->items)
    if (it.kind == PACK_ITEM_WEIGHT && it.layer == victim) it.state = PACK_ITEM_IDLE;
  return true;
}

static void pack_stream_compute_live(pack_stream* s) {
  for (size_t l = 0; l < s->layers.size(); l++) {
    pack_stream_layer& L = s->layers[l];
    if (L.live || !L.weights.has[PACK_GATE]) continue;
    bool inputs = true;
    for (const auto& x : s->inputs) inputs &= !x.empty();
    if (!inputs) return;
    for (size_t p = 0; p < s->manifest.probes.size(); p++) {
      const int T = (int)s->manifest.probes[p].tokens.size();
      L.silu[p].resize((size_t)T * s->manifest.intermediate);
      mlp_gate_silu(&L.weights.part[PACK_GATE].view, s->inputs[p].data(), T, L.silu[p].data());
    }
    L.live = true;
  }
}

void pack_stream_pump(pack_stream* s, double now) {
  if (s->phase == PACK_STREAM_MANIFEST && now - s->manifest_progress_at > PACK_STREAM_STALL_SECONDS) {
    s->client->fetch_cancel(s->manifest_request);
    s->phase = PACK_STREAM_FAILED;
    s->manifest_error = std::string(PACK_MANIFEST_FILE) + ": no answer for 20 s (stalled)";
  }
  if (s->phase != PACK_STREAM_READY) return;
  pack_stream_compute_live(s);
  int loading = 0;
  for (pack_item& it : s->items) {
    if (it.state != PACK_ITEM_LOADING) continue;
    if (now - it.last_progress > PACK_STREAM_STALL_SECONDS) {
      s->client->fetch_cancel(it.request);
      it.state = PACK_ITEM_FAILED;
      it.error = "no data for 20 s (stalled)";
    } else {
      loading++;
    }
  }
  while (!s->paused && loading < PACK_STREAM_MAX_IN_FLIGHT) {
    pack_item* best = nullptr;
    for (pack_item& it : s->items)
      if (it.state == PACK_ITEM_IDLE && pack_item_needed(s, it) &&
          (!best || pack_item_priority(s, it) < pack_item_priority(s, *best)))
        best = &it;
    if (!best) break;
    if (best->kind == PACK_ITEM_WEIGHT && !pack_stream_make_room(s, best->layer)) break;
    best->state = PACK_ITEM_LOADING;
    best->request = s->next_request++;
    best->loaded = 0;
    best->last_progress = now;
    best->error.clear();
    const std::string key = pack_stream_cache_key(s, best->blob);
    s->client->fetch_start(best->request, s->base + best->blob.file, best->blob.offset, best->blob.bytes,
                           best->bypass_cache ? std::string() : key, true);
    loading++;
  }
}

static pack_item* pack_stream_find(pack_stream* s, uint32_t request) {
  if (request == kNoRequest) return nullptr;
  for (pack_item& it : s->items)
    if (it.state == PACK_ITEM_LOADING && it.request == request) return &it;
  return nullptr;
}

void pack_stream_on_progress(pack_stream* s, uint32_t request, uint64_t loaded, double now) {
  if (s->phase == PACK_STREAM_MANIFEST && request == s->manifest_request) s->manifest_progress_at = now;
  if (pack_item* it = pack_stream_find(s, request)) {
    it->loaded = std::min<uint64_t>(loaded, it->blob.bytes);
    it->last_progress = now;
  }
}

static std::string pack_http_error(int status, const std::string& file, const std::string& net) {
  if (status == 0) return "network error" + (net.empty() ? std::string() : ": " + net);
  if (status == 404) return "HTTP 404: not on the server";
  if (status == 416) return "HTTP 416: the server says the file is shorter than the manifest lists (truncated?)";
  if (status >= 500) return "HTTP " + std::to_string(status) + ": server error";
  (void)file;
  return "HTTP " + std::to_string(status);
}

// The blob's bytes out of a response: the range itself (206, or the cache), or a slice of the
// whole file (200 from a server that ignores Range). Empty error when they are all there.
static const unsigned char* pack_response_bytes(const pack_blob& b, const fetch_response& r, std::string* error) {
  const unsigned char* body = (const unsigned char*)r.body;
  if (r.from_cache) {
    if (r.n != b.bytes) return *error = "cached copy has the wrong size", nullptr;
    return body;
  }
  if (r.status == 206) {
    if (r.content_range_start != b.offset) return *error = "the server answered another range", nullptr;
    if (r.n < b.bytes) return *error = "truncated: " + std::to_string(r.n) + " of " + std::to_string(b.bytes) + " bytes", nullptr;
    return body;
  }
  if (r.status == 200) {
    if (r.n < b.offset + b.bytes)
      return *error = "truncated: " + std::to_string(r.n) + " bytes, the manifest needs " + std::to_string(b.offset + b.bytes),
             nullptr;
    return body + b.offset;
  }
  *error = pack_http_error(r.status, b.file, r.error);
  return nullptr;
}

static void pack_stream_on_manifest(pack_stream* s, const fetch_response& r) {
  std::string err;
  if (r.status != 200 && !r.from_cache) {
    s->phase = PACK_STREAM_FAILED;
    s->manifest_error = std::string(PACK_MANIFEST_FILE) + ": " + pack_http_error(r.status, PACK_MANIFEST_FILE, r.error);
    return;
  }
  const std::string text((const char*)r.body, r.n);
  if (!pack_manifest_parse(text, &s->manifest, &err)) {
    s->phase = PACK_STREAM_FAILED;
    s->manifest_error = err;
    return;
  }
  s->manifest_from_cache = r.from_cache;
  if (!r.from_cache) s->client->cache_store(s->base + PACK_MANIFEST_FILE, text.data(), text.size());
  s->phase = PACK_STREAM_READY;
  pack_stream_build_items(s);
}

void pack_stream_on_response(pack_stream* s, uint32_t request, const fetch_response& r, double now) {
  (void)now;
  if (s->phase == PACK_STREAM_MANIFEST && request == s->manifest_request) {
    s->bytes_network += r.from_cache ? 0 : r.n;
    s->bytes_cache += r.from_cache ? r.n : 0;
    pack_stream_on_manifest(s, r);
    return;
  }
  pack_item* it = pack_stream_find(s, request);
  if (!it) return;  // cancelled or superseded
  (r.from_cache ? s->bytes_cache : s->bytes_network) += r.n;
  std::string err;
  const unsigned char* bytes = pack_response_bytes(it->blob, r, &err);
  if (bytes && !pack_verify_blob(it->blob, bytes, (size_t)it->blob.bytes, &err)) bytes = nullptr;
  if (!bytes) {
    if (r.from_cache) {  // a bad cached copy is dropped: ask the network next time round
      it->state = PACK_ITEM_IDLE;
      it->bypass_cache = true;
      return;
    }
    it->state = PACK_ITEM_FAILED;
    it->error = err.rfind(it->blob.file, 0) == 0 ? err.substr(it->blob.file.size() + 2) : err;
    return;
  }
  const size_t n = (size_t)it->blob.bytes;
  switch (it->kind) {
    case PACK_ITEM_INPUT:
      s->inputs[it->probe].resize(n / 4);
      std::memcpy(s->inputs[it->probe].data(), bytes, n);
      break;
    case PACK_ITEM_PRECOMPUTED: {
      std::vector<float>& v = s->precomputed[it->probe][it->layer];
      v.resize(n / 2);
      dtype_to_f32(ST_DTYPE_F16, bytes, v.size(), v.data());
      break;
    }
    case PACK_ITEM_WEIGHT: {
      pack_stream_layer& L = s->layers[it->layer];
      if (!pack_matrix_from_bytes(it->blob, bytes, n, &L.weights.part[it->part], &err)) {
        it->state = PACK_ITEM_FAILED;
        it->error = err;
        return;
      }
      L.weights.has[it->part] = true;
      L.weights.layer = s->manifest.layers[it->layer].layer;
      L.last_used = ++s->use_clock;
      break;
    }
  }
  it->state = PACK_ITEM_DONE;
  it->loaded = it->blob.bytes;
  it->bypass_cache = false;
  if (!r.from_cache) s->client->cache_store(pack_stream_cache_key(s, it->blob), bytes, n);
  pack_stream_compute_live(s);
}

void pack_stream_on_store_failed(pack_stream* s, const std::string& why) { s->storage_notice = why; }

void pack_stream_cancel(pack_stream* s) {
  if (s->phase == PACK_STREAM_MANIFEST) {
    s->client->fetch_cancel(s->manifest_request);
    s->phase = PACK_STREAM_FAILED;
    s->manifest_error = std::string(PACK_MANIFEST_FILE) + ": cancelled";
  }
  for (pack_item& it : s->items)
    if (it.state == PACK_ITEM_LOADING) {
      s->client->fetch_cancel(it.request);
      it.state = PACK_ITEM_FAILED;
      it.error = "cancelled";
    }
  s->paused = true;
}

void pack_stream_retry(pack_stream* s, double now) {
  s->paused = false;
  if (s->phase == PACK_STREAM_FAILED) {
    const std::string base = s->base;  // open() starts from a fresh state
    pack_stream_open(s, s->client, base, now);
    return;
  }
  for (pack_item& it : s->items)
    if (it.state == PACK_ITEM_FAILED) it.state = PACK_ITEM_IDLE;
  pack_stream_pump(s, now);
}

pack_stream_progress pack_stream_progress_of(const pack_stream* s, int layer_index) {
  pack_stream_progress p;
  for (const pack_item& it : s->items) {
    if (layer_index >= 0 && it.layer != layer_index) continue;
    const bool done = it.state == PACK_ITEM_DONE && (it.kind != PACK_ITEM_WEIGHT || s->layers[it.layer].weights.has[it.part]);
    const bool counts = done ? (it.kind != PACK_ITEM_PRECOMPUTED || pack_stream_wants_results(s, it.layer))
                             : pack_item_needed(s, it) || it.state == PACK_ITEM_LOADING;
    if (!counts) continue;
    p.total += it.blob.bytes;
    p.loaded += done ? it.blob.bytes : it.state == PACK_ITEM_LOADING ? it.loaded : 0;
    p.failed += it.state == PACK_ITEM_FAILED;
    p.loading += it.state == PACK_ITEM_LOADING;
  }
  return p;
}

// The manifest's own counts (at the lessons' threshold, all tokens): a histogram the moment the
// manifest is in, before any other byte.
static bool pack_stream_manifest_counts(const pack_stream* s, int li, mlp_gate_counts* out) {
  mlp_gate_counts c;
  for (const pack_probe& p : s->manifest.probes) {
    const pack_probe_layer& pl = p.layers[li];
    const int64_t n = (int64_t)p.tokens.size() * s->manifest.intermediate;
    c.total += n;
    c.open += (int64_t)(pl.open * (double)n + 0.5);
    c.negative += (int64_t)(pl.negative * (double)n + 0.5);
    for (int b = 0; b < PACK_HIST_BINS; b++) c.histogram[b] += pl.histogram[b];
  }
  *out = c;
  return true;
}

bool pack_stream_gate_counts(const pack_stream* s, int li, double thr, int probe, int token, mlp_gate_counts* out,
                             bool* live) {
  if (s->phase != PACK_STREAM_READY || li < 0 || li >= (int)s->layers.size()) return false;
  const pack_stream_layer& L = s->layers[li];
  *live = L.live;
  mlp_gate_counts c;
  const size_t F = (size_t)s->manifest.intermediate;
  for (size_t p = 0; p < s->manifest.probes.size(); p++) {
    const std::vector<float>& v = L.live ? L.silu[p] : s->precomputed[p][li];
    if (v.empty()) return !L.live && token < 0 && thr == PACK_THRESHOLD && pack_stream_manifest_counts(s, li, out);
    if (token < 0) mlp_gate_count(v.data(), v.size(), thr, &c);
    else if ((int)p == probe && (size_t)token * F < v.size()) mlp_gate_count(v.data() + (size_t)token * F, F, thr, &c);
  }
  *out = c;
  return true;
}

const pack_layer_data* pack_stream_whole_layer(pack_stream* s, int li) {
  if (li < 0 || li >= (int)s->layers.size() || !s->layers[li].weights.complete()) return nullptr;
  s->layers[li].last_used = ++s->use_clock;
  return &s->layers[li].weights;
}

std::vector<std::string> pack_stream_errors(const pack_stream* s) {
  std::vector<std::string> e;
  if (s->phase == PACK_STREAM_FAILED) e.push_back(s->manifest_error);
  for (const pack_item& it : s->items)
    if (it.state == PACK_ITEM_FAILED) {
      const std::string line = it.blob.file + ": " + it.error;
      if (std::find(e.begin(), e.end(), line) == e.end()) e.push_back(line);
    }
  return e;
}
