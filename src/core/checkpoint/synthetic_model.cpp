// Synthetic whole models (see synthetic_model.h). Weights are random with a trained model's
// scales where it matters for a readable run: matrices ~ N(0, 1/fan_in), outputs of the mixers
// and the MLP a little smaller so the residual stream grows slowly, norms near their identity,
// DeltaNet decays spread over (0, 1).
#include "core/checkpoint/synthetic_model.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/checkpoint/synthetic_common.h"
#include "core/checkpoint/synthetic_tokenizer.h"

using json = nlohmann::json;

synth_model_spec synth_model_qwen35_0p8b() {
  synth_model_spec s;
  s.hidden = 1024, s.intermediate = 3584, s.num_layers = 24, s.vocab = 248320;
  s.heads = 8, s.kv_heads = 2, s.head_dim = 256, s.partial_rotary_factor = 0.25;
  s.lin_k_heads = 16, s.lin_v_heads = 16, s.lin_k_dim = 128, s.lin_v_dim = 128, s.conv_kernel = 4;
  return s;
}

namespace {
struct synth_tensor {
  std::string name;
  std::vector<int64_t> shape;
  std::vector<float> v;
};
struct synth_model_parts {
  std::vector<synth_tensor> tensors;
  nlohmann::json config;
  synth_tensor* find(const std::string& name) {
    for (synth_tensor& t : tensors)
      if (t.name == name) return &t;
    return nullptr;
  }
};

// config.json's content for a spec (the tensors are synth_model_build's).
static json synth_config(const synth_model_spec& sp) {
  const bool qwen = sp.naming == SYNTH_NAMING_QWEN35;
  const int H = sp.hidden, F = sp.intermediate, hd = sp.head_dim;
  json cfg;
  json dims = {{"hidden_size", H},
               {"intermediate_size", F},
               {"num_hidden_layers", sp.num_layers},
               {"vocab_size", sp.vocab},
               {"rms_norm_eps", sp.rms_norm_eps},
               {"hidden_act", "silu"},
               {"num_attention_heads", sp.heads},
               {"num_key_value_heads", sp.kv_heads},
               {"head_dim", hd}};
  if (qwen) {
    json types = json::array();
    for (int l = 0; l < sp.num_layers; l++)
      types.push_back((l + 1) % sp.full_attention_interval ? "linear_attention" : "full_attention");
    dims["model_type"] = "qwen3_5_text";
    dims["layer_types"] = types;
    dims["linear_num_key_heads"] = sp.lin_k_heads;
    dims["linear_num_value_heads"] = sp.lin_v_heads;
    dims["linear_key_head_dim"] = sp.lin_k_dim;
    dims["linear_value_head_dim"] = sp.lin_v_dim;
    dims["linear_conv_kernel_dim"] = sp.conv_kernel;
    dims["rope_parameters"] = {{"rope_type", "default"},
                               {"rope_theta", sp.rope_theta},
                               {"partial_rotary_factor", sp.partial_rotary_factor},
                               {"mrope_section", {11, 11, 10}},
                               {"mrope_interleaved", true}};
    cfg = {{"model_type", "qwen3_5"},
           {"architectures", {"Qwen3_5ForConditionalGeneration"}},
           {"text_config", dims},
           {"tie_word_embeddings", sp.tied},
           {"vision_config", {{"hidden_size", 48}, {"depth", 1}}}};
  } else {
    cfg = dims;
    cfg["model_type"] = sp.qkv_bias ? "qwen2" : "llama";
    cfg["architectures"] = {sp.qkv_bias ? "Qwen2ForCausalLM" : "LlamaForCausalLM"};
    cfg["rope_theta"] = sp.rope_theta;
    if (sp.partial_rotary_factor < 1) cfg["partial_rotary_factor"] = sp.partial_rotary_factor;
    cfg["tie_word_embeddings"] = sp.tied;
  }
  cfg["_name_or_path"] = qwen ? "swiglu-lab/synthetic-qwen3.5-whole" : "swiglu-lab/synthetic-llama-whole";
  cfg["swiglu_lab_synthetic"] = true;
  return cfg;
}

// Every tensor as f32, and config.json. `mixer_gain` and `mlp_gain` scale what the mixers and the
// MLPs write back to the stream (0.5: a random model; smaller: the planted model's quiet noise),
// `mlp_in_gain` how widely the MLPs' gates and ups spread.
synth_model_parts synth_model_build(const synth_model_spec& sp, double mixer_gain, double mlp_gain, double mlp_in_gain = 1.0) {
  const bool qwen = sp.naming == SYNTH_NAMING_QWEN35;
  const std::string pre = qwen ? "model.language_model." : "model.";
  const int H = sp.hidden, F = sp.intermediate;
  synth_model_parts parts;
  std::vector<synth_tensor>& tensors = parts.tensors;
  auto add = [&](const std::string& name, std::vector<int64_t> shape, const std::vector<float>& v) {
    tensors.push_back({name, std::move(shape), v});
  };
  // A (rows, cols) matrix ~ gain * N(0, 1/cols); zero when gain is 0.
  auto matrix = [&](const std::string& name, int rows, int cols, double gain) {
    synth_rng r = synth_stream(sp.seed, name);
    std::vector<float> v((size_t)rows * cols);
    const double s = gain / std::sqrt((double)cols);
    for (float& x : v) x = gain == 0 ? 0.0f : (float)(s * r.quick_normal());
    add(name, {rows, cols}, v);
  };
  // A norm's stored weight: near 0 for Qwen3.5's (1 + w), near 1 for w.
  auto norm = [&](const std::string& name, int n, bool one_plus_w) {
    synth_rng r = synth_stream(sp.seed, name);
    std::vector<float> v((size_t)n);
    for (float& x : v) x = (float)((one_plus_w ? 0.0 : 1.0) + 0.1 * r.normal());
    add(name, {n}, v);
  };
  auto vec = [&](const std::string& name, std::vector<int64_t> shape, double mean, double spread) {
    synth_rng r = synth_stream(sp.seed, name);
    size_t n = 1;
    for (int64_t d : shape) n *= (size_t)d;
    std::vector<float> v(n);
    for (float& x : v) x = (float)(mean + spread * r.quick_normal());
    add(name, shape, v);
  };
  const double out_gain = sp.zero_mixers ? 0.0 : mixer_gain;
  {
    synth_rng r = synth_stream(sp.seed, pre + "embed_tokens.weight");
    std::vector<float> e((size_t)sp.vocab * H);
    // Scaled so that next-token logits (embedding . normalised state) spread over a few units,
    // whatever the width: a readable distribution, not one token at 100 %.
    const double scale = 3.0 / std::sqrt((double)H);
    for (float& x : e) x = (float)(scale * r.quick_normal());
    add(pre + "embed_tokens.weight", {sp.vocab, H}, e);
  }
  const int hd = sp.head_dim;
  for (int l = 0; l < sp.num_layers; l++) {
    const std::string lp = pre + "layers." + std::to_string(l) + ".";
    const bool full = !qwen || (l + 1) % sp.full_attention_interval == 0;
    norm(lp + "input_layernorm.weight", H, qwen);
    if (full) {
      matrix(lp + "self_attn.q_proj.weight", sp.heads * hd * (qwen ? 2 : 1), H, 1.0);
      matrix(lp + "self_attn.k_proj.weight", sp.kv_heads * hd, H, 1.0);
      matrix(lp + "self_attn.v_proj.weight", sp.kv_heads * hd, H, 1.0);
      if (sp.qkv_bias) {
        vec(lp + "self_attn.q_proj.bias", {sp.heads * hd}, 0, 0.1);
        vec(lp + "self_attn.k_proj.bias", {sp.kv_heads * hd}, 0, 0.1);
        vec(lp + "self_attn.v_proj.bias", {sp.kv_heads * hd}, 0, 0.1);
      }
      if (qwen) {
        norm(lp + "self_attn.q_norm.weight", hd, true);
        norm(lp + "self_attn.k_norm.weight", hd, true);
      }
      matrix(lp + "self_attn.o_proj.weight", H, sp.heads * hd, out_gain);
    } else {
      const int kd = sp.lin_k_heads * sp.lin_k_dim, vd = sp.lin_v_heads * sp.lin_v_dim, cd = 2 * kd + vd;
      matrix(lp + "linear_attn.in_proj_qkv.weight", cd, H, 1.0);
      matrix(lp + "linear_attn.in_proj_z.weight", vd, H, 1.0);
      matrix(lp + "linear_attn.in_proj_b.weight", sp.lin_v_heads, H, 1.0);
      matrix(lp + "linear_attn.in_proj_a.weight", sp.lin_v_heads, H, 1.0);
      vec(lp + "linear_attn.conv1d.weight", {cd, 1, sp.conv_kernel}, 0, 1.0 / std::sqrt((double)sp.conv_kernel));
      vec(lp + "linear_attn.dt_bias", {sp.lin_v_heads}, 0, 0.5);
      {  // A_log = log(A), A uniform in (1, 16) as transformers initialises it
        synth_rng r = synth_stream(sp.seed, lp + "linear_attn.A_log");
        std::vector<float> v((size_t)sp.lin_v_heads);
        for (float& x : v) x = (float)std::log(1.0 + 15.0 * r.uniform());
        add(lp + "linear_attn.A_log", {sp.lin_v_heads}, v);
      }
      norm(lp + "linear_attn.norm.weight", sp.lin_v_dim, false);  // the gated norm scales by w
      matrix(lp + "linear_attn.out_proj.weight", H, vd, out_gain);
    }
    norm(lp + "post_attention_layernorm.weight", H, qwen);
    matrix(lp + "mlp.gate_proj.weight", F, H, mlp_in_gain);
    matrix(lp + "mlp.up_proj.weight", F, H, mlp_in_gain);
    matrix(lp + "mlp.down_proj.weight", H, F, mlp_gain);
  }
  norm(pre + "norm.weight", H, qwen);
  if (!sp.tied) matrix("lm_head.weight", sp.vocab, H, 1.0);
  if (qwen) {  // decoys the forward pass must never read
    vec("mtp.layers.0.mlp.gate_proj.weight", {F, H}, 0, 1.0);
    vec("model.visual.blocks.0.norm1.weight", {48}, 0, 1.0);
  }

  parts.config = synth_config(sp);
  return parts;
}

std::map<std::string, std::string> synth_serialize(const synth_model_spec& sp, const synth_model_parts& parts) {
  std::vector<st_write_tensor> out;
  for (const synth_tensor& t : parts.tensors) out.push_back({t.name, sp.dtype, t.shape, synth_bytes(t.v, sp.dtype)});
  const bool qwen = sp.naming == SYNTH_NAMING_QWEN35;
  // Qwen3.5 ships its one shard under a sharded name with an index, as the real checkpoint does.
  return synth_files(parts.config.dump(2) + "\n", out, sp.shards, qwen ? SYNTH_QWEN35_SINGLE_SHARD : "model.safetensors", qwen);
}
}  // namespace

std::string synth_model_config_json(const synth_model_spec& sp) { return synth_config(sp).dump(2) + "\n"; }

std::map<std::string, std::string> synth_model_make(const synth_model_spec& sp) {
  return synth_serialize(sp, synth_model_build(sp, 0.5, 0.5));
}

// [SECTION] the planted default model (see synthetic_model.h)

const std::vector<std::string>& synth_planted_tokens() {
  static const std::vector<std::string> tokens = {
      // the lesson's probe sentence (the gate histograms' default), as the MLP views' tokenizer has it
      "今", "天", "气", "不", "错", "，", "我", "们", "去", "公", "园", "今天", "天气", "不错", "我们", "公园",
      // lesson 003's prompt and what it is about
      "中国", "的", "首都", "是", "哪个", "什么", "哪里", "一个", "城市", "国家", "美国", "日本", "英国", "法国",
      "北京", "上海", "杭州", "重庆", "广州", "南京", "成都", "天津", "武汉",
      "伦敦", "巴黎", "华盛顿", "东京", " London", " Paris", " Washington", " Tokyo",
      // lesson 001's three features
      "I", " flew", " from", " to", " last", " week", ".", "The", " food", " was", " not", " bad", " at", " all",
      "Try", " this", " loop", ":", " for", " i", " in", " range", "(", "10", "):"};
  return tokens;
}

namespace {
// The planted directions: one coordinate of the 64-wide stream each. Tokens carry the first ten;
// the attention head writes what it carries forward into two context dims no token has (so the
// unembedding does not read them); dims D_FIRST_FREE.. are each token's own random identity.
enum planted_dim {
  D_CAPITAL_Q = 0, D_CHINA, D_IS, D_CITY, D_CN_CITY, D_CAPITAL_CITY, D_WHICH, D_ON, D_NOT, D_CODE,
  D_CTX_CAPITAL, D_CTX_CHINA, D_FIRST_FREE
};
// Strengths, tuned so that the synthetic model tells lesson 003's story at about the lesson's
// scale (a unit fires at a few units; P(北京) in the tens of percent, a few percent without the
// city unit, 哪个 then first). Raw stream units: every token has 1 on D_ON.
const double kFeature = 2.0;      // a planted feature in an embedding
const double kIdentity = 0.2;    // each token's own random part (dims D_FIRST_FREE..)
const double kCopy = 1.0;         // layer 3's head: what it writes back per copied feature
const double kCapitalWrite = 0.6; // the capital unit's down column (per unit of activation)
const double kCityWrite = 1.9;     // the Chinese-city unit's
const double kWhich = 3.6;        // how much 是 leans toward 哪个 on its own
const double kRuleGain = 0.65;    // the two rules' gate and up rows (their activation ~ gain^2)
const double kFinalScale = 0.75;   // the final norm's multiplier (1 + w)
}  // namespace

std::map<std::string, std::string> synth_model_planted_make(const synth_planted& where) {
  synth_model_spec sp;
  sp.hidden = 64, sp.intermediate = 192, sp.num_layers = 24;
  sp.heads = 2, sp.kv_heads = 1, sp.head_dim = 32, sp.partial_rotary_factor = 0.25;
  sp.lin_k_heads = 2, sp.lin_v_heads = 2, sp.lin_k_dim = 16, sp.lin_v_dim = 16;
  sp.seed = 3;
  std::map<std::string, int> ids;
  const std::string tokenizer = synth_tokenizer_json_for(synth_planted_tokens(), &ids);
  int vocab = 256;
  for (const auto& kv : ids) vocab = std::max(vocab, kv.second + 1);
  sp.vocab = (vocab + 63) / 64 * 64;
  synth_model_parts parts = synth_model_build(sp, 0.1, 0.1, 0.6);
  parts.config["_name_or_path"] = "swiglu-lab/synthetic-whole-model";
  const int H = sp.hidden, F = sp.intermediate;
  const std::string pre = "model.language_model.";
  auto layer = [&](int l, const std::string& what) -> std::vector<float>& {
    return parts.find(pre + "layers." + std::to_string(l) + "." + what)->v;
  };

  // Embeddings: a bias dim every token has, its own random identity, and the planted features.
  std::vector<float>& E = parts.find(pre + "embed_tokens.weight")->v;
  synth_rng r = synth_stream(sp.seed, "planted-identity");
  for (int v = 0; v < sp.vocab; v++)
    for (int i = 0; i < H; i++) E[(size_t)v * H + i] = i == D_ON ? 1.0f : i >= D_FIRST_FREE ? (float)(kIdentity * r.quick_normal()) : 0.0f;
  auto feature = [&](const std::string& token, int dim, double strength) {
    auto it = ids.find(token);
    if (it != ids.end()) E[(size_t)it->second * H + dim] = (float)strength;
  };
  feature("首都", D_CAPITAL_Q, kFeature);
  feature("中国", D_CHINA, kFeature);
  feature("是", D_IS, kFeature);
  feature("哪个", D_IS, kWhich);
  feature("哪个", D_WHICH, kFeature);
  for (const char* c : {"北京", "上海", "杭州", "重庆", "广州", "南京", "成都", "天津", "武汉"}) {
    feature(c, D_CITY, kFeature * 0.5);
    feature(c, D_CN_CITY, kFeature * 0.5);
  }
  for (const char* c : {"北京", "伦敦", "巴黎", "华盛顿", "东京", " London", " Paris", " Washington", " Tokyo"}) {
    feature(c, D_CAPITAL_CITY, kFeature * 0.5);
    feature(c, D_CITY, kFeature * 0.5);
  }
  feature(" not", D_NOT, kFeature);
  // The final norm's multiplier sets how sharp the next-token distribution is (about the lesson's).
  for (float& w : parts.find(pre + "norm.weight")->v) w = (float)(kFinalScale - 1.0 + 0.02 * r.quick_normal());
  for (const char* c : {" for", " in", " range", "(", "):", ":", " i"}) feature(c, D_CODE, kFeature);

  // Layer 3 (the first full attention): head 0 looks from every position for "capital" and
  // "China" and copies them forward. Its query and key live in the head's unrotated dims (RoPE
  // turns only the first 8 of 32), so it looks the same at every distance.
  {
    const int hd = sp.head_dim, qd = 8, v_cap = 9, v_china = 10;
    std::vector<float>& q = layer(3, "self_attn.q_proj.weight");   // (2 heads x [query 32, gate 32], H)
    std::vector<float>& k = layer(3, "self_attn.k_proj.weight");   // (32, H)
    std::vector<float>& v = layer(3, "self_attn.v_proj.weight");
    std::vector<float>& o = layer(3, "self_attn.o_proj.weight");   // (H, 64)
    std::fill(q.begin(), q.begin() + (size_t)2 * hd * H, 0.0f);   // head 0: query and gate rows
    q[(size_t)qd * H + D_ON] = 1.0f;
    for (int i = 0; i < hd; i++) q[(size_t)(hd + i) * H + D_ON] = 8.0f;  // gate open: sigmoid(large)
    for (int i = 0; i < hd * H; i++) k[i] *= 0.05f;
    k[(size_t)qd * H + D_CAPITAL_Q] = 1.0f;
    k[(size_t)qd * H + D_CHINA] = 1.0f;
    std::fill(v.begin(), v.end(), 0.0f);
    v[(size_t)v_cap * H + D_CAPITAL_Q] = 1.0f;
    v[(size_t)v_china * H + D_CHINA] = 1.0f;
    for (int i = 0; i < H; i++) o[(size_t)i * 2 * hd + v_cap] = o[(size_t)i * 2 * hd + v_china] = 0.0f;
    o[(size_t)D_CTX_CAPITAL * 2 * hd + v_cap] = (float)kCopy;
    o[(size_t)D_CTX_CHINA * 2 * hd + v_china] = (float)kCopy;
  }

  // A unit that opens when its dims sum past `threshold` (in raw stream units, against D_ON,
  // which every token has at 1: a ratio the RMS norm keeps) and writes `write` along `out`:
  // gate = gain (x[dims] - threshold x[D_ON]), up = 0.6 gain x[dims].
  auto plant_unit = [&](int l, int u, std::vector<int> dims, double threshold, std::vector<int> out, double write, double gain = 1.0) {
    std::vector<float>& g = layer(l, "mlp.gate_proj.weight");
    std::vector<float>& up = layer(l, "mlp.up_proj.weight");
    std::vector<float>& d = layer(l, "mlp.down_proj.weight");
    for (int i = 0; i < H; i++) g[(size_t)u * H + i] = up[(size_t)u * H + i] = 0.0f;
    for (int dim : dims) g[(size_t)u * H + dim] = (float)gain, up[(size_t)u * H + dim] = (float)(0.6 * gain);
    g[(size_t)u * H + D_ON] = (float)(-threshold * gain);
    for (int i = 0; i < H; i++) d[(size_t)i * F + u] = 0.0f;
    for (int dim : out) d[(size_t)dim * F + u] = (float)write;
  };
  // What layer 3's head brings to the last position: about half of each feature's normalised
  // value (it splits its attention between 中国 and 首都).
  plant_unit(where.capital_layer, where.capital_unit, {D_CTX_CAPITAL}, 1.0, {D_CAPITAL_CITY, D_CITY}, kCapitalWrite, kRuleGain);
  plant_unit(where.city_layer, where.city_unit, {D_CTX_CAPITAL, D_CTX_CHINA}, 3.0, {D_CN_CITY, D_CITY}, kCityWrite, kRuleGain);
  plant_unit(where.city_name_layer, where.city_name_unit, {D_CITY}, 0.4, {D_CITY}, 0.2, 1.3);
  plant_unit(where.negation_layer, where.negation_unit, {D_NOT}, 1.0, {D_NOT}, 0.2, 0.8);
  plant_unit(where.code_layer, where.code_unit, {D_CODE}, 1.0, {D_CODE}, 0.2, 0.8);
  (void)D_WHICH;

  std::map<std::string, std::string> files = synth_serialize(sp, parts);
  files["tokenizer.json"] = tokenizer;
  return files;
}

bool synth_model_fill_bf16(std::map<std::string, std::string>* files, const std::string& tensor, uint16_t bits) {
  mem_files m;
  m.files = *files;
  for (auto& kv : *files) {
    if (kv.first.size() < 12 || kv.first.compare(kv.first.size() - 12, 12, ".safetensors") != 0) continue;
    st_file header;
    std::string err;
    const st_tensor* t = st_read_header(&m, kv.first, &header, &err) ? header.find(tensor) : nullptr;
    if (!t) continue;
    if (t->dtype != ST_DTYPE_BF16) return false;
    for (uint64_t at = t->begin; at + 1 < t->end; at += 2) {
      kv.second[at] = (char)(bits & 0xFF);
      kv.second[at + 1] = (char)(bits >> 8);
    }
    return true;
  }
  return false;
}
