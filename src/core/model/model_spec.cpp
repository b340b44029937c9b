// config.json -> the whole model's architecture, and the tensors it needs (see model_spec.h).
#include "core/model/model_spec.h"

#include <cmath>

#include "core/base/json_read.h"
#include "core/base/number_format.h"

int64_t model_tensor::elements() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

const char* model_mixer_name(model_mixer m) { return m == MIXER_LINEAR_ATTENTION ? "linear_attention" : "full_attention"; }

namespace {
struct spec_reader {
  const cJSON* lm;    // text_config, or the top level
  const cJSON* top;
  read_error* why;
  bool fail(str_id what, std::vector<std::string> args = {}) const {
    if (why) *why = read_error_at(lm != top ? "text_config" : "", what, std::move(args));
    return false;
  }
  // An integer in [lo, hi]; absent: `dflt` when it is >= 0, else an error.
  bool integer(const char* key, int64_t lo, int64_t hi, int64_t dflt, int64_t* out) const {
    const cJSON* it = json_member(lm, key);
    if (!it) {
      if (dflt < 0) return fail(STR_READ_MISSING, {key});
      *out = dflt;
      return true;
    }
    int64_t v;
    if (!json_integer(it, &v)) return fail(STR_READ_NOT_INTEGER, {key});
    if (v < lo || v > hi) return fail(STR_READ_CFG_OUTSIDE, {key, std::to_string(v), std::to_string(lo), std::to_string(hi)});
    *out = v;
    return true;
  }
  // A positive number from the first object that has it.
  bool number(const cJSON* obj, const char* key, double lo, double hi, double* out) const {
    const cJSON* it = json_member(obj, key);
    if (!it) return true;
    if (!cJSON_IsNumber(it) || !(it->valuedouble >= lo && it->valuedouble <= hi))
      return fail(STR_READ_CFG_OUTSIDE, {key, cJSON_IsNumber(it) ? fmt_config_value(it->valuedouble) : "?", fmt_config_value(lo), fmt_config_value(hi)});
    *out = it->valuedouble;
    return true;
  }
};

bool is_qwen35(const std::string& type) { return type == "qwen3_5" || type == "qwen3_5_text"; }
}  // namespace

// RoPE: rope_parameters (transformers 5: rope_theta, partial_rotary_factor, rope_type) or the
// older top-level rope_theta / partial_rotary_factor and rope_scaling.
static bool read_rope(const spec_reader& r, model_spec* s, model_spec_problem* p) {
  const cJSON* params = json_member(r.lm, "rope_parameters");
  if (!cJSON_IsObject(params)) params = nullptr;
  const cJSON* scaling = json_member(r.lm, "rope_scaling");
  if (!cJSON_IsObject(scaling)) scaling = nullptr;
  // Qwen3.5 turns a quarter of each head when the config does not say (transformers' default).
  double factor = s->family == FAMILY_QWEN35 ? 0.25 : 1.0;
  if (!r.number(r.lm, "rope_theta", 1.0, 1e12, &s->rope_theta) || !r.number(r.lm, "partial_rotary_factor", 0.0, 1.0, &factor))
    return false;
  if (params && (!r.number(params, "rope_theta", 1.0, 1e12, &s->rope_theta) ||
                 !r.number(params, "partial_rotary_factor", 0.0, 1.0, &factor)))
    return false;
  if (factor <= 0) return r.fail(STR_READ_CFG_OUTSIDE, {"partial_rotary_factor", "0", "0", "1"});
  s->rotary_dim = (int)(s->head_dim * factor);
  s->rotary_dim -= s->rotary_dim % 2;
  // The scaling's type lives in rope_parameters or rope_scaling, as "rope_type" or "type".
  const cJSON* sc = scaling ? scaling : params;
  std::string type = sc ? json_string(json_member(sc, "rope_type")) : "";
  if (type.empty() && sc) type = json_string(json_member(sc, "type"));
  if (type.empty() || type == "default") return true;
  if (type == "linear") {
    s->rope_scaling = ROPE_LINEAR;
    return r.number(sc, "factor", 1e-3, 1e6, &s->rope_factor);
  }
  if (type == "llama3") {
    s->rope_scaling = ROPE_LLAMA3;
    return r.number(sc, "factor", 1e-3, 1e6, &s->rope_factor) && r.number(sc, "low_freq_factor", 1e-3, 1e6, &s->rope_low_freq) &&
           r.number(sc, "high_freq_factor", 1e-3, 1e6, &s->rope_high_freq) &&
           r.number(sc, "original_max_position_embeddings", 1, 1e9, &s->rope_original_max);
  }
  *p = MODEL_SPEC_MIXER;
  return r.fail(STR_READ_CFG_ROPE, {type});
}

bool model_spec_parse(const std::string& text, model_spec* out, model_spec_problem* problem, read_error* why,
                      model_config_problem* config_problem) {
  model_spec_problem p_local;
  model_spec_problem* p = problem ? problem : &p_local;
  *p = MODEL_SPEC_CONFIG;
  model_spec s;
  std::string err;
  model_config_problem cp = MODEL_CONFIG_OK;
  const bool config_ok = model_config_parse(text, "config.json", &s.base, &err, &cp, why);
  if (config_problem) *config_problem = cp;
  if (!config_ok) return false;
  *p = MODEL_SPEC_UNREADABLE;
  const json_tree tree = json_parse(text);
  const cJSON* top = tree.get();
  const cJSON* tc = json_member(top, "text_config");
  spec_reader r{cJSON_IsObject(tc) ? tc : top, top, why};
  // A text_config inside the text_config: which of the two is the language model is anyone's guess.
  if (json_member(r.lm, "text_config")) {  // said whole: the reason names text_config itself
    if (why) *why = read_error_at("", STR_READ_CFG_NESTED);
    return false;
  }
  const int64_t H = s.base.hidden;
  s.family = is_qwen35(s.base.model_type) ? FAMILY_QWEN35 : FAMILY_LLAMA;

  int64_t heads, kv, hd;
  if (!r.integer("num_attention_heads", 1, 4096, -1, &heads) || !r.integer("num_key_value_heads", 1, heads, heads, &kv))
    return false;
  // transformers' default head_dim is hidden_size // num_attention_heads: 0 when the heads
  // outnumber the hidden size, which no head can have (every shape built from it would be empty).
  if (!json_member(r.lm, "head_dim") && H / heads < 1)
    return r.fail(STR_READ_CFG_HEAD_DIM, {std::to_string(H), std::to_string(heads)});
  if (!r.integer("head_dim", 1, 4096, H / heads, &hd)) return false;
  if (heads % kv) return r.fail(STR_READ_CFG_DIVIDE, {"num_attention_heads", std::to_string(heads), "num_key_value_heads", std::to_string(kv)});
  s.heads = (int)heads, s.kv_heads = (int)kv, s.head_dim = (int)hd;
  if (!read_rope(r, &s, p)) return false;

  // Layer types: Qwen3.5 lists them (or gives full_attention_interval); everything else is full.
  s.mixers.assign((size_t)s.base.layers, MIXER_FULL_ATTENTION);
  if (s.family == FAMILY_QWEN35) {
    s.output_gate = s.qk_norm = true;
    const cJSON* types = json_member(r.lm, "layer_types");
    if (types) {
      if (!cJSON_IsArray(types) || (int64_t)json_size(types) != s.base.layers)
        return r.fail(STR_READ_CFG_LAYER_TYPES, {std::to_string(s.base.layers)});
      int l = 0;
      for (const cJSON* e = json_first(types); e; e = e->next, l++) {
        const std::string t = json_string(e);
        if (t == "linear_attention") s.mixers[l] = MIXER_LINEAR_ATTENTION;
        else if (t != "full_attention") return *p = MODEL_SPEC_MIXER, r.fail(STR_READ_CFG_LAYER_TYPE, {std::to_string(l), t});
      }
    } else {
      int64_t every;
      if (!r.integer("full_attention_interval", 1, s.base.layers, 4, &every)) return false;
      for (int l = 0; l < s.base.layers; l++) s.mixers[l] = (l + 1) % every ? MIXER_LINEAR_ATTENTION : MIXER_FULL_ATTENTION;
    }
    int64_t kh, vh, kd, vd, conv;
    if (!r.integer("linear_num_key_heads", 1, 4096, 16, &kh) || !r.integer("linear_num_value_heads", 1, 4096, 32, &vh) ||
        !r.integer("linear_key_head_dim", 1, 4096, 128, &kd) || !r.integer("linear_value_head_dim", 1, 4096, 128, &vd) ||
        !r.integer("linear_conv_kernel_dim", 1, 64, 4, &conv))
      return false;
    if (vh % kh) return r.fail(STR_READ_CFG_DIVIDE, {"linear_num_value_heads", std::to_string(vh), "linear_num_key_heads", std::to_string(kh)});
    s.lin_k_heads = (int)kh, s.lin_v_heads = (int)vh, s.lin_k_dim = (int)kd, s.lin_v_dim = (int)vd, s.conv_kernel = (int)conv;
  } else if (const cJSON* types = json_member(r.lm, "layer_types")) {
    // Llama kin may list their layers too (all "full_attention", or sliding ones: refused below).
    int l = 0;
    for (const cJSON* e = json_first(types); e; e = e->next, l++) {
      const std::string t = json_string(e);
      if (t != "full_attention") return *p = MODEL_SPEC_MIXER, r.fail(STR_READ_CFG_LAYER_TYPE, {std::to_string(l), t});
    }
  }

  // A sliding window at least as long as the longest prompt is full attention here, exactly.
  const cJSON* window = json_member(r.lm, "sliding_window");
  int64_t w = 0;
  const bool window_on = json_integer(window, &w) && !cJSON_IsFalse(json_member(r.lm, "use_sliding_window"));
  if (window_on && w < MODEL_MAX_TOKENS)
    return *p = MODEL_SPEC_MIXER, r.fail(STR_READ_CFG_SLIDING, {std::to_string(w), std::to_string((int)MODEL_MAX_TOKENS)});
  // tie_word_embeddings (the language model's, else the file's): false asks for an lm_head.
  const cJSON* tie = json_member(r.lm, "tie_word_embeddings");
  if (!tie) tie = json_member(top, "tie_word_embeddings");
  s.lm_head_required = cJSON_IsFalse(tie);
  *out = s;
  *p = MODEL_SPEC_OK;
  return true;
}

// [SECTION] the plan (the names: model_tensor_name, core/checkpoint/checkpoint.cpp)

// lm_head sits outside the language model's prefix: "lm_head.weight" for both namings, or
// "language_model.lm_head.weight" beside "language_model.model.".
static std::string lm_head_name(const checkpoint& ck) {
  if (ck.find("lm_head.weight")) return "lm_head.weight";
  const std::string p = ck.prefix;
  const std::string tail = "model.";
  if (p.size() > tail.size() && p.compare(p.size() - tail.size(), tail.size(), tail) == 0) {
    const std::string n = p.substr(0, p.size() - tail.size()) + "lm_head.weight";
    if (ck.find(n)) return n;
  }
  return "";
}

std::vector<model_tensor> model_tensor_list(const model_spec& s, const std::string& prefix, const std::string& lm_head) {
  const int64_t H = s.base.hidden, F = s.base.intermediate, V = s.base.vocab;
  std::vector<model_tensor> plan;
  auto add = [&](model_tensor_role role, int layer, std::vector<int64_t> shape, bool matrix) {
    model_tensor t;
    t.role = role, t.layer = layer, t.shape = std::move(shape), t.matrix = matrix;
    t.name = model_tensor_name(prefix, role, layer);
    plan.push_back(t);
  };
  const int64_t hd = s.head_dim, qrows = (int64_t)s.heads * hd * (s.output_gate ? 2 : 1), kvrows = (int64_t)s.kv_heads * hd;
  add(MT_EMBED, -1, {V, H}, true);
  for (int l = 0; l < (int)s.base.layers; l++) {
    add(MT_INPUT_NORM, l, {H}, false);
    if (s.mixers[l] == MIXER_FULL_ATTENTION) {
      add(MT_ATTN_Q, l, {qrows, H}, true);
      add(MT_ATTN_K, l, {kvrows, H}, true);
      add(MT_ATTN_V, l, {kvrows, H}, true);
      if (s.qkv_bias) {
        add(MT_ATTN_Q_BIAS, l, {qrows}, false);
        add(MT_ATTN_K_BIAS, l, {kvrows}, false);
        add(MT_ATTN_V_BIAS, l, {kvrows}, false);
      }
      if (s.qk_norm) {
        add(MT_ATTN_Q_NORM, l, {hd}, false);
        add(MT_ATTN_K_NORM, l, {hd}, false);
      }
      add(MT_ATTN_O, l, {H, (int64_t)s.heads * hd}, true);
    } else {
      const int64_t kd = (int64_t)s.lin_k_heads * s.lin_k_dim, vd = (int64_t)s.lin_v_heads * s.lin_v_dim;
      add(MT_LIN_QKV, l, {2 * kd + vd, H}, true);
      add(MT_LIN_Z, l, {vd, H}, true);
      add(MT_LIN_B, l, {s.lin_v_heads, H}, true);
      add(MT_LIN_A, l, {s.lin_v_heads, H}, true);
      add(MT_LIN_CONV, l, {2 * kd + vd, 1, s.conv_kernel}, false);
      add(MT_LIN_DT_BIAS, l, {s.lin_v_heads}, false);
      add(MT_LIN_A_LOG, l, {s.lin_v_heads}, false);
      add(MT_LIN_NORM, l, {s.lin_v_dim}, false);
      add(MT_LIN_OUT, l, {H, vd}, true);
    }
    add(MT_POST_NORM, l, {H}, false);
    add(MT_MLP_GATE, l, {F, H}, true);
    add(MT_MLP_UP, l, {F, H}, true);
    add(MT_MLP_DOWN, l, {H, F}, true);
  }
  add(MT_FINAL_NORM, -1, {H}, false);
  if (!s.tied_embeddings) {
    add(MT_LM_HEAD, -1, {V, H}, true);
    plan.back().name = lm_head;
  }
  return plan;
}

bool model_tensor_plan(const checkpoint& ck, model_spec* spec, std::vector<model_tensor>* out,
                       model_spec_problem* problem, read_error* why) {
  model_spec& s = *spec;
  auto has = [&](model_tensor_role role, int layer) { return ck.find(model_tensor_name(ck.prefix, role, layer)) != nullptr; };
  const std::string head = lm_head_name(ck);
  if (head.empty() && s.lm_head_required) {
    if (problem) *problem = MODEL_SPEC_TENSOR;
    if (why) *why = read_error_at("", STR_READ_CFG_NO_LM_HEAD, {model_tensor_name(ck.prefix, MT_LM_HEAD, -1)});
    return false;
  }
  s.tied_embeddings = head.empty();
  // Llama kin: q/k/v biases (Qwen2) and q/k norms (Qwen3) when layer 0's full attention has them.
  if (s.family == FAMILY_LLAMA) {
    s.qkv_bias = has(MT_ATTN_Q_BIAS, 0);
    s.qk_norm = has(MT_ATTN_Q_NORM, 0);
  }
  std::vector<model_tensor> plan = model_tensor_list(s, ck.prefix, head);
  for (const model_tensor& t : plan) {
    const st_tensor* st;
    std::string err;
    if (!ckpt_check_tensor(ck, t.name, t.shape, &st, &err, why)) {
      if (problem) *problem = MODEL_SPEC_TENSOR;
      return false;
    }
  }
  *out = std::move(plan);
  if (problem) *problem = MODEL_SPEC_OK;
  return true;
}
