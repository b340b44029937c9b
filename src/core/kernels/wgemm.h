// The whole model's matrix products (model/forward.h): y = x W^T for T tokens, with W kept in
// memory as the checkpoint's own BF16 values (no rounding: the forward pass matches a double
// computation on the checkpoint's values to f32 rounding) or as group-wise int8 (32 columns a
// group, one f32 scale each: half the memory, a measured fidelity cost; docs/model.md).
//
// As for the MLP kernels (kernels.h): a scalar reference per op with double accumulation, wasm
// SIMD128 twins (natively through SIMDe), one registry that tests, benchmark and dispatch walk.
// Per-token determinism: a token's outputs are bit-identical whatever T is and wherever the token
// sits in the batch (each token's accumulators see the same instructions in the same order), so
// a prompt's first k positions computed alone equal the same positions of the whole prompt.
#pragma once

#include <cstddef>
#include <cstdint>

enum wmat_format { WMAT_BF16 = 0, WMAT_Q8G = 1 };
enum { WMAT_GROUP = 32 };  // Q8G: columns per scale

// A (rows, cols) row-major matrix as the kernels read it.
struct wmat_view {
  int rows = 0, cols = 0;
  wmat_format format = WMAT_BF16;
  const uint16_t* bf16 = nullptr;  // WMAT_BF16: rows * cols
  const int8_t* q = nullptr;       // WMAT_Q8G: rows * cols
  const float* scales = nullptr;   // WMAT_Q8G: rows * (cols / WMAT_GROUP)
};

// y[t][n] = sum_k W[n][k] * x[t][k];  x (T, cols) row-major, y (T, rows) row-major.
typedef void (*wgemm_fn)(const wmat_view* w, const float* x, int T, float* y);

void bf16_gemm_f32_ref(const wmat_view* w, const float* x, int T, float* y);  // double accumulation
void bf16_gemm_f32__wasmsimd_4x8_t1(const wmat_view* w, const float* x, int T, float* y);
void bf16_gemm_f32__wasmsimd_4x8_t2(const wmat_view* w, const float* x, int T, float* y);
void bf16_gemm_f32__wasmsimd_4x8_t4(const wmat_view* w, const float* x, int T, float* y);
void q8g_gemm_f32_ref(const wmat_view* w, const float* x, int T, float* y);   // double accumulation
void q8g_gemm_f32__wasmsimd_1x32_t2(const wmat_view* w, const float* x, int T, float* y);

struct wgemm_variant {
  const char* name;
  wmat_format format;
  wgemm_fn fn;
  int row_tile, token_tile;
  bool is_ref;
};
extern const wgemm_variant wgemm_variants[];
extern const int wgemm_variant_count;
// The variant the forward pass uses for a format (the first non-reference one listed).
wgemm_fn wgemm_default(wmat_format format);

// Group-wise int8 from f32 rows: each group of WMAT_GROUP columns gets scale = max|v| / 127 and
// q = round(v / scale) (round half away from zero). cols must be a multiple of WMAT_GROUP.
void q8g_quantize_rows(const float* src, int rows, int cols, int8_t* q, float* scales);
