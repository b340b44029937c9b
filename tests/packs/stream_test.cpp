// Streaming a pack through the fetch seam's twin (platform/native/fetch_native.h): the order of
// requests (manifest, inputs, precomputed, gates, then up and down only when a view needs the
// whole layer), a server that ignores Range, every failure with its message and a retry that
// recovers, the cache (a second visit fetches 0 bytes, offline works), bounded residency, and
// live shares equal to what `stats` computes.
#include <catch2/catch.hpp>

#include <algorithm>

#include "core/checkpoint/checkpoint.h"
#include "core/pack/pack_build.h"
#include "core/pack/pack_stats.h"
#include "core/stream/pack_stream.h"
#include "pack_test_util.h"
#include "platform/native/fetch_native.h"

static const char* kBase = "https://packs.example/p/";

static mem_files stream_test_pack(int num_layers, std::vector<int> layers) {
  synth_spec s = pack_test_spec(SYNTH_NAMING_QWEN35, ST_DTYPE_BF16, 1);
  s.num_layers = num_layers;
  s.layers = layers;
  mem_files ckf = pack_test_checkpoint(s);
  checkpoint ck;
  std::string err;
  REQUIRE(ckpt_open(&ckf, &ck, &err));
  pack_build_options o;
  o.layers = layers;
  o.probes = {{"p0", {1, 2, 3, 4, 5, 6}, {}}, {"p1", {9, 8, 7}, {}}};
  mem_files pack;
  pack_build_result res;
  REQUIRE(pack_build(ck, o, &pack, &res, &err));
  return pack;
}

struct stream_fixture {
  mem_files pack;
  native_fetch net;
  pack_stream s;
  double now = 0;
  explicit stream_fixture(mem_files p) : pack(std::move(p)) {
    net.files = &pack;
    net.base = kBase;
  }
  void open() { pack_stream_open(&s, &net, kBase, now); }
  // Pumps and delivers until nothing moves (the browser's event loop, compressed).
  void settle() {
    for (int i = 0; i < 200; i++) {
      pack_stream_pump(&s, now);
      if (net.deliver(&s, now) == 0) {
        pack_stream_pump(&s, now);
        if (net.deliver(&s, now) == 0) return;
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
};

TEST_CASE("stream: manifest, inputs, precomputed, then gates; live shares equal stats", "[packs][stream]") {
  stream_fixture f(stream_test_pack(5, {0, 2, 4}));
  f.open();
  REQUIRE(f.s.phase == PACK_STREAM_MANIFEST);
  f.net.deliver(&f.s, f.now);
  REQUIRE(f.s.phase == PACK_STREAM_READY);
  pack_stream_want(&f.s, {0, 2, 4}, -1);
  // The manifest alone already gives each layer's histogram at the lessons' threshold.
  mlp_gate_counts from_manifest;
  bool live0 = true;
  REQUIRE(pack_stream_gate_counts(&f.s, 1, 0.1, 0, -1, &from_manifest, &live0));
  REQUIRE_FALSE(live0);
  REQUIRE_FALSE(pack_stream_gate_counts(&f.s, 1, 0.2, 0, -1, &from_manifest, &live0));  // other thresholds need the blobs
  // First round: the inputs and the precomputed results only (2 in flight at a time).
  for (int round = 0; round < 4; round++) {
    pack_stream_pump(&f.s, f.now);
    f.net.deliver(&f.s, f.now);
  }
  mlp_gate_counts c;
  bool live = true;
  REQUIRE(pack_stream_gate_counts(&f.s, 0, 0.1, 0, -1, &c, &live));
  REQUIRE_FALSE(live);  // the precomputed histogram shows before any weight arrived
  REQUIRE(f.weights_requested().empty());
  f.settle();
  REQUIRE(f.weights_requested() == std::vector<std::string>{"layer-000-gate.q8", "layer-002-gate.q8", "layer-004-gate.q8"});
  for (int li = 0; li < 3; li++) {
    if (li == 1) {  // the manifest's counts were exactly the live ones
      REQUIRE(pack_stream_gate_counts(&f.s, li, 0.1, 0, -1, &c, &live));
      REQUIRE(c.open == from_manifest.open);
      REQUIRE(c.negative == from_manifest.negative);
      REQUIRE(std::equal(c.histogram, c.histogram + PACK_HIST_BINS, from_manifest.histogram));
    }
    REQUIRE(pack_stream_gate_counts(&f.s, li, 0.1, 0, -1, &c, &live));
    REQUIRE(live);
    mlp_gate_counts ref;
    std::string err;
    REQUIRE(pack_gate_stats(&f.pack, f.s.manifest, f.s.manifest.layers[li].layer, 0.1, &ref, &err));
    REQUIRE(c.open == ref.open);
    REQUIRE(c.negative == ref.negative);
    REQUIRE(c.total == ref.total);
  }
  // One token's histogram: the token of the probe asked for, counted over the intermediate units.
  mlp_gate_counts one;
  REQUIRE(pack_stream_gate_counts(&f.s, 0, 0.1, 1, 2, &one, &live));
  REQUIRE(one.total == f.s.manifest.intermediate);
  const std::vector<float>& silu = f.s.layers[0].silu[1];
  int64_t open = 0;
  for (int64_t n = 0; n < f.s.manifest.intermediate; n++) open += silu[(size_t)(2 * f.s.manifest.intermediate + n)] > 0.1f;
  REQUIRE(one.open == open);
  const pack_stream_progress p = pack_stream_progress_of(&f.s, -1);
  REQUIRE(p.loaded == p.total);
  REQUIRE(p.failed == 0);
  REQUIRE(pack_stream_errors(&f.s).empty());
}

TEST_CASE("stream: one layer alone, gate before up and down", "[packs][stream]") {
  stream_fixture f(stream_test_pack(5, {0, 2, 4}));
  f.open();
  f.net.deliver(&f.s, f.now);
  pack_stream_want(&f.s, {2}, -1);
  f.settle();
  REQUIRE(f.weights_requested() == std::vector<std::string>{"layer-002-gate.q8"});
  REQUIRE(pack_stream_whole_layer(&f.s, 1) == nullptr);
  pack_stream_want(&f.s, {2}, 2);
  f.settle();
  REQUIRE(f.weights_requested() == std::vector<std::string>{"layer-002-gate.q8", "layer-002-up.q8", "layer-002-down.q8"});
  REQUIRE(pack_stream_whole_layer(&f.s, 1) != nullptr);
  pack_stream_want(&f.s, {}, 4);  // a whole layer from scratch: gate first
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
  f.net.deliver(&f.s, f.now);
  pack_stream_want(&f.s, {0, 2, 4}, -1);
  f.settle();
  REQUIRE(pack_stream_errors(&f.s).empty());
  mlp_gate_counts c, ref;
  bool live;
  std::string err;
  REQUIRE(pack_stream_gate_counts(&f.s, 1, 0.1, 0, -1, &c, &live));
  REQUIRE(live);
  REQUIRE(pack_gate_stats(&f.pack, f.s.manifest, 2, 0.1, &ref, &err));
  REQUIRE(c.open == ref.open);
}

TEST_CASE("stream: every failure names its file, the rest keeps working, retry recovers", "[packs][stream]") {
  struct fault_case { const char* name; fetch_fault fault; const char* expect; };
  std::vector<fault_case> cases = {
      {"404", {}, "HTTP 404"},          {"500", {}, "HTTP 500"},           {"416", {}, "HTTP 416"},
      {"truncated", {}, "truncated"},   {"corrupt", {}, "checksum mismatch"}, {"drop", {}, "network error"},
      {"stall", {}, "stalled"},
  };
  cases[0].fault.status = 404;
  cases[1].fault.status = 500;
  cases[2].fault.status = 416;
  cases[3].fault.truncate = true;
  cases[4].fault.corrupt = true;
  cases[5].fault.drop = true;
  cases[6].fault.stall = true;
  for (fault_case fc : cases) {
    INFO(fc.name);
    stream_fixture f(stream_test_pack(5, {0, 2, 4}));
    fc.fault.times = 1;
    f.net.faults["layer-002-gate.q8"] = fc.fault;
    f.open();
    f.net.deliver(&f.s, f.now);
    pack_stream_want(&f.s, {0, 2, 4}, -1);
    f.settle();
    if (fc.fault.stall) {
      f.now += PACK_STREAM_STALL_SECONDS + 1;
      f.settle();
    }
    const std::vector<std::string> errors = pack_stream_errors(&f.s);
    REQUIRE(errors.size() == 1);
    REQUIRE(errors[0].rfind("layer-002-gate.q8: ", 0) == 0);
    REQUIRE(errors[0].find(fc.expect) != std::string::npos);
    mlp_gate_counts c;
    bool live;
    REQUIRE(pack_stream_gate_counts(&f.s, 0, 0.1, 0, -1, &c, &live));
    REQUIRE(live);  // the other layers are live
    REQUIRE(pack_stream_gate_counts(&f.s, 1, 0.1, 0, -1, &c, &live));
    REQUIRE_FALSE(live);  // the failed one still shows its precomputed histogram
    REQUIRE(pack_stream_progress_of(&f.s, 1).failed == 1);
    // Nothing unverified was cached.
    for (const auto& kv : f.net.cache) REQUIRE(kv.first.find("layer-002-gate") == std::string::npos);
    pack_stream_retry(&f.s, f.now);
    f.settle();
    REQUIRE(pack_stream_errors(&f.s).empty());
    REQUIRE(pack_stream_gate_counts(&f.s, 1, 0.1, 0, -1, &c, &live));
    REQUIRE(live);
  }
}

TEST_CASE("stream: manifest failures and a full cache", "[packs][stream]") {
  stream_fixture f(stream_test_pack(5, {0, 2, 4}));
  f.net.faults["manifest.json"].status = 404;
  f.net.faults["manifest.json"].times = 1;
  f.open();
  f.net.deliver(&f.s, f.now);
  REQUIRE(f.s.phase == PACK_STREAM_FAILED);
  REQUIRE(pack_stream_errors(&f.s) == std::vector<std::string>{"manifest.json: HTTP 404: not on the server"});
  pack_stream_retry(&f.s, f.now);
  f.net.deliver(&f.s, f.now);
  REQUIRE(f.s.phase == PACK_STREAM_READY);

  stream_fixture k(stream_test_pack(5, {0, 2, 4}));
  k.open();
  pack_stream_cancel(&k.s);
  REQUIRE(k.net.pending() == 0);
  REQUIRE(pack_stream_errors(&k.s) == std::vector<std::string>{"manifest.json: cancelled"});
  pack_stream_retry(&k.s, k.now);
  k.settle();
  REQUIRE(k.s.phase == PACK_STREAM_READY);
  // Cancel while weights stream: they stop, and Retry picks them up again.
  pack_stream_want(&k.s, {0, 2, 4}, -1);
  pack_stream_pump(&k.s, k.now);
  pack_stream_cancel(&k.s);
  REQUIRE(k.net.pending() == 0);
  k.settle();
  REQUIRE(pack_stream_progress_of(&k.s, -1).failed > 0);
  pack_stream_retry(&k.s, k.now);
  k.settle();
  REQUIRE(pack_stream_errors(&k.s).empty());

  stream_fixture g(stream_test_pack(5, {0, 2, 4}));
  g.pack.files["manifest.json"] = "{\"format\": \"something else\"}";
  g.open();
  g.net.deliver(&g.s, g.now);
  REQUIRE(g.s.phase == PACK_STREAM_FAILED);
  REQUIRE(pack_stream_errors(&g.s)[0].find("manifest.json") == 0);

  stream_fixture q(stream_test_pack(5, {0, 2, 4}));
  q.open();
  q.settle();
  q.net.cache_quota = q.net.cache_used + 100;  // the manifest and the inputs fit, a weight matrix does not
  pack_stream_want(&q.s, {0}, -1);
  q.settle();
  REQUIRE(q.s.storage_notice.find("quota") != std::string::npos);
  mlp_gate_counts c;
  bool live;
  REQUIRE(pack_stream_gate_counts(&q.s, 0, 0.1, 0, -1, &c, &live));
  REQUIRE(live);  // works, only not offline
}

TEST_CASE("stream: a second visit fetches no weights, and works offline", "[packs][stream]") {
  stream_fixture f(stream_test_pack(5, {0, 2, 4}));
  f.open();
  f.settle();
  pack_stream_want(&f.s, {0, 2, 4}, 2);
  f.settle();
  const uint64_t first = f.net.network_bytes;
  REQUIRE(first > 0);
  // Reload: a new stream over the same cache.
  f.net.requested.clear();
  pack_stream reload;
  pack_stream_open(&reload, &f.net, kBase, f.now);
  f.net.deliver(&reload, f.now);
  pack_stream_want(&reload, {0, 2, 4}, 2);
  for (int i = 0; i < 20; i++) {
    pack_stream_pump(&reload, f.now);
    f.net.deliver(&reload, f.now);
  }
  REQUIRE(f.net.requested == std::vector<std::string>{"manifest.json"});  // the manifest is asked for again, nothing else
  REQUIRE(pack_stream_whole_layer(&reload, 1) != nullptr);
  // Offline: the manifest comes from the cache too.
  f.net.offline = true;
  pack_stream off;
  pack_stream_open(&off, &f.net, kBase, f.now);
  f.net.deliver(&off, f.now);
  REQUIRE(off.phase == PACK_STREAM_READY);
  REQUIRE(off.manifest_from_cache);
  pack_stream_want(&off, {0, 2, 4}, -1);
  for (int i = 0; i < 20; i++) {
    pack_stream_pump(&off, f.now);
    f.net.deliver(&off, f.now);
  }
  mlp_gate_counts c;
  bool live;
  REQUIRE(pack_stream_gate_counts(&off, 2, 0.1, 0, -1, &c, &live));
  REQUIRE(live);
  // A cached copy that no longer matches its checksum is refetched, never used.
  f.net.offline = false;
  for (auto& kv : f.net.cache)
    if (kv.first.find("layer-000-gate") != std::string::npos) kv.second[100] ^= 1;
  f.net.requested.clear();
  pack_stream again;
  pack_stream_open(&again, &f.net, kBase, f.now);
  f.net.deliver(&again, f.now);
  pack_stream_want(&again, {0}, -1);
  for (int i = 0; i < 20; i++) {
    pack_stream_pump(&again, f.now);
    f.net.deliver(&again, f.now);
  }
  REQUIRE(std::count(f.net.requested.begin(), f.net.requested.end(), "layer-000-gate.q8") == 1);
  REQUIRE(pack_stream_gate_counts(&again, 0, 0.1, 0, -1, &c, &live));
  REQUIRE(live);
}

TEST_CASE("stream: memory stays bounded while a user visits every layer", "[packs][stream]") {
  std::vector<int> all;
  for (int i = 0; i < 10; i++) all.push_back(i);
  stream_fixture f(stream_test_pack(10, all));
  f.open();
  f.settle();
  uint64_t max_bytes = 0;
  for (int round = 0; round < 2; round++)
    for (int l : all) {
      pack_stream_want(&f.s, all, l);
      f.settle();
      REQUIRE(pack_stream_whole_layer(&f.s, l) != nullptr);
      REQUIRE(pack_stream_resident_layers(&f.s) <= PACK_STREAM_MAX_RESIDENT);
      max_bytes = std::max(max_bytes, pack_stream_resident_bytes(&f.s));
    }
  const uint64_t layer_bytes = f.s.manifest.layers[0].part[0].bytes * 2 + f.s.manifest.layers[0].part[2].bytes;
  REQUIRE(max_bytes <= PACK_STREAM_MAX_RESIDENT * layer_bytes);
  // Every layer's results stay after its weights went.
  mlp_gate_counts c;
  bool live;
  for (int l = 0; l < 10; l++) {
    REQUIRE(pack_stream_gate_counts(&f.s, l, 0.1, 0, -1, &c, &live));
    REQUIRE(live);
  }
}
