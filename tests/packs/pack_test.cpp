// Packs: convert synthetic checkpoints (both namings, one file and sharded, BF16/F16/F32) and
// check the shares the kernels compute from the int8 pack against a double-precision
// computation straight from the checkpoint's bytes; manifest round trip and a catalogue of
// broken manifests; corrupt and truncated blobs fail their checksums; a failing write commits
// nothing; the per-token experiments: shuffling gives exactly 0, one changed token moves alone.
#include <catch2/catch.hpp>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/checkpoint/checkpoint.h"
#include "core/pack/mlp_experiments.h"
#include "core/pack/pack_build.h"
#include "core/pack/pack_read.h"
#include "core/pack/pack_stats.h"
#include "pack_test_util.h"

static const double kShareTolerance = 0.005;  // within 0.5 percentage points

static pack_build_options pack_test_options() {
  pack_build_options o;
  o.layers = {0, 2, 4};
  o.probes = {{"first", {1, 2, 3, 4, 5, 6}, {"a", "b", "c", "d", "e", "f"}}, {"second", {7, 96, 0, 13, 13, 50, 8, 9}, {}}};
  return o;
}

static void build_pack(mem_files& ckpt_files, mem_files* pack, pack_build_result* res) {
  checkpoint ck;
  std::string err;
  REQUIRE(ckpt_open(&ckpt_files, &ck, &err));
  INFO(err);
  REQUIRE(pack_build(ck, pack_test_options(), pack, res, &err));
  REQUIRE(pack->committed);
}

// A synthetic checkpoint converted with pack_test_options() and its manifest opened.
struct built_pack {
  mem_files ckf, pack;
  pack_build_result res;
  pack_manifest m;
  built_pack(synth_naming naming, st_dtype dtype, int shards = 1) {
    ckf = pack_test_checkpoint(pack_test_spec(naming, dtype, shards));
    build_pack(ckf, &pack, &res);
    std::string err;
    REQUIRE(pack_open(&pack, &m, &err));
  }
};

static double silu_d(double z) { return z / (1 + std::exp(-z)); }

// Shares of silu(gate) > thr and < -thr for a layer, from the checkpoint's raw bytes, in double.
static std::pair<double, double> reference_shares(mem_files& m, const checkpoint& ck, int layer, double thr) {
  const int H = (int)ck.config.hidden, F = (int)ck.config.intermediate;
  const std::vector<double> E = raw_tensor(m, ckpt_embed_name(ck)), W = raw_tensor(m, ckpt_post_norm_name(ck, 0)),
                            G = raw_tensor(m, ckpt_mlp_name(ck, layer, MLP_GATE));
  const bool one_plus = ck.config.norm == MODEL_NORM_ONE_PLUS_W;
  int64_t open = 0, neg = 0, total = 0;
  for (const pack_probe_spec& p : pack_test_options().probes)
    for (int64_t id : p.tokens) {
      std::vector<double> x(H);
      double ss = 0;
      for (int c = 0; c < H; c++) ss += E[id * H + c] * E[id * H + c];
      for (int c = 0; c < H; c++) x[c] = E[id * H + c] / std::sqrt(ss / H + ck.config.rms_norm_eps) * (one_plus ? 1 + W[c] : W[c]);
      for (int n = 0; n < F; n++) {
        double z = 0;
        for (int c = 0; c < H; c++) z += G[(size_t)n * H + c] * x[c];
        const double g = silu_d(z);
        open += g > thr;
        neg += g < -thr;
        total++;
      }
    }
  return {(double)open / total, (double)neg / total};
}

TEST_CASE("pack: shares from the int8 pack match the unquantized checkpoint in double", "[packs][pack]") {
  for (synth_naming naming : {SYNTH_NAMING_QWEN35, SYNTH_NAMING_LLAMA})
    for (st_dtype dt : {ST_DTYPE_BF16, ST_DTYPE_F16, ST_DTYPE_F32})
      for (int shards : {1, 2}) {
        INFO("naming " << naming << " dtype " << st_dtype_name(dt) << " shards " << shards);
        mem_files ckf = pack_test_checkpoint(pack_test_spec(naming, dt, shards));
        mem_files pack;
        pack_build_result res;
        build_pack(ckf, &pack, &res);
        checkpoint ck;
        std::string err;
        REQUIRE(ckpt_open(&ckf, &ck, &err));
        pack_manifest m;
        REQUIRE(pack_open(&pack, &m, &err));
        REQUIRE(m.synthetic);
        REQUIRE(m.norm == (naming == SYNTH_NAMING_QWEN35 ? "1+w" : "w"));
        REQUIRE(m.layers.size() == 3);
        for (size_t li = 0; li < m.layers.size(); li++) {
          const int layer = m.layers[li].layer;
          for (double thr : {0.1, 0.05, 0.3}) {
            mlp_gate_counts c;
            REQUIRE(pack_gate_stats(&pack, m, layer, thr, &c, &err));
            const auto ref = reference_shares(ckf, ck, layer, thr);
            INFO("layer " << layer << " thr " << thr);
            REQUIRE(std::fabs(c.open_share() - ref.first) <= kShareTolerance);
            REQUIRE(std::fabs(c.negative_share() - ref.second) <= kShareTolerance);
            if (thr == PACK_THRESHOLD) {
              // Trained-model-like: tens of percent open and negative, not all open or closed.
              REQUIRE(c.open_share() > 0.15);
              REQUIRE(c.open_share() < 0.6);
              REQUIRE(c.negative_share() > 0.1);
              REQUIRE(c.negative_share() < 0.5);
            }
          }
        }
      }
}

TEST_CASE("pack: precomputed results equal what the kernels compute from the pack", "[packs][pack]") {
  built_pack b(SYNTH_NAMING_QWEN35, ST_DTYPE_BF16);
  mem_files& pack = b.pack;
  const pack_manifest& m = b.m;
  const pack_build_result& res = b.res;
  std::string err;
  for (size_t li = 0; li < m.layers.size(); li++) {
    mlp_gate_counts all;
    REQUIRE(pack_gate_stats(&pack, m, m.layers[li].layer, PACK_THRESHOLD, &all, &err));
    int64_t open = 0, neg = 0, total = 0;
    std::vector<int64_t> hist(GATE_HIST_BINS, 0);
    pack_layer_data d;
    REQUIRE(pack_load_layer(&pack, m, m.layers[li].layer, true, &d, &err));
    REQUIRE_FALSE(d.complete());
    for (const pack_probe& p : m.probes) {
      const pack_probe_layer& pl = p.layers[li];
      std::vector<float> pre, x;
      REQUIRE(pack_load_precomputed(&pack, pl, &pre, &err));
      REQUIRE(pack_load_probe_input(&pack, p, &x, &err));
      std::vector<float> live(pre.size());
      mlp_gate_silu(&d.part[MLP_GATE].view, x.data(), (int)p.tokens.size(), live.data());
      REQUIRE(pre == live);  // stored as f32 (pack version 2): the very values the kernels compute
      const int64_t n = (int64_t)p.tokens.size() * m.intermediate;
      open += (int64_t)std::llround(pl.open * n);
      neg += (int64_t)std::llround(pl.negative * n);
      total += n;
      for (int b = 0; b < GATE_HIST_BINS; b++) hist[b] += pl.histogram[b];
    }
    REQUIRE(open == all.open);
    REQUIRE(neg == all.negative);
    REQUIRE(total == all.total);
    REQUIRE(std::equal(hist.begin(), hist.end(), all.histogram));
  }
  // The converter reports every matrix's quantization error, and int8 per-row keeps it small.
  REQUIRE(res.quant.size() == 9);
  REQUIRE(res.quant[res.worst].rel_rms < 0.02);
  for (const pack_quant_report& q : res.quant) REQUIRE(q.rel_rms <= res.quant[res.worst].rel_rms);
}

TEST_CASE("pack: a norm rule that does not fit the weights is flagged", "[packs][pack]") {
  mem_files ckf = pack_test_checkpoint(pack_test_spec(SYNTH_NAMING_QWEN35, ST_DTYPE_BF16, 1));
  checkpoint ck;
  std::string err;
  REQUIRE(ckpt_open(&ckf, &ck, &err));
  mem_files pack;
  pack_build_result res;
  REQUIRE(pack_build(ck, pack_test_options(), &pack, &res, &err));
  REQUIRE(res.warnings.empty());  // Qwen3.5 with (1 + w): fits
  ck.config.norm = MODEL_NORM_W;  // as if model_type were unknown
  mem_files pack2;
  REQUIRE(pack_build(ck, pack_test_options(), &pack2, &res, &err));
  REQUIRE(res.warnings.size() == 1);
  REQUIRE(res.warnings[0].find("(1 + w)") != std::string::npos);
}

TEST_CASE("pack: gate counts compare in f32 like PyTorch's (g > 0.1), and fill the histogram", "[packs][pack]") {
  const float s[] = {0.5f, -0.2f, 0.05f, -0.05f, 0.11f, 0.0f, -0.3f, 0.1f, -0.1f};
  mlp_gate_counts c;
  mlp_gate_count(s, 9, 0.1, &c);
  REQUIRE(c.total == 9);
  REQUIRE(c.open == 2);      // 0.5, 0.11: 0.1f is not above 0.1 in f32
  REQUIRE(c.negative == 2);  // -0.2, -0.3
  REQUIRE(c.open_share() == Approx(2.0 / 9));
  int64_t binned = 0;
  for (int64_t n : c.histogram) binned += n;
  REQUIRE(binned == 9);
  REQUIRE(c.histogram[gate_hist_bin(0.5f)] == 1);
}

TEST_CASE("pack: the histogram bins put +-0.1 on edges", "[packs][pack]") {
  REQUIRE(gate_hist_bin(-0.3f) == 0);
  REQUIRE(gate_hist_bin(-1.0f) == 0);
  REQUIRE(gate_hist_bin(0.1f) == gate_hist_bin(0.1001f));
  REQUIRE(gate_hist_bin(0.0999f) == gate_hist_bin(0.1f) - 1);
  REQUIRE(gate_hist_bin(100.0f) == GATE_HIST_BINS - 1);
  REQUIRE(gate_hist_bin(NAN) == 0);
}

TEST_CASE("pack: per token: shuffling only shuffles, one changed token moves alone", "[packs][pack]") {
  built_pack b(SYNTH_NAMING_QWEN35, ST_DTYPE_BF16);
  mem_files& pack = b.pack;
  const pack_manifest& m = b.m;
  std::string err;
  pack_layer_data d;
  REQUIRE(pack_load_layer(&pack, m, 4, false, &d, &err));
  REQUIRE(d.complete());
  const swiglu_q8_layer L = d.view((int)m.hidden, (int)m.intermediate);
  std::vector<float> x;
  REQUIRE(pack_load_probe_input(&pack, m.probes[0], &x, &err));
  const mlp_perm_result r = mlp_permutation_test(&L, x.data(), 6, mlp_default_perm(6));
  REQUIRE(r.max_abs_diff == 0.0);
  REQUIRE(r.max_abs_output > 0.01);
  for (int k = 0; k < 6; k++) {
    const std::vector<double> ch = mlp_token_change(&L, x.data(), 6, k, 1.0f);
    for (int t = 0; t < 6; t++) {
      if (t == k) REQUIRE(ch[t] > 1e-3);
      else REQUIRE(ch[t] == 0.0);
    }
  }
  std::vector<int> perm;
  REQUIRE(mlp_parse_perm("5,3,1,0,2,4", 6, &perm, &err));
  REQUIRE(perm == mlp_default_perm(6));
  REQUIRE_FALSE(mlp_parse_perm("5,3,1,0,2,2", 6, &perm, &err));
  REQUIRE_FALSE(mlp_parse_perm("5,3,1,0,2", 6, &perm, &err));
  REQUIRE_FALSE(mlp_parse_perm("5,3,1,0,2,6", 6, &perm, &err));
  REQUIRE_FALSE(mlp_parse_perm("", 6, &perm, &err));
}

TEST_CASE("pack: corrupt, truncated and foreign blobs fail their checks", "[packs][pack]") {
  built_pack b(SYNTH_NAMING_LLAMA, ST_DTYPE_F32);
  mem_files& pack = b.pack;
  const pack_manifest& m = b.m;
  std::string err;
  pack_layer_data d;
  SECTION("one flipped bit in a weight file") {
    pack.files["layer-002-up.q8"][1000] ^= 0x10;
    REQUIRE_FALSE(pack_load_layer(&pack, m, 2, false, &d, &err));
    REQUIRE(err.find("layer-002-up.q8: checksum mismatch") != std::string::npos);
    REQUIRE(pack_load_layer(&pack, m, 2, true, &d, &err));  // the gate alone is still fine
  }
  SECTION("a truncated weight file") {
    pack.files["layer-000-gate.q8"].resize(4000);
    REQUIRE_FALSE(pack_load_layer(&pack, m, 0, true, &d, &err));
    REQUIRE(err.find("layer-000-gate.q8") != std::string::npos);
    REQUIRE(err.find("truncated") != std::string::npos);
  }
  SECTION("a missing weight file") {
    pack.files.erase("layer-004-down.q8");
    REQUIRE_FALSE(pack_load_layer(&pack, m, 4, false, &d, &err));
    REQUIRE(err.find("layer-004-down.q8") != std::string::npos);
  }
  SECTION("a flipped bit in probes.bin") {
    pack.files["probes.bin"][10] ^= 1;
    std::vector<float> x;
    REQUIRE_FALSE(pack_load_probe_input(&pack, m.probes[0], &x, &err));
    REQUIRE(err.find("probes.bin: checksum mismatch") != std::string::npos);
  }
  SECTION("a layer file swapped with another layer's") {
    pack.files["layer-000-gate.q8"] = pack.files["layer-002-gate.q8"];
    REQUIRE_FALSE(pack_load_layer(&pack, m, 0, true, &d, &err));
    REQUIRE(err.find("checksum mismatch") != std::string::npos);
  }
  SECTION("a layer that is not in the pack") {
    REQUIRE_FALSE(pack_load_layer(&pack, m, 1, true, &d, &err));
    REQUIRE(err.find("layer 1 is not in this pack") != std::string::npos);
  }
}

// Files that say they are larger than they are (a sparse file, a lying server): reads fail.
struct claimed_size_files : mem_files {
  uint64_t claimed = 0;
  bool size(const std::string&, uint64_t* bytes, std::string*) override { return *bytes = claimed, true; }
  bool read(const std::string& name, uint64_t, size_t, void*, std::string* error) override {
    return *error = name + ": read past the real bytes", false;
  }
};

// Fuzzing found the loaders allocating what a manifest claims before looking at the file: a
// 1.5 KB manifest with hidden 65536 / intermediate 262144 asked for 17 GB and died of bad_alloc.
TEST_CASE("pack: claimed blob sizes are checked against the file and a cap before allocating", "[packs][pack]") {
  built_pack b(SYNTH_NAMING_QWEN35, ST_DTYPE_BF16);
  pack_manifest m = b.m;
  const uint64_t huge = uint64_t(1) << 40;  // the largest 'bytes' the manifest parser accepts
  std::string err;
  pack_layer_data d;
  SECTION("a matrix far larger than its file") {
    m.layers[0].part[MLP_GATE].bytes = huge;
    REQUIRE_FALSE(pack_load_layer(&b.pack, m, 0, true, &d, &err));
    INFO(err);
    REQUIRE(err.find("layer-000-gate.q8: ") == 0);
    REQUIRE(err.find("too short for the 1099511627776 bytes") != std::string::npos);
  }
  SECTION("probe inputs and precomputed results far larger than probes.bin") {
    m.probes[0].input.bytes = huge;
    m.probes[0].layers[1].silu_gate.bytes = huge;
    std::vector<float> v;
    REQUIRE_FALSE(pack_load_probe_input(&b.pack, m.probes[0], &v, &err));
    REQUIRE(err.find("probes.bin: ") == 0);
    REQUIRE(err.find("too short") != std::string::npos);
    REQUIRE_FALSE(pack_load_precomputed(&b.pack, m.probes[0].layers[1], &v, &err));
    REQUIRE(err.find("too short") != std::string::npos);
  }
  SECTION("a file as large as the claim, but over the reader's cap") {
    claimed_size_files liar;
    liar.files = b.pack.files;
    liar.claimed = huge;
    m.layers[0].part[MLP_GATE].bytes = PACK_BLOB_MAX_BYTES + 64;
    REQUIRE_FALSE(pack_load_layer(&liar, m, 0, true, &d, &err));
    INFO(err);
    REQUIRE(err == "layer-000-gate.q8: the manifest lists 1073741888 bytes, over this reader's limit of 1073741824 "
                   "bytes for one blob");
  }
}

// A sink that fails on its n-th write: the converter must stop and never commit.
struct failing_sink : mem_files {
  int left;
  explicit failing_sink(int n) : left(n) {}
  bool write(const std::string& name, const void* d, size_t n, std::string* error) override {
    if (--left < 0) return *error = name + ": disk full", false;
    return mem_files::write(name, d, n, error);
  }
};

TEST_CASE("pack: a failing write or a bad request commits nothing", "[packs][pack]") {
  mem_files ckf = pack_test_checkpoint(pack_test_spec(SYNTH_NAMING_QWEN35, ST_DTYPE_BF16, 1));
  checkpoint ck;
  std::string err;
  REQUIRE(ckpt_open(&ckf, &ck, &err));
  pack_build_result res;
  for (int n : {0, 4, 9, 10}) {
    failing_sink sink(n);
    REQUIRE_FALSE(pack_build(ck, pack_test_options(), &sink, &res, &err));
    REQUIRE(err.find("disk full") != std::string::npos);
    REQUIRE_FALSE(sink.committed);
    REQUIRE(sink.files.count(PACK_MANIFEST_FILE) == 0);
  }
  pack_build_options o = pack_test_options();
  o.probes[1].tokens.push_back(97);  // outside the vocabulary of 97
  mem_files sink;
  REQUIRE_FALSE(pack_build(ck, o, &sink, &res, &err));
  REQUIRE(err.find("token id 97 is outside the vocabulary") != std::string::npos);
  REQUIRE_FALSE(sink.committed);
  o = pack_test_options();
  o.layers = {0, 1};  // layer 1 has no tensors in this checkpoint
  REQUIRE_FALSE(pack_build(ck, o, &sink, &res, &err));
  REQUIRE(err.find("missing tensor") != std::string::npos);
  REQUIRE_FALSE(sink.committed);
  std::vector<int> layers;
  REQUIRE(pack_parse_layers("all", 5, &layers, &err));
  REQUIRE(layers.size() == 5);
  REQUIRE_FALSE(pack_parse_layers("0,5", 5, &layers, &err));
  REQUIRE_FALSE(pack_parse_layers("0,0", 5, &layers, &err));
  REQUIRE_FALSE(pack_parse_layers("x", 5, &layers, &err));
}

// [SECTION] the manifest as hostile input
static std::string replace_once(std::string s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

TEST_CASE("pack: manifest round trip and broken manifests", "[packs][pack]") {
  mem_files ckf = pack_test_checkpoint(pack_test_spec(SYNTH_NAMING_QWEN35, ST_DTYPE_BF16, 1));
  mem_files pack;
  pack_build_result res;
  build_pack(ckf, &pack, &res);
  const std::string text = pack.files[PACK_MANIFEST_FILE];
  pack_manifest m;
  std::string err;
  REQUIRE(pack_manifest_parse(text, &m, &err));
  REQUIRE(pack_manifest_to_json(m) == text);
  REQUIRE(m.probes[0].pieces.size() == 6);
  REQUIRE(m.probes[1].pieces.empty());
  auto bad = [&](const std::string& t, const std::string& expect) {
    pack_manifest out;
    std::string e;
    REQUIRE_FALSE(pack_manifest_parse(t, &out, &e));
    INFO(e);
    REQUIRE(e.find(expect) != std::string::npos);
  };
  bad("", "not a JSON object");
  bad("[]", "not a JSON object");
  bad(replace_once(text, "\"swiglu-lab-pack\"", "\"gguf\""), "format 'gguf'");
  bad(replace_once(text, "\"version\": 2", "\"version\": 3"), "newer than this reader");
  bad(replace_once(text, "\"layer-000-gate.q8\"", "\"../layer-000-gate.q8\""), "not a plain file name");
  bad(replace_once(text, "\"layer-000-gate.q8\"", "\"https://evil/x\""), "not a plain file name");
  bad(replace_once(text, "\"hidden_size\": 60", "\"hidden_size\": 61"), "shape does not match");
  bad(replace_once(text, "\"xxh3-64\"", "\"md5\""), "hash 'md5'");
  bad(replace_once(text, "\"norm\": \"1+w\"", "\"norm\": \"2w\""), "'norm'");
  bad(replace_once(text, "\"synthetic\": true", "\"synthetic\": 1"), "'synthetic'");
  bad(replace_once(text, "\"layer\": 2", "\"layer\": 0"), "listed twice");
  bad(replace_once(text, "\"layer\": 4", "\"layer\": 5"), "out of range");
  bad(replace_once(text, "\"encoding\": \"q8-row-v1\"", "\"encoding\": \"q4\""), "encoding 'q4'");
  nlohmann::json j = nlohmann::json::parse(text);
  j["probes"][0]["tokens"][0] = 97;
  bad(j.dump(1), "token id");
  j = nlohmann::json::parse(text);
  j["probes"][0]["pieces"].push_back("extra");
  bad(j.dump(1), "one text per token");
  bad(replace_once(text, "\"probes\": [", "\"probes\": [], \"x\": ["), "probes");
  const std::string b = std::to_string(m.layers[0].part[0].bytes);
  bad(replace_once(text, "\"bytes\": " + b, "\"bytes\": " + std::to_string(m.layers[0].part[0].bytes + 64)), "the shape needs");
}
