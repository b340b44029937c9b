// wasm SIMD128 kernels for the SwiGLU layer on q8 weights (natively through SIMDe, see simd128.h).
// Each has a scalar twin in kernels_ref.cpp and an entry in kernels_registry.cpp.
//
// Panel walk (layout in q8_format.h): for 4 output rows, one sequential stream of 32-byte blocks
// (4 rows x 8 int8 columns). wasm_i16x8_load8x8 loads 8 int8 and sign-extends them to i16x8 in
// one instruction. Token tiles (_t2, _t4, w16_) reuse each loaded weight block for several tokens;
// in the f32 kernels every token's accumulators see the same instructions in the same order as
// with _t1, and the q16 kernels' integer sums are exact, so a token's output is bit-identical
// whatever the batch (tested in tests/kernels/).
// Small templates over the token tile keep the _t1/_t2/_t4 twins one piece of code (on purpose,
// instead of the plain-loop style elsewhere): the compiler fully unrolls the token loop.
#include <cmath>
#include <cstring>

#include "kernels.h"
#include "simd128.h"

// [SECTION] helpers
// 4 row accumulators (one v128 each, 4 partial sums) -> one v128 of the 4 row sums.
// Row r's sum is (a_r[0] + a_r[2]) + (a_r[1] + a_r[3]): a fixed order, the same for every token.
static inline v128_t hsum4_f32(v128_t a0, v128_t a1, v128_t a2, v128_t a3) {
  const v128_t s01 = wasm_f32x4_add(wasm_i32x4_shuffle(a0, a1, 0, 4, 1, 5), wasm_i32x4_shuffle(a0, a1, 2, 6, 3, 7));
  const v128_t s23 = wasm_f32x4_add(wasm_i32x4_shuffle(a2, a3, 0, 4, 1, 5), wasm_i32x4_shuffle(a2, a3, 2, 6, 3, 7));
  return wasm_f32x4_add(wasm_i32x4_shuffle(s01, s23, 0, 1, 4, 5), wasm_i32x4_shuffle(s01, s23, 2, 3, 6, 7));
}
static inline v128_t hsum4_i32(v128_t a0, v128_t a1, v128_t a2, v128_t a3) {
  const v128_t s01 = wasm_i32x4_add(wasm_i32x4_shuffle(a0, a1, 0, 4, 1, 5), wasm_i32x4_shuffle(a0, a1, 2, 6, 3, 7));
  const v128_t s23 = wasm_i32x4_add(wasm_i32x4_shuffle(a2, a3, 0, 4, 1, 5), wasm_i32x4_shuffle(a2, a3, 2, 6, 3, 7));
  return wasm_i32x4_add(wasm_i32x4_shuffle(s01, s23, 0, 1, 4, 5), wasm_i32x4_shuffle(s01, s23, 2, 3, 6, 7));
}
// Store the first `nvalid` (1..4) lanes of v at y.
static inline void store_rows(float* y, v128_t v, int nvalid) {
  if (nvalid == 4) {
    wasm_v128_store(y, v);
  } else {
    float tmp[4];
    wasm_v128_store(tmp, v);
    for (int i = 0; i < nvalid; i++) y[i] = tmp[i];
  }
}

// The q16 epilogue: y[p..p+3] = (f32(isum) * scale[p..p+3]) * xs, for the valid rows of the panel.
static inline void q16_store_panel(float* y, int N, int p, v128_t isum, const float* scales, float xs) {
  const int nvalid = N - p < 4 ? N - p : 4;
  store_rows(y + p, wasm_f32x4_mul(wasm_f32x4_mul(wasm_f32x4_convert_i32x4(isum), wasm_v128_load(scales + p)),
                                   wasm_f32x4_splat(xs)), nvalid);
}

// [SECTION] q8 x f32 gemm
// int -> f32 for |i| < 2^22, exactly: add the bits of 1.5 * 2^23, subtract 1.5 * 2^23 as a float.
// Not f32x4.convert_i32x4_s on purpose: clang 14 folds extend_low_i16x8 + convert into a
// <4 x i16> sitofp that the wasm backend scalarizes (8 extract_lane + 8 f32.convert per block),
// which made this kernel as slow as scalar code.
static inline v128_t small_i32x4_to_f32x4(v128_t i) {
  return wasm_f32x4_sub(wasm_i32x4_add(i, wasm_i32x4_splat(0x4B400000)), wasm_f32x4_splat(12582912.0f));
}

template <int TB>
static inline void q8_gemm_f32_block(const int8_t* wb, const float* const* xp, v128_t (*acc)[4]) {
  for (int r = 0; r < 4; r++) {
    const v128_t w16 = wasm_i16x8_load8x8(wb + 8 * r);
    const v128_t wlo = small_i32x4_to_f32x4(wasm_i32x4_extend_low_i16x8(w16));
    const v128_t whi = small_i32x4_to_f32x4(wasm_i32x4_extend_high_i16x8(w16));
    for (int t = 0; t < TB; t++) {
      acc[t][r] = wasm_f32x4_add(acc[t][r], wasm_f32x4_mul(wlo, wasm_v128_load(xp[t])));
      acc[t][r] = wasm_f32x4_add(acc[t][r], wasm_f32x4_mul(whi, wasm_v128_load(xp[t] + 4)));
    }
  }
}

template <int TB>
static void q8_gemm_f32_wasmsimd(const q8_matrix_view* w, const float* x /*[T, K]*/, int T, float* y /*[T, N]*/) {
  const int N = w->rows, K = w->cols, Kp = w->cols_padded;
  const int kfull = K / 8;
  const bool has_tail = (K % 8) != 0;
  for (int p = 0; p < w->rows_padded; p += 4) {
    const int8_t* panel = w->weights + (size_t)p * Kp;
    const v128_t scale = wasm_v128_load(w->scales + p);
    const int nvalid = N - p < 4 ? N - p : 4;
    int t0 = 0;
    for (; t0 + TB <= T; t0 += TB) {
      v128_t acc[TB][4];
      const float* xp[TB];
      for (int t = 0; t < TB; t++) {
        xp[t] = x + (size_t)(t0 + t) * K;
        for (int r = 0; r < 4; r++) acc[t][r] = wasm_f32x4_splat(0.0f);
      }
      const int8_t* wb = panel;
      for (int kb = 0; kb < kfull; kb++, wb += 32) {
        q8_gemm_f32_block<TB>(wb, xp, acc);
        for (int t = 0; t < TB; t++) xp[t] += 8;
      }
      if (has_tail) {  // last partial block: zero-padded copy of each token's last columns
        float tail[TB][8];
        const float* tp[TB];
        for (int t = 0; t < TB; t++) {
          for (int k = 0; k < 8; k++) tail[t][k] = k < K % 8 ? xp[t][k] : 0.0f;
          tp[t] = tail[t];
        }
        q8_gemm_f32_block<TB>(wb, tp, acc);
      }
      for (int t = 0; t < TB; t++) {
        const v128_t s = hsum4_f32(acc[t][0], acc[t][1], acc[t][2], acc[t][3]);
        store_rows(y + (size_t)(t0 + t) * N + p, wasm_f32x4_mul(s, scale), nvalid);
      }
    }
    if (TB > 1 && t0 < T) {  // leftover tokens go one at a time: the same per-token sequence
      for (; t0 < T; t0++) {
        v128_t acc[1][4];
        const float* xp[1] = {x + (size_t)t0 * K};
        for (int r = 0; r < 4; r++) acc[0][r] = wasm_f32x4_splat(0.0f);
        const int8_t* wb = panel;
        for (int kb = 0; kb < kfull; kb++, wb += 32) {
          q8_gemm_f32_block<1>(wb, xp, acc);
          xp[0] += 8;
        }
        if (has_tail) {
          float tail[1][8];
          for (int k = 0; k < 8; k++) tail[0][k] = k < K % 8 ? xp[0][k] : 0.0f;
          const float* tp[1] = {tail[0]};
          q8_gemm_f32_block<1>(wb, tp, acc);
        }
        const v128_t s = hsum4_f32(acc[0][0], acc[0][1], acc[0][2], acc[0][3]);
        store_rows(y + (size_t)t0 * N + p, wasm_f32x4_mul(s, scale), nvalid);
      }
    }
  }
}

void q8_gemm_f32__wasmsimd_4x8_t1(const q8_matrix_view* w, const float* x, int T, float* y) {
  q8_gemm_f32_wasmsimd<1>(w, x, T, y);
}
void q8_gemm_f32__wasmsimd_4x8_t2(const q8_matrix_view* w, const float* x, int T, float* y) {
  q8_gemm_f32_wasmsimd<2>(w, x, T, y);
}

// [SECTION] q8 x q16 gemm (wasm_i32x4_dot_i16x8: 8 int16 products summed pairwise into 4 int32)
template <int TB>
static inline void q8_gemm_q16_block(const int8_t* wb, const int16_t* const* xp, v128_t (*acc)[4]) {
  const v128_t w0 = wasm_i16x8_load8x8(wb);
  const v128_t w1 = wasm_i16x8_load8x8(wb + 8);
  const v128_t w2 = wasm_i16x8_load8x8(wb + 16);
  const v128_t w3 = wasm_i16x8_load8x8(wb + 24);
  for (int t = 0; t < TB; t++) {
    const v128_t xv = wasm_v128_load(xp[t]);
    acc[t][0] = wasm_i32x4_add(acc[t][0], wasm_i32x4_dot_i16x8(w0, xv));
    acc[t][1] = wasm_i32x4_add(acc[t][1], wasm_i32x4_dot_i16x8(w1, xv));
    acc[t][2] = wasm_i32x4_add(acc[t][2], wasm_i32x4_dot_i16x8(w2, xv));
    acc[t][3] = wasm_i32x4_add(acc[t][3], wasm_i32x4_dot_i16x8(w3, xv));
  }
}

// (Unrolling this loop by 4 by hand measured slower in V8 than clang's own 2x unroll.)
template <int TB>
static inline void q8_gemm_q16_tile(const int8_t* panel, int nblocks, const int16_t* const* x, v128_t (*acc)[4]) {
  for (int t = 0; t < TB; t++)
    for (int r = 0; r < 4; r++) acc[t][r] = wasm_i32x4_splat(0);
  const int8_t* wb = panel;
  const int16_t* xp[TB];
  for (int t = 0; t < TB; t++) xp[t] = x[t];
  int kb = 0;
  for (; kb < nblocks; kb++, wb += 32) {
    q8_gemm_q16_block<TB>(wb, xp, acc);
    for (int t = 0; t < TB; t++) xp[t] += 8;
  }
}

template <int TB>
static void q8_gemm_q16_wasmsimd(const q8_matrix_view* w, const int16_t* xq /*[T, Kp]*/, const float* xs /*[T]*/,
                                 int T, float* y /*[T, N]*/) {
  const int N = w->rows, Kp = w->cols_padded, nblocks = Kp / 8;
  for (int p = 0; p < w->rows_padded; p += 4) {
    const int8_t* panel = w->weights + (size_t)p * Kp;
    int t0 = 0;
    for (; t0 + TB <= T; t0 += TB) {
      v128_t acc[TB][4];
      const int16_t* xp[TB];
      for (int t = 0; t < TB; t++) xp[t] = xq + (size_t)(t0 + t) * Kp;
      q8_gemm_q16_tile<TB>(panel, nblocks, xp, acc);
      for (int t = 0; t < TB; t++)
        q16_store_panel(y + (size_t)(t0 + t) * N, N, p, hsum4_i32(acc[t][0], acc[t][1], acc[t][2], acc[t][3]),
                        w->scales, xs[t0 + t]);
    }
    for (; t0 < T; t0++) {  // leftover tokens (integer sums: exact, any grouping gives the same bits)
      v128_t acc[1][4];
      const int16_t* xp[1] = {xq + (size_t)t0 * Kp};
      q8_gemm_q16_tile<1>(panel, nblocks, xp, acc);
      q16_store_panel(y + (size_t)t0 * N, N, p, hsum4_i32(acc[0][0], acc[0][1], acc[0][2], acc[0][3]), w->scales, xs[t0]);
    }
  }
}

void q8_gemm_q16__wasmsimd_dot_4x8_t1(const q8_matrix_view* w, const int16_t* xq, const float* xs, int T, float* y,
                                      int16_t* /*work*/) {
  q8_gemm_q16_wasmsimd<1>(w, xq, xs, T, y);
}
void q8_gemm_q16__wasmsimd_dot_4x8_t2(const q8_matrix_view* w, const int16_t* xq, const float* xs, int T, float* y,
                                      int16_t* /*work*/) {
  q8_gemm_q16_wasmsimd<2>(w, xq, xs, T, y);
}

// Many tokens: 2 rows x TB tokens per pass (the panel's rows 0-1, then rows 2-3, re-read from L1),
// so one widened weight vector feeds TB dot products while 2*TB accumulators stay in registers
// (V8 has 15 usable xmm registers: 4 rows x 3 tokens and 2 rows x 6 tokens measured slower, spilling).
template <int TB>
static inline void q8_gemm_q16_half(const int8_t* wrow, int nblocks, const int16_t* const* x, int32_t (*sums)[4], int r0) {
  v128_t acc[TB][2];
  for (int t = 0; t < TB; t++) acc[t][0] = acc[t][1] = wasm_i32x4_splat(0);
  const int8_t* wb = wrow;
  for (int kb = 0; kb < nblocks; kb++, wb += 32) {
    const v128_t w0 = wasm_i16x8_load8x8(wb);
    const v128_t w1 = wasm_i16x8_load8x8(wb + 8);
    for (int t = 0; t < TB; t++) {
      const v128_t xv = wasm_v128_load(x[t] + 8 * kb);
      acc[t][0] = wasm_i32x4_add(acc[t][0], wasm_i32x4_dot_i16x8(w0, xv));
      acc[t][1] = wasm_i32x4_add(acc[t][1], wasm_i32x4_dot_i16x8(w1, xv));
    }
  }
  for (int t = 0; t < TB; t++) {
    const v128_t s = wasm_i32x4_add(wasm_i32x4_shuffle(acc[t][0], acc[t][1], 0, 4, 1, 5),
                                    wasm_i32x4_shuffle(acc[t][0], acc[t][1], 2, 6, 3, 7));
    const v128_t s2 = wasm_i32x4_add(s, wasm_i32x4_shuffle(s, s, 2, 3, 0, 1));
    sums[t][r0] = wasm_i32x4_extract_lane(s2, 0);
    sums[t][r0 + 1] = wasm_i32x4_extract_lane(s2, 1);
  }
}

template <int TB>
static void q8_gemm_q16_wasmsimd_2x8(const q8_matrix_view* w, const int16_t* xq /*[T, Kp]*/, const float* xs /*[T]*/,
                                     int T, float* y /*[T, N]*/) {
  const int N = w->rows, Kp = w->cols_padded, nblocks = Kp / 8;
  for (int p = 0; p < w->rows_padded; p += 4) {
    const int8_t* panel = w->weights + (size_t)p * Kp;
    int t0 = 0;
    for (; t0 + TB <= T; t0 += TB) {
      const int16_t* xp[TB];
      for (int t = 0; t < TB; t++) xp[t] = xq + (size_t)(t0 + t) * Kp;
      int32_t sums[TB][4];
      q8_gemm_q16_half<TB>(panel, nblocks, xp, sums, 0);
      q8_gemm_q16_half<TB>(panel + 16, nblocks, xp, sums, 2);
      for (int t = 0; t < TB; t++) q16_store_panel(y + (size_t)(t0 + t) * N, N, p, wasm_v128_load(sums[t]), w->scales, xs[t0 + t]);
    }
    // Leftover tokens: 4x8 tiles of two, then one (exact integer sums: the same bits).
    while (t0 < T) {
      v128_t acc[2][4];
      const int16_t* xp[2] = {xq + (size_t)t0 * Kp, xq + (size_t)(t0 + 1) * Kp};
      const int nt = T - t0 >= 2 ? 2 : 1;
      if (nt == 2) q8_gemm_q16_tile<2>(panel, nblocks, xp, acc);
      else q8_gemm_q16_tile<1>(panel, nblocks, xp, acc);
      for (int t = 0; t < nt; t++)
        q16_store_panel(y + (size_t)(t0 + t) * N, N, p, hsum4_i32(acc[t][0], acc[t][1], acc[t][2], acc[t][3]),
                        w->scales, xs[t0 + t]);
      t0 += nt;
    }
  }
}

void q8_gemm_q16__wasmsimd_dot_2x8_t4(const q8_matrix_view* w, const int16_t* xq, const float* xs, int T, float* y,
                                      int16_t* /*work*/) {
  q8_gemm_q16_wasmsimd_2x8<4>(w, xq, xs, T, y);
}

// Many tokens, weights widened once: a chunk of a 4-row panel (up to 1024 columns) is
// sign-extended to int16 into an 8 KB stack buffer, then every pair of tokens reads it with plain
// loads, so the inner step is only dot + add per 8 products (the widening no longer competes for
// the SIMD ports). Chunking keeps widened weights + two tokens' activations in L1 (whole 3584-column
// panels did not fit and were slower); the per-token accumulators wait in a 4 KB stack array
// between chunks (integer sums: exact, so the chunking changes no bits). Tokens go in groups of 64.
// Below 16 tokens it runs 4x8_t2 (measured faster there: widening a chunk for a few tokens does not pay).
enum { kW16ChunkBlocks = 128, kW16TokenGroup = 64 };

void q8_gemm_q16__wasmsimd_dot_w16_4x8_t2(const q8_matrix_view* w, const int16_t* xq, const float* xs, int T, float* y,
                                          int16_t* /*work*/) {
  const int N = w->rows, Kp = w->cols_padded, nblocks = Kp / 8;
  if (T < 16) {
    q8_gemm_q16_wasmsimd<2>(w, xq, xs, T, y);
    return;
  }
  alignas(16) int16_t wide[kW16ChunkBlocks * 32];  // 4 rows x 1024 columns, int16
  v128_t accs[kW16TokenGroup][4];
  for (int p = 0; p < w->rows_padded; p += 4) {
    const int8_t* panel = w->weights + (size_t)p * Kp;
    for (int g0 = 0; g0 < T; g0 += kW16TokenGroup) {
      const int gn = T - g0 < kW16TokenGroup ? T - g0 : kW16TokenGroup;
      for (int t = 0; t < gn; t++)
        for (int r = 0; r < 4; r++) accs[t][r] = wasm_i32x4_splat(0);
      for (int c0 = 0; c0 < nblocks; c0 += kW16ChunkBlocks) {
        const int cb = nblocks - c0 < kW16ChunkBlocks ? nblocks - c0 : kW16ChunkBlocks;
        const int8_t* src = panel + (size_t)c0 * 32;
        for (int i = 0; i < cb * 32; i += 8) wasm_v128_store(wide + i, wasm_i16x8_load8x8(src + i));
        for (int t = 0; t < gn; t += 2) {
          const int nt = gn - t >= 2 ? 2 : 1;
          const int16_t* x0 = xq + (size_t)(g0 + t) * Kp + (size_t)c0 * 8;
          const int16_t* x1 = xq + (size_t)(g0 + t + nt - 1) * Kp + (size_t)c0 * 8;  // nt == 1: t again, dropped
          v128_t a00 = accs[t][0], a01 = accs[t][1], a02 = accs[t][2], a03 = accs[t][3];
          v128_t a10 = accs[t + nt - 1][0], a11 = accs[t + nt - 1][1], a12 = accs[t + nt - 1][2], a13 = accs[t + nt - 1][3];
          const int16_t* wb = wide;
          for (int kb = 0; kb < cb; kb++, wb += 32) {
            const v128_t xv0 = wasm_v128_load(x0 + 8 * kb);
            const v128_t xv1 = wasm_v128_load(x1 + 8 * kb);
            v128_t wv = wasm_v128_load(wb);
            a00 = wasm_i32x4_add(a00, wasm_i32x4_dot_i16x8(wv, xv0));
            a10 = wasm_i32x4_add(a10, wasm_i32x4_dot_i16x8(wv, xv1));
            wv = wasm_v128_load(wb + 8);
            a01 = wasm_i32x4_add(a01, wasm_i32x4_dot_i16x8(wv, xv0));
            a11 = wasm_i32x4_add(a11, wasm_i32x4_dot_i16x8(wv, xv1));
            wv = wasm_v128_load(wb + 16);
            a02 = wasm_i32x4_add(a02, wasm_i32x4_dot_i16x8(wv, xv0));
            a12 = wasm_i32x4_add(a12, wasm_i32x4_dot_i16x8(wv, xv1));
            wv = wasm_v128_load(wb + 24);
            a03 = wasm_i32x4_add(a03, wasm_i32x4_dot_i16x8(wv, xv0));
            a13 = wasm_i32x4_add(a13, wasm_i32x4_dot_i16x8(wv, xv1));
          }
          accs[t][0] = a00, accs[t][1] = a01, accs[t][2] = a02, accs[t][3] = a03;
          if (nt == 2) accs[t + 1][0] = a10, accs[t + 1][1] = a11, accs[t + 1][2] = a12, accs[t + 1][3] = a13;
        }
      }
      for (int t = 0; t < gn; t++)
        q16_store_panel(y + (size_t)(g0 + t) * N, N, p, hsum4_i32(accs[t][0], accs[t][1], accs[t][2], accs[t][3]),
                        w->scales, xs[g0 + t]);
    }
  }
}

// [SECTION] w16i: w16 with interleaved activations, two panels per pass (the default q16 gemm)

// T >= 16: as w16_4x8_t2 (chunks of panels widened to int16 once, 4 rows x 2 tokens per step), plus
//  - the activations of each tile of TB tokens interleaved once per call into
//    xi[tile][block][TB][8] (the caller's work buffer, T * Kp int16), so the inner loop walks two pointers (widened
//    weights, the tile's activations) with constant offsets. Emscripten builds with -disable-lsr, so
//    per-token row pointers cost a shift and an add per token per step; V8 then runs the step as
//    6 loads + 8 pmaddwd + 8 paddd + 2 integer ops (checked with --print-wasm-code);
//  - PP panels per pass (16 KB of widened weights), so a tile's activations, read from L2, serve PP
//    panels while in L1.
// Measured (same run, T=64): 1.04-1.07x over w16_4x8_t2; PP=2 vs PP=1 within noise (+1%).
// Bigger tiles were slower in V8 (2x5, 2x6, 4x3 and a hand 2x unroll: 0.65-0.8x, register
// pressure beyond the 11 xmm this tile uses). Below 16 tokens it runs 4x8_t2 (widening a chunk
// for a few tokens does not pay: 0.8x at T=6). Tokens beyond the last full tile go one at a time
// from xq. Integer sums: exact, so tiling and token position change no bits.
template <int TB, int RB>
static inline void w16i_step(const int16_t* wb, const int16_t* xp, v128_t (*a)[RB]) {
  v128_t xv[TB];
  for (int j = 0; j < TB; j++) xv[j] = wasm_v128_load(xp + 8 * j);
  for (int r = 0; r < RB; r++) {
    const v128_t wv = wasm_v128_load(wb + 8 * r);
    for (int j = 0; j < TB; j++) a[j][r] = wasm_i32x4_add(a[j][r], wasm_i32x4_dot_i16x8(wv, xv[j]));
  }
}

template <int TB, int RB>
static inline void w16i_tile(const int16_t* wide, int cb, const int16_t* xt, v128_t (*accs)[4]) {
  for (int r0 = 0; r0 < 4; r0 += RB) {
    v128_t a[TB][RB];
    for (int j = 0; j < TB; j++)
      for (int r = 0; r < RB; r++) a[j][r] = accs[j][r0 + r];
    const int16_t* wb = wide + 8 * r0;
    const int16_t* xp = xt;
    for (const int16_t* wend = wb + 32 * cb; wb != wend; wb += 32, xp += 8 * TB) w16i_step<TB, RB>(wb, xp, a);
    for (int j = 0; j < TB; j++)
      for (int r = 0; r < RB; r++) accs[j][r0 + r] = a[j][r];
  }
}

template <int TB, int RB, int PP>
static void q16_w16i(const q8_matrix_view* w, const int16_t* xq, const float* xs, int T, float* y, int16_t* xi) {
  const int N = w->rows, Kp = w->cols_padded, nblocks = Kp / 8;
  if (T < 16) {
    q8_gemm_q16_wasmsimd<2>(w, xq, xs, T, y);
    return;
  }
  const int ntiles = T / TB, tfull = ntiles * TB;  // xi: the caller's work buffer, tfull * Kp int16
  for (int i = 0; i < ntiles; i++)
    for (int kb = 0; kb < nblocks; kb++)
      for (int j = 0; j < TB; j++)
        wasm_v128_store(xi + (((size_t)i * nblocks + kb) * TB + j) * 8,
                        wasm_v128_load(xq + (size_t)(i * TB + j) * Kp + 8 * kb));
  alignas(16) int16_t wide[PP][kW16ChunkBlocks * 32];
  enum { G = (kW16TokenGroup / TB) * TB };
  v128_t accs[PP][G][4];
  for (int p0 = 0; p0 < w->rows_padded; p0 += 4 * PP) {
    const int np = (w->rows_padded - p0) / 4 < PP ? (w->rows_padded - p0) / 4 : PP;
    for (int g0 = 0; g0 < T; g0 += G) {
      const int gn = T - g0 < G ? T - g0 : G;
      for (int q = 0; q < np; q++)
        for (int t = 0; t < gn; t++)
          for (int r = 0; r < 4; r++) accs[q][t][r] = wasm_i32x4_splat(0);
      for (int c0 = 0; c0 < nblocks; c0 += kW16ChunkBlocks) {
        const int cb = nblocks - c0 < kW16ChunkBlocks ? nblocks - c0 : kW16ChunkBlocks;
        for (int q = 0; q < np; q++) {
          const int8_t* src = w->weights + (size_t)(p0 + 4 * q) * Kp + (size_t)c0 * 32;
          for (int i = 0; i < cb * 32; i += 8) wasm_v128_store(wide[q] + i, wasm_i16x8_load8x8(src + i));
        }
        int t = 0;
        for (; t + TB <= gn && g0 + t + TB <= tfull; t += TB) {
          const int16_t* xt = xi + (((size_t)(g0 + t) / TB * nblocks + c0) * TB) * 8;
          for (int q = 0; q < np; q++) w16i_tile<TB, RB>(wide[q], cb, xt, accs[q] + t);
        }
        for (; t < gn; t++)  // leftovers: one token, 4 rows, from xq
          for (int q = 0; q < np; q++)
            w16i_tile<1, 4>(wide[q], cb, xq + (size_t)(g0 + t) * Kp + (size_t)c0 * 8, accs[q] + t);
      }
      for (int q = 0; q < np; q++)
        for (int t = 0; t < gn; t++)
          q16_store_panel(y + (size_t)(g0 + t) * N, N, p0 + 4 * q,
                          hsum4_i32(accs[q][t][0], accs[q][t][1], accs[q][t][2], accs[q][t][3]), w->scales, xs[g0 + t]);
    }
  }
}

void q8_gemm_q16__wasmsimd_dot_w16i_4x8_t2(const q8_matrix_view* w, const int16_t* xq, const float* xs, int T, float* y, int16_t* work) {
  q16_w16i<2, 4, 2>(w, xq, xs, T, y, work);
}

// [SECTION] dynamic int16 activation quantization (bit-identical to f32_qs16_ref)
void f32_qs16__wasmsimd_u8(const float* x, int T, int K, int Kp, int16_t* xq, float* xs) {
  const float qmax = (float)f32_qs16_qmax(Kp);
  for (int t = 0; t < T; t++) {
    const float* xt = x + (size_t)t * K;
    int16_t* qt = xq + (size_t)t * Kp;
    v128_t vmax = wasm_f32x4_splat(0.0f);
    int k = 0;
    for (; k + 4 <= K; k += 4) vmax = wasm_f32x4_pmax(vmax, wasm_f32x4_abs(wasm_v128_load(xt + k)));
    float amax = std::fmax(std::fmax(wasm_f32x4_extract_lane(vmax, 0), wasm_f32x4_extract_lane(vmax, 1)),
                           std::fmax(wasm_f32x4_extract_lane(vmax, 2), wasm_f32x4_extract_lane(vmax, 3)));
    for (; k < K; k++) amax = std::fmax(amax, std::fabs(xt[k]));
    if (!(amax > 0.0f) || std::isinf(amax)) {
      std::memset(qt, 0, sizeof(int16_t) * Kp);
      xs[t] = 0.0f;
      continue;
    }
    const float inv = qmax / amax;
    xs[t] = amax / qmax;
    const v128_t vinv = wasm_f32x4_splat(inv);
    const v128_t vmagic = wasm_f32x4_splat(12582912.0f);
    k = 0;
    for (; k + 8 <= K; k += 8) {
      // round-half-even to int through the magic number 1.5 * 2^23 (exact for |v| < 2^22, and
      // the same rounding as nearbyint in the reference); cheaper than nearest + trunc_sat in V8.
      const v128_t a = wasm_i32x4_sub(wasm_f32x4_add(wasm_f32x4_mul(wasm_v128_load(xt + k), vinv), vmagic), vmagic);
      const v128_t b = wasm_i32x4_sub(wasm_f32x4_add(wasm_f32x4_mul(wasm_v128_load(xt + k + 4), vinv), vmagic), vmagic);
      wasm_v128_store(qt + k, wasm_i16x8_narrow_i32x4(a, b));
    }
    for (; k < K; k++) qt[k] = (int16_t)std::nearbyint(xt[k] * inv);
    for (; k < Kp; k++) qt[k] = 0;
  }
}

// [SECTION] SiLU
// silu(z) = z * s(z). With zn = -|z|, e = exp(zn) in (0, 1] and q = e / (1 + e) = sigmoid(-|z|):
//   z <  0: silu = z * q            (tiny, relative error of q)
//   z >= 0: silu = z - z * q        (one final rounding: <= 0.5 ulp of the result, < 1e-6 on |z| < 32)
// exp as in XNNPACK's f32-vsigmoid rr2-p5: n = round(zn / ln2) through a magic bias that also
// carries the exponent bias 127, so 2^n is the bias-added float shifted left by 23 (no float->int
// conversion: wasm's i32x4.trunc_sat is a long instruction sequence in V8); r = zn - n ln2 with ln2
// split in two ("rr2"); e = 2^n (1 + r p(r)), p of degree 4 ("p5" counting the 1). Past
// |z| = 87.3 2^n would underflow: q is forced to 0 there, so silu(z) = z for large z and -0 for
// very negative z, with no NaN for any finite input (nor for +-inf: z is clamped to +-128 before
// the product z * q, where q = 0 anyway).
// pmin/pmax, not min/max: wasm's f32x4.min/max (NaN and -0 rules) cost several x86 instructions.
static inline v128_t silu_f32x4(v128_t z) {
  const v128_t zn = wasm_v128_or(z, wasm_f32x4_splat(-0.0f));  // -|z|
  const v128_t magic = wasm_f32x4_splat(0x1.8000FEp23f);         // 1.5 * 2^23 + 127
  v128_t n = wasm_f32x4_add(wasm_f32x4_mul(zn, wasm_f32x4_splat(0x1.715476p0f)), magic);
  const v128_t s = wasm_i32x4_shl(n, 23);
  n = wasm_f32x4_sub(n, magic);
  v128_t r = wasm_f32x4_add(wasm_f32x4_mul(n, wasm_f32x4_splat(-0x1.62E400p-1f)), zn);
  r = wasm_f32x4_add(wasm_f32x4_mul(n, wasm_f32x4_splat(-0x1.7F7D1Cp-20f)), r);
  v128_t p = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_splat(0x1.0F9F9Cp-7f), r), wasm_f32x4_splat(0x1.573A1Ap-5f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(0x1.555A80p-3f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(0x1.FFFDC6p-2f));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(0x1.FFFFF6p-1f));
  const v128_t rs = wasm_f32x4_mul(r, s);
  const v128_t e = wasm_f32x4_add(wasm_f32x4_mul(rs, p), s);
  v128_t q = wasm_f32x4_div(e, wasm_f32x4_add(e, wasm_f32x4_splat(1.0f)));
  q = wasm_v128_andnot(q, wasm_f32x4_lt(zn, wasm_f32x4_splat(-0x1.5D589Ep+6f)));  // -87.33654
  const v128_t zc = wasm_f32x4_pmin(wasm_f32x4_pmax(z, wasm_f32x4_splat(-128.0f)), wasm_f32x4_splat(128.0f));
  const v128_t zq = wasm_f32x4_mul(zc, q);
  return wasm_v128_bitselect(wasm_f32x4_sub(z, zq), zq, wasm_f32x4_ge(z, wasm_f32x4_splat(0.0f)));
}

void f32_vsilu__wasmsimd_rr2_p5_div_u8(size_t n, const float* z, float* y) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const v128_t a = silu_f32x4(wasm_v128_load(z + i));
    const v128_t b = silu_f32x4(wasm_v128_load(z + i + 4));
    wasm_v128_store(y + i, a);
    wasm_v128_store(y + i + 4, b);
  }
  if (i < n) {  // tail through a padded block: same arithmetic as the body
    float buf[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (size_t j = i; j < n; j++) buf[j - i] = z[j];
    wasm_v128_store(buf, silu_f32x4(wasm_v128_load(buf)));
    wasm_v128_store(buf + 4, silu_f32x4(wasm_v128_load(buf + 4)));
    for (size_t j = i; j < n; j++) y[j] = buf[j - i];
  }
}

void f32_vswiglu__wasmsimd_rr2_p5_div_u8(size_t n, const float* g, const float* u, float* h, float* silu_g) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const v128_t s0 = silu_f32x4(wasm_v128_load(g + i));
    const v128_t s1 = silu_f32x4(wasm_v128_load(g + i + 4));
    if (silu_g) {
      wasm_v128_store(silu_g + i, s0);
      wasm_v128_store(silu_g + i + 4, s1);
    }
    wasm_v128_store(h + i, wasm_f32x4_mul(s0, wasm_v128_load(u + i)));
    wasm_v128_store(h + i + 4, wasm_f32x4_mul(s1, wasm_v128_load(u + i + 4)));
  }
  if (i < n) {
    float gb[8] = {0, 0, 0, 0, 0, 0, 0, 0}, ub[8] = {0, 0, 0, 0, 0, 0, 0, 0}, sb[8];
    for (size_t j = i; j < n; j++) {
      gb[j - i] = g[j];
      ub[j - i] = u[j];
    }
    for (int c = 0; c < 8; c += 4) {
      const v128_t s = silu_f32x4(wasm_v128_load(gb + c));
      wasm_v128_store(sb + c, s);
      wasm_v128_store(gb + c, wasm_f32x4_mul(s, wasm_v128_load(ub + c)));
    }
    for (size_t j = i; j < n; j++) {
      if (silu_g) silu_g[j] = sb[j - i];
      h[j] = gb[j - i];
    }
  }
}
