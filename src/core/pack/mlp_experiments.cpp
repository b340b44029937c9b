// Experiments on a real layer (see mlp_experiments.h).
#include "core/pack/mlp_experiments.h"

#include "core/base/number_parse.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

static const f32_vsilu_variant* mlp_vsilu_default() {
  for (int i = 0; i < f32_vsilu_variant_count; i++)
    if (!f32_vsilu_variants[i].is_ref) return &f32_vsilu_variants[i];
  return &f32_vsilu_variants[0];
}

void mlp_gate_silu(const q8_matrix_view* gate, const float* x, int T, float* silu_gate) {
  const swiglu_layer_variant* v = swiglu_layer_variant_default(SWIGLU_ACT_F32);
  const size_t n = (size_t)T * gate->rows;
  v->gemm_f32(gate, x, T, silu_gate);
  mlp_vsilu_default()->fn(n, silu_gate, silu_gate);
}

namespace {
// The layer's forward pass on T tokens with its own aligned scratch.
struct mlp_runner {
  const swiglu_q8_layer* L;
  int T;
  std::unique_ptr<char[]> raw;
  void* scratch;
  mlp_runner(const swiglu_q8_layer* layer, int tokens) : L(layer), T(tokens) {
    const size_t n = swiglu_layer_scratch_bytes(L, T) + 16;
    raw.reset(new char[n]);
    scratch = (void*)(((uintptr_t)raw.get() + 15) & ~(uintptr_t)15);
  }
  std::vector<float> run(const float* x) {
    std::vector<float> y((size_t)T * L->hidden);
    swiglu_layer_forward(L, SWIGLU_ACT_F32, x, T, y.data(), nullptr, scratch);
    return y;
  }
};
}  // namespace

mlp_perm_result mlp_permutation_test(const swiglu_q8_layer* L, const float* x, int T, const std::vector<int>& perm) {
  const size_t H = (size_t)L->hidden;
  mlp_runner run(L, T);
  std::vector<float> y = run.run(x);
  std::vector<float> xp((size_t)T * H);
  for (int i = 0; i < T; i++)
    for (size_t c = 0; c < H; c++) xp[i * H + c] = x[(size_t)perm[i] * H + c];
  std::vector<float> yp = run.run(xp.data());
  mlp_perm_result r;
  for (int i = 0; i < T; i++)
    for (size_t c = 0; c < H; c++) {
      const float want = y[(size_t)perm[i] * H + c];
      r.max_abs_diff = std::fmax(r.max_abs_diff, std::fabs((double)yp[i * H + c] - want));
      r.max_abs_output = std::fmax(r.max_abs_output, std::fabs((double)want));
    }
  return r;
}

std::vector<double> mlp_token_change(const swiglu_q8_layer* L, const float* x, int T, int k, float delta) {
  const size_t H = (size_t)L->hidden;
  mlp_runner run(L, T);
  std::vector<float> y = run.run(x);
  std::vector<float> x2(x, x + (size_t)T * H);
  for (size_t c = 0; c < H; c++) x2[(size_t)k * H + c] += delta;
  std::vector<float> y2 = run.run(x2.data());
  std::vector<double> change((size_t)T, 0.0);
  for (int t = 0; t < T; t++)
    for (size_t c = 0; c < H; c++)
      change[t] = std::fmax(change[t], std::fabs((double)y2[t * H + c] - (double)y[t * H + c]));
  return change;
}

bool mlp_parse_perm(const std::string& text, int T, std::vector<int>* perm, std::string* error) {
  std::vector<int64_t> v;
  std::vector<bool> used((size_t)T, false);
  bool ok = parse_index_list(text, &v) && (int)v.size() == T;
  for (size_t i = 0; ok && i < v.size(); i++) {
    ok = v[i] < T && !used[(size_t)v[i]];
    if (ok) used[(size_t)v[i]] = true;
  }
  if (!ok) {
    *error = "permutation '" + text + "' must list each of 0.." + std::to_string(T - 1) + " exactly once";
    return false;
  }
  perm->assign(v.begin(), v.end());
  return true;
}

std::vector<int> mlp_default_perm(int T) {
  if (T == 6) return {5, 3, 1, 0, 2, 4};
  std::vector<int> p((size_t)T);
  for (int i = 0; i < T; i++) p[i] = T - 1 - i;
  return p;
}
