// The whole model's forward pass (see forward.h). Matrix products go through the registered
// kernels (core/kernels/wgemm.h); the mixers' small per-head loops are plain C++.
// Each step follows transformers' modeling_qwen3_5.py (Qwen3.5) and modeling_llama.py.
#include "core/model/forward.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/base/parallel_rows.h"
#include "core/kernels/kernels.h"

namespace {

// Rows per part when a product is split over threads: a multiple of every kernel's row tile, so
// each row meets the same instructions as in the whole (wgemm.h's variants tile by 1 or 4).
#define MATMUL_ROW_ALIGN 8

// y = x W^T for T tokens, W in the model's format; on every thread the build has, each taking a
// band of W's rows into its own buffer (the kernels write y with the whole matrix's row stride).
void matmul(const wmatrix& m, const float* x, int T, float* y) {
  const wmat_view v = m.view();
  const wgemm_fn gemm = wgemm_default(v.format);
  parallel_rows(v.rows, MATMUL_ROW_ALIGN, (int64_t)v.rows * v.cols * T, [&](int r0, int r1) {
    if (r0 == 0 && r1 == v.rows) return gemm(&v, x, T, y);
    wmat_view band = v;
    band.rows = r1 - r0;
    if (v.bf16) band.bf16 = v.bf16 + (size_t)r0 * v.cols;
    if (v.q) band.q = v.q + (size_t)r0 * v.cols;
    if (v.scales) band.scales = v.scales + (size_t)r0 * (v.cols / WMAT_GROUP);
    thread_local std::vector<float> out;
    out.resize((size_t)T * band.rows);
    gemm(&band, x, T, out.data());
    for (int t = 0; t < T; t++)
      std::memcpy(y + (size_t)t * v.rows + r0, out.data() + (size_t)t * band.rows, sizeof(float) * band.rows);
  });
}

// x * scale / RMS(x) over n values (the sum of squares in double).
void rmsnorm(const float* x, int n, const float* scale, double eps, float* y) {
  double ss = 0;
  for (int i = 0; i < n; i++) ss += (double)x[i] * x[i];
  const float r = (float)(1.0 / std::sqrt(ss / n + eps));
  for (int i = 0; i < n; i++) y[i] = x[i] * r * (scale ? scale[i] : 1.0f);
}

float sigmoid(float z) { return 1.0f / (1.0f + std::exp(-z)); }
float silu(float z) { return z / (1.0f + std::exp(-z)); }
// torch.nn.functional.softplus (beta 1, threshold 20).
float softplus(float z) { return z > 20.0f ? z : std::log1p(std::exp(z)); }

// RoPE on the first rotary_dim dims of one head at position pos (rotate_half pairing i, i + d/2).
void rope(float* v, int rotary_dim, const std::vector<float>& inv_freq, int pos) {
  const int half = rotary_dim / 2;
  for (int i = 0; i < half; i++) {
    const double angle = (double)pos * inv_freq[i];
    const float c = (float)std::cos(angle), s = (float)std::sin(angle);
    const float x1 = v[i], x2 = v[i + half];
    v[i] = x1 * c - x2 * s;
    v[i + half] = x2 * c + x1 * s;
  }
}

void add_bias(float* y, int T, const std::vector<float>& b) {
  if (b.empty()) return;
  const size_t n = b.size();
  for (int t = 0; t < T; t++)
    for (size_t i = 0; i < n; i++) y[t * n + i] += b[i];
}

// [SECTION] full attention: Qwen3.5's gated attention, or Llama's
void full_attention(const model_weights& w, const model_layer_weights& L, const float* x, int T, float* out) {
  const model_spec& s = w.spec;
  const int hd = s.head_dim, nh = s.heads, nkv = s.kv_heads, group = nh / nkv;
  const int qw = nh * hd * (s.output_gate ? 2 : 1), kvw = nkv * hd;
  std::vector<float> qg((size_t)T * qw), k((size_t)T * kvw), v((size_t)T * kvw), o((size_t)T * nh * hd);
  matmul(L.q, x, T, qg.data());
  matmul(L.k, x, T, k.data());
  matmul(L.v, x, T, v.data());
  add_bias(qg.data(), T, L.q_bias);
  add_bias(k.data(), T, L.k_bias);
  add_bias(v.data(), T, L.v_bias);
  // Per head, q_proj's rows are [query (hd), gate (hd)] when the attention has an output gate.
  std::vector<float> q((size_t)T * nh * hd), gate(s.output_gate ? (size_t)T * nh * hd : 0);
  for (int t = 0; t < T; t++)
    for (int h = 0; h < nh; h++) {
      const float* src = qg.data() + (size_t)t * qw + (size_t)h * hd * (s.output_gate ? 2 : 1);
      std::memcpy(&q[((size_t)t * nh + h) * hd], src, hd * sizeof(float));
      if (s.output_gate) std::memcpy(&gate[((size_t)t * nh + h) * hd], src + hd, hd * sizeof(float));
    }
  for (int t = 0; t < T; t++) {
    for (int h = 0; h < nh; h++) {
      float* qh = &q[((size_t)t * nh + h) * hd];
      if (s.qk_norm) rmsnorm(qh, hd, L.q_norm.data(), s.base.rms_norm_eps, qh);
      rope(qh, s.rotary_dim, w.rope_inv_freq, t);
    }
    for (int h = 0; h < nkv; h++) {
      float* kh = &k[((size_t)t * nkv + h) * hd];
      if (s.qk_norm) rmsnorm(kh, hd, L.k_norm.data(), s.base.rms_norm_eps, kh);
      rope(kh, s.rotary_dim, w.rope_inv_freq, t);
    }
  }
  const float scale = (float)(1.0 / std::sqrt((double)hd));
  std::vector<float> p((size_t)T);
  for (int h = 0; h < nh; h++) {
    const int kvh = h / group;
    for (int t = 0; t < T; t++) {
      const float* qh = &q[((size_t)t * nh + h) * hd];
      float mx = -INFINITY;
      for (int j = 0; j <= t; j++) {
        const float* kj = &k[((size_t)j * nkv + kvh) * hd];
        float d = 0;
        for (int i = 0; i < hd; i++) d += qh[i] * kj[i];
        p[j] = d * scale;
        mx = std::max(mx, p[j]);
      }
      double sum = 0;
      for (int j = 0; j <= t; j++) sum += (p[j] = std::exp(p[j] - mx));
      float* oh = &o[((size_t)t * nh + h) * hd];
      std::fill(oh, oh + hd, 0.0f);
      for (int j = 0; j <= t; j++) {
        const float pj = (float)(p[j] / sum);
        const float* vj = &v[((size_t)j * nkv + kvh) * hd];
        for (int i = 0; i < hd; i++) oh[i] += pj * vj[i];
      }
    }
  }
  if (s.output_gate)
    for (size_t i = 0; i < o.size(); i++) o[i] *= sigmoid(gate[i]);
  matmul(L.o, o.data(), T, out);
}

// [SECTION] Gated DeltaNet (Qwen3.5's linear attention), in its recurrent form
void linear_attention(const model_weights& w, const model_layer_weights& L, const float* x, int T, float* out) {
  const model_spec& s = w.spec;
  const int nk = s.lin_k_heads, nv = s.lin_v_heads, dk = s.lin_k_dim, dv = s.lin_v_dim, K = s.conv_kernel;
  const int kd = nk * dk, vd = nv * dv, cd = 2 * kd + vd, group = nv / nk;
  std::vector<float> mixed((size_t)T * cd), z((size_t)T * vd), b((size_t)T * nv), a((size_t)T * nv);
  matmul(L.qkv, x, T, mixed.data());
  matmul(L.z, x, T, z.data());
  matmul(L.b, x, T, b.data());
  matmul(L.a, x, T, a.data());
  // Causal depthwise conv1d over time (kernel K, no bias), then SiLU: out[t] = sum_i w[i] in[t-K+1+i].
  std::vector<float> c((size_t)T * cd);
  for (int t = 0; t < T; t++)
    for (int ch = 0; ch < cd; ch++) {
      float acc = 0;
      for (int i = 0; i < K; i++) {
        const int src = t - (K - 1) + i;
        if (src >= 0) acc += L.conv[(size_t)ch * K + i] * mixed[(size_t)src * cd + ch];
      }
      c[(size_t)t * cd + ch] = silu(acc);
    }
  // q and k: l2-normalised per head (eps 1e-6 inside the root, as the FLA kernels), q / sqrt(dk).
  const float qscale = (float)(1.0 / std::sqrt((double)dk));
  for (int t = 0; t < T; t++)
    for (int part = 0; part < 2; part++)
      for (int h = 0; h < nk; h++) {
        float* v = &c[(size_t)t * cd + (size_t)part * kd + (size_t)h * dk];
        double ss = 0;
        for (int i = 0; i < dk; i++) ss += (double)v[i] * v[i];
        const float r = (float)(1.0 / std::sqrt(ss + 1e-6)) * (part == 0 ? qscale : 1.0f);
        for (int i = 0; i < dk; i++) v[i] *= r;
      }
  std::vector<float> o((size_t)T * vd), S((size_t)dk * dv), kv(dv), delta(dv);
  for (int h = 0; h < nv; h++) {
    const int kh = h / group;  // each key head serves `group` consecutive value heads
    std::fill(S.begin(), S.end(), 0.0f);
    for (int t = 0; t < T; t++) {
      const float* qt = &c[(size_t)t * cd + (size_t)kh * dk];
      const float* kt = &c[(size_t)t * cd + kd + (size_t)kh * dk];
      const float* vt = &c[(size_t)t * cd + 2 * kd + (size_t)h * dv];
      const float beta = sigmoid(b[(size_t)t * nv + h]);
      const float decay = std::exp(L.neg_a[h] * softplus(a[(size_t)t * nv + h] + L.dt_bias[h]));
      for (float& e : S) e *= decay;
      std::fill(kv.begin(), kv.end(), 0.0f);
      for (int i = 0; i < dk; i++)
        for (int j = 0; j < dv; j++) kv[j] += S[(size_t)i * dv + j] * kt[i];
      for (int j = 0; j < dv; j++) delta[j] = (vt[j] - kv[j]) * beta;
      for (int i = 0; i < dk; i++)
        for (int j = 0; j < dv; j++) S[(size_t)i * dv + j] += kt[i] * delta[j];
      float* ot = &o[(size_t)t * vd + (size_t)h * dv];
      std::fill(ot, ot + dv, 0.0f);
      for (int i = 0; i < dk; i++)
        for (int j = 0; j < dv; j++) ot[j] += S[(size_t)i * dv + j] * qt[i];
      // The gated RMSNorm: norm(o) * w * silu(z), per value head.
      rmsnorm(ot, dv, L.lin_norm.data(), s.base.rms_norm_eps, ot);
      const float* zt = &z[(size_t)t * vd + (size_t)h * dv];
      for (int j = 0; j < dv; j++) ot[j] *= silu(zt[j]);
    }
  }
  matmul(L.out, o.data(), T, out);
}

bool all_finite(const float* v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!std::isfinite(v[i])) return false;
  return true;
}

float l2(const float* v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += (double)v[i] * v[i];
  return (float)std::sqrt(s);
}

// [SECTION] the SwiGLU MLP
// W_gate x and W_up x of every position, kept between layers so no layer allocates them again.
struct mlp_scratch {
  std::vector<float> gate, up;  // (T, F)
  explicit mlp_scratch(size_t n) : gate(n), up(n) {}
};

// Layer l's MLP over T positions, as the lesson writes it:
//   MLP(x) = W_down (silu(W_gate x) ⊙ W_up x),   silu(z) = z·sigmoid(z)
// x (T, H) -> y (T, H). Keeps silu(W_gate x) in *silu_gate and the product, each unit's
// activation, in *act (T, F). A unit of layer l in `off` contributes 0 to the product, at every
// position, as if its down column were zero.
// The MLP views compose the same formula on their own (swiglu_layer_forward, core/kernels/kernels.h)
// with the same elementwise kernels (f32_vswiglu), but not one composition: their weights are pack
// q8 matrices (q8_matrix_view, activations quantized to int16 on the q16 path) where these are the
// whole model's wmatrix (BF16 or grouped q8, through wgemm), and only this one switches units off.
void swiglu_mlp(const model_weights& w, int l, const float* x, int T, const std::vector<unit_ref>& off,
                mlp_scratch* s, std::vector<float>* silu_gate, std::vector<float>* act, float* y) {
  const model_layer_weights& L = w.layers[l];
  const size_t F = (size_t)w.spec.base.intermediate;
  matmul(L.gate, x, T, s->gate.data());
  matmul(L.up, x, T, s->up.data());
  act->resize((size_t)T * F);
  silu_gate->resize((size_t)T * F);
  f32_vswiglu_default()((size_t)T * F, s->gate.data(), s->up.data(), act->data(), silu_gate->data());
  for (const unit_ref& u : off)
    if (u.layer == l && model_has_unit(w.spec, u))
      for (int t = 0; t < T; t++) (*act)[(size_t)t * F + u.unit] = 0.0f;
  matmul(L.down, act->data(), T, y);
}

// [SECTION] the layers
void run_layers(const model_weights& w, int first, forward_trace* tr) {
  const model_spec& s = w.spec;
  const int T = tr->T, H = (int)s.base.hidden, F = (int)s.base.intermediate, Lc = (int)s.base.layers;
  const double eps = s.base.rms_norm_eps;
  std::vector<float> h = tr->layer_in[first], x((size_t)T * H), mix((size_t)T * H);
  mlp_scratch gu((size_t)T * F);
  for (int l = first; l < Lc; l++) {
    const model_layer_weights& L = w.layers[l];
    tr->layer_in[l] = h;
    for (int t = 0; t < T; t++) rmsnorm(&h[(size_t)t * H], H, L.input_norm.data(), eps, &x[(size_t)t * H]);
    if (L.mixer == MIXER_LINEAR_ATTENTION) linear_attention(w, L, x.data(), T, mix.data());
    else full_attention(w, L, x.data(), T, mix.data());
    for (size_t i = 0; i < h.size(); i++) h[i] += mix[i];
    std::vector<float>& xin = tr->mlp_in[l];
    xin.resize((size_t)T * H);
    for (int t = 0; t < T; t++) rmsnorm(&h[(size_t)t * H], H, L.post_norm.data(), eps, &xin[(size_t)t * H]);
    swiglu_mlp(w, l, xin.data(), T, tr->off, &gu, &tr->silu_gate[l], &tr->act[l], mix.data());
    tr->mlp_l2[l].resize(T);
    tr->out_l2[l].resize(T);
    for (int t = 0; t < T; t++) {
      float* ht = &h[(size_t)t * H];
      const float* mt = &mix[(size_t)t * H];
      for (int i = 0; i < H; i++) ht[i] += mt[i];
      tr->mlp_l2[l][t] = l2(mt, H);
      tr->out_l2[l][t] = l2(ht, H);
    }
    if (tr->nonfinite_layer < 0 && !all_finite(h.data(), h.size())) tr->nonfinite_layer = l;
  }
  tr->final_hidden.resize(H);
  rmsnorm(&h[(size_t)(T - 1) * H], H, w.final_norm.data(), eps, tr->final_hidden.data());
  tr->logits.resize((size_t)s.base.vocab);
  matmul(w.unembedding(), tr->final_hidden.data(), 1, tr->logits.data());
  tr->nonfinite_logits = !all_finite(tr->logits.data(), tr->logits.size());
  tr->first_layer_run = first;
}

void trace_init(const model_weights& w, forward_trace* tr, const std::vector<int64_t>& ids) {
  const size_t Lc = (size_t)w.spec.base.layers;
  tr->T = (int)ids.size();
  tr->ids = ids;
  tr->layer_in.assign(Lc, {});
  tr->mlp_in.assign(Lc, {});
  tr->silu_gate.assign(Lc, {});
  tr->act.assign(Lc, {});
  tr->mlp_l2.assign(Lc, {});
  tr->out_l2.assign(Lc, {});
  tr->nonfinite_layer = -1;
  tr->nonfinite_logits = false;
}
}  // namespace

// [SECTION] memory, counted as run_layers and the mixers allocate (f32 values)

forward_bytes model_forward_bytes(const model_spec& s, int T) {
  const uint64_t t = (uint64_t)T, H = (uint64_t)s.base.hidden, F = (uint64_t)s.base.intermediate,
                 L = (uint64_t)s.base.layers, V = (uint64_t)s.base.vocab;
  forward_bytes b;
  // ids, the units off (a link's 16 at most), six per-layer lists, their values, the last position's
  // hidden state and logits.
  b.trace = 8 * t + 8 * 16 + 6 * L * sizeof(std::vector<float>) + 4 * (L * (2 * t * H + 2 * t * F + 2 * t) + H + V);
  // run_layers: the stream, the normed input, the mixer's output, gate and up.
  const uint64_t layers = 4 * (3 * t * H + 2 * t * F);
  uint64_t mixer = 0;
  for (model_mixer m : s.mixers) {
    uint64_t need;
    if (m == MIXER_FULL_ATTENTION) {
      const uint64_t heads = (uint64_t)s.heads * s.head_dim, kv = (uint64_t)s.kv_heads * s.head_dim;
      // q_proj's output (doubled by the gate), k, v, the heads' output, the queries and gates apart, scores.
      need = 4 * (t * heads * (s.output_gate ? 2 : 1) + 2 * t * kv + 2 * t * heads + (s.output_gate ? t * heads : 0) + t);
    } else {
      const uint64_t cd = (uint64_t)s.conv_dim(), vd = (uint64_t)s.lin_v_heads * s.lin_v_dim, nv = (uint64_t)s.lin_v_heads;
      // the projections before and after the conv, z, b, a, the heads' output, the state and two rows.
      need = 4 * (2 * t * cd + 2 * t * vd + 2 * t * nv + (uint64_t)s.lin_k_dim * s.lin_v_dim + 2 * (uint64_t)s.lin_v_dim);
    }
    mixer = std::max(mixer, need);
  }
  b.scratch = layers + mixer;
  return b;
}

uint64_t model_answer_bytes(const model_spec& s, int T) {
  const uint64_t t = (uint64_t)T, H = (uint64_t)s.base.hidden, F = (uint64_t)s.base.intermediate,
                 L = (uint64_t)s.base.layers, V = (uint64_t)s.base.vocab, n = MODEL_ANSWER_UNITS;
  const forward_bytes pass = model_forward_bytes(s, T);
  // The readings, summed though some come one after another: probabilities before and after
  // (f64), one top list's softmax and its (id, p) pairs, the rising tokens' order, every unit at a
  // position, and what the units write toward (a down row, their directions, their scores over
  // the vocabulary, one unit's (id, score) pairs).
  const uint64_t reading = 16 * V + 24 * V + 8 * V + 12 * L * F + 4 * (F + n * H + n * V) + 16 * V;
  // The gates view's shortcut: silu(gate) kept per layer, and its input, gate and embedding row.
  const uint64_t shortcut = 4 * (L * t * F + t * H + t * F + H);
  // The short lists an answer carries (the top tokens and units, what each unit writes toward,
  // the prompt's pieces): a few KiB at most, whatever the model.
  const uint64_t lists = 64u << 10;
  return 2 * pass.trace + pass.scratch + reading + shortcut + lists;
}

std::vector<unit_ref> model_units_inside(const model_spec& s, const std::vector<unit_ref>& units) {
  std::vector<unit_ref> out;
  for (const unit_ref& u : units)
    if (model_has_unit(s, u)) out.push_back(u);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool model_ids_ok(const model_weights& w, const std::vector<int64_t>& ids) {
  if (ids.empty() || ids.size() > MODEL_MAX_TOKENS) return false;
  for (int64_t id : ids)
    if (!model_has_token(w.spec, id)) return false;
  return true;
}

void model_forward(const model_weights& w, const std::vector<int64_t>& ids, const std::vector<unit_ref>& off,
                   forward_trace* out) {
  const int H = (int)w.spec.base.hidden;
  trace_init(w, out, ids);
  out->off = model_units_inside(w.spec, off);
  std::vector<float>& h = out->layer_in[0];
  h.resize(ids.size() * (size_t)H);
  for (size_t t = 0; t < ids.size(); t++) w.embed.row_f32(ids[t], &h[t * H]);
  run_layers(w, 0, out);
}

void model_forward_switch_off(const model_weights& w, const forward_trace& base, const std::vector<unit_ref>& off,
                              forward_trace* out) {
  const std::vector<unit_ref> units = model_units_inside(w.spec, off);
  if (units.empty()) {
    *out = base;
    return;
  }
  const int first = units[0].layer;
  trace_init(w, out, base.ids);
  out->off = units;
  if (base.nonfinite_layer >= 0 && base.nonfinite_layer < first) out->nonfinite_layer = base.nonfinite_layer;
  for (int l = 0; l < first; l++) {
    out->layer_in[l] = base.layer_in[l];
    out->mlp_in[l] = base.mlp_in[l];
    out->silu_gate[l] = base.silu_gate[l];
    out->act[l] = base.act[l];
    out->mlp_l2[l] = base.mlp_l2[l];
    out->out_l2[l] = base.out_l2[l];
  }
  out->layer_in[first] = base.layer_in[first];
  run_layers(w, first, out);
}

// [SECTION] reading a run

// The softmax over the logits in double, p(l) = exp(l - max) / sum: its max and sum, so one
// probability costs no table of them all.
namespace {
struct softmax_scale {
  double max = -INFINITY, sum = 0;
  double p(float logit) const { return std::exp((double)logit - max) / sum; }
};
softmax_scale softmax_scale_of(const std::vector<float>& logits) {
  softmax_scale s;
  for (float v : logits) s.max = std::max(s.max, (double)v);
  for (float v : logits) s.sum += std::exp((double)v - s.max);
  return s;
}
}  // namespace

std::vector<double> forward_probabilities(const forward_trace& t) {
  const softmax_scale s = softmax_scale_of(t.logits);
  std::vector<double> p(t.logits.size());
  for (size_t i = 0; i < p.size(); i++) p[i] = s.p(t.logits[i]);
  return p;
}

std::vector<token_prob> forward_top_tokens(const forward_trace& t, int k) {
  const std::vector<double> p = forward_probabilities(t);
  std::vector<token_prob> all(p.size());
  for (size_t i = 0; i < p.size(); i++) all[i] = {(int64_t)i, p[i]};
  k = std::min<int>(k, (int)all.size());
  std::partial_sort(all.begin(), all.begin() + k, all.end(),
                    [](const token_prob& a, const token_prob& b) { return a.p != b.p ? a.p > b.p : a.id < b.id; });
  all.resize(k);
  return all;
}

double forward_token_prob(const forward_trace& t, int64_t id) {
  if (id < 0 || id >= (int64_t)t.logits.size()) return 0;
  return softmax_scale_of(t.logits).p(t.logits[id]);
}

std::vector<unit_activation> forward_top_units(const forward_trace& t, int position, int k) {
  std::vector<unit_activation> all;
  if (position < 0 || position >= t.T) return all;
  size_t units = 0;
  for (const std::vector<float>& a : t.act) units += a.size() / t.T;
  all.reserve(units);  // once: no doubling over every unit of every layer (model_answer_bytes counts one copy)
  for (size_t l = 0; l < t.act.size(); l++) {
    const size_t F = t.act[l].size() / t.T;
    for (size_t u = 0; u < F; u++) all.push_back({{(int)l, (int)u}, t.act[l][position * F + u]});
  }
  k = std::min<int>(k, (int)all.size());
  std::partial_sort(all.begin(), all.begin() + k, all.end(), [](const unit_activation& a, const unit_activation& b) {
    return a.value != b.value ? a.value > b.value : a.unit < b.unit;
  });
  all.resize(k);
  return all;
}

std::vector<std::vector<token_score>> units_write_toward(const model_weights& w, const std::vector<unit_ref>& units, int k) {
  const int H = (int)w.spec.base.hidden, F = (int)w.spec.base.intermediate, V = (int)w.spec.base.vocab;
  std::vector<std::vector<token_score>> out(units.size());
  std::vector<unit_ref> asked;  // the units inside the model, in order
  for (const unit_ref& u : units)
    if (model_has_unit(w.spec, u)) asked.push_back(u);
  if (asked.empty()) return out;
  // Each unit's direction g * d (its down column: entry `unit` of every row of down_proj (H, F)),
  // then the unembedding over all of them at once: one pass over the (V, H) table for every unit.
  const int n = (int)asked.size();
  std::vector<float> row(F), dirs((size_t)n * H);
  for (int i = 0; i < n; i++)
    for (int h = 0; h < H; h++) {
      w.layers[asked[i].layer].down.row_f32(h, row.data());
      dirs[(size_t)i * H + h] = row[asked[i].unit] * w.final_norm[h];
    }
  std::vector<float> scores((size_t)n * V);
  matmul(w.unembedding(), dirs.data(), n, scores.data());
  for (size_t u = 0, i = 0; u < units.size(); u++) {
    if (i >= asked.size() || !(units[u] == asked[i])) continue;
    std::vector<token_score> all(V);
    for (int v = 0; v < V; v++) all[v] = {(int64_t)v, scores[i * V + v]};
    const int kk = std::min(k, V);
    std::partial_sort(all.begin(), all.begin() + kk, all.end(),
                      [](const token_score& a, const token_score& b) { return a.score != b.score ? a.score > b.score : a.id < b.id; });
    all.resize(kk);
    out[u] = all;
    i++;
  }
  return out;
}

std::vector<token_score> unit_writes_toward(const model_weights& w, int layer, int unit, int k) {
  return units_write_toward(w, {{layer, unit}}, k)[0];
}
