// The SwiGLU layer on q8 weights: y = W_down (silu(W_gate x) * W_up x), T tokens at once,
// composed from the op variants in kernels_registry.cpp. This is the entry point the app calls.
// The whole model's MLP (swiglu_mlp, core/model/forward.cpp) is the same formula over its own
// matrix type (wmatrix, through wgemm) with units switched off: it shares the elementwise
// f32_vswiglu kernels, not this composition.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

#include "kernels.h"

static size_t swiglu_align16(size_t b) { return (b + 15) & ~(size_t)15; }

const swiglu_layer_variant* swiglu_layer_variant_find(const char* name) {
  for (int i = 0; i < swiglu_layer_variant_count; i++)
    if (std::strcmp(swiglu_layer_variants[i].name, name) == 0) return &swiglu_layer_variants[i];
  return nullptr;
}

static const swiglu_layer_variant* swiglu_first_variant(swiglu_act act, bool relaxed) {
  for (int i = 0; i < swiglu_layer_variant_count; i++) {
    const swiglu_layer_variant* v = &swiglu_layer_variants[i];
    if (v->act == act && !v->is_ref && (std::strstr(v->name, "wasmrelaxed") != nullptr) == relaxed) return v;
  }
  return nullptr;
}

// One call of v's gemm on the calibration matrix, in ms.
static double swiglu_time_q16_gemm(const swiglu_layer_variant* v, const q8_matrix_view* w, const int16_t* xq,
                                   const float* xs, int T, float* y, int16_t* work) {
  const auto t0 = std::chrono::steady_clock::now();
  v->gemm_q16(w, xq, xs, T, y, work);
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// The q16 default is measured once, not assumed: relaxed SIMD's dot product is one instruction
// where the engine uses AVX-VNNI (Chromium on recent x86) or ARM's sdot, but five in Node 20's V8,
// where SIMD128's kernels are twice as fast. Token counts are timed apart, as the kernels change
// shape with them: one token (one pass over the weights, the row sums an extra third of the dot
// products), a few, and 16 or more (where w16i widens its weights once): picks[i] serves
// T <= kPickT[i]. Every q16 variant gives the same bits (exact integer sums), so the choice changes
// the speed only, never a result.
enum { kPicks = 3 };
static const int kPickT[kPicks] = {1, 15, 1 << 30}, kPickTimedT[kPicks] = {1, 6, 32};
struct swiglu_q16_picks {
  const swiglu_layer_variant* v[kPicks];
};
// The calibration matrix: 512 x 1024 (512 KB, cache-resident); a few ms once.
static swiglu_q16_picks swiglu_pick_q16() {
  const swiglu_layer_variant* plain = swiglu_first_variant(SWIGLU_ACT_Q16, false);
  const swiglu_layer_variant* relaxed = swiglu_first_variant(SWIGLU_ACT_Q16, true);
  const swiglu_layer_variant* only = relaxed ? relaxed : plain;
  if (!relaxed || !plain) return {{only, only, only}};
  const int N = 512, K = 1024, Tmax = 32;
  std::vector<float> wf((size_t)N * K), xf((size_t)Tmax * K), y((size_t)Tmax * N), xs(Tmax);
  uint32_t r = 12345u;  // any values: the timing does not depend on them
  for (float& v : wf) v = (float)((r = r * 1664525u + 1013904223u) >> 8) / 16777216.0f - 0.5f;
  for (float& v : xf) v = (float)((r = r * 1664525u + 1013904223u) >> 8) / 16777216.0f - 0.5f;
  q8_matrix_owned m;
  if (q8_matrix_owned_init(&m, wf.data(), N, K) != Q8_OK) return {{plain, plain, plain}};
  std::vector<int16_t> xq((size_t)Tmax * m.view.cols_padded), work(q8_gemm_q16_work_elems(Tmax, m.view.cols_padded));
  plain->quant(xf.data(), Tmax, K, m.view.cols_padded, xq.data(), xs.data());
  swiglu_q16_picks picks;
  for (int i = 0; i < kPicks; i++) {
    // Best of 9 calls each, the two alternating, so a busy machine slows both alike.
    const int T = kPickTimedT[i];
    double tp = 1e30, tr = 1e30;
    for (int r = 0; r < 9; r++) {
      tp = std::min(tp, swiglu_time_q16_gemm(plain, &m.view, xq.data(), xs.data(), T, y.data(), work.data()));
      tr = std::min(tr, swiglu_time_q16_gemm(relaxed, &m.view, xq.data(), xs.data(), T, y.data(), work.data()));
    }
    picks.v[i] = tr < tp ? relaxed : plain;
  }
  q8_matrix_owned_free(&m);
  return picks;
}

const swiglu_layer_variant* swiglu_layer_variant_for(swiglu_act act, int T) {
  if (act == SWIGLU_ACT_Q16) {
    static const swiglu_q16_picks picks = swiglu_pick_q16();
    int i = 0;
    while (T > kPickT[i]) i++;
    return picks.v[i];
  }
  return swiglu_first_variant(act, false);
}

const swiglu_layer_variant* swiglu_layer_variant_default(swiglu_act act) { return swiglu_layer_variant_for(act, 6); }

static int swiglu_max_kp(const swiglu_q8_layer* L) {
  return L->gate.cols_padded > L->down.cols_padded ? L->gate.cols_padded : L->down.cols_padded;
}

// Scratch: g (T, inter) f32 [h overwrites g], u (T, inter) f32, xq (T, max Kp) int16, xs (T) f32,
// and the q16 gemm's work buffer.
size_t swiglu_layer_scratch_bytes(const swiglu_q8_layer* L, int T) {
  const size_t kp = (size_t)swiglu_max_kp(L);
  return 2 * swiglu_align16(sizeof(float) * (size_t)T * L->inter) + swiglu_align16(sizeof(int16_t) * (size_t)T * kp) +
         swiglu_align16(sizeof(float) * (size_t)T) + swiglu_align16(sizeof(int16_t) * q8_gemm_q16_work_elems(T, (int)kp));
}

void swiglu_layer_forward_variant(const swiglu_layer_variant* v, const swiglu_q8_layer* L, const float* x /*[T, hidden]*/,
                                  int T, float* y /*[T, hidden]*/, float* silu_gate /*[T, inter] or null*/,
                                  void* scratch) {
  const size_t n_inter = (size_t)T * L->inter;
  const size_t kp = (size_t)swiglu_max_kp(L);
  char* s = (char*)scratch;
  float* g = (float*)s;                                   // (T, inter), then h
  float* u = (float*)(s + swiglu_align16(sizeof(float) * n_inter));  // (T, inter)
  int16_t* xq = (int16_t*)(s + 2 * swiglu_align16(sizeof(float) * n_inter));  // (T, Kp)
  float* xs = (float*)((char*)xq + swiglu_align16(sizeof(int16_t) * (size_t)T * kp));  // (T)
  int16_t* work = (int16_t*)((char*)xs + swiglu_align16(sizeof(float) * (size_t)T));  // q16 gemm scratch

  if (v->act == SWIGLU_ACT_F32) {
    v->gemm_f32(&L->gate, x, T, g);
    v->gemm_f32(&L->up, x, T, u);
    v->swiglu(n_inter, g, u, g, silu_gate);
    v->gemm_f32(&L->down, g, T, y);
  } else {
    v->quant(x, T, L->hidden, L->gate.cols_padded, xq, xs);
    v->gemm_q16(&L->gate, xq, xs, T, g, work);
    v->gemm_q16(&L->up, xq, xs, T, u, work);
    v->swiglu(n_inter, g, u, g, silu_gate);
    v->quant(g, T, L->inter, L->down.cols_padded, xq, xs);
    v->gemm_q16(&L->down, xq, xs, T, y, work);
  }
}

void swiglu_layer_forward(const swiglu_q8_layer* L, swiglu_act act, const float* x, int T, float* y, float* silu_gate,
                          void* scratch) {
  swiglu_layer_forward_variant(swiglu_layer_variant_for(act, T), L, x, T, y, silu_gate, scratch);
}
