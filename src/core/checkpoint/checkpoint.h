// A Hugging Face checkpoint directory: config.json plus safetensors, one file or shards listed in
// model.safetensors.index.json. Reads only headers on open; tensors are read on demand, checked
// against the config's dimensions, and converted to f32 (BF16 / F16 / F32 sources).
//
// Two namings of the language model's tensors (the first whose embed_tokens exists wins):
//   Qwen3.5 (vision-language): model.language_model.layers.N.mlp.gate_proj.weight, ...
//   Llama / Qwen2 / Qwen3 / SmolLM / Mistral: model.layers.N.mlp.gate_proj.weight, ...
// Other tensors (model.visual.*, mtp.* with an MLP of its own) are never taken for a layer:
// names are matched whole, with the detected prefix.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/checkpoint/model_config.h"
#include "core/checkpoint/safetensors.h"
#include "core/link/mlp_part.h"
#include "core/io/byte_source.h"

enum { CKPT_INDEX_MAX_BYTES = 64 << 20 };

struct checkpoint {
  byte_source* src = nullptr;
  model_config config;
  std::string prefix;           // e.g. "model.language_model." or "model."
  std::vector<st_file> files;   // parsed shard headers
  std::map<std::string, std::pair<size_t, size_t>> tensors;  // name -> (file, tensor) indices
  const st_tensor* find(const std::string& name) const;
};

// Reads config.json, the index (when there is one) and every shard's header; checks that the
// index and the shards agree, that no tensor is in two shards, and finds the naming.
bool ckpt_open(byte_source* src, checkpoint* out, std::string* error);

// [SECTION] the pure steps ckpt_open is made of, shared with the checkpoint read by byte ranges
// (core/checkpoint_remote/checkpoint_opener.h), which fetches the same files a piece at a time.
extern const char* const CKPT_INDEX_FILE;  // "model.safetensors.index.json"
// model.safetensors.index.json's text -> tensor name -> shard file (plain names, no paths).
// (Each error: "file: reason" in English, the CLI's; the reason as data in *why when asked for.)
bool ckpt_parse_index(const std::string& text, const std::string& file, std::map<std::string, std::string>* weight_map,
                      std::string* error, read_error* why = nullptr);
// The shard files an index names, each once, sorted.
std::vector<std::string> ckpt_index_shards(const std::map<std::string, std::string>& weight_map);
// Adds a parsed shard header to ck (a tensor in two shards is an error).
bool ckpt_add_file(checkpoint* ck, st_file f, std::string* error, read_error* why = nullptr);
// Checks the index against the shards it names (every entry held by its shard) and finds the
// naming; ck.config and ck.files must be filled. weight_map may be empty (no index).
bool ckpt_finish(checkpoint* ck, const std::map<std::string, std::string>& weight_map, std::string* error,
                 read_error* why = nullptr);
// The tensor, after checking it is readable (BF16, F16, F32) and has exactly `shape`.
bool ckpt_check_tensor(const checkpoint& ck, const std::string& name, const std::vector<int64_t>& shape,
                       const st_tensor** out, std::string* error, read_error* why = nullptr);
// The shard file that holds a tensor ("" when none does).
std::string ckpt_file_of(const checkpoint& ck, const std::string& name);

// [SECTION] the language model's tensors by role, and their one namer
enum model_tensor_role {
  MT_EMBED, MT_FINAL_NORM, MT_LM_HEAD,
  MT_INPUT_NORM, MT_POST_NORM,
  MT_MLP_GATE, MT_MLP_UP, MT_MLP_DOWN,  // in mlp_part's order (model_mlp_role)
  MT_ATTN_Q, MT_ATTN_K, MT_ATTN_V, MT_ATTN_O, MT_ATTN_Q_BIAS, MT_ATTN_K_BIAS, MT_ATTN_V_BIAS,
  MT_ATTN_Q_NORM, MT_ATTN_K_NORM,
  MT_LIN_QKV, MT_LIN_Z, MT_LIN_B, MT_LIN_A, MT_LIN_CONV, MT_LIN_DT_BIAS, MT_LIN_A_LOG, MT_LIN_NORM, MT_LIN_OUT,
  MT_ROLE_COUNT
};
static_assert(MT_MLP_UP - MT_MLP_GATE == MLP_UP && MT_MLP_DOWN - MT_MLP_GATE == MLP_DOWN, "MLP roles in mlp_part's order");
inline model_tensor_role model_mlp_role(mlp_part part) { return (model_tensor_role)(MT_MLP_GATE + part); }
// A tensor's full name under `prefix` ("model.language_model.", "model."), a layer's when
// layer >= 0. lm_head's is its bare name: it sits beside the language model, not inside it.
std::string model_tensor_name(const std::string& prefix, model_tensor_role role, int layer);

// Full tensor names of layer L's MLP and its post-attention norm, and of the embedding table.
std::string ckpt_mlp_name(const checkpoint& ck, int layer, mlp_part part);
std::string ckpt_post_norm_name(const checkpoint& ck, int layer);
std::string ckpt_embed_name(const checkpoint& ck);

// A whole tensor as f32, after checking its dtype and that its shape is exactly `shape`.
bool ckpt_read_f32(const checkpoint& ck, const std::string& name, const std::vector<int64_t>& shape,
                   std::vector<float>* out, std::string* error);
// Selected rows of a 2-D tensor (rows, cols) as f32, (ids.size(), cols) row-major: the embedding
// rows of a probe's tokens without reading the whole table.
bool ckpt_read_rows_f32(const checkpoint& ck, const std::string& name, int64_t rows, int64_t cols,
                        const std::vector<int64_t>& ids, std::vector<float>* out, std::string* error);
