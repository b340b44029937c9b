// libFuzzer target for the checkpoint read by byte ranges (core/source/checkpoint_source.h over
// the reader in core/checkpoint_remote/), driven through the fetch seam as fuzz_stream drives the
// pack source: the fuzzer's bytes are a host and a frame loop. They choose which request is
// answered and how (honestly, or with a wrong Content-Range start or total, a short body, no ETag,
// a status: 404, 403, 416, 429 with a Retry-After, 500, no answer, a redirect the browser would
// not follow; the whole file for a range; a body cut at its limit), progress, time passing
// (stalls), the host replacing its files with another version, the view's wants, Cancel, Retry,
// a damaged cache record, a reload over the same cache. The checkpoint is a small synthetic one
// in two versions (other weights, same sizes, ETags "v1" / "v2"), or a claimed one whose config
// and header agree on 65536 x 65536 matrices that no host holds.
//
// What a host cannot fake is not tried: the bytes of one version sent under the other's ETag (the
// page asks past the HTTP cache, so the ETag it sees is the host's own), or a body of garbage under
// honest headers (a checkpoint carries no checksum of its bytes).
//
// Checked after every event (the page's own limits are the bounds):
//   - nothing unverified is ready: every matrix handed out is, byte for byte, the converter's q8
//     of that tensor in one version, never a mix; the probe input is made of the embedding rows of
//     one version of their file and the norm of one version of its file (a host replacing files
//     one by one serves a checkpoint that mixes versions across files, never within one);
//   - allocation stays bounded: the heap the run takes (every operator new) stays within what the
//     page's limits allow, and no single allocation passes its largest one;
//   - progress is monotone (what is still to come never grows while the wants stay and nothing
//     was dropped or failed) and loaded <= total;
//   - in-flight requests stay bounded (the tensors' two and the opener's two);
//   - a failure names a file and a fault.
// Built by tools/fuzz.sh with clang, ASan and UBSan; ctest replays the committed corpus
// (tests/fuzz/corpus/checkpoint/).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "core/checkpoint/checkpoint.h"
#include "core/checkpoint_remote/checkpoint_limits.h"
#include "core/pack/pack_build.h"
#include "core/quant/q8_format.h"
#include "core/source/checkpoint_source.h"
#include "../packs/pack_test_util.h"

// [SECTION] every allocation counted (sizes kept in a header before each block)
static size_t g_live = 0, g_peak = 0, g_largest = 0;
static const size_t kHead = 64;  // keeps the 64-byte alignment q8 blobs ask for

static void* counted_alloc(size_t n) {
  char* p = (char*)std::malloc(n + kHead);
  if (!p) return nullptr;
  std::memcpy(p, &n, sizeof n);
  g_live += n;
  if (g_live > g_peak) g_peak = g_live;
  if (n > g_largest) g_largest = n;
  return p + kHead;
}
static void counted_free(void* q) {
  if (!q) return;
  char* p = (char*)q - kHead;
  size_t n;
  std::memcpy(&n, p, sizeof n);
  g_live -= n;
  std::free(p);
}
void* operator new(size_t n) {
  void* p = counted_alloc(n);
  if (!p) throw std::bad_alloc();
  return p;
}
void* operator new[](size_t n) { return operator new(n); }
void* operator new(size_t n, const std::nothrow_t&) noexcept { return counted_alloc(n); }
void* operator new(size_t n, std::align_val_t a) {
  if ((size_t)a > kHead) std::abort();
  return operator new(n);
}
void* operator new(size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return (size_t)a > kHead ? nullptr : counted_alloc(n);
}
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, size_t) noexcept { counted_free(p); }
void operator delete[](void* p, size_t) noexcept { counted_free(p); }
void operator delete(void* p, std::align_val_t) noexcept { counted_free(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { counted_free(p); }

// What the page's limits let a checkpoint take at once: the resident weights, a header, the config
// and the index as they come, the chunks in flight and waiting (two each, at most 16 MiB: four
// rows of the widest allowed), their parse trees; and a margin for the host's own buffers here.
static const uint64_t kAllocationBound = SOURCE_RESIDENT_BYTES + 2ull * CKPT_HEADER_PAGE_MAX_BYTES + CKPT_CONFIG_MAX_BYTES +
                                         CKPT_INDEX_PAGE_MAX_BYTES + 4ull * (16u << 20) + (32u << 20);
static const uint64_t kLargestAllocation = SOURCE_RESIDENT_BYTES;

static const char* kBase = "https://hub.example/o/m/resolve/main/";

// [SECTION] the checkpoints: two versions of a small one, and a claimed one

struct version {
  mem_files files;
  checkpoint ck;
  std::map<std::string, std::string> q8;  // tensor name -> the converter's q8 blob
  std::vector<float> emb, norm;           // the probe's embedding rows (ids 1..6) and layer 0's norm
};

// The probe's inputs that a reader may make: its embedding rows and the norm are in two files
// (the two shards), each of which a host replacing its files may have sent in either version, but
// each whole.
static std::vector<std::vector<float>>& inputs() {
  static std::vector<std::vector<float>> out;
  return out;
}

static std::vector<version>& versions() {
  static std::vector<version> v = [] {
    std::vector<version> out(2);
    for (int i = 0; i < 2; i++) {
      synth_spec s = pack_test_spec(SYNTH_NAMING_QWEN35, ST_DTYPE_BF16, 2);
      s.seed += (uint64_t)i;
      out[i].files = pack_test_checkpoint(s);
      std::string err;
      if (!ckpt_open(&out[i].files, &out[i].ck, &err)) std::abort();
      for (int l : s.layers)
        for (int p = 0; p < 3; p++) {
          const std::string name = ckpt_mlp_name(out[i].ck, l, (mlp_part)p);
          const int rows = p == 2 ? s.hidden : s.intermediate, cols = p == 2 ? s.intermediate : s.hidden;
          std::vector<float> w;
          if (!ckpt_read_f32(out[i].ck, name, {rows, cols}, &w, &err)) std::abort();
          q8_matrix_owned q{};
          if (q8_matrix_owned_init(&q, w.data(), rows, cols) != Q8_OK) std::abort();
          out[i].q8[name] = std::string((const char*)q.blob, q.bytes);
          q8_matrix_owned_free(&q);
        }
      if (!ckpt_read_rows_f32(out[i].ck, ckpt_embed_name(out[i].ck), s.vocab, s.hidden, {1, 2, 3, 4, 5, 6}, &out[i].emb, &err) ||
          !ckpt_read_f32(out[i].ck, ckpt_post_norm_name(out[i].ck, 0), {s.hidden}, &out[i].norm, &err))
        std::abort();
    }
    for (int a = 0; a < 2; a++)
      for (int b = 0; b < 2; b++) {
        std::vector<float> x(out[a].emb.size());
        pack_probe_input(out[a].emb.data(), 6, (int)out[a].ck.config.hidden, out[b].norm.data(), out[a].ck.config.norm,
                         out[a].ck.config.rms_norm_eps, x.data());
        inputs().push_back(x);
      }
    return out;
  }();
  return v;
}

// A claimed checkpoint: a config and a header that agree on 65536 x 65536 matrices, in a file of
// the size they imply (about 24 GiB), of which only the header exists.
struct claimed {
  std::string config, head;
  uint64_t size = 0;
};
static const claimed& claimed_huge() {
  static claimed c = [] {
    claimed out;
    const uint64_t H = 65536, F = 65536;
    std::string json = "{";
    uint64_t at = 0;
    auto add = [&](const std::string& name, std::vector<uint64_t> shape) {
      uint64_t n = 2;
      std::string sh;
      for (uint64_t d : shape) n *= d, sh += (sh.empty() ? "" : ",") + std::to_string(d);
      json += (json.size() > 1 ? "," : "") + std::string("\"") + name + "\":{\"dtype\":\"BF16\",\"shape\":[" + sh +
              "],\"data_offsets\":[" + std::to_string(at) + "," + std::to_string(at + n) + "]}";
      at += n;
    };
    add("model.embed_tokens.weight", {97, H});
    add("model.layers.0.post_attention_layernorm.weight", {H});
    add("model.layers.0.mlp.gate_proj.weight", {F, H});
    add("model.layers.0.mlp.up_proj.weight", {F, H});
    add("model.layers.0.mlp.down_proj.weight", {H, F});
    json += "}";
    for (int i = 0; i < 8; i++) out.head.push_back((char)((uint64_t)json.size() >> (8 * i)));
    out.head += json;
    out.size = out.head.size() + at;
    out.config = "{\"model_type\":\"llama\",\"hidden_size\":65536,\"intermediate_size\":65536,\"num_hidden_layers\":1,"
                 "\"vocab_size\":97,\"hidden_act\":\"silu\",\"swiglu_lab_synthetic\":true}";
    return out;
  }();
  return c;
}

// [SECTION] the host: answers as the fuzzer says

struct fuzz_host : fetch_client {
  struct request {
    uint32_t id;
    fetch_sink* sink;
    fetch_request q;
  };
  std::vector<request> pending;
  std::map<std::string, std::string> cache;
  uint32_t next_id = 1;
  int version = 0;        // which version of the files the host has now
  bool huge = false;      // the claimed checkpoint instead
  size_t most_in_flight = 0;

  uint32_t fetch_start(fetch_sink* sink, const fetch_request& q) override {
    pending.push_back({next_id, sink, q});
    if (pending.size() > most_in_flight) most_in_flight = pending.size();
    return next_id++;
  }
  void fetch_cancel(uint32_t id) override {
    for (size_t i = 0; i < pending.size(); i++)
      if (pending[i].id == id) return (void)pending.erase(pending.begin() + (long)i);
  }
  void cache_store(fetch_sink*, const std::string& key, const void* data, size_t n) override {
    cache[key].assign((const char*)data, n);
  }
  void forget_sink(fetch_sink* sink) override {
    for (size_t i = pending.size(); i-- > 0;)
      if (pending[i].sink == sink) pending.erase(pending.begin() + (long)i);
  }

  std::string file_of(const std::string& url) const { return url.rfind(kBase, 0) == 0 ? url.substr(strlen(kBase)) : ""; }
  // The file as the host holds it now: its size and a reader of its bytes.
  bool stat(const std::string& file, uint64_t* size) {
    if (huge) {
      const claimed& c = claimed_huge();
      if (file == "config.json") return *size = c.config.size(), true;
      if (file == "model.safetensors") return *size = c.size, true;
      return false;
    }
    mem_files& m = versions()[version].files;
    std::string err;
    return m.exists(file) && m.size(file, size, &err);
  }
  std::string read(const std::string& file, uint64_t begin, uint64_t n) {
    if (huge) {
      const std::string& src = file == "config.json" ? claimed_huge().config : claimed_huge().head;
      std::string out((size_t)n, '\0');
      for (uint64_t i = 0; i < n && begin + i < src.size(); i++) out[(size_t)i] = src[(size_t)(begin + i)];
      return out;
    }
    const std::string& src = versions()[version].files.files[file];
    return src.substr((size_t)begin, (size_t)n);
  }

  // Answers pending[k] the way `how` says (0: honestly).
  void answer(size_t k, uint8_t how, uint8_t arg, double now) {
    const request rq = pending[k];
    pending.erase(pending.begin() + (long)k);
    const fetch_request& q = rq.q;
    fetch_response r;
    std::string body;
    auto hit = q.cache_key.empty() ? cache.end() : cache.find(q.cache_key);
    if (how == 0 && q.cache_first && hit != cache.end()) {  // the transport answers from the verified cache first
      body = hit->second;
      r.status = 200;
      r.from_cache = true;
    } else {
      const std::string file = file_of(q.url);
      uint64_t size = 0;
      const bool exists = stat(file, &size);
      const bool ranged = q.length > 0 && how != 5;  // 5: a host that ignores Range
      if (!exists) {
        r.status = 404;
      } else if (how == 4) {  // a status of its own
        static const int kStatus[] = {404, 403, 416, 429, 500, 0, 0};
        r.status = kStatus[arg % 7];
        if (r.status == 429) r.retry_after = arg & 8 ? (double)(arg % 5) : -1;
        if (arg % 7 == 6) r.redirect_failed = true;
      } else if (ranged && q.begin >= size) {
        r.status = 416;
      } else {
        const uint64_t begin = ranged ? q.begin : 0, n = ranged ? std::min<uint64_t>(q.length, size - q.begin) : size;
        r.status = ranged ? 206 : 200;
        r.content_range_start = begin + (how == 1 ? 1 + arg % 3 : 0);      // 1: another start than asked
        r.total_size = size + (how == 2 ? 1 + arg % 7 : 0);                // 2: another file's size
        if (!huge && how != 3) r.etag = version ? "\"v2\"" : "\"v1\"";    // 3: no ETag at all
        if ((q.max_bytes && n > q.max_bytes) || how == 6) {                // cut as it came
          r.cut = true;
          r.n = (size_t)(q.max_bytes ? q.max_bytes + 1 : n + 1);
        } else {
          body = read(file, begin, how == 7 ? n / 2 : n);                  // 7: the body stops short
        }
      }
    }
    r.body = body.data();
    if (!r.cut) r.n = body.size();
    rq.sink->on_fetch_response(rq.id, r, now);
  }
};

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const size_t live0 = g_live;
  g_peak = g_live;
  g_largest = 0;
  versions();  // built once, outside the counting of any input's run
  claimed_huge();
  const size_t base = g_live;
  fuzz_host host;
  host.huge = data[0] % 8 == 7;
  double now = 0;
  checkpoint_source_options o;
  o.stall_seconds = 2;
  o.clock = nullptr;  // one conversion slice per pump: the same steps on every machine
  o.chunk_bytes = 4096;   // several chunks per matrix
  o.header_prefetch = 256;  // the header's rest comes in a second request
  o.probes = {{"six", {1, 2, 3, 4, 5, 6}, {}}};
  const uint64_t M = q8_matrix_blob_bytes(170, 60);
  o.resident_bytes = (uint64_t)(1 + data[0] % 7) * M;  // from less than the model needs to room for seven matrices
  model_location where;
  std::string err;
  if (!model_location_parse(kBase, &where, &err)) std::abort();
  std::unique_ptr<checkpoint_source> src(new checkpoint_source(&host, where, now, o));
  std::vector<int> shown = {0, 2, 4}, applied_shown = {};
  int whole = -1, applied_whole = -2;
  // Progress is monotone: what is still to come (total - loaded) never grows. It is compared
  // between moments with nothing in flight or waiting (a request that fails or is told to wait
  // gives back the bytes it had shown), over stretches in which nothing may take it back: the
  // wants stay, nothing is dropped, fails, or is cancelled, retried or reopened. (A matrix no
  // longer wanted leaves the sums, loaded and total alike, once its last chunk is converted.)
  uint64_t last_remaining = 0, last_dropped = 0;
  size_t last_failures = 0;
  source_phase last_phase = src->phase();
  bool watching = false;
  static const bool trace = std::getenv("FUZZ_CHECKPOINT_TRACE") != nullptr;  // a step by step account, to read a crash
  for (size_t i = 1; i + 1 < size; i += 2) {
    const uint8_t op = data[i] % 14, arg = data[i + 1];
    bool disrupt = false;  // a step after which progress may start again from less
    switch (op) {
      case 0:
      case 1:
        if (shown != applied_shown || whole != applied_whole) disrupt = true, applied_shown = shown, applied_whole = whole;
        src->want(shown, whole), src->pump(now);
        break;
      case 2:
      case 3:
      case 4:
        if (!host.pending.empty()) host.answer(arg % host.pending.size(), op == 2 ? 0 : (arg >> 4) % 8, arg, now);
        break;
      case 5:
        if (!host.pending.empty()) {
          const fuzz_host::request& rq = host.pending[arg % host.pending.size()];
          rq.sink->on_fetch_progress(rq.id, (uint64_t)(arg % 16) * 512, now);
        }
        break;
      case 6: now += (arg % 8) * 0.5; break;
      case 7: host.version ^= 1, disrupt = true; break;  // the host replaces its files
      case 8:
        shown.clear();
        for (int l : {0, 1, 2, 3, 4})
          if (arg & (1 << l)) shown.push_back(l);
        whole = (arg >> 5) % 4 == 3 ? -1 : ((arg >> 5) % 4) * 2;
        break;
      case 9: src->cancel(), disrupt = true; break;
      case 10: src->retry(now), disrupt = true; break;
      case 11:
        for (auto& kv : host.cache)
          if (!kv.second.empty() && arg % 3 == 0) kv.second[arg % kv.second.size()] ^= 1;
        break;
      case 12:  // a reload: a new source over the same cache
        src.reset();
        src.reset(new checkpoint_source(&host, where, now, o));
        disrupt = true;
        break;
      case 13:  // the network drops what is in flight
        if (!host.pending.empty()) host.answer(arg % host.pending.size(), 4, 5, now);
        break;
    }
    // Bounded work: the tensors' ranges and the opener's two requests (a header read again).
    if (host.pending.size() > 2 + CKPT_RANGES_IN_FLIGHT || host.most_in_flight > 4 + CKPT_RANGES_IN_FLIGHT) std::abort();
    // Bounded memory: the page's own limits.
    if (g_peak - base > kAllocationBound || g_largest > kLargestAllocation) std::abort();
    if (src->resident_bytes() > o.resident_bytes) std::abort();
    for (const source_failure& f : src->failures())
      if (f.file.empty() || !f.error.failed()) std::abort();
    // Nothing unverified is ready: each matrix is one version's, whole.
    if (src->phase() == SOURCE_READY && !host.huge) {
      const checkpoint& ck = versions()[0].ck;
      for (int l : src->model().layers)
        for (int p = 0; p < 3; p++) {
          const q8_matrix_view* v = src->matrix(l, (mlp_part)p);
          if (!v) continue;
          const std::string got((const char*)v->scales - 64, (size_t)q8_matrix_blob_bytes(v->rows, v->cols));
          const std::string name = ckpt_mlp_name(ck, l, (mlp_part)p);
          if (got != versions()[0].q8[name] && got != versions()[1].q8[name]) std::abort();
        }
      const std::vector<float>* x = src->probe_input(0);
      if (x && std::find(inputs().begin(), inputs().end(), *x) == inputs().end()) std::abort();
    }
    if (host.huge && src->resident_bytes() > 0) std::abort();
    // Progress: never past the total; never back while nothing could take it back.
    const source_progress p = src->progress(-1);
    if (p.loaded > p.total) std::abort();
    const size_t failures = src->failures().size();
    if (trace)
      std::fprintf(stderr, "op %d arg %d: phase %d loaded %llu/%llu loading %d waiting %d converting %d failures %zu dropped %llu pending %zu\n", op,
                   arg, (int)src->phase(), (unsigned long long)p.loaded, (unsigned long long)p.total, p.loading, p.waiting, p.converting,
                   failures, (unsigned long long)src->data_dropped(), host.pending.size());
    if (disrupt || src->phase() != last_phase || src->data_dropped() != last_dropped || failures != last_failures) watching = false;
    last_dropped = src->data_dropped(), last_failures = failures, last_phase = src->phase();
    if (p.loading == 0 && p.waiting == 0) {
      if (watching && p.total - p.loaded > last_remaining) std::abort();
      watching = true;
      last_remaining = p.total - p.loaded;
    }
  }
  src.reset();
  (void)live0;
  return 0;
}
