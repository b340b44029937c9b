// The converter: a checkpoint (checkpoint.h) -> a weight pack (pack_format.h), written through a
// byte sink that commits only when everything was written, so a failure leaves no valid pack.
//
// Probe inputs follow the lessons' recipe: the embedding rows of the probe's token ids,
// RMS-normalised with the config's eps and multiplied by layer 0's post_attention_layernorm
// weight, by (1 + w) for Qwen3.5 and by w for Llama-style models (model_config.h); the same
// input is fed to every layer in the pack, as the lessons do.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/checkpoint/checkpoint.h"
#include "core/pack/pack_format.h"

struct pack_probe_spec {
  std::string label;
  std::vector<int64_t> tokens;
  std::vector<std::string> pieces;  // empty, or one per token
};

struct pack_build_options {
  std::vector<int> layers;  // empty: every layer of the model
  std::vector<pack_probe_spec> probes;
  std::string model_id;     // empty: config's _name_or_path, else "unknown"
  std::function<void(const std::string&)> progress;  // one line per long step; may be empty
};

// Quantization error of one matrix, as the converter prints it.
struct pack_quant_report {
  std::string tensor;  // checkpoint tensor name
  double max_abs = 0, rel_rms = 0;
};

struct pack_build_result {
  pack_manifest manifest;
  std::vector<pack_quant_report> quant;  // one per matrix
  size_t worst = 0;                      // index into quant with the largest rel_rms
  std::vector<std::string> warnings;     // things a teacher should check (the norm rule, ...)
};

bool pack_build(const checkpoint& ck, const pack_build_options& opt, byte_sink* out, pack_build_result* result,
                std::string* error);

// The probe input for token rows `emb` (T, hidden): x = emb / rms(emb) * (w or 1 + w), in double,
// rounded to f32 once. Exposed for tests.
void pack_probe_input(const float* emb, int T, int hidden, const float* norm_w, model_norm_kind kind, double eps,
                      float* x);

// "0,11,23" or "all" -> layer numbers, each checked against the model's layer count.
bool pack_parse_layers(const std::string& text, int64_t num_layers, std::vector<int>* layers, std::string* error);
