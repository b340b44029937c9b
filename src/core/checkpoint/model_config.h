// What the converter needs from a Hugging Face config.json: the language model's dimensions,
// its activation, its RMSNorm epsilon and how its RMSNorm applies the weight.
// Vision-language checkpoints (Qwen3.5) keep these under "text_config"; Llama / Qwen2 / Qwen3 /
// SmolLM / Mistral at the top level. Dimensions always come from here, never from constants.
#pragma once

#include "core/base/read_error.h"
#include <cstdint>
#include <string>

// Qwen3.5 (and Qwen3-Next) store RMSNorm weights centred on 0 and multiply by (1 + w); Llama,
// Qwen2/3, SmolLM and Mistral multiply by w. Using w where 1 + w is meant zeroes the input.
enum model_norm_kind { MODEL_NORM_W = 0, MODEL_NORM_ONE_PLUS_W = 1 };

struct model_config {
  std::string model_type;  // of the language model: text_config's when there is one
  bool text_config = false;  // dims came from "text_config"
  int64_t hidden = 0, intermediate = 0, layers = 0, vocab = 0;
  double rms_norm_eps = 1e-6;
  std::string hidden_act;  // "silu" (or "swish") for a SwiGLU MLP
  model_norm_kind norm = MODEL_NORM_W;
  std::string name_or_path;  // "_name_or_path" when the file has one
  bool synthetic = false;    // written by tools/make_checkpoint: says so everywhere it shows
};

enum { MODEL_CONFIG_MAX_BYTES = 4 << 20, MODEL_MAX_DIM = 1 << 20, MODEL_MAX_LAYERS = 1024, MODEL_MAX_VOCAB = 1 << 24 };

// Why a config.json was refused, for callers that word it themselves (the page, in two languages).
enum model_config_problem {
  MODEL_CONFIG_OK = 0,
  MODEL_CONFIG_UNREADABLE,  // not JSON, a missing or out-of-range dimension
  MODEL_CONFIG_NOT_SWIGLU,  // hidden_act is not silu: not a SwiGLU MLP
  MODEL_CONFIG_EXPERTS,     // a mixture of experts (num_experts, num_local_experts, n_routed_experts)
  MODEL_CONFIG_QUANTIZED,   // quantization_config (FP8, GPTQ, AWQ, bitsandbytes, ...): not BF16/F16/F32 weights
};

// Pure function over config.json's text. `file` names it in errors (English, the CLI's); *problem
// (when given) says which kind of refusal it was, *why (when given) the reason as data.
bool model_config_parse(const std::string& text, const std::string& file, model_config* out, std::string* error,
                        model_config_problem* problem = nullptr, read_error* why = nullptr);
const char* model_norm_name(model_norm_kind k);  // "w" or "1+w"
// The norm rule for a model_type (the table lives in model_config.cpp).
model_norm_kind model_norm_for_type(const std::string& model_type);
