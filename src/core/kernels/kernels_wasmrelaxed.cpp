// Relaxed-SIMD twins of the q16 gemm (docs/kernels.md): the same exact integer sums as
// q8_gemm_q16_ref, so the same bits, from i32x4.relaxed_dot_i8x16_i7x16_add_s, which multiplies 16
// int8 weights by 16 values in 0..127 and adds them in fours: one instruction (AVX-VNNI's vpdpbusd,
// ARM's sdot) for 16 products where SIMD128 needs a widening load, a pmaddwd and an add per 8.
//
// Activations are int16 with |xq| <= 8191 (f32_qs16_qmax caps them there), so u = xq + 8192 is in
// 1..16383 and splits into two 7-bit digits, hi = u >> 7 and lo = u & 127, both valid second
// operands. Per row n:
//   sum_k w[k] xq[k] = 128 * sum_k w[k] hi[k] + sum_k w[k] lo[k] - 8192 * sum_k w[k]
// (the row sums come from the same instruction with b = 1). The terms may wrap in int32; the sum
// fits (|sum| <= 127 * qmax * Kp < 2^31), and wrapping adds are exact modulo 2^32, so it is exact.
//
// Layout: the q8 panel's 32-byte block holds rows r..r+3 x 8 columns, row after row, so one v128
// load is two rows x 8 columns; against the 8 activations' digits written twice ([d0..d7, d0..d7])
// the instruction gives [row r cols 0-3, row r cols 4-7, row r+1 cols 0-3, row r+1 cols 4-7]. No
// new weight layout: the pack's panels are read as they are. The digits are laid out once per call
// in the caller's work buffer: for each tile of TB tokens, for each block, for each token of the
// tile, 16 bytes of hi then 16 of lo, so the inner loop walks one pointer with constant offsets.
#include "kernels.h"

#if SWIGLU_HAVE_RELAXED_SIMD
#include "simd128.h"

// [SECTION] digits: xq (T, Kp) -> work, tiles of TB tokens then single tokens (see above)
static void relaxed_digits(const int16_t* xq, int T, int Kp, int TB, uint8_t* out) {
  const int nblocks = Kp / 8, tfull = T / TB * TB;
  const v128_t bias = wasm_i16x8_splat(8192), lo7 = wasm_i16x8_splat(127);
  for (int t = 0; t < T; t++) {
    const int tb = t < tfull ? TB : 1;                  // this token's tile size
    const int t0 = t < tfull ? t - t % TB : t;          // its tile's first token
    uint8_t* base = out + (size_t)t0 * nblocks * 32 + (size_t)(t - t0) * 32;
    for (int b = 0; b < nblocks; b++) {
      const v128_t u = wasm_i16x8_add(wasm_v128_load(xq + (size_t)t * Kp + 8 * b), bias);
      const v128_t hi = wasm_u16x8_shr(u, 7), lo = wasm_v128_and(u, lo7);
      // [hi0..hi7, hi0..hi7] and the same for lo: narrow each i16x8 with itself.
      uint8_t* dst = base + (size_t)b * tb * 32;
      wasm_v128_store(dst, wasm_u8x16_narrow_i16x8(hi, hi));
      wasm_v128_store(dst + 16, wasm_u8x16_narrow_i16x8(lo, lo));
    }
  }
}

// 2 x (row pair) accumulators per digit -> the 4 rows' exact sums.
static inline v128_t relaxed_rows(v128_t hi01, v128_t hi23, v128_t lo01, v128_t lo23, v128_t rs01, v128_t rs23) {
  const v128_t a = wasm_i32x4_sub(wasm_i32x4_add(wasm_i32x4_shl(hi01, 7), lo01), wasm_i32x4_shl(rs01, 13));
  const v128_t b = wasm_i32x4_sub(wasm_i32x4_add(wasm_i32x4_shl(hi23, 7), lo23), wasm_i32x4_shl(rs23, 13));
  return wasm_i32x4_add(wasm_i32x4_shuffle(a, b, 0, 2, 4, 6), wasm_i32x4_shuffle(a, b, 1, 3, 5, 7));
}

static inline void relaxed_store(float* y, int N, int p, v128_t isum, const float* scales, float xs) {
  const int nvalid = N - p < 4 ? N - p : 4;
  const v128_t v = wasm_f32x4_mul(wasm_f32x4_mul(wasm_f32x4_convert_i32x4(isum), wasm_v128_load(scales + p)), wasm_f32x4_splat(xs));
  if (nvalid == 4) {
    wasm_v128_store(y + p, v);
  } else {
    float tmp[4];
    wasm_v128_store(tmp, v);
    for (int i = 0; i < nvalid; i++) y[p + i] = tmp[i];
  }
}

// [SECTION] the gemm: per 4-row panel, tiles of TB tokens; the panel's first tile also takes the
// row sums (RS), so at T = 1 the panel is read once. 4 accumulators per token (hi and lo for rows
// 0-1 and 2-3): TB = 2 keeps 8 + 2 row sums + 2 weights + digits within V8's 15 xmm registers.
template <int TB, bool RS>
static inline void relaxed_tile(const int8_t* panel, int nblocks, const uint8_t* xd, v128_t (*acc)[4], v128_t* rs) {
  for (int j = 0; j < TB; j++) acc[j][0] = acc[j][1] = acc[j][2] = acc[j][3] = wasm_i32x4_splat(0);
  const v128_t ones = wasm_i8x16_splat(1);
  v128_t rs01 = wasm_i32x4_splat(0), rs23 = rs01;
  const int8_t* wb = panel;
  for (int b = 0; b < nblocks; b++, wb += 32, xd += 32 * TB) {
    const v128_t w01 = wasm_v128_load(wb), w23 = wasm_v128_load(wb + 16);
    if (RS) {
      rs01 = swiglu_i32x4_relaxed_dot_i8x16_i7x16_add(w01, ones, rs01);
      rs23 = swiglu_i32x4_relaxed_dot_i8x16_i7x16_add(w23, ones, rs23);
    }
    for (int j = 0; j < TB; j++) {
      const v128_t hi = wasm_v128_load(xd + 32 * j), lo = wasm_v128_load(xd + 32 * j + 16);
      acc[j][0] = swiglu_i32x4_relaxed_dot_i8x16_i7x16_add(w01, hi, acc[j][0]);
      acc[j][1] = swiglu_i32x4_relaxed_dot_i8x16_i7x16_add(w23, hi, acc[j][1]);
      acc[j][2] = swiglu_i32x4_relaxed_dot_i8x16_i7x16_add(w01, lo, acc[j][2]);
      acc[j][3] = swiglu_i32x4_relaxed_dot_i8x16_i7x16_add(w23, lo, acc[j][3]);
    }
  }
  if (RS) rs[0] = rs01, rs[1] = rs23;
}

template <int TB>
static void q16_relaxed(const q8_matrix_view* w, const int16_t* xq, const float* xs, int T, float* y, int16_t* work) {
  const int N = w->rows, Kp = w->cols_padded, nblocks = Kp / 8, tfull = T / TB * TB;
  uint8_t* xd = (uint8_t*)work;  // T * Kp * 4 bytes
  relaxed_digits(xq, T, Kp, TB, xd);
  for (int p = 0; p < w->rows_padded; p += 4) {
    const int8_t* panel = w->weights + (size_t)p * Kp;
    v128_t rs[2];
    for (int t = 0; t < T;) {
      const int tb = t < tfull ? TB : 1;
      v128_t acc[TB][4];
      const uint8_t* xt = xd + (size_t)t * nblocks * 32;
      if (tb == TB && t == 0) relaxed_tile<TB, true>(panel, nblocks, xt, acc, rs);
      else if (tb == TB) relaxed_tile<TB, false>(panel, nblocks, xt, acc, rs);
      else if (t == 0) relaxed_tile<1, true>(panel, nblocks, xt, acc, rs);
      else relaxed_tile<1, false>(panel, nblocks, xt, acc, rs);
      for (int j = 0; j < tb; j++)
        relaxed_store(y + (size_t)(t + j) * N, N, p, relaxed_rows(acc[j][0], acc[j][1], acc[j][2], acc[j][3], rs[0], rs[1]),
                      w->scales, xs[t + j]);
      t += tb;
    }
  }
}

void q8_gemm_q16__wasmrelaxed_dot2_4x8_t1(const q8_matrix_view* w, const int16_t* xq, const float* xs, int T, float* y,
                                          int16_t* work) {
  q16_relaxed<1>(w, xq, xs, T, y, work);
}
void q8_gemm_q16__wasmrelaxed_dot2_4x8_t2(const q8_matrix_view* w, const int16_t* xq, const float* xs, int T, float* y,
                                          int16_t* work) {
  q16_relaxed<2>(w, xq, xs, T, y, work);
}
#endif
