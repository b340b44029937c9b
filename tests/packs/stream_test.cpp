// A pack as a layer source, streamed through the fetch seam's twin (platform/native/fetch_native.h),
// with the lesson's gate results computed from the frame as the page does: the order of requests
// (manifest, inputs, precomputed, gates, then up and down only when a view needs the whole layer),
// a server that ignores Range, every failure with its message and a retry that recovers, late
// answers after Cancel or after another pack was opened, the stall limit, the cache (a second visit
// fetches 0 bytes, offline works), residency bounded in bytes, and live shares equal to `stats`.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>

#include "core/checkpoint/checkpoint.h"
#include "core/experiments/gate_activity.h"
#include "core/views/live_view.h"
#include "core/pack/pack_build.h"
#include "core/pack/pack_stats.h"
#include "core/source/pack_source.h"
#include "core/base/strings.h"
#include "pack_test_util.h"
#include "platform/native/fetch_native.h"

static const char* kBase = "https://packs.example/p/";
static const double kStall = 3.0;  // seconds: the tests' stall limit (the page's is 20)

static mem_files stream_test_pack(int num_layers, std::vector<int> layers) {
  synth_spec s = pack_test_spec(SYNTH_NAMING_QWEN35, ST_DTYPE_BF16, 1);
  s.num_layers = num_layers;
  s.layers = layers;
  mem_files ckf = pack_test_checkpoint(s);
  std::string err;
  mem_files pack;
  REQUIRE(pack_test_build(ckf, layers, {{"p0", {1, 2, 3, 4, 5, 6}, {}}, {"p1", {9, 8, 7}, {}}}, &pack, &err));
  return pack;
}

// The page's frame, compressed: results from what arrived, then the wants, then the pump; the
// browser's event loop delivers between frames.
struct stream_fixture {
  mem_files pack;
  native_fetch net;
  std::unique_ptr<pack_source> s;
  gate_activity g;
  std::vector<int> shown;  // the layers whose gate results the view shows
  int whole = -1;
  double now = 0;
  explicit stream_fixture(mem_files p) : pack(std::move(p)) {
    net.files = &pack;
    net.base = kBase;
  }
  void open() {
    s.reset();  // the old source goes first: it cancels its requests
    pack_source_options o;
    o.stall_seconds = kStall;
    s.reset(new pack_source(&net, kBase, now, o));
    g = gate_activity();
  }
  void show(std::vector<int> layers, int whole_layer) { shown = std::move(layers), whole = whole_layer; }
  void frame() {
    if (s->phase() == SOURCE_READY) s->want(gate_activity_update(&g, s.get(), shown), whole);
    s->pump(now);
  }
  int max_weights_in_flight = 0;  // seen between frames: the browser's view of the requests
  void settle() {
    for (int i = 0; i < 200; i++) {
      frame();
      int w = 0;
      for (const std::string& u : net.pending_urls()) w += u.find(".q8") != std::string::npos;
      max_weights_in_flight = std::max(max_weights_in_flight, w);
      if (net.deliver(now) == 0) {
        frame();
        if (net.deliver(now) == 0) return frame();
      }
    }
    FAIL("the stream never settled");
  }
  std::vector<std::string> weights_requested() const {
    std::vector<std::string> w;
    for (const std::string& f : net.requested)
      if (f.find(".q8") != std::string::npos) w.push_back(f);
    return w;
  }
  gate_row row(int layer, double thr = 0.1, int probe = 0, int token = -1) {
    return gate_activity_row(&g, s.get(), layer, thr, probe, token);
  }
  std::vector<std::string> failures() const {
    std::vector<std::string> out;
    for (const source_failure& f : s->failures()) out.push_back(live_failure_text(f));
    return out;
  }
};

TEST_CASE("stream: manifest, inputs, precomputed, then gates; live shares equal stats", "[packs][stream]") {
  strings_set_lang(LAB_LANG_EN);
  stream_fixture f(stream_test_pack(5, {0, 2, 4}));
  f.open();
  REQUIRE(f.s->phase() == SOURCE_OPENING);
  f.net.deliver(f.now);
  REQUIRE(f.s->phase() == SOURCE_READY);
  REQUIRE(f.s->model().layers == std::vector<int>{0, 2, 4});
  f.show({0, 2, 4}, -1);
  // The manifest alone already gives each layer's histogram at the lessons' threshold.
  const gate_row from_manifest = f.row(2);
  REQUIRE(from_manifest.available);
  REQUIRE_FALSE(from_manifest.live);
  REQUIRE_FALSE(f.row(2, 0.2).available);  // other thresholds need the blobs
  // The first rounds: the inputs and the precomputed results only (2 in flight at a time).
  for (int round = 0; round < 4; round++) {
    f.frame();
    f.net.deliver(f.now);
  }
  REQUIRE(f.row(0).available);
  REQUIRE_FALSE(f.row(0).live);  // the precomputed histogram shows before any weight arrived
  REQUIRE(f.weights_requested().empty());
  f.settle();
  // One gate at a time, in the order the view lists the layers: the first completes first.
  REQUIRE(f.weights_requested() == std::vector<std::string>{"layer-000-gate.q8", "layer-002-gate.q8", "layer-004-gate.q8"});
  REQUIRE(f.max_weights_in_flight == 1);
  for (int layer : {0, 2, 4}) {
    const gate_row r = f.row(layer);
    REQUIRE(r.live);
    if (layer == 2) {  // the manifest's counts were exactly the live ones
      REQUIRE(r.counts.open == from_manifest.counts.open);
      REQUIRE(r.counts.negative == from_manifest.counts.negative);
      REQUIRE(std::equal(r.counts.histogram, r.counts.histogram + GATE_HIST_BINS, from_manifest.counts.histogram));
    }
    mlp_gate_counts ref;
    std::string err;
    REQUIRE(pack_gate_stats(&f.pack, f.s->manifest(), layer, 0.1, &ref, &err));
    REQUIRE(r.counts.open == ref.open);
    REQUIRE(r.counts.negative == ref.negative);
    REQUIRE(r.counts.total == ref.total);
  }
  // One token's histogram: the token of the probe asked for, counted over the intermediate units.
  const gate_row one = f.row(0, 0.1, 1, 2);
  const int64_t F = f.s->model().intermediate;
  REQUIRE(one.counts.total == F);
  bool live = false;
  const std::vector<float>* silu = gate_activity_values(&f.g, f.s.get(), 0, 1, &live);
  REQUIRE(live);
  int64_t open = 0;
  for (int64_t n = 0; n < F; n++) open += (*silu)[(size_t)(2 * F + n)] > 0.1f;
  REQUIRE(one.counts.open == open);
  const source_progress p = f.s->progress(-1);
  REQUIRE(p.loaded == p.total);
  REQUIRE(p.failed == 0);
  REQUIRE(f.s->failures().empty());
}

TEST_CASE("stream: one layer alone, gate before up and down", "[packs][stream]") {
  stream_fixture f(stream_test_pack(5, {0, 2, 4}));
  f.open();
  f.net.deliver(f.now);
  f.show({2}, -1);
  f.settle();
  REQUIRE(f.weights_requested() == std::vector<std::string>{"layer-002-gate.q8"});
  REQUIRE(f.s->matrix(2, MLP_UP) == nullptr);
  f.show({2}, 2);
  f.settle();
  REQUIRE(f.weights_requested() == std::vector<std::string>{"layer-002-gate.q8", "layer-002-up.q8", "layer-002-down.q8"});
  REQUIRE(f.s->matrix(2, MLP_UP) != nullptr);
  REQUIRE(f.s->matrix(2, MLP_DOWN) != nullptr);
  f.show({}, 4);  // a whole layer from scratch: gate first
  f.settle();
  const auto w = f.weights_requested();
  REQUIRE(std::vector<std::string>(w.end() - 3, w.end()) ==
          std::vector<std::string>{"layer-004-gate.q8", "layer-004-up.q8", "layer-004-down.q8"});
}

TEST_CASE("stream: a server that ignores Range still gives the right bytes", "[packs][stream]") {
  stream_fixture f(stream_test_pack(5, {0, 2, 4}));
  f.net.faults["probes.bin"].ignore_range = true;
  f.net.faults["layer-002-gate.q8"].ignore_range = true;
  f.open();
  f.net.deliver(f.now);
  f.show({0, 2, 4}, -1);
  f.settle();
  REQUIRE(f.s->failures().empty());
  mlp_gate_counts ref;
  std::string err;
  REQUIRE(f.row(2).live);
  REQUIRE(pack_gate_stats(&f.pack, f.s->manifest(), 2, 0.1, &ref, &err));
  REQUIRE(f.row(2).counts.open == ref.open);
}

TEST_CASE("stream: every failure names its file, the rest keeps working, retry recovers", "[packs][stream]") {
  struct fault_case { const char* name; fetch_fault fault; const char* en; const char* zh; };
  std::vector<fault_case> cases = {
      {"404", {}, "HTTP 404", "服务器上没有"},     {"500", {}, "HTTP 500", "服务器错误"},
      {"416", {}, "HTTP 416", "比清单列出的短"},   {"403", {}, "HTTP 403", "拒绝访问"},
      {"truncated", {}, "truncated", "截断"},      {"corrupt", {}, "checksum mismatch", "校验和不符"},
      {"drop", {}, "network error", "网络错误"},   {"stall", {}, "no data for 3 s (stalled)", "停滞"},
  };
  cases[0].fault.status = 404;
  cases[1].fault.status = 500;
  cases[2].fault.status = 416;
  cases[3].fault.status = 403;
  cases[4].fault.truncate = true;
  cases[5].fault.corrupt = true;
  cases[6].fault.drop = true;
  cases[7].fault.stall = true;
  for (fault_case fc : cases) {
    INFO(fc.name);
    stream_fixture f(stream_test_pack(5, {0, 2, 4}));
    fc.fault.times = 1;
    f.net.faults["layer-002-gate.q8"] = fc.fault;
    f.open();
    f.net.deliver(f.now);
    f.show({0, 2, 4}, -1);
    f.settle();
    if (fc.fault.stall) {
      f.now += kStall / 2;  // not yet
      f.settle();
      REQUIRE(f.s->failures().empty());
      f.now += kStall;
      f.settle();
    }
    strings_set_lang(LAB_LANG_EN);
    const std::vector<std::string> en = f.failures();
    REQUIRE(en.size() == 1);
    REQUIRE(en[0].rfind("layer-002-gate.q8: ", 0) == 0);
    REQUIRE(en[0].find(fc.en) != std::string::npos);
    strings_set_lang(LAB_LANG_ZH);  // every reason in the page's language
    const std::vector<std::string> zh = f.failures();
    REQUIRE(zh[0].rfind("layer-002-gate.q8：", 0) == 0);
    REQUIRE(zh[0].find(fc.zh) != std::string::npos);
    strings_set_lang(LAB_LANG_EN);
    REQUIRE(f.row(0).live);  // the other layers are live
    REQUIRE(f.row(2).available);
    REQUIRE_FALSE(f.row(2).live);  // the failed one still shows its precomputed histogram
    REQUIRE(f.s->progress(2).failed == 1);
    // Nothing unverified was cached.
    for (const auto& kv : f.net.cache) REQUIRE(kv.first.find("layer-002-gate") == std::string::npos);
    f.s->retry(f.now);
    f.settle();
    REQUIRE(f.s->failures().empty());
    REQUIRE(f.row(2).live);
  }
}

TEST_CASE("stream: manifest failures, Cancel, Load it, and a full cache", "[packs][stream]") {
  strings_set_lang(LAB_LANG_EN);
  stream_fixture f(stream_test_pack(5, {0, 2, 4}));
  f.net.faults["manifest.json"].status = 404;
  f.net.faults["manifest.json"].times = 1;
  f.open();
  f.net.deliver(f.now);
  REQUIRE(f.s->phase() == SOURCE_FAILED);
  REQUIRE(f.failures() == std::vector<std::string>{"manifest.json: HTTP 404: not on the server"});
  REQUIRE(f.s->failures()[0].url == std::string(kBase) + "manifest.json");
  f.s->retry(f.now);
  f.net.deliver(f.now);
  REQUIRE(f.s->phase() == SOURCE_READY);

  stream_fixture k(stream_test_pack(5, {0, 2, 4}));
  k.open();
  k.s->cancel();
  REQUIRE(k.net.pending() == 0);
  REQUIRE(k.failures() == std::vector<std::string>{"manifest.json: cancelled"});
  k.s->retry(k.now);
  k.settle();
  REQUIRE(k.s->phase() == SOURCE_READY);
  // Cancel while gates stream, then a view that needs a whole layer: it says the loading is
  // paused and how much it still needs, and nothing starts until the user asks (Load it).
  k.show({0, 2, 4}, -1);
  k.frame();
  k.s->cancel();
  REQUIRE(k.net.pending() == 0);
  k.show({}, 2);
  k.settle();
  source_progress p = k.s->progress(-1);
  REQUIRE(p.paused);
  REQUIRE(p.loaded < p.total);
  REQUIRE(p.loading == 0);
  std::vector<std::string> status = live_status_lines(k.s.get());
  REQUIRE(std::any_of(status.begin(), status.end(), [](const std::string& l) { return l.find("cancelled") != std::string::npos; }));
  k.s->retry(k.now);
  k.settle();
  REQUIRE(k.s->failures().empty());
  REQUIRE(k.s->matrix(2, MLP_DOWN) != nullptr);
  p = k.s->progress(-1);
  REQUIRE_FALSE(p.paused);
  REQUIRE(p.loaded == p.total);

  stream_fixture g(stream_test_pack(5, {0, 2, 4}));
  g.pack.files["manifest.json"] = "{\"format\": \"something else\"}";
  g.open();
  g.net.deliver(g.now);
  REQUIRE(g.s->phase() == SOURCE_FAILED);
  REQUIRE(g.failures()[0].rfind("manifest.json: unreadable (", 0) == 0);

  stream_fixture q(stream_test_pack(5, {0, 2, 4}));
  q.open();
  q.settle();
  q.net.cache_quota = q.net.cache_used + 100;  // the manifest and the inputs fit, a weight matrix does not
  q.show({0}, -1);
  q.settle();
  REQUIRE(q.s->storage_notice() == "quota");
  REQUIRE(q.row(0).live);  // works, only not offline
}

TEST_CASE("stream: a late answer after Cancel or after opening another pack is ignored", "[packs][stream]") {
  stream_fixture f(stream_test_pack(5, {0, 2, 4}));
  f.net.answer_after_cancel = true;  // the browser raced the cancel
  f.open();
  f.net.deliver(f.now);
  f.show({0, 2, 4}, -1);
  for (int round = 0; round < 20 && !f.s->precomputed_silu(1, 4); round++) {  // inputs and precomputed first
    f.frame();
    f.net.deliver(f.now);
  }
  f.frame();
  REQUIRE(f.s->progress(-1).loading == 1);  // a gate in flight (one weight matrix at a time)
  REQUIRE(f.net.pending() == 1);
  const uint64_t generation = f.s->generation();
  f.s->cancel();
  f.net.deliver(f.now);  // their answers arrive anyway
  REQUIRE(f.s->generation() == generation);  // and change nothing
  REQUIRE(f.s->matrix(0, MLP_GATE) == nullptr);
  REQUIRE(f.s->progress(-1).paused);
  // Another pack opened while the old one's requests are in flight: the old answers never reach it.
  f.s->retry(f.now);
  f.frame();
  REQUIRE(f.net.pending() == 1);
  f.open();  // the same files under the same URL: only request ids tell the answers apart
  f.net.deliver(f.now);
  REQUIRE(f.s->phase() == SOURCE_READY);
  REQUIRE(f.s->matrix(0, MLP_GATE) == nullptr);  // not taken from the old source's answers
  REQUIRE(f.s->bytes_from_network() < 100000);   // the manifest only
}

TEST_CASE("stream: a second visit fetches no weights, and works offline", "[packs][stream]") {
  stream_fixture f(stream_test_pack(5, {0, 2, 4}));
  f.open();
  f.settle();
  f.show({0, 2, 4}, 2);
  f.settle();
  REQUIRE(f.net.network_bytes > 0);
  // Reload: a new source over the same cache.
  f.net.requested.clear();
  f.open();
  f.settle();
  REQUIRE(f.net.requested == std::vector<std::string>{"manifest.json"});  // the manifest is asked for again, nothing else
  REQUIRE(f.s->matrix(2, MLP_DOWN) != nullptr);
  REQUIRE(f.s->bytes_from_network() < 100000);
  // Offline: the manifest comes from the cache too.
  f.net.offline = true;
  f.open();
  f.settle();
  REQUIRE(f.s->phase() == SOURCE_READY);
  REQUIRE(f.s->manifest_from_cache());
  REQUIRE(f.row(4).live);
  // A cached copy that no longer matches its checksum is refetched, never used.
  f.net.offline = false;
  for (auto& kv : f.net.cache)
    if (kv.first.find("layer-000-gate") != std::string::npos) kv.second[100] ^= 1;
  f.net.requested.clear();
  f.show({0}, -1);
  f.open();
  f.settle();
  REQUIRE(std::count(f.net.requested.begin(), f.net.requested.end(), "layer-000-gate.q8") == 1);
  REQUIRE(f.row(0).live);
}

TEST_CASE("stream: memory stays bounded in bytes while a user visits every layer", "[packs][stream]") {
  std::vector<int> all;
  for (int i = 0; i < 10; i++) all.push_back(i);
  stream_fixture f(stream_test_pack(10, all));
  f.open();
  f.settle();
  const pack_manifest& m = f.s->manifest();
  const uint64_t layer_bytes = m.layers[0].part[0].bytes + m.layers[0].part[1].bytes + m.layers[0].part[2].bytes;
  // A budget of three layers, whatever their shape.
  f.s.reset();
  pack_source_options o;
  o.resident_bytes = 3 * layer_bytes;
  f.s.reset(new pack_source(&f.net, kBase, f.now, o));
  uint64_t max_bytes = 0;
  for (int round = 0; round < 2; round++)
    for (int l : all) {
      f.show(all, l);
      f.settle();
      REQUIRE(f.s->matrix(l, MLP_DOWN) != nullptr);
      REQUIRE(f.s->resident_bytes() <= o.resident_bytes);
      max_bytes = std::max(max_bytes, f.s->resident_bytes());
    }
  REQUIRE(max_bytes > 2 * layer_bytes);  // the budget is used, not wasted
  // Every layer's results stay after its weights went.
  for (int l = 0; l < 10; l++) REQUIRE(f.row(l).live);
}
