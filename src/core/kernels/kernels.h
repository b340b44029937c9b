// SwiGLU kernels on q8 weights: y = W_down (silu(W_gate x) * W_up x), for T tokens at once.
// Qwen3.5-0.8B MLP: gate_proj, up_proj (intermediate 3584, hidden 1024), down_proj (1024, 3584).
//
// Every op has a scalar reference (`_ref`, plain loops, double accumulation where it matters)
// and wasm SIMD128 twins (`__wasmsimd_...`), listed in ONE registry per op (kernels_registry.cpp)
// that the tests, the benchmark (tools/bench/) and the dispatch (swiglu_layer_forward) all walk.
// Names follow XNNPACK: <dtype>_<op>__<isa>_<tile>, e.g. q8_gemm_f32__wasmsimd_4x8_t2.
//
// Two activation paths:
//  - f32:  int8 weights x f32 activations, f32 accumulation. Matches the double reference on the
//          dequantized weights to ~1e-6 relative. The accurate path.
//  - q16:  each token's activations are quantized on the fly to int16 (symmetric, one scale per
//          token, at most 14 bits, range chosen so the int32 sums cannot overflow), then
//          wasm_i32x4_dot_i16x8, or relaxed SIMD's 8-bit dot product on two 7-bit digits of each
//          activation. Integer sums are exact, so every q16 kernel gives the same bits; ~1e-4
//          relative error from the activation rounding. The fast path.
// Per-token determinism (both paths): a token's outputs never depend on its position in the batch
// or on the other tokens, bit for bit. Every kernel runs the same instruction sequence on each
// token's accumulators whatever T is; tokens are only grouped to reuse loaded weights.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../quant/q8_format.h"

// Relaxed-SIMD kernels (kernels_wasmrelaxed.cpp) exist natively (their x86 twin) and in wasm modules
// built with SWIGLU_RELAXED_SIMD (cmake/kernels.cmake: a second build of the module, which a host
// loads only where WebAssembly.validate accepts relaxed SIMD). A plain SIMD128 module has none.
#if !defined(__EMSCRIPTEN__) || defined(SWIGLU_RELAXED_SIMD)
#define SWIGLU_HAVE_RELAXED_SIMD 1
#else
#define SWIGLU_HAVE_RELAXED_SIMD 0
#endif

// [SECTION] op signatures
// y[t][n] = scale[n] * sum_k q[n][k] * x[t][k];  x (T, K) row-major, y (T, N) row-major.
typedef void (*q8_gemm_f32_fn)(const q8_matrix_view* w, const float* x, int T, float* y);
// Same with activations pre-quantized: xq (T, Kp) int16 zero-padded, xs (T) scales.
// work: q8_gemm_q16_work_elems(T, Kp) int16 of caller-owned scratch, for variants that re-lay the
// activations (w16i); the others ignore it. Kernels never allocate.
typedef void (*q8_gemm_q16_fn)(const q8_matrix_view* w, const int16_t* xq, const float* xs, int T, float* y, int16_t* work);
size_t q8_gemm_q16_work_elems(int T, int Kp);
// x (T, K) -> xq (T, Kp) int16 (columns K..Kp-1 zeroed), xs (T): x ~ xq * xs.
typedef void (*f32_qs16_fn)(const float* x, int T, int K, int Kp, int16_t* xq, float* xs);
// y[i] = silu(z[i]) = z / (1 + e^-z), i < n.
typedef void (*f32_vsilu_fn)(size_t n, const float* z, float* y);
// h[i] = silu(g[i]) * u[i]; also silu_g[i] = silu(g[i]) when silu_g is not null. h may alias g.
typedef void (*f32_vswiglu_fn)(size_t n, const float* g, const float* u, float* h, float* silu_g);

// [SECTION] kernels
void q8_gemm_f32_ref(const q8_matrix_view* w, const float* x, int T, float* y);  // double accumulation
void q8_gemm_f32__scalar_4x1(const q8_matrix_view* w, const float* x, int T, float* y);
void q8_gemm_f32__wasmsimd_4x8_t1(const q8_matrix_view* w, const float* x, int T, float* y);
void q8_gemm_f32__wasmsimd_4x8_t2(const q8_matrix_view* w, const float* x, int T, float* y);

void q8_gemm_q16_ref(const q8_matrix_view* w, const int16_t* xq, const float* xs, int T, float* y, int16_t* work);
void q8_gemm_q16__wasmsimd_dot_4x8_t1(const q8_matrix_view* w, const int16_t* xq, const float* xs, int T, float* y, int16_t* work);
void q8_gemm_q16__wasmsimd_dot_4x8_t2(const q8_matrix_view* w, const int16_t* xq, const float* xs, int T, float* y, int16_t* work);
void q8_gemm_q16__wasmsimd_dot_2x8_t4(const q8_matrix_view* w, const int16_t* xq, const float* xs, int T, float* y, int16_t* work);
void q8_gemm_q16__wasmsimd_dot_w16_4x8_t2(const q8_matrix_view* w, const int16_t* xq, const float* xs, int T, float* y, int16_t* work);
void q8_gemm_q16__wasmsimd_dot_w16i_4x8_t2(const q8_matrix_view* w, const int16_t* xq, const float* xs, int T, float* y, int16_t* work);
#if SWIGLU_HAVE_RELAXED_SIMD
void q8_gemm_q16__wasmrelaxed_dot2_4x8_t1(const q8_matrix_view* w, const int16_t* xq, const float* xs, int T, float* y, int16_t* work);
void q8_gemm_q16__wasmrelaxed_dot2_4x8_t2(const q8_matrix_view* w, const int16_t* xq, const float* xs, int T, float* y, int16_t* work);
#endif

// int16 range for a dot of length Kp with int8 weights: |sum| <= 128 * qmax * Kp < 2^31, and
// qmax <= kQs16DigitMax so that xq + 8192 splits into two 7-bit digits (the relaxed kernels).
enum { kQs16DigitMax = 8191 };
int f32_qs16_qmax(int Kp);
void f32_qs16_ref(const float* x, int T, int K, int Kp, int16_t* xq, float* xs);
void f32_qs16__wasmsimd_u8(const float* x, int T, int K, int Kp, int16_t* xq, float* xs);

void f32_vsilu_ref(size_t n, const float* z, float* y);  // computed in double
void f32_vsilu__wasmsimd_rr2_p5_div_u8(size_t n, const float* z, float* y);
void f32_vswiglu_ref(size_t n, const float* g, const float* u, float* h, float* silu_g);
void f32_vswiglu__wasmsimd_rr2_p5_div_u8(size_t n, const float* g, const float* u, float* h, float* silu_g);

// [SECTION] registries: one table per op, terminated by the count.
struct q8_gemm_f32_variant { const char* name; q8_gemm_f32_fn fn; int panel_rows, block_cols, token_tile; bool is_ref; };
struct q8_gemm_q16_variant { const char* name; q8_gemm_q16_fn fn; int panel_rows, block_cols, token_tile; bool is_ref; };
struct f32_qs16_variant { const char* name; f32_qs16_fn fn; int tile; bool is_ref; };
struct f32_vsilu_variant { const char* name; f32_vsilu_fn fn; int tile; bool is_ref; };
struct f32_vswiglu_variant { const char* name; f32_vswiglu_fn fn; int tile; bool is_ref; };

extern const q8_gemm_f32_variant q8_gemm_f32_variants[];
extern const int q8_gemm_f32_variant_count;
extern const q8_gemm_q16_variant q8_gemm_q16_variants[];
extern const int q8_gemm_q16_variant_count;
extern const f32_qs16_variant f32_qs16_variants[];
extern const int f32_qs16_variant_count;
extern const f32_vsilu_variant f32_vsilu_variants[];
extern const int f32_vsilu_variant_count;
extern const f32_vswiglu_variant f32_vswiglu_variants[];
extern const int f32_vswiglu_variant_count;

// The first non-reference variant of each elementwise op: what the forward passes call.
f32_vsilu_fn f32_vsilu_default();
f32_vswiglu_fn f32_vswiglu_default();

// [SECTION] the SwiGLU layer
// gate, up: (inter, hidden); down: (hidden, inter). Views into parsed q8 blobs.
struct swiglu_q8_layer {
  int hidden, inter;
  q8_matrix_view gate, up, down;
};

enum swiglu_act { SWIGLU_ACT_F32 = 0, SWIGLU_ACT_Q16 = 1 };

// A layer variant is a combination of op variants; the layer registry lists the ones worth
// shipping and benchmarking. The first SIMD128 entry of each activation path is its default; the q16
// path's is instead the faster of that and the first relaxed-SIMD entry, timed once on the first
// call, for one token and for several apart (swiglu_layer.cpp says why).
struct swiglu_layer_variant {
  const char* name;
  swiglu_act act;
  q8_gemm_f32_fn gemm_f32;  // act == F32
  q8_gemm_q16_fn gemm_q16;  // act == Q16
  f32_qs16_fn quant;        // act == Q16
  f32_vswiglu_fn swiglu;
  bool is_ref;
};
extern const swiglu_layer_variant swiglu_layer_variants[];
extern const int swiglu_layer_variant_count;
const swiglu_layer_variant* swiglu_layer_variant_find(const char* name);  // null if unknown
const swiglu_layer_variant* swiglu_layer_variant_for(swiglu_act act, int T);  // what the entry point runs for T tokens
const swiglu_layer_variant* swiglu_layer_variant_default(swiglu_act act);    // the same for several tokens

// Scratch bytes swiglu_layer_forward needs for T tokens (16-byte aligned buffer).
size_t swiglu_layer_scratch_bytes(const swiglu_q8_layer* L, int T);

// x (T, hidden) -> y (T, hidden). silu_gate (T, inter), optional: receives silu(W_gate x) for the
// page's per-layer histograms. scratch: swiglu_layer_scratch_bytes(L, T) bytes, 16-byte aligned.
// x and y may not alias.
void swiglu_layer_forward_variant(const swiglu_layer_variant* v, const swiglu_q8_layer* L, const float* x, int T,
                                  float* y, float* silu_gate, void* scratch);
// The entry point the app calls: swiglu_layer_variant_for(act, T).
void swiglu_layer_forward(const swiglu_q8_layer* L, swiglu_act act, const float* x, int T, float* y,
                          float* silu_gate, void* scratch);

// Double-precision reference of the whole layer on the dequantized weights (the accuracy yardstick).
// wg, wu: (inter, hidden) f32; wd: (hidden, inter) f32; x (T, hidden) -> y (T, hidden) as double.
void swiglu_layer_ref_f64(const float* wg, const float* wu, const float* wd, int hidden, int inter,
                          const float* x, int T, double* y);

// The shares of silu(gate) above +thr and below -thr (with the histogram) are counted by
// mlp_gate_count in core/pack/mlp_experiments.h.
