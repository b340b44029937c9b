// Checkpoint directory reader (see checkpoint.h).
#include "core/checkpoint/checkpoint.h"

#include <algorithm>
#include "core/base/json_read.h"
#include <set>


static const char* const kPrefixes[] = {"model.language_model.", "model.", "language_model.model.", ""};

const st_tensor* checkpoint::find(const std::string& name) const {
  auto it = tensors.find(name);
  return it == tensors.end() ? nullptr : &files[it->second.first].tensors[it->second.second];
}

static const char* role_suffix(model_tensor_role role) {
  switch (role) {
    case MT_EMBED: return "embed_tokens.weight";
    case MT_FINAL_NORM: return "norm.weight";
    case MT_LM_HEAD: return "lm_head.weight";
    case MT_INPUT_NORM: return "input_layernorm.weight";
    case MT_POST_NORM: return "post_attention_layernorm.weight";
    case MT_MLP_GATE: return "mlp.gate_proj.weight";
    case MT_MLP_UP: return "mlp.up_proj.weight";
    case MT_MLP_DOWN: return "mlp.down_proj.weight";
    case MT_ATTN_Q: return "self_attn.q_proj.weight";
    case MT_ATTN_K: return "self_attn.k_proj.weight";
    case MT_ATTN_V: return "self_attn.v_proj.weight";
    case MT_ATTN_O: return "self_attn.o_proj.weight";
    case MT_ATTN_Q_BIAS: return "self_attn.q_proj.bias";
    case MT_ATTN_K_BIAS: return "self_attn.k_proj.bias";
    case MT_ATTN_V_BIAS: return "self_attn.v_proj.bias";
    case MT_ATTN_Q_NORM: return "self_attn.q_norm.weight";
    case MT_ATTN_K_NORM: return "self_attn.k_norm.weight";
    case MT_LIN_QKV: return "linear_attn.in_proj_qkv.weight";
    case MT_LIN_Z: return "linear_attn.in_proj_z.weight";
    case MT_LIN_B: return "linear_attn.in_proj_b.weight";
    case MT_LIN_A: return "linear_attn.in_proj_a.weight";
    case MT_LIN_CONV: return "linear_attn.conv1d.weight";
    case MT_LIN_DT_BIAS: return "linear_attn.dt_bias";
    case MT_LIN_A_LOG: return "linear_attn.A_log";
    case MT_LIN_NORM: return "linear_attn.norm.weight";
    case MT_LIN_OUT: return "linear_attn.out_proj.weight";
    default: return "";
  }
}

std::string model_tensor_name(const std::string& prefix, model_tensor_role role, int layer) {
  if (role == MT_LM_HEAD) return role_suffix(role);  // beside the language model, not inside it
  if (layer < 0) return prefix + role_suffix(role);
  return prefix + "layers." + std::to_string(layer) + "." + role_suffix(role);
}

std::string ckpt_mlp_name(const checkpoint& ck, int layer, mlp_part part) {
  return model_tensor_name(ck.prefix, model_mlp_role(part), layer);
}
std::string ckpt_post_norm_name(const checkpoint& ck, int layer) { return model_tensor_name(ck.prefix, MT_POST_NORM, layer); }
std::string ckpt_embed_name(const checkpoint& ck) { return model_tensor_name(ck.prefix, MT_EMBED, -1); }

// A shard name from the index must stay inside the checkpoint directory.
static bool ckpt_plain_file_name(const std::string& s) {
  return !s.empty() && s.size() <= 255 && s.find('/') == std::string::npos && s.find('\\') == std::string::npos &&
         s != "." && s != ".." && s.find('\0') == std::string::npos;
}

static bool ckpt_ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

const char* const CKPT_INDEX_FILE = "model.safetensors.index.json";

bool ckpt_parse_index(const std::string& text, const std::string& file, std::map<std::string, std::string>* weight_map,
                      std::string* error, read_error* why) {
  const json_tree tree = json_parse(text);
  if (!cJSON_IsObject(tree.get())) return read_fail(error, why, file, read_error_at("", STR_READ_NOT_JSON_OBJECT));
  const cJSON* wm = json_member(tree.get(), "weight_map");
  if (!cJSON_IsObject(wm)) return read_fail(error, why, file, read_error_at("", STR_READ_INDEX_NO_MAP));
  for (const cJSON* it = json_first(wm); it; it = it->next) {
    const std::string tensor = it->string ? it->string : "";
    if (!cJSON_IsString(it)) return read_fail(error, why, file, read_error_at("", STR_READ_INDEX_NOT_NAME, {tensor}));
    const std::string shard = json_string(it);
    if (!ckpt_plain_file_name(shard))
      return read_fail(error, why, file, read_error_at("", STR_READ_INDEX_OUTSIDE, {tensor, shard}));
    (*weight_map)[tensor] = shard;
  }
  if (weight_map->empty()) return read_fail(error, why, file, read_error_at("", STR_READ_INDEX_EMPTY));
  return true;
}

std::vector<std::string> ckpt_index_shards(const std::map<std::string, std::string>& weight_map) {
  std::set<std::string> named;
  for (const auto& w : weight_map) named.insert(w.second);
  return std::vector<std::string>(named.begin(), named.end());
}

bool ckpt_add_file(checkpoint* ck, st_file sf, std::string* error, read_error* why) {
  ck->files.push_back(std::move(sf));
  const size_t fi = ck->files.size() - 1;
  for (size_t ti = 0; ti < ck->files[fi].tensors.size(); ti++) {
    const std::string& name = ck->files[fi].tensors[ti].name;
    auto prev = ck->tensors.find(name);
    if (prev != ck->tensors.end())
      return read_fail(error, why, "",
                       read_error_at("", STR_READ_CKPT_TWICE, {name, ck->files[prev->second.first].file, ck->files[fi].file}));
    ck->tensors[name] = {fi, ti};
  }
  return true;
}

bool ckpt_finish(checkpoint* ck, const std::map<std::string, std::string>& weight_map, std::string* error,
                 read_error* why) {
  for (const auto& w : weight_map) {
    auto it = ck->tensors.find(w.first);
    if (it == ck->tensors.end() || ck->files[it->second.first].file != w.second)
      return read_fail(error, why, "", read_error_at("", STR_READ_CKPT_NOT_IN_SHARD, {CKPT_INDEX_FILE, w.first, w.second}));
  }
  for (const char* p : kPrefixes) {
    if (ck->tensors.count(std::string(p) + "embed_tokens.weight")) {
      ck->prefix = p;
      return true;
    }
  }
  return read_fail(error, why, "", read_error_at("", STR_READ_CKPT_NO_EMBED));
}

bool ckpt_open(byte_source* src, checkpoint* out, std::string* error) {
  checkpoint ck;
  ck.src = src;
  std::string text;
  if (!src->exists("config.json")) return *error = "config.json: missing (not a Hugging Face checkpoint directory?)", false;
  if (!byte_source_read_all(src, "config.json", MODEL_CONFIG_MAX_BYTES, &text, error)) return false;
  if (!model_config_parse(text, "config.json", &ck.config, error)) return false;

  // Which shards: the index's, or every *.safetensors file in the directory.
  std::map<std::string, std::string> weight_map;
  std::vector<std::string> shard_files;
  if (src->exists(CKPT_INDEX_FILE)) {
    if (!byte_source_read_all(src, CKPT_INDEX_FILE, CKPT_INDEX_MAX_BYTES, &text, error)) return false;
    if (!ckpt_parse_index(text, CKPT_INDEX_FILE, &weight_map, error)) return false;
    for (const std::string& f : ckpt_index_shards(weight_map)) {
      if (!src->exists(f)) return *error = f + ": missing shard (named by " + std::string(CKPT_INDEX_FILE) + ")", false;
      shard_files.push_back(f);
    }
  } else {
    std::vector<std::string> names;
    if (!src->list(&names, error)) return false;
    for (const std::string& n : names)
      if (ckpt_ends_with(n, ".safetensors")) shard_files.push_back(n);
    if (shard_files.empty()) return *error = "no .safetensors file and no " + std::string(CKPT_INDEX_FILE) + " in the checkpoint", false;
  }

  for (const std::string& f : shard_files) {
    st_file sf;
    if (!st_read_header(src, f, &sf, error)) return false;
    if (!ckpt_add_file(&ck, std::move(sf), error)) return false;
  }
  if (!ckpt_finish(&ck, weight_map, error)) return false;
  *out = std::move(ck);
  return true;
}

static std::string shape_text(const std::vector<int64_t>& s) {
  std::string t = "[";
  for (size_t i = 0; i < s.size(); i++) t += (i ? ", " : "") + std::to_string(s[i]);
  return t + "]";
}

std::string ckpt_file_of(const checkpoint& ck, const std::string& name) {
  auto it = ck.tensors.find(name);
  return it == ck.tensors.end() ? std::string() : ck.files[it->second.first].file;
}

bool ckpt_check_tensor(const checkpoint& ck, const std::string& name, const std::vector<int64_t>& shape,
                       const st_tensor** out, std::string* error, read_error* why) {
  const st_tensor* t = ck.find(name);
  if (!t) return read_fail(error, why, "", read_error_at("", STR_READ_CKPT_MISSING, {name}));
  const std::string& file = ck.files[ck.tensors.at(name).first].file;
  if (st_dtype_bytes(t->dtype) == 0)
    return read_fail(error, why, file, read_error_at("", STR_READ_CKPT_DTYPE, {name, t->dtype_name}));
  if (t->shape != shape)
    return read_fail(error, why, file, read_error_at("", STR_READ_CKPT_SHAPE, {name, shape_text(t->shape), shape_text(shape)}));
  *out = t;
  return true;
}

bool ckpt_read_f32(const checkpoint& ck, const std::string& name, const std::vector<int64_t>& shape,
                   std::vector<float>* out, std::string* error) {
  const st_tensor* t;
  if (!ckpt_check_tensor(ck, name, shape, &t, error)) return false;
  const std::string& file = ck.files[ck.tensors.at(name).first].file;
  const size_t n = (size_t)((t->end - t->begin) / st_dtype_bytes(t->dtype));
  std::vector<unsigned char> raw((size_t)(t->end - t->begin));
  if (!raw.empty() && !ck.src->read(file, t->begin, raw.size(), raw.data(), error)) return false;
  out->resize(n);
  dtype_to_f32(t->dtype, raw.data(), n, out->data());
  return true;
}

bool ckpt_read_rows_f32(const checkpoint& ck, const std::string& name, int64_t rows, int64_t cols,
                        const std::vector<int64_t>& ids, std::vector<float>* out, std::string* error) {
  const st_tensor* t;
  if (!ckpt_check_tensor(ck, name, {rows, cols}, &t, error)) return false;
  const std::string& file = ck.files[ck.tensors.at(name).first].file;
  const size_t eb = st_dtype_bytes(t->dtype), row_bytes = (size_t)cols * eb;
  std::vector<unsigned char> raw(row_bytes);
  out->resize(ids.size() * (size_t)cols);
  for (size_t i = 0; i < ids.size(); i++) {
    if (ids[i] < 0 || ids[i] >= rows)
      return *error = "token id " + std::to_string(ids[i]) + " is outside the vocabulary (0.." + std::to_string(rows - 1) + ")",
             false;
    if (!ck.src->read(file, t->begin + (uint64_t)ids[i] * row_bytes, row_bytes, raw.data(), error)) return false;
    dtype_to_f32(t->dtype, raw.data(), (size_t)cols, out->data() + i * (size_t)cols);
  }
  return true;
}
