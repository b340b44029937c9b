// Synthetic whole language models for the forward pass (core/model/): every tensor a decoder
// needs, in the Qwen3.5 layout (hybrid Gated DeltaNet / gated attention, vision and mtp decoys)
// or the Llama one, from a seed. The tests' models, the benchmark's full-size Qwen3.5-0.8B-shaped
// checkpoint and (with `planted`) the page's default whole model come from here. config.json says
// "swiglu_lab_synthetic": true: nothing they compute is a real model's.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/checkpoint/dtype.h"
#include "core/checkpoint/synthetic_checkpoint.h"

struct synth_model_spec {
  synth_naming naming = SYNTH_NAMING_QWEN35;
  int hidden = 64, intermediate = 192, num_layers = 4, vocab = 512;
  // Full attention.
  int heads = 4, kv_heads = 2, head_dim = 32;
  double partial_rotary_factor = 0.25;  // Qwen3.5's; Llama: 1
  double rope_theta = 10000000.0;
  // Gated DeltaNet (Qwen3.5 only).
  int lin_k_heads = 2, lin_v_heads = 4, lin_k_dim = 16, lin_v_dim = 16, conv_kernel = 4;
  int full_attention_interval = 4;  // layer l is full attention when (l + 1) % interval == 0
  bool tied = true;                 // no lm_head.weight
  bool qkv_bias = false;            // Llama kin: q/k/v biases (as Qwen2)
  bool zero_mixers = false;         // out_proj and o_proj all zero: every mixer outputs 0
  st_dtype dtype = ST_DTYPE_BF16;
  int shards = 1;
  uint64_t seed = 7;
  double rms_norm_eps = 1e-6;
};

// The full-size Qwen3.5-0.8B-shaped spec (the benchmark's): hidden 1024, intermediate 3584, 24
// layers (3 linear, 1 full, six times), 8 heads of 256 (2 key/value heads), 16 DeltaNet heads of
// 128, vocabulary 248320, tied embeddings.
synth_model_spec synth_model_qwen35_0p8b();

// config.json alone (no tensor is made: a full-size spec's config costs nothing).
std::string synth_model_config_json(const synth_model_spec& spec);
// File name -> bytes: config.json, the shard(s), the index when sharded.
std::map<std::string, std::string> synth_model_make(const synth_model_spec& spec);

// [SECTION] the page's default whole model (site/models/synthetic/)
// Qwen3.5's layout at a toy width (hidden 64, intermediate 192, 24 layers: 3 DeltaNet, 1 gated
// attention, six times) with a tokenizer.json of the lessons' words, and the lessons' rules planted
// where the views look, so that the rule book and the flow teach something offline:
//  - an attention head of layer 3 carries "capital" (from 首都) and "China" (from 中国) forward;
//  - unit `capital_unit` of layer `capital_layer` fires on "capital" and writes toward capital
//    cities (北京, London, Paris, Washington, ...): lesson 003's "capital cities" unit;
//  - unit `city_unit` of layer `city_layer` fires on "capital" and "China" together and writes
//    toward Chinese cities (北京, 上海, 杭州, ...): lesson 003's "Chinese cities" unit;
//  - "是" leans toward "哪个" on its own, so switching the city unit off lets 哪个 rise;
//  - lesson 001's three features: units that fire on city names, on "not", and inside code.
// Every other weight is small random noise. config.json says it is synthetic.
struct synth_planted {
  int capital_layer = 18, capital_unit = 65;
  int city_layer = 23, city_unit = 75;
  int city_name_layer = 6, city_name_unit = 30;
  int negation_layer = 9, negation_unit = 40;
  int code_layer = 12, code_unit = 50;
};
// The tokens of its tokenizer.json that the lessons use (the prompt, the cities, the sentences).
const std::vector<std::string>& synth_planted_tokens();
std::map<std::string, std::string> synth_model_planted_make(const synth_planted& where = synth_planted());

// A hostile checkpoint made from a good one: every value of one BF16 tensor set to `bits` (0x7F7F,
// BF16's largest finite value, passes the load's finiteness check and overflows the pass). False
// when no shard holds the tensor as BF16.
bool synth_model_fill_bf16(std::map<std::string, std::string>* files, const std::string& tensor, uint16_t bits);
