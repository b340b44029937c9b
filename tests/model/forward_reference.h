// An independent double-precision forward pass, written from the model's definition (transformers'
// modeling_qwen3_5.py and modeling_llama.py), never from the page's kernels or its forward pass:
// plain loops over the checkpoint's own values read as double, the delta rule in its recurrent
// form, softmax in double. Slow on purpose; the yardstick of tests/model/ and of model_bench.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/io/byte_source.h"

struct ref_unit {
  int layer, unit;
};

struct ref_result {
  std::vector<double> probs;               // (V) the last position's next-token distribution
  std::vector<std::vector<double>> mlp_l2; // [L][T]
  std::vector<std::vector<double>> out_l2; // [L][T]
  std::vector<std::vector<double>> act;    // [L] (T, F) silu(gate) * up
  std::vector<std::vector<double>> mlp_in; // [L] (T, H)
  std::vector<std::vector<double>> silu_gate;  // [L] (T, F) silu(W_gate mlp_in)
  // The lessons' shortcut (the gates view's in=embed): layer 0's post-attention norm of the
  // embedding fed to every layer's gate, silu(W_gate[l] rms(emb) * w0) [L] (T, F).
  std::vector<std::vector<double>> shortcut_silu_gate;
};

// Runs the checkpoint in `src` on `ids` with `off` switched off. False with *error when the
// checkpoint cannot be read.
bool ref_forward(byte_source* src, const std::vector<int64_t>& ids, const std::vector<ref_unit>& off, ref_result* out,
                 std::string* error);
