// Checkpoint reading: both namings, one file and sharded, BF16 / F16 / F32; the probe input
// recipe ((1 + w) for Qwen3.5, w for Llama) against an independent double computation; the
// mtp decoy never taken for layer 0; and a catalogue of broken checkpoints, each with its error.
#include <catch2/catch.hpp>

#include "core/checkpoint/checkpoint.h"
#include "core/pack/pack_build.h"
#include "pack_test_util.h"

static const synth_naming kNamings[] = {SYNTH_NAMING_QWEN35, SYNTH_NAMING_LLAMA};
static const st_dtype kDtypes[] = {ST_DTYPE_BF16, ST_DTYPE_F16, ST_DTYPE_F32};

TEST_CASE("checkpoint: both namings, one file and sharded, every dtype read exactly", "[packs][checkpoint]") {
  for (synth_naming naming : kNamings)
    for (st_dtype dt : kDtypes)
      for (int shards : {1, 3}) {
        INFO("naming " << naming << " dtype " << st_dtype_name(dt) << " shards " << shards);
        synth_spec s = pack_test_spec(naming, dt, shards);
        mem_files m = pack_test_checkpoint(s);
        checkpoint ck;
        std::string err;
        REQUIRE(ckpt_open(&m, &ck, &err));
        REQUIRE(ck.prefix == (naming == SYNTH_NAMING_QWEN35 ? "model.language_model." : "model."));
        REQUIRE(ck.config.text_config == (naming == SYNTH_NAMING_QWEN35));
        REQUIRE(ck.config.hidden == 60);
        REQUIRE(ck.config.intermediate == 170);
        REQUIRE(ck.config.layers == 5);
        REQUIRE(ck.config.norm == (naming == SYNTH_NAMING_QWEN35 ? MODEL_NORM_ONE_PLUS_W : MODEL_NORM_W));
        REQUIRE(ck.config.synthetic);
        std::vector<float> w;
        const std::string name = ckpt_mlp_name(ck, 2, MLP_DOWN);
        REQUIRE(ckpt_read_f32(ck, name, {60, 170}, &w, &err));
        const std::vector<double> raw = raw_tensor(m, name);
        REQUIRE(raw.size() == w.size());
        for (size_t i = 0; i < w.size(); i++) REQUIRE((double)w[i] == raw[i]);
      }
}

TEST_CASE("checkpoint: the probe input is rmsnorm(embedding) times (1 + w) or w", "[packs][checkpoint]") {
  for (synth_naming naming : kNamings) {
    mem_files m = pack_test_checkpoint(pack_test_spec(naming, ST_DTYPE_BF16, 1));
    checkpoint ck;
    std::string err;
    REQUIRE(ckpt_open(&m, &ck, &err));
    const std::vector<int64_t> ids = {5, 96, 0, 5};
    std::vector<float> emb, norm, x(ids.size() * 60);
    REQUIRE(ckpt_read_rows_f32(ck, ckpt_embed_name(ck), 97, 60, ids, &emb, &err));
    REQUIRE(ckpt_read_f32(ck, ckpt_post_norm_name(ck, 0), {60}, &norm, &err));
    pack_probe_input(emb.data(), (int)ids.size(), 60, norm.data(), ck.config.norm, ck.config.rms_norm_eps, x.data());
    const std::vector<double> E = raw_tensor(m, ckpt_embed_name(ck)), W = raw_tensor(m, ckpt_post_norm_name(ck, 0));
    const bool one_plus = naming == SYNTH_NAMING_QWEN35;
    for (size_t t = 0; t < ids.size(); t++) {
      double ss = 0;
      for (int c = 0; c < 60; c++) ss += E[ids[t] * 60 + c] * E[ids[t] * 60 + c];
      const double rms = std::sqrt(ss / 60 + 1e-6);
      double xx = 0;
      for (int c = 0; c < 60; c++) {
        const double want = E[ids[t] * 60 + c] / rms * (one_plus ? 1 + W[c] : W[c]);
        REQUIRE(x[t * 60 + c] == Approx(want).epsilon(1e-6).margin(1e-7));
        xx += want * want;
      }
      // Either way the input has RMS near 1: with w alone on Qwen3.5 it would be near 0.
      REQUIRE(std::sqrt(xx / 60) == Approx(1.0).epsilon(0.2));
    }
  }
}

TEST_CASE("checkpoint: the mtp head's MLP is never taken for layer 0", "[packs][checkpoint]") {
  mem_files m = pack_test_checkpoint(pack_test_spec(SYNTH_NAMING_QWEN35, ST_DTYPE_BF16, 1));
  checkpoint ck;
  std::string err;
  REQUIRE(ckpt_open(&m, &ck, &err));
  REQUIRE(ck.find("mtp.layers.0.mlp.gate_proj.weight"));
  REQUIRE(ckpt_mlp_name(ck, 0, MLP_GATE) == "model.language_model.layers.0.mlp.gate_proj.weight");
  std::vector<float> w;
  REQUIRE(ckpt_read_f32(ck, ckpt_mlp_name(ck, 0, MLP_GATE), {170, 60}, &w, &err));
  const std::vector<double> layer0 = raw_tensor(m, "model.language_model.layers.0.mlp.gate_proj.weight");
  const std::vector<double> mtp = raw_tensor(m, "mtp.layers.0.mlp.gate_proj.weight");
  size_t same_as_mtp = 0;
  for (size_t i = 0; i < w.size(); i++) {
    REQUIRE((double)w[i] == layer0[i]);
    same_as_mtp += (double)w[i] == mtp[i];
  }
  REQUIRE(same_as_mtp < w.size() / 10);
  // Without the language model's tensors, the decoy alone is not a layer 0.
  mem_files only_mtp;
  synth_spec s = pack_test_spec(SYNTH_NAMING_QWEN35, ST_DTYPE_BF16, 1);
  s.layers = {2};
  only_mtp.files = synth_checkpoint_make(s);
  checkpoint ck2;
  REQUIRE(ckpt_open(&only_mtp, &ck2, &err));
  REQUIRE_FALSE(ckpt_read_f32(ck2, ckpt_mlp_name(ck2, 0, MLP_GATE), {170, 60}, &w, &err));
  REQUIRE(err.find("missing tensor 'model.language_model.layers.0.mlp.gate_proj.weight'") != std::string::npos);
}

// [SECTION] broken checkpoints
static std::string open_error(mem_files& m) {
  checkpoint ck;
  std::string err;
  REQUIRE_FALSE(ckpt_open(&m, &ck, &err));
  return err;
}

TEST_CASE("checkpoint: broken inputs, each with its own error", "[packs][checkpoint]") {
  synth_spec s = pack_test_spec(SYNTH_NAMING_LLAMA, ST_DTYPE_BF16, 2);
  mem_files m = pack_test_checkpoint(s);
  const std::string index = "model.safetensors.index.json";
  std::string err;
  SECTION("no config.json") {
    m.files.erase("config.json");
    REQUIRE(open_error(m).find("config.json: missing") != std::string::npos);
  }
  SECTION("config.json not JSON") {
    m.files["config.json"] = "{oops";
    REQUIRE(open_error(m).find("config.json: not valid JSON") != std::string::npos);
  }
  SECTION("config.json without hidden_size") {
    m.files["config.json"] = R"({"intermediate_size":170,"num_hidden_layers":5,"vocab_size":97})";
    REQUIRE(open_error(m).find("missing 'hidden_size'") != std::string::npos);
  }
  SECTION("config.json with a negative size") {
    m.files["config.json"] = R"({"hidden_size":-60,"intermediate_size":170,"num_hidden_layers":5,"vocab_size":97})";
    REQUIRE(open_error(m).find("'hidden_size' = -60 is outside") != std::string::npos);
  }
  SECTION("a GELU model is not SwiGLU") {
    m.files["config.json"] =
        R"({"hidden_size":60,"intermediate_size":170,"num_hidden_layers":5,"vocab_size":97,"hidden_act":"gelu_pytorch_tanh"})";
    REQUIRE(open_error(m).find("not SiLU") != std::string::npos);
  }
  SECTION("missing shard") {
    m.files.erase("model-00002-of-00002.safetensors");
    REQUIRE(open_error(m).find("model-00002-of-00002.safetensors: missing shard") != std::string::npos);
  }
  SECTION("index not JSON") {
    m.files[index] = "not json";
    REQUIRE(open_error(m).find(index + ": not a JSON object") != std::string::npos);
  }
  SECTION("index without weight_map") {
    m.files[index] = R"({"metadata":{}})";
    REQUIRE(open_error(m).find("missing 'weight_map'") != std::string::npos);
  }
  SECTION("index naming a file outside the directory") {
    m.files[index] = R"({"weight_map":{"model.embed_tokens.weight":"../../etc/passwd"}})";
    REQUIRE(open_error(m).find("not a file in this directory") != std::string::npos);
  }
  SECTION("index pointing at the wrong shard") {
    m.files[index] = R"({"weight_map":{"model.embed_tokens.weight":"model-00002-of-00002.safetensors","model.layers.0.mlp.up_proj.weight":"model-00001-of-00002.safetensors"}})";
    const std::string e = open_error(m);
    REQUIRE(e.find("says tensor") != std::string::npos);
    REQUIRE(e.find("does not hold it") != std::string::npos);
  }
  SECTION("the same tensor in two shards") {
    m.files.erase(index);
    m.files["extra.safetensors"] = st_write({{"model.embed_tokens.weight", ST_DTYPE_F32, {1}, std::string(4, '\0')}}, {});
    REQUIRE(open_error(m).find("tensor 'model.embed_tokens.weight' is in both") != std::string::npos);
  }
  SECTION("no safetensors at all") {
    m.files.erase(index);
    m.files.erase("model-00001-of-00002.safetensors");
    m.files.erase("model-00002-of-00002.safetensors");
    REQUIRE(open_error(m).find("no .safetensors file") != std::string::npos);
  }
  SECTION("a truncated shard") {
    std::string& f = m.files["model-00002-of-00002.safetensors"];
    f.resize(f.size() - 100);
    const std::string e = open_error(m);
    REQUIRE(e.find("model-00002-of-00002.safetensors") != std::string::npos);
    REQUIRE(e.find("past the data section") != std::string::npos);
  }
  SECTION("no embed_tokens under any naming") {
    m.files.erase(index);
    m.files.erase("model-00001-of-00002.safetensors");
    m.files.erase("model-00002-of-00002.safetensors");
    m.files["model.safetensors"] = st_write({{"foo.weight", ST_DTYPE_F32, {1}, std::string(4, '\0')}}, {});
    REQUIRE(open_error(m).find("no embed_tokens.weight") != std::string::npos);
  }
  SECTION("tensor shape differs from the config, and token ids outside the vocabulary") {
    checkpoint ck;
    REQUIRE(ckpt_open(&m, &ck, &err));
    ck.config.intermediate = 171;
    std::vector<float> w;
    REQUIRE_FALSE(ckpt_read_f32(ck, ckpt_mlp_name(ck, 0, MLP_GATE), {171, 60}, &w, &err));
    REQUIRE(err.find("has shape [170, 60], but config.json implies [171, 60]") != std::string::npos);
    REQUIRE_FALSE(ckpt_read_rows_f32(ck, ckpt_embed_name(ck), 97, 60, {3, 97}, &w, &err));
    REQUIRE(err.find("token id 97 is outside the vocabulary") != std::string::npos);
    REQUIRE_FALSE(ckpt_read_f32(ck, ckpt_mlp_name(ck, 1, MLP_GATE), {171, 60}, &w, &err));
    REQUIRE(err.find("missing tensor 'model.layers.1.mlp.gate_proj.weight'") != std::string::npos);
  }
}
