// The whole model's weights in memory, as the forward pass (model/forward.h) reads them.
// Matrices keep the checkpoint's BF16 values (WMAT_BF16) or group-wise int8 (WMAT_Q8G); vectors
// (norms, biases, the conv kernel, the DeltaNet's decay parameters) are f32. Norm scales are kept
// as the multiplier the model applies: (1 + w) for Qwen3.5's norms, w elsewhere and for the gated
// norm inside the linear attention.
//
// Filled a tensor (or a run of rows) at a time from checkpoint bytes, so a reader that fetches by
// byte ranges (the page's worker) and one that reads files (the CLI, the tests) share the code.
// Every allocation is checked and sized from the config before any byte arrives.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/checkpoint/dtype.h"
#include "core/io/byte_source.h"
#include "core/kernels/wgemm.h"
#include "core/model/model_spec.h"

// An owned, checked allocation (malloc: null on failure, never an abort).
struct wbuffer {
  void* data = nullptr;
  size_t bytes = 0;
  wbuffer() = default;
  wbuffer(const wbuffer&) = delete;
  wbuffer& operator=(const wbuffer&) = delete;
  wbuffer(wbuffer&& o) noexcept : data(o.data), bytes(o.bytes) { o.data = nullptr, o.bytes = 0; }
  wbuffer& operator=(wbuffer&& o) noexcept;
  ~wbuffer();
  bool alloc(size_t n);  // false: out of memory (nothing held)
};

struct wmatrix {
  int rows = 0, cols = 0;
  wmat_format format = WMAT_BF16;
  wbuffer values;  // BF16: uint16 rows*cols; Q8G: int8 rows*cols
  wbuffer scales;  // Q8G: f32 rows*(cols/WMAT_GROUP)
  wmat_view view() const;
  void row_f32(int64_t row, float* out) const;  // one row as f32 (an embedding lookup, a unit's row)
  uint64_t bytes() const { return values.bytes + scales.bytes; }
};

// How the matrices are kept: the layers' and the embedding table's (which is also the unembedding
// when tied). BF16 keeps the checkpoint's values; Q8G halves the memory at a measured cost.
struct model_formats {
  wmat_format layers = WMAT_BF16, embedding = WMAT_BF16;
};

struct model_layer_weights {
  model_mixer mixer = MIXER_FULL_ATTENTION;
  std::vector<float> input_norm, post_norm;  // (H) the multiplier: (1 + w) or w
  // Full attention.
  wmatrix q, k, v, o;
  std::vector<float> q_bias, k_bias, v_bias, q_norm, k_norm;
  // Gated DeltaNet.
  wmatrix qkv, z, b, a, out;
  std::vector<float> conv;       // (conv_dim, kernel)
  std::vector<float> dt_bias;    // (v_heads)
  std::vector<float> neg_a;      // (v_heads) -exp(A_log)
  std::vector<float> lin_norm;   // (v_dim) w (the gated norm scales by w)
  // SwiGLU MLP.
  wmatrix gate, up, down;        // (F, H), (F, H), (H, F)
};

struct model_weights {
  model_spec spec;
  model_formats formats;
  wmatrix embed;                 // (V, H)
  wmatrix lm_head;               // (V, H); rows == 0 when tied to embed
  std::vector<float> final_norm; // (H) the multiplier
  std::vector<model_layer_weights> layers;
  std::vector<float> rope_inv_freq;  // (rotary_dim / 2), RoPE scaling applied
  const wmatrix& unembedding() const { return lm_head.rows ? lm_head : embed; }
};

// Bytes the weights take in memory (matrices in their format, vectors as f32).
uint64_t model_weights_bytes(const std::vector<model_tensor>& plan, model_formats formats);

// Sizes every tensor of the plan (allocates every matrix). False with *why when memory runs out
// (STR_MODEL_NO_MEMORY, naming the bytes needed).
bool model_weights_prepare(model_weights* w, const model_spec& spec, const std::vector<model_tensor>& plan,
                           model_formats formats, read_error* why);
// A tensor as rows the way tensor_fetch counts them: its first dimension by the product of the
// others, a 1-D tensor one row.
void model_tensor_rows(const model_tensor& t, int64_t* rows, int64_t* cols);
// Rows [row0, row0 + n) of a tensor (model_tensor_rows' rows) from checkpoint bytes in `dtype`.
// False with *why for NaN or infinity.
bool model_weights_put(model_weights* w, const model_tensor& t, int64_t row0, int64_t n, st_dtype dtype, const void* raw,
                       read_error* why);

// Where rows [row0, row0 + n) of a tensor sit in the weights when they hold the checkpoint's own
// bytes there (a BF16 matrix kept as BF16): a cached record of them can be read straight in.
// Null otherwise (converted on the way in: q8, f32 vectors, another dtype). *bytes: their size.
void* model_weights_rows_at(model_weights* w, const model_tensor& t, int64_t row0, int64_t n, st_dtype dtype, size_t* bytes);

// Everything above through a byte source (a checkpoint directory on disk or in memory): reads
// config.json, the headers, then every tensor of the plan, a few MiB of rows at a time.
// Errors in English (the CLI's words), and as data in *why.
bool model_load(byte_source* src, model_formats formats, model_weights* out, std::string* error, read_error* why = nullptr);
