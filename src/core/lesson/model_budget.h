// The whole model in numbers (lessons 000/003): where Qwen3.5-0.8B's ≈ 752M parameters sit, and
// how many bytes of MLP weights one generated token reads while decoding.
//
// Parameters, from the text model's configuration (tied embeddings, so no separate LM head; the
// vision tower and the multi-token-prediction head are not part of the language model):
//   embedding          vocab · h                                          248,320 · 1024 = 254,279,680
//   MLP, per layer     3 · h · f  (param_budget.h)                        3 · 1024 · 3584 = 11,010,048
//   full attention     h · 2·Hq·d  (q and its output gate) + 2 · h · Hkv·d  (k, v)
//                      + Hq·d · h  (o) + 2·d  (q_norm, k_norm)            7,340,544 (Hq 8, Hkv 2, d 256)
//   linear attention   h · (2·Hk·dk + Hv·dv)  (q, k, v) + h · Hv·dv  (z) + 2 · h · Hv  (b, a)
//   (Gated DeltaNet)   + (2·Hk·dk + Hv·dv) · kernel  (conv1d) + 2·Hv  (dt_bias, A_log)
//                      + dv  (norm) + Hv·dv · h  (out)                     10,543,264 (Hk = Hv = 16, dk = dv = 128)
//   norms              2 · h per layer + h (final)
//   24 layers, every 4th full attention: 6 full + 18 linear -> attention 233,822,016 (lesson: ≈ 233M)
//   total 752,393,024 (lesson: 752M), MLP 264,241,152 = 35.1 % (lesson: 35 %)
//
// Decode traffic per generated token (batch 1: every weight is read once per token):
//   bf16: 2 bytes per MLP weight            -> 22,020,096 B per layer (≈ 22 MB), 528,482,304 B for 24 (≈ 528 MB)
//   int8: 1 byte per weight + one f32 scale per output row (docs/kernels.md: rows f + f + h)
//                                           -> 11,042,816 B per layer, 265,027,584 B for 24
#pragma once

#include <cstdint>

struct budget_shape {
  int64_t vocab, hidden, intermediate, layers;
  int64_t full_attention_interval;         // every Nth layer is full attention, the rest linear
  int64_t heads, kv_heads, head_dim;       // full attention
  bool attn_output_gate;                   // q_proj also produces a sigmoid gate per head (doubles q)
  int64_t linear_key_heads, linear_value_heads, linear_key_dim, linear_value_dim, linear_conv_kernel;
};

// Qwen3.5-0.8B's text_config.
budget_shape budget_shape_qwen35_08b();

struct model_budget {
  int64_t embedding;
  int64_t mlp_per_layer, mlp;              // mlp = layers · mlp_per_layer
  int64_t full_attention_layers, linear_attention_layers;
  int64_t full_attention_per_layer, linear_attention_per_layer;
  int64_t attention;                       // full + linear, all layers
  int64_t norms;
  int64_t total;
  double mlp_share;                        // mlp / total, 0..1
};

model_budget model_budget_count(const budget_shape& config);

// Bytes of MLP weights read per generated token, from the budget's own counts
// (param_budget.h: budget_count(h, f, layers).swiglu_per_layer).
struct decode_traffic {
  int64_t bf16_layer, bf16_all;
  int64_t int8_layer, int8_all;            // weights plus their per-row f32 scales
};

decode_traffic decode_traffic_count(int64_t hidden, int64_t intermediate, int64_t layers);

// Bytes as the lessons print them: decimal megabytes (22,020,096 B -> 22.02).
double model_megabytes(int64_t bytes);
