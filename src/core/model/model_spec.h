// The whole language model's architecture, read from config.json and checked against the
// checkpoint's tensor names: what the forward pass (model/forward.h) runs and which tensors it
// needs, with their exact shapes. Pure function over text and names; no weights.
//
// Two families:
//   Qwen3.5 (model_type qwen3_5 / qwen3_5_text): a hybrid stack, `layer_types` per layer.
//     linear_attention: Gated DeltaNet (in_proj_qkv, in_proj_z, in_proj_b, in_proj_a, a depthwise
//       causal conv1d, A_log, dt_bias, a gated RMSNorm scaled by w, out_proj).
//     full_attention: q_proj makes the query and its output gate (2 x heads x head_dim rows,
//       per head: head_dim query rows then head_dim gate rows), q_norm and k_norm, partial RoPE,
//       GQA, o_proj. Every RMSNorm but the gated one scales by (1 + w).
//   Llama and its kin (llama, mistral, qwen2, qwen3, smollm...): every layer full attention,
//     RoPE over the whole head (or partial_rotary_factor), q/k/v biases and q_norm/k_norm when the
//     checkpoint has them, norms scale by w (model_config.h's table), lm_head or tied embeddings.
// What the page cannot run is refused by name: a mixture of experts (model_config), an unknown
// layer type, a sliding window shorter than the longest prompt, a RoPE scaling it does not know.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/checkpoint/checkpoint.h"
#include "core/checkpoint/model_config.h"
#include "core/base/read_error.h"

enum { MODEL_MAX_TOKENS = 64 };  // a prompt's tokens (a link's ids= carries at most 64)

enum model_mixer { MIXER_FULL_ATTENTION = 0, MIXER_LINEAR_ATTENTION = 1 };
enum model_family { FAMILY_QWEN35 = 0, FAMILY_LLAMA = 1 };
enum model_rope_scaling { ROPE_PLAIN = 0, ROPE_LINEAR = 1, ROPE_LLAMA3 = 2 };

struct model_spec {
  model_config base;  // hidden, intermediate, layers, vocab, eps, norm rule (1 + w or w)
  model_family family = FAMILY_LLAMA;
  std::vector<model_mixer> mixers;  // one per layer
  // Full attention.
  int heads = 0, kv_heads = 0, head_dim = 0;
  bool output_gate = false;        // Qwen3.5: q_proj doubles, attention output * sigmoid(gate)
  bool qk_norm = false;            // q_norm / k_norm over head_dim
  bool qkv_bias = false;           // q_proj / k_proj / v_proj have a bias
  int rotary_dim = 0;              // RoPE turns the first rotary_dim dims of each head
  double rope_theta = 10000.0;
  model_rope_scaling rope_scaling = ROPE_PLAIN;
  double rope_factor = 1.0, rope_low_freq = 1.0, rope_high_freq = 4.0, rope_original_max = 8192.0;
  // Gated DeltaNet.
  int lin_k_heads = 0, lin_v_heads = 0, lin_k_dim = 0, lin_v_dim = 0, conv_kernel = 0;
  // Output.
  bool tied_embeddings = true;     // no lm_head.weight: logits from the embedding table
  bool lm_head_required = false;   // config.json says tie_word_embeddings: false
  int64_t conv_dim() const { return 2LL * lin_k_heads * lin_k_dim + (int64_t)lin_v_heads * lin_v_dim; }
};

// A token id inside the vocabulary: a row of the embedding, a column of the logits.
inline bool model_has_token(const model_spec& s, int64_t id) { return id >= 0 && id < s.base.vocab; }

// Why a model was refused, for callers that word it themselves (the page, in two languages).
enum model_spec_problem {
  MODEL_SPEC_OK = 0,
  MODEL_SPEC_UNREADABLE,    // a missing or out-of-range field (config_problem says more)
  MODEL_SPEC_CONFIG,        // model_config_parse refused it (not SwiGLU, experts, quantized)
  MODEL_SPEC_MIXER,         // a layer type, sliding window or RoPE scaling the page cannot run
  MODEL_SPEC_TENSOR,        // a tensor missing or of the wrong shape
};

// config.json's text -> the architecture (before any tensor name is known).
bool model_spec_parse(const std::string& config_text, model_spec* out, model_spec_problem* problem, read_error* why,
                      model_config_problem* config_problem = nullptr);

// [SECTION] the tensors the forward pass needs, checked against a checkpoint's headers
// (the roles, model_tensor_role, and their names, model_tensor_name: core/checkpoint/checkpoint.h)
struct model_tensor {
  model_tensor_role role;
  int layer = -1;                // -1: not a layer's
  std::string name;              // the checkpoint's full name
  std::vector<int64_t> shape;    // as the checkpoint must store it
  bool matrix = false;           // 2-D and multiplied (kept in the weight format); else f32 values
  int64_t elements() const;
};

// Every tensor the forward pass reads, in the order it reads them (embedding, layer 0 ... layer
// L-1, final norm, lm_head), each checked to exist with exactly its shape and a readable dtype.
// Never a vision tower's or an mtp head's tensor. Fills spec->tied_embeddings, qkv_bias and (for
// Llama kin) qk_norm from what the checkpoint holds. *why names the tensor.
bool model_tensor_plan(const checkpoint& ck, model_spec* spec, std::vector<model_tensor>* out,
                       model_spec_problem* problem, read_error* why);

// The plan from the spec alone, unchecked: the names under `prefix` ("model.language_model.",
// "model."), lm_head under `lm_head` when the spec is not tied. model_tensor_plan checks it against
// a checkpoint; a test or a fuzz target makes a checkpoint that matches it.
std::vector<model_tensor> model_tensor_list(const model_spec& spec, const std::string& prefix, const std::string& lm_head);
const char* model_mixer_name(model_mixer m);  // "full_attention", "linear_attention"
