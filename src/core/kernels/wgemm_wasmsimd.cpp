// wasm SIMD128 twins of the whole model's matrix products (see wgemm.h; natively through SIMDe).
//
// BF16: a bf16 value is the top half of an f32, so 8 weights become two f32x4 with a widen and a
// 16-bit shift. Four rows are walked together (four weight streams, each x load reused four
// times); a token tile (_t2, _t4) reuses each converted weight for several tokens. Every token's
// accumulator sees the same instructions in the same order whatever the tile, and each row's
// lanes are summed in one fixed order, so outputs are bit-identical whatever T is.
// Q8G: per group of 32 columns, int8 -> f32 (exact), a dot in f32, then times the group's scale.
#include "wgemm.h"

#include "simd128.h"

// Lanes of a row's accumulator, summed as (a[0] + a[2]) + (a[1] + a[3]): one order for every path.
static inline float lanes_sum(v128_t a) {
  return (wasm_f32x4_extract_lane(a, 0) + wasm_f32x4_extract_lane(a, 2)) +
         (wasm_f32x4_extract_lane(a, 1) + wasm_f32x4_extract_lane(a, 3));
}

static inline float bf16_value(uint16_t h) {
  const uint32_t bits = (uint32_t)h << 16;
  float f;
  __builtin_memcpy(&f, &bits, 4);
  return f;
}

// RB rows (1..4) x TB tokens: acc[t][r] += w_r[k..k+8) . x_t[k..k+8) for every full block of 8.
template <int RB, int TB>
static inline void bf16_tile(const uint16_t* const* w, const float* const* x, int K8, v128_t (*acc)[4]) {
  for (int t = 0; t < TB; t++)
    for (int r = 0; r < RB; r++) acc[t][r] = wasm_f32x4_splat(0.0f);
  for (int k = 0; k < K8; k += 8) {
    v128_t lo[RB], hi[RB];
    for (int r = 0; r < RB; r++) {
      const v128_t v = wasm_v128_load(w[r] + k);
      lo[r] = wasm_i32x4_shl(wasm_u32x4_extend_low_u16x8(v), 16);
      hi[r] = wasm_i32x4_shl(wasm_u32x4_extend_high_u16x8(v), 16);
    }
    for (int t = 0; t < TB; t++) {
      const v128_t xl = wasm_v128_load(x[t] + k), xh = wasm_v128_load(x[t] + k + 4);
      for (int r = 0; r < RB; r++)
        acc[t][r] = wasm_f32x4_add(acc[t][r], wasm_f32x4_add(wasm_f32x4_mul(lo[r], xl), wasm_f32x4_mul(hi[r], xh)));
    }
  }
}

// Token tile TB for the full tiles, then the last tokens one at a time (the same arithmetic).
template <int TB>
static void bf16_rows_tokens(const uint16_t* const* wr, int rows, const float* x, int t0, int K, int N, int n0, float* y) {
  const int K8 = K & ~7;
  v128_t acc[TB][4];
  const float* xt[TB];
  for (int t = 0; t < TB; t++) xt[t] = x + (size_t)(t0 + t) * K;
  bf16_tile<4, TB>(wr, xt, K8, acc);
  for (int t = 0; t < TB; t++)
    for (int r = 0; r < rows; r++) {
      float s = lanes_sum(acc[t][r]);
      for (int k = K8; k < K; k++) s += bf16_value(wr[r][k]) * xt[t][k];
      y[(size_t)(t0 + t) * N + n0 + r] = s;
    }
}

template <int TB>
static void bf16_gemm_f32_tiled(const wmat_view* w, const float* x, int T, float* y) {
  const int N = w->rows, K = w->cols;
  for (int n0 = 0; n0 < N; n0 += 4) {
    const int rows = N - n0 < 4 ? N - n0 : 4;
    // Rows past the end repeat row n0 (computed, never stored): one code path for every tile.
    const uint16_t* wr[4];
    for (int r = 0; r < 4; r++) wr[r] = w->bf16 + (size_t)(n0 + (r < rows ? r : 0)) * K;
    int t0 = 0;
    for (; t0 + TB <= T; t0 += TB) bf16_rows_tokens<TB>(wr, rows, x, t0, K, N, n0, y);
    for (; t0 < T; t0++) bf16_rows_tokens<1>(wr, rows, x, t0, K, N, n0, y);
  }
}

void bf16_gemm_f32__wasmsimd_4x8_t1(const wmat_view* w, const float* x, int T, float* y) { bf16_gemm_f32_tiled<1>(w, x, T, y); }
void bf16_gemm_f32__wasmsimd_4x8_t2(const wmat_view* w, const float* x, int T, float* y) { bf16_gemm_f32_tiled<2>(w, x, T, y); }
void bf16_gemm_f32__wasmsimd_4x8_t4(const wmat_view* w, const float* x, int T, float* y) { bf16_gemm_f32_tiled<4>(w, x, T, y); }

// [SECTION] group-wise int8
// int8 -> f32, exactly: |v| < 2^22, so adding the bits of 1.5 * 2^23 and subtracting it as a
// float converts without f32x4.convert (see kernels_wasmsimd.cpp for why).
static inline v128_t small_i32x4_to_f32x4(v128_t i) {
  return wasm_f32x4_sub(wasm_i32x4_add(i, wasm_i32x4_splat(0x4B400000)), wasm_f32x4_splat(12582912.0f));
}

template <int TB>
static inline void q8g_row_tokens(const int8_t* wq, const float* scales, int G, const float* const* x, float* out) {
  v128_t acc[TB];
  for (int t = 0; t < TB; t++) acc[t] = wasm_f32x4_splat(0.0f);
  for (int g = 0; g < G; g++) {
    v128_t wf[8];
    for (int h = 0; h < 4; h++) {
      const v128_t w16 = wasm_i16x8_load8x8(wq + g * WMAT_GROUP + 8 * h);
      wf[2 * h] = small_i32x4_to_f32x4(wasm_i32x4_extend_low_i16x8(w16));
      wf[2 * h + 1] = small_i32x4_to_f32x4(wasm_i32x4_extend_high_i16x8(w16));
    }
    const v128_t s = wasm_f32x4_splat(scales[g]);
    for (int t = 0; t < TB; t++) {
      const float* xg = x[t] + g * WMAT_GROUP;
      v128_t d = wasm_f32x4_mul(wf[0], wasm_v128_load(xg));
      for (int j = 1; j < 8; j++) d = wasm_f32x4_add(d, wasm_f32x4_mul(wf[j], wasm_v128_load(xg + 4 * j)));
      acc[t] = wasm_f32x4_add(acc[t], wasm_f32x4_mul(d, s));
    }
  }
  for (int t = 0; t < TB; t++) out[t] = lanes_sum(acc[t]);
}

void q8g_gemm_f32__wasmsimd_1x32_t2(const wmat_view* w, const float* x, int T, float* y) {
  const int N = w->rows, K = w->cols, G = K / WMAT_GROUP;
  for (int n = 0; n < N; n++) {
    const int8_t* wq = w->q + (size_t)n * K;
    const float* sc = w->scales + (size_t)n * G;
    int t = 0;
    for (; t + 2 <= T; t += 2) {
      const float* xt[2] = {x + (size_t)t * K, x + (size_t)(t + 1) * K};
      float out[2];
      q8g_row_tokens<2>(wq, sc, G, xt, out);
      y[(size_t)t * N + n] = out[0];
      y[(size_t)(t + 1) * N + n] = out[1];
    }
    for (; t < T; t++) {
      const float* xt[1] = {x + (size_t)t * K};
      q8g_row_tokens<1>(wq, sc, G, xt, &y[(size_t)t * N + n]);
    }
  }
}

// [SECTION] registry
const wgemm_variant wgemm_variants[] = {
    {"bf16_gemm_f32__wasmsimd_4x8_t2", WMAT_BF16, bf16_gemm_f32__wasmsimd_4x8_t2, 4, 2, false},
    {"bf16_gemm_f32__wasmsimd_4x8_t1", WMAT_BF16, bf16_gemm_f32__wasmsimd_4x8_t1, 4, 1, false},
    {"bf16_gemm_f32__wasmsimd_4x8_t4", WMAT_BF16, bf16_gemm_f32__wasmsimd_4x8_t4, 4, 4, false},
    {"bf16_gemm_f32_ref", WMAT_BF16, bf16_gemm_f32_ref, 1, 1, true},
    {"q8g_gemm_f32__wasmsimd_1x32_t2", WMAT_Q8G, q8g_gemm_f32__wasmsimd_1x32_t2, 1, 2, false},
    {"q8g_gemm_f32_ref", WMAT_Q8G, q8g_gemm_f32_ref, 1, 1, true},
};
const int wgemm_variant_count = sizeof(wgemm_variants) / sizeof(wgemm_variants[0]);

wgemm_fn wgemm_default(wmat_format format) {
  for (int i = 0; i < wgemm_variant_count; i++)
    if (wgemm_variants[i].format == format && !wgemm_variants[i].is_ref) return wgemm_variants[i].fn;
  return nullptr;
}
