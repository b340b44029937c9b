// Scalar references of the whole model's matrix products (see wgemm.h): plain loops, double
// accumulation. Built without auto-vectorization and without FMA contraction (cmake/kernels.cmake).
#include <cmath>
#include <cstring>

#include "wgemm.h"

static inline float bf16_value(uint16_t h) {
  const uint32_t bits = (uint32_t)h << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

void bf16_gemm_f32_ref(const wmat_view* w, const float* x, int T, float* y) {
  const int N = w->rows, K = w->cols;
  for (int t = 0; t < T; t++)
    for (int n = 0; n < N; n++) {
      const uint16_t* row = w->bf16 + (size_t)n * K;
      double s = 0;
      for (int k = 0; k < K; k++) s += (double)bf16_value(row[k]) * x[(size_t)t * K + k];
      y[(size_t)t * N + n] = (float)s;
    }
}

void q8g_gemm_f32_ref(const wmat_view* w, const float* x, int T, float* y) {
  const int N = w->rows, K = w->cols, G = K / WMAT_GROUP;
  for (int t = 0; t < T; t++)
    for (int n = 0; n < N; n++) {
      double s = 0;
      for (int g = 0; g < G; g++) {
        double part = 0;
        for (int k = g * WMAT_GROUP; k < (g + 1) * WMAT_GROUP; k++) part += (double)w->q[(size_t)n * K + k] * x[(size_t)t * K + k];
        s += part * w->scales[(size_t)n * G + g];
      }
      y[(size_t)t * N + n] = (float)s;
    }
}

void q8g_quantize_rows(const float* src, int rows, int cols, int8_t* q, float* scales) {
  const int G = cols / WMAT_GROUP;
  for (int n = 0; n < rows; n++)
    for (int g = 0; g < G; g++) {
      const float* v = src + (size_t)n * cols + (size_t)g * WMAT_GROUP;
      float amax = 0;
      for (int k = 0; k < WMAT_GROUP; k++) amax = std::fmax(amax, std::fabs(v[k]));
      const float scale = amax / 127.0f;
      scales[(size_t)n * G + g] = scale;
      int8_t* out = q + (size_t)n * cols + (size_t)g * WMAT_GROUP;
      for (int k = 0; k < WMAT_GROUP; k++) out[k] = scale > 0 ? (int8_t)std::lround(v[k] / scale) : 0;
    }
}
