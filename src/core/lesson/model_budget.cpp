// The whole model in numbers (see model_budget.h for every formula).
#include "core/lesson/model_budget.h"

#include "core/lesson/param_budget.h"

budget_shape budget_shape_qwen35_08b() {
  budget_shape c{};
  c.vocab = 248320;
  c.hidden = 1024;
  c.intermediate = 3584;
  c.layers = 24;
  c.full_attention_interval = 4;
  c.heads = 8;
  c.kv_heads = 2;
  c.head_dim = 256;
  c.attn_output_gate = true;
  c.linear_key_heads = 16;
  c.linear_value_heads = 16;
  c.linear_key_dim = 128;
  c.linear_value_dim = 128;
  c.linear_conv_kernel = 4;
  return c;
}

model_budget model_budget_count(const budget_shape& c) {
  model_budget b{};
  const int64_t h = c.hidden;
  b.embedding = c.vocab * h;
  b.mlp_per_layer = budget_count(h, c.intermediate, c.layers).swiglu_per_layer;
  b.mlp = c.layers * b.mlp_per_layer;
  b.full_attention_layers = c.full_attention_interval > 0 ? c.layers / c.full_attention_interval : 0;
  b.linear_attention_layers = c.layers - b.full_attention_layers;

  const int64_t q_out = c.heads * c.head_dim, kv_out = c.kv_heads * c.head_dim;
  b.full_attention_per_layer = h * q_out * (c.attn_output_gate ? 2 : 1) + 2 * h * kv_out + q_out * h + 2 * c.head_dim;

  const int64_t key_out = c.linear_key_heads * c.linear_key_dim, value_out = c.linear_value_heads * c.linear_value_dim;
  const int64_t qkv = 2 * key_out + value_out;
  b.linear_attention_per_layer = h * qkv + h * value_out + 2 * h * c.linear_value_heads + qkv * c.linear_conv_kernel +
                                 2 * c.linear_value_heads + c.linear_value_dim + value_out * h;

  b.attention = b.full_attention_layers * b.full_attention_per_layer + b.linear_attention_layers * b.linear_attention_per_layer;
  b.norms = 2 * h * c.layers + h;
  b.total = b.embedding + b.mlp + b.attention + b.norms;
  b.mlp_share = b.total > 0 ? double(b.mlp) / double(b.total) : 0;
  return b;
}

decode_traffic decode_traffic_count(int64_t h, int64_t f, int64_t layers) {
  const int64_t weights = budget_count(h, f, layers).swiglu_per_layer;
  const int64_t scale_bytes = 4 * (f + f + h);  // one f32 per output row of gate, up, down
  decode_traffic t{};
  t.bf16_layer = 2 * weights;
  t.bf16_all = layers * t.bf16_layer;
  t.int8_layer = weights + scale_bytes;
  t.int8_all = layers * t.int8_layer;
  return t;
}

double model_megabytes(int64_t bytes) { return double(bytes) / 1e6; }
