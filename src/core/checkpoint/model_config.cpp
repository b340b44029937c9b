// config.json reader (see model_config.h).
#include "core/checkpoint/model_config.h"

#include <algorithm>

#include "core/base/json_read.h"
#include "core/base/number_format.h"

// model_type -> (1 + w) RMSNorm. Everything else multiplies by w.
static const char* const kOnePlusWTypes[] = {"qwen3_5", "qwen3_5_text", "qwen3_5_moe", "qwen3_5_moe_text", "qwen3_next"};

model_norm_kind model_norm_for_type(const std::string& model_type) {
  for (const char* t : kOnePlusWTypes)
    if (model_type == t) return MODEL_NORM_ONE_PLUS_W;
  return MODEL_NORM_W;
}

const char* model_norm_name(model_norm_kind k) { return k == MODEL_NORM_ONE_PLUS_W ? "1+w" : "w"; }

namespace {
// A refusal: "config.json (text_config): reason" in English for the CLI, the reason as data for
// the page (which names config.json itself).
struct config_fail {
  std::string where;  // "config.json" or "config.json (text_config)"
  bool text_config;
  std::string* error;
  read_error* why;
  bool operator()(str_id what, std::vector<std::string> args = {}) const {
    read_error r = read_error_at(text_config ? "text_config" : "", what, std::move(args));
    *error = where + ": " + read_error_fill(tr_in(LAB_LANG_EN, what), r.args);
    if (why) *why = std::move(r);
    return false;
  }
};
}  // namespace

static bool config_int(const cJSON* obj, const char* key, int64_t lo, int64_t hi, int64_t* out, const config_fail& fail) {
  const cJSON* it = json_member(obj, key);
  if (!it) return fail(STR_READ_MISSING, {key});
  int64_t v;
  if (!json_integer(it, &v)) return fail(STR_READ_NOT_INTEGER, {key});
  if (v < lo || v > hi) return fail(STR_READ_CFG_OUTSIDE, {key, std::to_string(v), std::to_string(lo), std::to_string(hi)});
  *out = v;
  return true;
}

static std::string config_string(const cJSON* obj, const char* key) { return json_string(json_member(obj, key)); }

// The quantization a config declares ("fp8", "gptq", "awq", "bitsandbytes", ...), or "".
static std::string config_quant_method(const cJSON* j) {
  const cJSON* q = json_member(j, "quantization_config");
  if (!cJSON_IsObject(q)) return std::string();
  std::string m = config_string(q, "quant_method");
  if (m.empty() && (json_member(q, "load_in_4bit") || json_member(q, "load_in_8bit"))) m = "bitsandbytes";
  return m.empty() ? std::string("unknown") : m;
}

// A mixture of experts names its expert count under one of these (Qwen-MoE, Mixtral, DeepSeek).
static int64_t config_experts(const cJSON* obj) {
  for (const char* k : {"num_experts", "num_local_experts", "n_routed_experts"}) {
    int64_t n;
    if (json_integer(json_member(obj, k), &n) && n > 1) return n;
  }
  return 0;
}

static bool model_config_parse_inner(const std::string& text, const std::string& file, model_config* out,
                                     std::string* error, model_config_problem* problem, read_error* why) {
  *problem = MODEL_CONFIG_UNREADABLE;
  config_fail fail{file, false, error, why};
  const json_tree tree = json_parse(text);
  const cJSON* j = tree.get();
  if (!j) return fail(STR_READ_NOT_VALID_JSON);
  if (!cJSON_IsObject(j)) return fail(STR_READ_NOT_JSON_OBJECT);
  const std::string twice = json_repeated_key(j);
  if (!twice.empty()) return fail(STR_READ_KEY_TWICE, {twice});
  model_config c;
  c.name_or_path = config_string(j, "_name_or_path");
  c.synthetic = cJSON_IsTrue(json_member(j, "swiglu_lab_synthetic"));
  const cJSON* lm = j;
  std::string where = file;
  const cJSON* tc = json_member(j, "text_config");
  if (tc) {
    if (!cJSON_IsObject(tc)) return fail(STR_READ_KEY_NOT_OBJECT, {"text_config"});
    lm = tc;
    c.text_config = true;
    where = file + " (text_config)";
    fail = {where, true, error, why};
    const std::string tc_twice = json_repeated_key(tc);
    if (!tc_twice.empty()) return fail(STR_READ_KEY_TWICE, {tc_twice});
  }
  c.model_type = config_string(lm, "model_type");
  if (c.model_type.empty()) c.model_type = config_string(j, "model_type");
  if (!config_int(lm, "hidden_size", 1, MODEL_MAX_DIM, &c.hidden, fail) ||
      !config_int(lm, "intermediate_size", 1, MODEL_MAX_DIM, &c.intermediate, fail) ||
      !config_int(lm, "num_hidden_layers", 1, MODEL_MAX_LAYERS, &c.layers, fail) ||
      !config_int(lm, "vocab_size", 1, MODEL_MAX_VOCAB, &c.vocab, fail))
    return false;
  if (const cJSON* eps = json_member(lm, "rms_norm_eps")) {
    if (!cJSON_IsNumber(eps) || !(eps->valuedouble > 0) || eps->valuedouble > 1)
      return fail(STR_READ_CFG_EPS, {cJSON_IsNumber(eps) ? fmt_config_value(eps->valuedouble) : json_value_text(eps)});
    c.rms_norm_eps = eps->valuedouble;
  }
  c.hidden_act = config_string(lm, "hidden_act");
  if (c.hidden_act.empty()) c.hidden_act = config_string(lm, "hidden_activation");
  if (c.hidden_act.empty()) c.hidden_act = "silu";  // transformers' default for these families
  if (c.hidden_act != "silu" && c.hidden_act != "swish") {
    *problem = MODEL_CONFIG_NOT_SWIGLU;
    return fail(STR_READ_CFG_NOT_SILU, {c.hidden_act});
  }
  const int64_t experts = std::max(config_experts(lm), config_experts(j));
  if (experts) {
    *problem = MODEL_CONFIG_EXPERTS;
    return fail(STR_READ_CFG_EXPERTS, {std::to_string(experts)});
  }
  std::string quant = config_quant_method(lm);
  if (quant.empty()) quant = config_quant_method(j);
  if (!quant.empty()) {
    *problem = MODEL_CONFIG_QUANTIZED;
    return config_fail{file, false, error, why}(STR_READ_CFG_QUANTIZED, {quant});
  }
  c.norm = model_norm_for_type(c.model_type);
  *out = c;
  *problem = MODEL_CONFIG_OK;
  return true;
}

bool model_config_parse(const std::string& text, const std::string& file, model_config* out, std::string* error,
                        model_config_problem* problem, read_error* why) {
  model_config_problem p;
  const bool ok = model_config_parse_inner(text, file, out, error, &p, why);
  if (problem) *problem = p;
  return ok;
}
