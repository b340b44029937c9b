// The precomputed silu(gate) of a pack: the shares the page prints before a
// layer's weights arrive are the ones it prints after, at every threshold a link or the typed
// field can hold, on the embedded default pack; the stored values round trip bit for bit, and a
// version-1 pack (f16 values) still reads.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>

#include "core/checkpoint/checkpoint.h"
#include "core/checkpoint/dtype.h"
#include "core/base/number_format.h"
#include "core/pack/mlp_experiments.h"
#include "core/pack/pack_build.h"
#include "core/pack/pack_read.h"
#include "pack_test_util.h"

// The three lines a gates view prints for a layer, formatted by the page's own function.
static std::string printed_shares(const mlp_gate_counts& c) {
  const double open = c.open_share(), neg = c.negative_share();
  return fmt_percent(open) + " | " + fmt_percent(neg) + " | " + fmt_percent(std::max(0.0, 1 - open - neg));
}

// The embedded default: make_checkpoint's synthetic Qwen3.5-0.8B-shaped checkpoint converted as
// cmake/native.cmake does (layers 0, 11, 23; the lesson's 6-token probe).
static void build_default_pack(mem_files* pack) {
  mem_files ckf;
  ckf.files = synth_checkpoint_make(synth_spec());
  std::string err;
  REQUIRE(pack_test_build(ckf, {0, 11, 23}, {pack_test_lesson_probe("今天天气不错，我们去公园")}, pack, &err));
}

TEST_CASE("pack: the default pack's precomputed shares print as the live ones at every threshold", "[packs][pack]") {
  mem_files pack;
  build_default_pack(&pack);
  pack_manifest m;
  std::string err;
  REQUIRE(pack_open(&pack, &m, &err));
  REQUIRE(m.layers.size() == 3);
  for (size_t li = 0; li < m.layers.size(); li++) {
    pack_layer_data d;
    REQUIRE(pack_load_layer(&pack, m, m.layers[li].layer, true, &d, &err));
    std::vector<float> pre, live;
    for (const pack_probe& p : m.probes) {
      std::vector<float> x, v;
      REQUIRE(pack_load_precomputed(&pack, p.layers[li], &v, &err));
      pre.insert(pre.end(), v.begin(), v.end());
      REQUIRE(pack_load_probe_input(&pack, p, &x, &err));
      v.assign((size_t)p.tokens.size() * m.intermediate, 0.0f);
      mlp_gate_silu(&d.part[MLP_GATE].view, x.data(), (int)p.tokens.size(), v.data());
      live.insert(live.end(), v.begin(), v.end());
    }
    REQUIRE(pre.size() == live.size());
    // The thresholds a link (thr, 0..1) or the typed field (0..0.5, 3 decimals) can set, as the
    // page holds them: round(t * 1000) / 1000.
    int differ = 0;
    for (int k = 0; k <= 1000; k++) {
      const double thr = k / 1000.0;
      mlp_gate_counts a, b;
      mlp_gate_count(pre.data(), pre.size(), thr, &a);
      mlp_gate_count(live.data(), live.size(), thr, &b);
      INFO("layer " << m.layers[li].layer << " thr " << thr);
      differ += printed_shares(a) != printed_shares(b);
      CHECK(printed_shares(a) == printed_shares(b));
      CHECK(std::equal(a.histogram, a.histogram + GATE_HIST_BINS, b.histogram));
    }
    REQUIRE(differ == 0);
  }
}

// A pack rewritten as version 1 wrote it: silu_gate as f16 blobs appended to probes.bin.
static void downgrade_to_v1(mem_files* pack, pack_manifest* m) {
  std::string& bin = pack->files[PACK_PROBES_FILE];
  for (pack_probe& p : m->probes)
    for (pack_probe_layer& pl : p.layers) {
      std::vector<float> v;
      std::string err;
      REQUIRE(pack_load_precomputed(pack, pl, &v, &err));
      std::vector<uint16_t> h(v.size());
      dtype_from_f32(ST_DTYPE_F16, v.data(), v.size(), h.data());
      while (bin.size() % 64) bin.push_back('\0');
      pl.silu_gate.offset = bin.size();
      pl.silu_gate.bytes = h.size() * 2;
      pl.silu_gate.encoding = PACK_ENC_F16;
      pl.silu_gate.xxh3 = hash64(h.data(), h.size() * 2);
      bin.append((const char*)h.data(), h.size() * 2);
    }
  m->version = 1;
  pack->files[PACK_MANIFEST_FILE] = pack_manifest_to_json(*m);
}

TEST_CASE("pack: silu_gate is stored as f32 bit for bit; version-1 packs (f16) still read", "[packs][pack]") {
  mem_files ckf = pack_test_checkpoint(pack_test_spec(SYNTH_NAMING_QWEN35, ST_DTYPE_BF16, 1));
  checkpoint ck;
  std::string err;
  REQUIRE(ckpt_open(&ckf, &ck, &err));
  pack_build_options o;
  o.layers = {0, 2, 4};
  o.probes = {{"first", {1, 2, 3, 4, 5, 6}, {}}, {"second", {7, 96, 0, 13}, {}}};
  mem_files pack;
  pack_build_result res;
  REQUIRE(pack_build(ck, o, &pack, &res, &err));
  pack_manifest m;
  REQUIRE(pack_open(&pack, &m, &err));
  REQUIRE(m.version == 2);
  REQUIRE(PACK_FORMAT_VERSION == 2);
  REQUIRE(pack.files[PACK_MANIFEST_FILE].find("\"version\": 2") != std::string::npos);

  // Written, read back: the very floats the kernels computed.
  std::vector<std::vector<float>> live;
  for (size_t li = 0; li < m.layers.size(); li++) {
    pack_layer_data d;
    REQUIRE(pack_load_layer(&pack, m, m.layers[li].layer, true, &d, &err));
    for (const pack_probe& p : m.probes) {
      REQUIRE(p.layers[li].silu_gate.encoding == PACK_ENC_F32);
      std::vector<float> x, pre, v((size_t)p.tokens.size() * m.intermediate);
      REQUIRE(pack_load_probe_input(&pack, p, &x, &err));
      mlp_gate_silu(&d.part[MLP_GATE].view, x.data(), (int)p.tokens.size(), v.data());
      REQUIRE(pack_load_precomputed(&pack, p.layers[li], &pre, &err));
      REQUIRE(pre.size() == v.size());
      REQUIRE(std::memcmp(pre.data(), v.data(), v.size() * 4) == 0);
      live.push_back(v);
    }
  }

  // The same bytes through the page's path (verified fetched bodies).
  const pack_blob& b0 = m.probes[0].layers[0].silu_gate;
  std::vector<float> fetched;
  pack_values_to_f32(b0, pack.files[PACK_PROBES_FILE].data() + b0.offset, &fetched);
  REQUIRE(fetched == live[0]);

  SECTION("a version-1 pack: f16 values, read as the nearest halves") {
    downgrade_to_v1(&pack, &m);
    pack_manifest m1;
    REQUIRE(pack_open(&pack, &m1, &err));
    REQUIRE(m1.version == 1);
    size_t i = 0;
    for (size_t li = 0; li < m1.layers.size(); li++)
      for (const pack_probe& p : m1.probes) {
        std::vector<float> pre;
        REQUIRE(pack_load_precomputed(&pack, p.layers[li], &pre, &err));
        const std::vector<float>& v = live[li * m1.probes.size() + (&p - &m1.probes[0])];
        REQUIRE(pre.size() == v.size());
        for (size_t k = 0; k < v.size(); k++) REQUIRE(pre[k] == dtype_f16_to_f32(dtype_f32_to_f16(v[k])));
        i++;
      }
    REQUIRE(i == 6);
  }
  SECTION("an encoding that does not fit the version is refused") {
    pack_manifest bad = m;
    bad.probes[0].layers[1].silu_gate.encoding = PACK_ENC_F16;  // version 2 holds f32
    pack_manifest out;
    REQUIRE_FALSE(pack_manifest_parse(pack_manifest_to_json(bad), &out, &err));
    REQUIRE(err == "manifest.json: probes[0].layers[1].silu_gate: encoding 'f16', expected 'f32'");
    bad = m;
    bad.version = 1;  // version 1 holds f16
    REQUIRE_FALSE(pack_manifest_parse(pack_manifest_to_json(bad), &out, &err));
    REQUIRE(err == "manifest.json: probes[0].layers[0].silu_gate: encoding 'f32', expected 'f16'");
  }
  SECTION("a reader refuses a newer version with a clear word") {
    pack_manifest newer = m;
    newer.version = PACK_FORMAT_VERSION + 1;
    pack_manifest out;
    REQUIRE_FALSE(pack_manifest_parse(pack_manifest_to_json(newer), &out, &err));
    REQUIRE(err.find("pack version 3 is newer than this reader (2)") != std::string::npos);
  }
}
