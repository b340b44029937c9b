// A synthetic Hugging Face checkpoint from a fixed seed: the embedded default (shaped exactly
// like Qwen3.5-0.8B's language model) and every test's checkpoint come from here.
//
// The weights are random but shaped like a trained model's where the lessons look: embeddings
// share a common direction, and each layer's gate rows lean along it with a per-layer spread and
// shift, so that silu(gate) is clearly open for about a third of the units, clearly negative for
// about a quarter to a third, and near 0 for the rest (lessons 000/003: 32 %/29 %, 32 %/24 %,
// 43 %/31 % on layers 0, 11, 23 of the real model). The numbers they give are not the real
// model's: config.json says "swiglu_lab_synthetic": true, and every view of them says so.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/checkpoint/dtype.h"

enum synth_naming {
  SYNTH_NAMING_QWEN35 = 0,  // model.language_model.*, dims under text_config, visual + mtp decoys
  SYNTH_NAMING_LLAMA = 1,   // model.*, dims at the top level
};

struct synth_spec {
  synth_naming naming = SYNTH_NAMING_QWEN35;
  int hidden = 1024, intermediate = 3584, num_layers = 24, vocab = 4096;
  std::vector<int> layers = {0, 11, 23};  // the layers that get tensors (the config still says num_layers)
  st_dtype dtype = ST_DTYPE_BF16;
  int shards = 1;         // > 1: model-0000k-of-0000n.safetensors + index
  bool index = true;      // write model.safetensors.index.json (always when shards > 1)
  uint64_t seed = 20251;  // fixed: the default pack is the same on every machine
  double rms_norm_eps = 1e-6;
};

// The gate statistics the generator aims at for a layer (spread and shift of W_gate x in units of
// the input's RMS); exposed so that tests can check the shares land in the tens of percent.
struct synth_gate_shape { double spread, shift; };
synth_gate_shape synth_gate_shape_for(int layer, int num_layers);

// File name -> bytes: config.json, shard(s), index.
std::map<std::string, std::string> synth_checkpoint_make(const synth_spec& spec);

// The shard file name used for single-file Qwen3.5-style checkpoints (as the real one ships).
extern const char* const SYNTH_QWEN35_SINGLE_SHARD;
