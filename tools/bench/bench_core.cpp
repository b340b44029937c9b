// Kernel lab for the SwiGLU layer at Qwen3.5-0.8B dims (hidden 1024, intermediate 3584):
// builds random q8 layers, times every layer variant of the registry, the gated product alone,
// a streaming-read bandwidth floor, and the accuracy of each variant against a double reference.
// The same file builds to wasm (kernel_bench.js, driven by tools/bench/run.mjs in Node) and
// natively (kernel_bench, a child process of run.mjs speaking a line protocol: bench_native.cpp).
// Run: tools/bench/run.sh
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/kernels/kernels.h"
#include "core/kernels/simd128.h"

enum { kBenchHidden = 1024, kBenchInter = 3584, kBenchMaxT = 64 };

struct bench_layer_data {
  q8_matrix_owned gate, up, down;  // gate, up: (inter, hidden); down: (hidden, inter)
  swiglu_q8_layer L;
};

static std::vector<bench_layer_data> g_layers;
static std::vector<float> g_x, g_y, g_silu, g_scratch, g_g, g_u;  // x, y: (64, hidden); g, u: (64, inter)
static std::vector<double> g_ref;                                  // (64, hidden) double reference, layer 0
static int g_ref_T = 0;
static volatile float g_sink;

static double bench_now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static uint64_t g_rng = 0x9E3779B97F4A7C15ull;
static float bench_uniform() {  // xorshift64*: fast enough to fill 88 MB of weights
  g_rng ^= g_rng >> 12;
  g_rng ^= g_rng << 25;
  g_rng ^= g_rng >> 27;
  return (float)((g_rng * 2685821657736338717ull) >> 40) * (1.0f / 16777216.0f) * 2.0f - 1.0f;
}

extern "C" {

// n_layers random q8 layers; 8 of them (88 MB) do not fit the 32 MB L3 of our machines.
int bench_init(int n_layers, unsigned seed) {
  g_rng ^= (uint64_t)seed * 0x2545F4914F6CDD1Dull + 1;
  std::vector<float> w((size_t)kBenchInter * kBenchHidden);
  g_layers.resize((size_t)n_layers);
  for (auto& l : g_layers) {
    q8_matrix_owned* mats[3] = {&l.gate, &l.up, &l.down};
    for (int m = 0; m < 3; m++) {
      for (auto& v : w) v = 0.03f * bench_uniform();
      const int rows = m < 2 ? kBenchInter : kBenchHidden, cols = m < 2 ? kBenchHidden : kBenchInter;
      if (q8_matrix_owned_init(mats[m], w.data(), rows, cols) != Q8_OK) return -1;
    }
    l.L = {kBenchHidden, kBenchInter, l.gate.view, l.up.view, l.down.view};
  }
  g_x.resize((size_t)kBenchMaxT * kBenchHidden);
  for (auto& v : g_x) v = 1.5f * bench_uniform();
  g_y.resize(g_x.size());
  g_silu.resize((size_t)kBenchMaxT * kBenchInter);
  g_g.resize(g_silu.size());
  g_u.resize(g_silu.size());
  for (auto& v : g_g) v = 3.0f * bench_uniform();
  for (auto& v : g_u) v = bench_uniform();
  g_scratch.resize(swiglu_layer_scratch_bytes(&g_layers[0].L, kBenchMaxT) / sizeof(float) + 16);
  return 0;
}

int bench_variant_count() { return swiglu_layer_variant_count; }
// The registry index of what swiglu_layer_forward dispatches to for T tokens (act 1: q16, 0: f32).
int bench_default_variant(int act, int T) {
  return (int)(swiglu_layer_variant_for(act ? SWIGLU_ACT_Q16 : SWIGLU_ACT_F32, T) - swiglu_layer_variants);
}
const char* bench_variant_name(int i) { return swiglu_layer_variants[i].name; }
int bench_variant_is_ref(int i) { return swiglu_layer_variants[i].is_ref ? 1 : 0; }
double bench_weight_bytes_per_layer() {
  const bench_layer_data& l = g_layers[0];
  return (double)(l.gate.bytes + l.up.bytes + l.down.bytes);
}

// ms per layer call for T tokens; cycles through all layers (weights from memory) or stays on
// layer 0 (cache-resident). One untimed warm-up call, then at least min_calls calls and min_ms.
double bench_layer_ms(int variant, int T, int cache_resident, int min_calls, double min_ms) {
  const swiglu_layer_variant* v = &swiglu_layer_variants[variant];
  const size_t nl = cache_resident ? 1 : g_layers.size();
  size_t li = 0;
  swiglu_layer_forward_variant(v, &g_layers[0].L, g_x.data(), T, g_y.data(), g_silu.data(), g_scratch.data());
  const double t0 = bench_now_ms();
  int calls = 0;
  double t1 = t0;
  while (calls < min_calls || t1 - t0 < min_ms) {
    li = (li + 1) % nl;
    swiglu_layer_forward_variant(v, &g_layers[li].L, g_x.data(), T, g_y.data(), g_silu.data(), g_scratch.data());
    calls++;
    t1 = bench_now_ms();
  }
  g_sink = g_y[0];
  return (t1 - t0) / calls;
}

// The fastest single call of `calls` (weights from memory, cycling the layers): on a shared machine a
// mean over time also counts the moments another process holds the core, while the floor is the
// best of its passes; this is the like-for-like figure.
double bench_layer_best_ms(int variant, int T, int calls) {
  const swiglu_layer_variant* v = &swiglu_layer_variants[variant];
  double best = 1e30;
  for (int c = 0; c < calls; c++) {
    const size_t li = (size_t)(c + 1) % g_layers.size();
    const double t0 = bench_now_ms();
    swiglu_layer_forward_variant(v, &g_layers[li].L, g_x.data(), T, g_y.data(), g_silu.data(), g_scratch.data());
    const double ms = bench_now_ms() - t0;
    if (ms < best) best = ms;
  }
  g_sink = g_y[0];
  return best;
}

// ms of one elementwise part of the layer alone, on T tokens, cache-resident:
// part 0: the gated product silu(g) * u (with the silu(g) output the page plots);
// part 1: the q16 path's two activation quantizations (x before gate/up, h before down).
double bench_elementwise_ms(int variant, int T, int part) {
  const swiglu_layer_variant* v = &swiglu_layer_variants[variant];
  if (part == 1 && v->act != SWIGLU_ACT_Q16) return 0.0;
  const size_t n = (size_t)T * kBenchInter;
  std::vector<int16_t> xq((size_t)T * kBenchInter);
  std::vector<float> xs(T), h(n);
  int reps = 0;
  const double t0 = bench_now_ms();
  double t1 = t0;
  while (reps < 5 || t1 - t0 < 20.0) {
    if (part == 0) {
      v->swiglu(n, g_g.data(), g_u.data(), h.data(), g_silu.data());
    } else {
      v->quant(g_x.data(), T, kBenchHidden, kBenchHidden, xq.data(), xs.data());
      v->quant(g_g.data(), T, kBenchInter, kBenchInter, xq.data(), xs.data());
    }
    reps++;
    t1 = bench_now_ms();
  }
  g_sink = h[0] + (float)xq[0];
  return (t1 - t0) / reps;
}

// Streaming read of a 64 MiB buffer with v128 loads: the memory-bandwidth floor, best of reps, GB/s.
double bench_bandwidth_gbs(int reps) {
  static std::vector<uint8_t> buf;
  const size_t bytes = (size_t)64 << 20;
  if (buf.empty()) buf.assign(bytes, 1);
  double best = 0.0;
  for (int r = 0; r < reps; r++) {
    const double t0 = bench_now_ms();
    v128_t a0 = wasm_i32x4_splat(0), a1 = a0, a2 = a0, a3 = a0;
    const uint8_t* p = buf.data();
    const uint8_t* end = p + bytes;
    for (; p < end; p += 128) {  // 8 loads per iteration, 4 independent sums
      a0 = wasm_i32x4_add(a0, wasm_i32x4_add(wasm_v128_load(p), wasm_v128_load(p + 64)));
      a1 = wasm_i32x4_add(a1, wasm_i32x4_add(wasm_v128_load(p + 16), wasm_v128_load(p + 80)));
      a2 = wasm_i32x4_add(a2, wasm_i32x4_add(wasm_v128_load(p + 32), wasm_v128_load(p + 96)));
      a3 = wasm_i32x4_add(a3, wasm_i32x4_add(wasm_v128_load(p + 48), wasm_v128_load(p + 112)));
    }
    const double ms = bench_now_ms() - t0;
    g_sink = (float)wasm_i32x4_extract_lane(wasm_i32x4_add(wasm_i32x4_add(a0, a1), wasm_i32x4_add(a2, a3)), 0);
    const double gbs = (double)bytes / (ms * 1e6);
    if (gbs > best) best = gbs;
  }
  return best;
}

// [SECTION] the peers' view of the same data (tools/bench/run.mjs builds onnxruntime-web's model
// from it): one matrix's int8 weights row-major (rows, cols) in a buffer reused by the next call,
// its per-row scales, the activations x (64, hidden) and the double reference on layer 0.
static std::vector<int8_t> g_rowmajor;
const int8_t* bench_matrix_int8(int layer, int matrix /*0 gate, 1 up, 2 down*/) {
  const bench_layer_data& l = g_layers[(size_t)layer];
  const q8_matrix_view* v = matrix == 0 ? &l.gate.view : matrix == 1 ? &l.up.view : &l.down.view;
  g_rowmajor.resize((size_t)v->rows * v->cols);
  for (int n = 0; n < v->rows; n++)
    for (int k = 0; k < v->cols; k++) g_rowmajor[(size_t)n * v->cols + k] = (int8_t)q8_matrix_at(v, n, k);
  return g_rowmajor.data();
}
const float* bench_matrix_scales(int layer, int matrix) {
  const bench_layer_data& l = g_layers[(size_t)layer];
  return matrix == 0 ? l.gate.view.scales : matrix == 1 ? l.up.view.scales : l.down.view.scales;
}
const float* bench_input() { return g_x.data(); }

static void bench_reference(int T) {
  const bench_layer_data& l = g_layers[0];
  if (g_ref_T == T) return;
  std::vector<float> wg((size_t)kBenchInter * kBenchHidden), wu(wg.size()), wd(wg.size());
  q8_matrix_dequantize_ref(&l.gate.view, wg.data());
  q8_matrix_dequantize_ref(&l.up.view, wu.data());
  q8_matrix_dequantize_ref(&l.down.view, wd.data());
  g_ref.assign((size_t)T * kBenchHidden, 0.0);
  swiglu_layer_ref_f64(wg.data(), wu.data(), wd.data(), kBenchHidden, kBenchInter, g_x.data(), T, g_ref.data());
  g_ref_T = T;
}
// (T, hidden) doubles: layer 0 on x's first T tokens, computed in double on the dequantized weights.
const double* bench_reference_output(int T) {
  bench_reference(T);
  return g_ref.data();
}

// max abs error / max abs output of a variant on layer 0, T tokens, against the double reference
// on the dequantized weights.
double bench_rel_error(int variant, int T) {
  const bench_layer_data& l = g_layers[0];
  bench_reference(T);
  swiglu_layer_forward_variant(&swiglu_layer_variants[variant], &l.L, g_x.data(), T, g_y.data(), nullptr,
                               g_scratch.data());
  double err = 0.0, ymax = 0.0;
  for (size_t i = 0; i < (size_t)T * kBenchHidden; i++) {
    err = std::fmax(err, std::fabs((double)g_y[i] - g_ref[i]));
    ymax = std::fmax(ymax, std::fabs(g_ref[i]));
  }
  return err / ymax;
}

}  // extern "C"
