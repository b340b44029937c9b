// Parameter counts of the feed-forward block (lessons 001 and 003).
//   classic FFN:  W_1 (4h, h), W_2 (h, 4h)                  -> 8 h^2
//   SwiGLU:       gate, up (f, h), down (h, f)              -> 3 h f
//   break-even:   f = 8/3 h gives 3 h (8/3 h) = 8 h^2, the classic budget
// Qwen3.5-0.8B: h = 1024, f = 3584, 24 layers -> 11,010,048 per layer, 264,241,152 in all.
#pragma once

#include <cstdint>

struct budget_counts {
  int64_t classic_per_layer;    // 2 * h * 4h
  int64_t balanced_f;           // round(8h / 3): the intermediate size that matches the classic
  int64_t balanced_per_layer;   // 3 * h * balanced_f
  int64_t swiglu_per_layer;     // 3 * h * f
  int64_t swiglu_all_layers;    // layers * 3 * h * f
  double swiglu_h2;             // swiglu_per_layer / h^2 (10.5 for Qwen3.5-0.8B)
  double swiglu_vs_classic;     // swiglu_per_layer / classic_per_layer (1.3125 for Qwen)
};

budget_counts budget_count(int64_t hidden, int64_t intermediate, int64_t layers);
