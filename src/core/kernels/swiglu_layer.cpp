// The SwiGLU layer on q8 weights: y = W_down (silu(W_gate x) * W_up x), T tokens at once,
// composed from the op variants in kernels_registry.cpp. This is the entry point the app calls.
#include <cstring>

#include "kernels.h"

static size_t swiglu_align16(size_t b) { return (b + 15) & ~(size_t)15; }

const swiglu_layer_variant* swiglu_layer_variant_find(const char* name) {
  for (int i = 0; i < swiglu_layer_variant_count; i++)
    if (std::strcmp(swiglu_layer_variants[i].name, name) == 0) return &swiglu_layer_variants[i];
  return nullptr;
}

const swiglu_layer_variant* swiglu_layer_variant_default(swiglu_act act) {
  for (int i = 0; i < swiglu_layer_variant_count; i++)
    if (swiglu_layer_variants[i].act == act && !swiglu_layer_variants[i].is_ref) return &swiglu_layer_variants[i];
  return nullptr;
}

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
  swiglu_layer_forward_variant(swiglu_layer_variant_default(act), L, x, T, y, silu_gate, scratch);
}
