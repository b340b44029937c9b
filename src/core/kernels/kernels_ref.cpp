// Scalar references for the SwiGLU kernels: plain loops, no intrinsics, double accumulation where
// rounding matters. Every wasm SIMD kernel in kernels_wasmsimd.cpp is tested against these.
// Built with auto-vectorization off (cmake/kernels.cmake) so "scalar" in the benchmark means scalar.
#include <cmath>
#include <cstring>

#include "kernels.h"

// [SECTION] q8 x f32 gemm
void q8_gemm_f32_ref(const q8_matrix_view* w, const float* x /*[T, K]*/, int T, float* y /*[T, N]*/) {
  const int N = w->rows, K = w->cols;
  for (int t = 0; t < T; t++)
    for (int n = 0; n < N; n++) {
      double acc = 0.0;
      for (int k = 0; k < K; k++) acc += (double)q8_matrix_at(w, n, k) * (double)x[(size_t)t * K + k];
      y[(size_t)t * N + n] = (float)(acc * (double)w->scales[n]);
    }
}

// A plain scalar kernel that walks the packed panels (what a browser without SIMD would run):
// f32 accumulation, one accumulator per row, columns in order.
void q8_gemm_f32__scalar_4x1(const q8_matrix_view* w, const float* x, int T, float* y) {
  const int N = w->rows, K = w->cols, Kp = w->cols_padded;
  for (int p = 0; p < w->rows_padded; p += Q8_PANEL_ROWS) {
    const int8_t* panel = w->weights + (size_t)p * Kp;
    for (int t = 0; t < T; t++) {
      const float* xt = x + (size_t)t * K;
      float acc[Q8_PANEL_ROWS] = {0.0f, 0.0f, 0.0f, 0.0f};
      for (int k = 0; k < K; k++) {
        const int8_t* blk = panel + (size_t)(k / Q8_PANEL_COLS) * (Q8_PANEL_ROWS * Q8_PANEL_COLS) + k % Q8_PANEL_COLS;
        for (int r = 0; r < Q8_PANEL_ROWS; r++) acc[r] += (float)blk[r * Q8_PANEL_COLS] * xt[k];
      }
      for (int r = 0; r < Q8_PANEL_ROWS && p + r < N; r++) y[(size_t)t * N + p + r] = acc[r] * w->scales[p + r];
    }
  }
}

// [SECTION] dynamic int16 activation quantization
int f32_qs16_qmax(int Kp) {
  const long long q = 2147483647LL / (128LL * (long long)(Kp > 0 ? Kp : 1));
  return q > kQs16DigitMax ? kQs16DigitMax : (q < 1 ? 1 : (int)q);
}

// The SIMD twin must produce the same bits: same f32 operations in the same order.
void f32_qs16_ref(const float* x, int T, int K, int Kp, int16_t* xq /*[T, Kp]*/, float* xs /*[T]*/) {
  const float qmax = (float)f32_qs16_qmax(Kp);
  for (int t = 0; t < T; t++) {
    const float* xt = x + (size_t)t * K;
    int16_t* qt = xq + (size_t)t * Kp;
    float amax = 0.0f;
    for (int k = 0; k < K; k++) amax = std::fmax(amax, std::fabs(xt[k]));
    if (!(amax > 0.0f) || std::isinf(amax)) {  // all zero, or unusable input: quantize to zero
      std::memset(qt, 0, sizeof(int16_t) * Kp);
      xs[t] = 0.0f;
      continue;
    }
    const float inv = qmax / amax;
    xs[t] = amax / qmax;
    for (int k = 0; k < K; k++) qt[k] = (int16_t)std::nearbyint(xt[k] * inv);
    for (int k = K; k < Kp; k++) qt[k] = 0;
  }
}

// [SECTION] q8 x q16 gemm: exact integer sums, then ((float)acc * scale[n]) * xs[t]
// w16i interleaves T * Kp int16; the relaxed kernels lay out two 16-byte digit vectors per token
// per 8 columns (4 bytes per activation, twice that).
size_t q8_gemm_q16_work_elems(int T, int Kp) { return 2 * (size_t)T * (size_t)Kp; }

void q8_gemm_q16_ref(const q8_matrix_view* w, const int16_t* xq /*[T, Kp]*/, const float* xs, int T, float* y,
                     int16_t* /*work*/) {
  const int N = w->rows, Kp = w->cols_padded;
  for (int t = 0; t < T; t++)
    for (int n = 0; n < N; n++) {
      long long acc = 0;
      for (int k = 0; k < w->cols; k++) acc += (long long)q8_matrix_at(w, n, k) * xq[(size_t)t * Kp + k];
      y[(size_t)t * N + n] = ((float)(int32_t)acc * w->scales[n]) * xs[t];
    }
}

// [SECTION] SiLU and the gated product
void f32_vsilu_ref(size_t n, const float* z, float* y) {
  for (size_t i = 0; i < n; i++) {
    const double v = z[i], e = std::exp(-v);
    y[i] = (float)(std::isinf(e) ? -0.0 : v / (1.0 + e));  // z -> -inf: the limit is -0, not -inf/inf
  }
}

void f32_vswiglu_ref(size_t n, const float* g, const float* u, float* h, float* silu_g) {
  for (size_t i = 0; i < n; i++) {
    const double v = g[i], e = std::exp(-v);
    const double s = std::isinf(e) ? -0.0 : v / (1.0 + e);
    if (silu_g) silu_g[i] = (float)s;
    h[i] = (float)(s * (double)u[i]);
  }
}

// [SECTION] layer reference in double
void swiglu_layer_ref_f64(const float* wg, const float* wu, const float* wd, int hidden, int inter, const float* x,
                          int T, double* y) {
  double* h = new double[(size_t)inter];
  for (int t = 0; t < T; t++) {
    const float* xt = x + (size_t)t * hidden;
    for (int i = 0; i < inter; i++) {
      double g = 0.0, u = 0.0;
      for (int k = 0; k < hidden; k++) {
        g += (double)wg[(size_t)i * hidden + k] * xt[k];
        u += (double)wu[(size_t)i * hidden + k] * xt[k];
      }
      h[i] = g / (1.0 + std::exp(-g)) * u;
    }
    for (int o = 0; o < hidden; o++) {
      double acc = 0.0;
      for (int i = 0; i < inter; i++) acc += (double)wd[(size_t)o * inter + i] * h[i];
      y[(size_t)t * hidden + o] = acc;
    }
  }
  delete[] h;
}
