// The whole model's architecture from config.json, and the tensor plan checked against the
// checkpoint (core/model/model_spec.h): both layouts read, everything the page cannot run refused
// by name, a missing or misshapen tensor named, and never a decoy's tensor in the plan.
#include <catch2/catch.hpp>

#include "core/base/json_read.h"

#include <nlohmann/json.hpp>

#include "core/checkpoint/synthetic_model.h"
#include "core/model/model_spec.h"

static std::string config_of(const synth_model_spec& s) { return synth_model_config_json(s); }

static std::string reason_en(const read_error& e) { return read_error_text_in(LAB_LANG_EN, e); }

TEST_CASE("Qwen3.5's config: hybrid layers, gated attention, partial RoPE, DeltaNet heads", "[model][spec]") {
  model_spec s;
  model_spec_problem p;
  read_error why;
  REQUIRE(model_spec_parse(config_of(synth_model_qwen35_0p8b()), &s, &p, &why));
  CHECK(p == MODEL_SPEC_OK);
  CHECK(s.family == FAMILY_QWEN35);
  CHECK(s.base.norm == MODEL_NORM_ONE_PLUS_W);
  REQUIRE(s.mixers.size() == 24);
  for (int l = 0; l < 24; l++) CHECK(s.mixers[l] == ((l + 1) % 4 ? MIXER_LINEAR_ATTENTION : MIXER_FULL_ATTENTION));
  CHECK(s.heads == 8);
  CHECK(s.kv_heads == 2);
  CHECK(s.head_dim == 256);
  CHECK(s.rotary_dim == 64);  // a quarter of 256
  CHECK(s.output_gate);
  CHECK(s.qk_norm);
  CHECK(s.conv_dim() == 6144);  // 2 x 16 x 128 + 16 x 128
  CHECK(s.rope_theta == 10000000.0);
}

TEST_CASE("Qwen3.5's config without layer_types: full attention every full_attention_interval layers", "[model][spec]") {
  nlohmann::json j = nlohmann::json::parse(config_of(synth_model_spec()));
  j["text_config"].erase("layer_types");
  j["text_config"]["full_attention_interval"] = 2;
  j["text_config"]["rope_parameters"].erase("partial_rotary_factor");
  model_spec s;
  REQUIRE(model_spec_parse(j.dump(), &s, nullptr, nullptr));
  CHECK(s.mixers == std::vector<model_mixer>{MIXER_LINEAR_ATTENTION, MIXER_FULL_ATTENTION, MIXER_LINEAR_ATTENTION, MIXER_FULL_ATTENTION});
  CHECK(s.rotary_dim == 8);  // transformers' default quarter of head_dim 32
}

TEST_CASE("Llama's config: every layer full attention, norms by w, RoPE scaling read", "[model][spec]") {
  synth_model_spec sp;
  sp.naming = SYNTH_NAMING_LLAMA;
  sp.partial_rotary_factor = 1.0;
  nlohmann::json j = nlohmann::json::parse(config_of(sp));
  j["rope_scaling"] = {{"rope_type", "llama3"}, {"factor", 8.0}, {"low_freq_factor", 1.0}, {"high_freq_factor", 4.0},
                       {"original_max_position_embeddings", 8192}};
  model_spec s;
  REQUIRE(model_spec_parse(j.dump(), &s, nullptr, nullptr));
  CHECK(s.family == FAMILY_LLAMA);
  CHECK(s.base.norm == MODEL_NORM_W);
  CHECK(!s.output_gate);
  CHECK(s.rotary_dim == 32);
  CHECK(s.rope_scaling == ROPE_LLAMA3);
  CHECK(s.rope_factor == 8.0);
  for (model_mixer m : s.mixers) CHECK(m == MIXER_FULL_ATTENTION);
}

TEST_CASE("what the page cannot run is refused by name", "[model][spec]") {
  auto refuse = [](nlohmann::json j, model_spec_problem expect, const std::string& words) {
    model_spec s;
    model_spec_problem p = MODEL_SPEC_OK;
    read_error why;
    INFO(j.dump());
    CHECK(!model_spec_parse(j.dump(), &s, &p, &why));
    CHECK(p == expect);
    CHECK(reason_en(why).find(words) != std::string::npos);
    CHECK(!read_error_text_in(LAB_LANG_ZH, why).empty());
  };
  const nlohmann::json qwen = nlohmann::json::parse(config_of(synth_model_spec()));
  nlohmann::json j = qwen;
  j["text_config"]["layer_types"][1] = "mamba";
  refuse(j, MODEL_SPEC_MIXER, "layer 1 is of type 'mamba'");
  j = qwen;
  j["text_config"]["layer_types"].erase(0);
  refuse(j, MODEL_SPEC_UNREADABLE, "one type per layer");
  j = qwen;
  j["text_config"]["num_experts"] = 64;
  refuse(j, MODEL_SPEC_CONFIG, "64 experts");
  j = qwen;
  j["text_config"]["num_key_value_heads"] = 3;
  refuse(j, MODEL_SPEC_UNREADABLE, "num_key_value_heads");
  synth_model_spec sp;
  sp.naming = SYNTH_NAMING_LLAMA;
  const nlohmann::json llama = nlohmann::json::parse(config_of(sp));
  j = llama;
  j["sliding_window"] = 32;
  refuse(j, MODEL_SPEC_MIXER, "sliding window of 32 tokens");
  j["sliding_window"] = 4096;  // longer than any prompt: exactly full attention, read
  model_spec s;
  CHECK(model_spec_parse(j.dump(), &s, nullptr, nullptr));
  j = llama;
  j["rope_scaling"] = {{"type", "yarn"}, {"factor", 4.0}};
  refuse(j, MODEL_SPEC_MIXER, "RoPE scaling 'yarn'");
  j = llama;
  j["hidden_act"] = "gelu";
  refuse(j, MODEL_SPEC_CONFIG, "gelu");
}

TEST_CASE("the tensor plan: every tensor the pass reads, none of the decoys, each checked", "[model][spec]") {
  mem_files files;
  files.files = synth_model_make(synth_model_spec());
  checkpoint ck;
  std::string err;
  REQUIRE(ckpt_open(&files, &ck, &err));
  model_spec s;
  REQUIRE(model_spec_parse(files.files["config.json"], &s, nullptr, nullptr));
  std::vector<model_tensor> plan;
  model_spec_problem p;
  read_error why;
  REQUIRE(model_tensor_plan(ck, &s, &plan, &p, &why));
  CHECK(s.tied_embeddings);
  size_t plan_tensors = 0;
  for (const model_tensor& t : plan) {
    CHECK(t.name.find("mtp.") == std::string::npos);
    CHECK(t.name.find("visual") == std::string::npos);
    plan_tensors++;
  }
  // Every tensor of the checkpoint but the two decoys is read.
  CHECK(plan_tensors == ck.tensors.size() - 2);

  // A missing tensor and a misshapen one are named.
  auto without = [&](const std::string& name) {
    mem_files f2;
    synth_model_spec sp;
    f2.files = synth_model_make(sp);
    checkpoint c2;
    REQUIRE(ckpt_open(&f2, &c2, &err));
    c2.tensors.erase(name);
    model_spec s2;
    REQUIRE(model_spec_parse(f2.files["config.json"], &s2, nullptr, nullptr));
    std::vector<model_tensor> p2;
    model_spec_problem pr;
    read_error w2;
    CHECK(!model_tensor_plan(c2, &s2, &p2, &pr, &w2));
    CHECK(pr == MODEL_SPEC_TENSOR);
    CHECK(reason_en(w2).find(name) != std::string::npos);
  };
  without("model.language_model.layers.3.self_attn.k_norm.weight");
  without("model.language_model.layers.1.linear_attn.A_log");
  without("model.language_model.norm.weight");
  nlohmann::json j = nlohmann::json::parse(files.files["config.json"]);
  j["text_config"]["linear_value_head_dim"] = 8;  // the checkpoint's DeltaNet tensors no longer fit
  model_spec s3;
  REQUIRE(model_spec_parse(j.dump(), &s3, nullptr, nullptr));
  CHECK(!model_tensor_plan(ck, &s3, &plan, &p, &why));
  CHECK(p == MODEL_SPEC_TENSOR);
  CHECK(reason_en(why).find("in_proj_qkv") != std::string::npos);
}

TEST_CASE("head_dim absent with more heads than hidden dimensions is refused by name, not read as 0", "[model][spec]") {
  synth_model_spec sp;
  sp.naming = SYNTH_NAMING_LLAMA;
  nlohmann::json j = nlohmann::json::parse(config_of(sp));
  j["hidden_size"] = 4;
  j["num_attention_heads"] = 8;
  j["num_key_value_heads"] = 8;
  j.erase("head_dim");
  model_spec s;
  model_spec_problem p = MODEL_SPEC_OK;
  read_error why;
  CHECK(!model_spec_parse(j.dump(), &s, &p, &why));
  CHECK(p == MODEL_SPEC_UNREADABLE);
  CHECK(reason_en(why) == "'head_dim' is missing, and hidden_size 4 / num_attention_heads 8 leaves less than 1 dimension per head");
  CHECK(read_error_text_in(LAB_LANG_ZH, why).find("head_dim") != std::string::npos);
  // Given, it is read as given; derived, it is hidden_size / heads.
  j["head_dim"] = 2;
  REQUIRE(model_spec_parse(j.dump(), &s, nullptr, nullptr));
  CHECK(s.head_dim == 2);
  j.erase("head_dim");
  j["hidden_size"] = 16;
  REQUIRE(model_spec_parse(j.dump(), &s, nullptr, nullptr));
  CHECK(s.head_dim == 2);
}

TEST_CASE("a config's numbers are printed as the page prints numbers in its refusals", "[model][spec]") {
  synth_model_spec sp;
  sp.naming = SYNTH_NAMING_LLAMA;
  nlohmann::json j = nlohmann::json::parse(config_of(sp));
  read_error why;
  model_spec s;
  j["rope_theta"] = -10000;
  CHECK(!model_spec_parse(j.dump(), &s, nullptr, &why));
  CHECK(reason_en(why) == "'rope_theta' = -10000 is outside [1, 1e+12]");
  j["rope_theta"] = 1e308;
  CHECK(!model_spec_parse(j.dump(), &s, nullptr, &why));
  CHECK(reason_en(why) == "'rope_theta' = 1e+308 is outside [1, 1e+12]");
  j["rope_theta"] = 10000;
  j["partial_rotary_factor"] = 1.5;
  CHECK(!model_spec_parse(j.dump(), &s, nullptr, &why));
  CHECK(reason_en(why) == "'partial_rotary_factor' = 1.5 is outside [0, 1]");
  j.erase("partial_rotary_factor");
  // rms_norm_eps names the value it refused: a number as numbers are printed, else its JSON.
  const std::vector<std::pair<nlohmann::json, std::string>> eps = {
      {2.5, "2.5"}, {-1e-06, "-1e-06"}, {0, "0"}, {"1e-6", "\"1e-6\""}, {nlohmann::json::array({1, 2}), "[1,2]"},
      {std::string(60, 'x'), "\"" + std::string(39, 'x') + "…"}};
  for (const auto& e : eps) {
    INFO(e.first.dump());
    j["rms_norm_eps"] = e.first;
    CHECK(!model_spec_parse(j.dump(), &s, nullptr, &why));
    CHECK(reason_en(why) == "'rms_norm_eps' = " + e.second + ": it must be a number in (0, 1]");
    CHECK(read_error_text_in(LAB_LANG_ZH, why) == "'rms_norm_eps' = " + e.second + "：它必须是 (0, 1] 中的数");
  }
  j["rms_norm_eps"] = 1e-06;
  CHECK(model_spec_parse(j.dump(), &s, nullptr, &why));
}

TEST_CASE("a text_config nested in the text_config is refused, not half read", "[model][spec]") {
  nlohmann::json j = nlohmann::json::parse(config_of(synth_model_spec()));
  j["text_config"]["text_config"] = j["text_config"];
  model_spec s;
  model_spec_problem p = MODEL_SPEC_OK;
  read_error why;
  CHECK(!model_spec_parse(j.dump(), &s, &p, &why));
  CHECK(p == MODEL_SPEC_UNREADABLE);
  CHECK(reason_en(why) == "'text_config' holds a 'text_config' of its own: it is unclear which one describes the language model");
  CHECK(read_error_text_in(LAB_LANG_ZH, why).find("不清楚哪一个描述语言模型") != std::string::npos);
}

// A key given twice: cJSON's lookup reads the first value, Python's json (and so transformers) the
// last. The page refuses rather than run another model than the one the checkpoint's authors built.
TEST_CASE("a config key given twice is refused, naming it, at the top and in text_config", "[model][spec]") {
  const std::string text = config_of(synth_model_spec());
  REQUIRE(text.find("\"text_config\": {") != std::string::npos);
  const size_t tc = text.find("\"text_config\": {") + 16;
  const std::vector<std::pair<std::string, std::string>> doubled = {
      {"{\"model_type\": \"llama\", " + text.substr(1), "model_type"},                  // the top level
      {text.substr(0, tc) + "\"hidden_size\": 4096, " + text.substr(tc), "hidden_size"}};  // text_config
  for (const auto& d : doubled) {
    INFO(d.first.substr(0, 200));
    REQUIRE(json_parse(d.first));  // well-formed JSON, each time
    model_spec s;
    model_spec_problem p = MODEL_SPEC_OK;
    read_error why;
    CHECK(!model_spec_parse(d.first, &s, &p, &why));
    CHECK(reason_en(why).find("'" + d.second + "' is given twice") != std::string::npos);
    CHECK(read_error_text_in(LAB_LANG_ZH, why).find("'" + d.second + "' 出现了两次") != std::string::npos);
  }
  model_spec s;
  CHECK(model_spec_parse(text, &s, nullptr, nullptr));  // the same config, each key once
}

TEST_CASE("tie_word_embeddings: false without an lm_head is refused, naming the tensor it asks for", "[model][spec]") {
  synth_model_spec sp;
  sp.naming = SYNTH_NAMING_LLAMA;  // tied: no lm_head.weight in the checkpoint
  mem_files files;
  files.files = synth_model_make(sp);
  checkpoint ck;
  std::string err;
  REQUIRE(ckpt_open(&files, &ck, &err));
  nlohmann::json j = nlohmann::json::parse(files.files["config.json"]);
  j["tie_word_embeddings"] = false;
  model_spec s;
  REQUIRE(model_spec_parse(j.dump(), &s, nullptr, nullptr));
  std::vector<model_tensor> plan;
  model_spec_problem p = MODEL_SPEC_OK;
  read_error why;
  CHECK(!model_tensor_plan(ck, &s, &plan, &p, &why));
  CHECK(p == MODEL_SPEC_TENSOR);
  CHECK(reason_en(why) ==
        "config.json says tie_word_embeddings: false, but the checkpoint has no 'lm_head.weight' to turn the last hidden state into next-token logits");
  // Said true, or not said: the embedding table unembeds, as before.
  j["tie_word_embeddings"] = true;
  REQUIRE(model_spec_parse(j.dump(), &s, nullptr, nullptr));
  CHECK(model_tensor_plan(ck, &s, &plan, &p, &why));
  CHECK(s.tied_embeddings);
}

TEST_CASE("model_tensor_list is the plan model_tensor_plan checks", "[model][spec]") {
  for (synth_naming naming : {SYNTH_NAMING_QWEN35, SYNTH_NAMING_LLAMA}) {
    synth_model_spec sp;
    sp.naming = naming;
    sp.tied = naming == SYNTH_NAMING_QWEN35;
    mem_files files;
    files.files = synth_model_make(sp);
    checkpoint ck;
    std::string err;
    REQUIRE(ckpt_open(&files, &ck, &err));
    model_spec s;
    REQUIRE(model_spec_parse(files.files["config.json"], &s, nullptr, nullptr));
    std::vector<model_tensor> plan;
    REQUIRE(model_tensor_plan(ck, &s, &plan, nullptr, nullptr));
    const std::vector<model_tensor> list = model_tensor_list(s, ck.prefix, sp.tied ? "" : "lm_head.weight");
    REQUIRE(list.size() == plan.size());
    for (size_t i = 0; i < list.size(); i++) {
      CHECK(list[i].name == plan[i].name);
      CHECK(list[i].shape == plan[i].shape);
    }
  }
}
