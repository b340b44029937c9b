// The double-precision reference forward pass (see forward_reference.h). It reads config.json
// with nlohmann-json and the tensors through the checkpoint reader, and computes everything in
// double with its own loops.
#include "model/forward_reference.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/checkpoint/checkpoint.h"

namespace {
using vec = std::vector<double>;

struct ref_model {
  checkpoint ck;
  nlohmann::json cfg;  // the language model's part
  bool qwen = false;   // Qwen3.5: hybrid layers, (1 + w) norms, gated attention
  int H = 0, F = 0, L = 0, V = 0, heads = 0, kv = 0, hd = 0, rot = 0;
  double eps = 1e-6, theta = 10000;
  std::string prefix, lm_head;
  int nk = 0, nv = 0, dk = 0, dv = 0, K = 0;

  bool read(const std::string& name, vec* out, std::string* error) const {
    const st_tensor* t = ck.find(name);
    if (!t) return *error = "no " + name, false;
    std::vector<float> f;
    if (!ckpt_read_f32(ck, name, t->shape, &f, error)) return false;
    out->assign(f.begin(), f.end());
    return true;
  }
  bool has(const std::string& name) const { return ck.find(name) != nullptr; }
  std::string layer(int l, const std::string& what) const { return prefix + "layers." + std::to_string(l) + "." + what; }
};

// y (T, rows) = x (T, cols) W^T, W (rows, cols).
vec linear(const vec& W, const vec& x, int T, int rows, int cols) {
  vec y((size_t)T * rows, 0.0);
  for (int t = 0; t < T; t++)
    for (int r = 0; r < rows; r++) {
      double s = 0;
      for (int c = 0; c < cols; c++) s += W[(size_t)r * cols + c] * x[(size_t)t * cols + c];
      y[(size_t)t * rows + r] = s;
    }
  return y;
}

// RMSNorm of each n-wide row; the weight as the model applies it.
void rms_rows(vec* x, int rows, int n, const vec& w, bool one_plus, double eps) {
  for (int r = 0; r < rows; r++) {
    double ss = 0;
    for (int i = 0; i < n; i++) ss += (*x)[(size_t)r * n + i] * (*x)[(size_t)r * n + i];
    const double inv = 1.0 / std::sqrt(ss / n + eps);
    for (int i = 0; i < n; i++) (*x)[(size_t)r * n + i] *= inv * (one_plus ? 1.0 + w[i] : w[i]);
  }
}

double sig(double z) { return 1.0 / (1.0 + std::exp(-z)); }
double silu(double z) { return z * sig(z); }

double l2(const double* v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i] * v[i];
  return std::sqrt(s);
}

bool attention(const ref_model& m, int l, const vec& x, int T, vec* out, std::string* error) {
  vec wq, wk, wv, wo;
  if (!m.read(m.layer(l, "self_attn.q_proj.weight"), &wq, error) || !m.read(m.layer(l, "self_attn.k_proj.weight"), &wk, error) ||
      !m.read(m.layer(l, "self_attn.v_proj.weight"), &wv, error) || !m.read(m.layer(l, "self_attn.o_proj.weight"), &wo, error))
    return false;
  const int hd = m.hd, nh = m.heads, nkv = m.kv, qrows = nh * hd * (m.qwen ? 2 : 1);
  vec qa = linear(wq, x, T, qrows, m.H), k = linear(wk, x, T, nkv * hd, m.H), v = linear(wv, x, T, nkv * hd, m.H);
  auto bias = [&](const char* what, vec* y, int n) -> bool {
    if (!m.has(m.layer(l, what))) return true;
    vec b;
    if (!m.read(m.layer(l, what), &b, error)) return false;
    for (int t = 0; t < T; t++)
      for (int i = 0; i < n; i++) (*y)[(size_t)t * n + i] += b[i];
    return true;
  };
  if (!bias("self_attn.q_proj.bias", &qa, qrows) || !bias("self_attn.k_proj.bias", &k, nkv * hd) ||
      !bias("self_attn.v_proj.bias", &v, nkv * hd))
    return false;
  vec q((size_t)T * nh * hd), gate((size_t)T * nh * hd);
  for (int t = 0; t < T; t++)
    for (int h = 0; h < nh; h++)
      for (int i = 0; i < hd; i++) {
        const size_t at = (size_t)t * qrows + (size_t)h * hd * (m.qwen ? 2 : 1) + i;
        q[((size_t)t * nh + h) * hd + i] = qa[at];
        if (m.qwen) gate[((size_t)t * nh + h) * hd + i] = qa[at + hd];
      }
  if (m.has(m.layer(l, "self_attn.q_norm.weight"))) {
    vec qn, kn;
    if (!m.read(m.layer(l, "self_attn.q_norm.weight"), &qn, error) || !m.read(m.layer(l, "self_attn.k_norm.weight"), &kn, error))
      return false;
    rms_rows(&q, T * nh, hd, qn, m.qwen, m.eps);
    rms_rows(&k, T * nkv, hd, kn, m.qwen, m.eps);
  }
  // RoPE, rotate_half style, on the first `rot` dims of each head.
  auto rotate = [&](vec* a, int nheads) {
    for (int t = 0; t < T; t++)
      for (int h = 0; h < nheads; h++) {
        double* p = &(*a)[((size_t)t * nheads + h) * hd];
        for (int i = 0; i < m.rot / 2; i++) {
          const double f = (double)(float)(1.0 / std::pow(m.theta, 2.0 * i / m.rot));  // torch keeps inv_freq in f32
          const double c = std::cos(t * f), s = std::sin(t * f);
          const double a1 = p[i], a2 = p[i + m.rot / 2];
          p[i] = a1 * c - a2 * s;
          p[i + m.rot / 2] = a2 * c + a1 * s;
        }
      }
  };
  rotate(&q, nh);
  rotate(&k, nkv);
  vec o((size_t)T * nh * hd, 0.0);
  for (int h = 0; h < nh; h++) {
    const int g = h / (nh / nkv);
    for (int t = 0; t < T; t++) {
      vec s(t + 1);
      double mx = -1e300;
      for (int j = 0; j <= t; j++) {
        double d = 0;
        for (int i = 0; i < hd; i++) d += q[((size_t)t * nh + h) * hd + i] * k[((size_t)j * nkv + g) * hd + i];
        s[j] = d / std::sqrt((double)hd);
        mx = std::max(mx, s[j]);
      }
      double z = 0;
      for (int j = 0; j <= t; j++) z += (s[j] = std::exp(s[j] - mx));
      for (int j = 0; j <= t; j++)
        for (int i = 0; i < hd; i++) o[((size_t)t * nh + h) * hd + i] += s[j] / z * v[((size_t)j * nkv + g) * hd + i];
    }
  }
  if (m.qwen)
    for (size_t i = 0; i < o.size(); i++) o[i] *= sig(gate[i]);
  *out = linear(wo, o, T, m.H, nh * hd);
  return true;
}

bool delta_net(const ref_model& m, int l, const vec& x, int T, vec* out, std::string* error) {
  vec wqkv, wz, wb, wa, conv, dt, alog, nw, wout;
  if (!m.read(m.layer(l, "linear_attn.in_proj_qkv.weight"), &wqkv, error) || !m.read(m.layer(l, "linear_attn.in_proj_z.weight"), &wz, error) ||
      !m.read(m.layer(l, "linear_attn.in_proj_b.weight"), &wb, error) || !m.read(m.layer(l, "linear_attn.in_proj_a.weight"), &wa, error) ||
      !m.read(m.layer(l, "linear_attn.conv1d.weight"), &conv, error) || !m.read(m.layer(l, "linear_attn.dt_bias"), &dt, error) ||
      !m.read(m.layer(l, "linear_attn.A_log"), &alog, error) || !m.read(m.layer(l, "linear_attn.norm.weight"), &nw, error) ||
      !m.read(m.layer(l, "linear_attn.out_proj.weight"), &wout, error))
    return false;
  const int kd = m.nk * m.dk, vd = m.nv * m.dv, cd = 2 * kd + vd;
  const vec mixed = linear(wqkv, x, T, cd, m.H), z = linear(wz, x, T, vd, m.H), b = linear(wb, x, T, m.nv, m.H),
            a = linear(wa, x, T, m.nv, m.H);
  vec c((size_t)T * cd);
  for (int t = 0; t < T; t++)
    for (int ch = 0; ch < cd; ch++) {
      double s = 0;
      for (int i = 0; i < m.K; i++)
        if (t - (m.K - 1) + i >= 0) s += conv[(size_t)ch * m.K + i] * mixed[(size_t)(t - (m.K - 1) + i) * cd + ch];
      c[(size_t)t * cd + ch] = silu(s);
    }
  vec o((size_t)T * vd, 0.0);
  for (int h = 0; h < m.nv; h++) {
    const int kh = h / (m.nv / m.nk);
    vec S((size_t)m.dk * m.dv, 0.0);
    for (int t = 0; t < T; t++) {
      vec q(c.begin() + (size_t)t * cd + (size_t)kh * m.dk, c.begin() + (size_t)t * cd + (size_t)(kh + 1) * m.dk);
      vec k(c.begin() + (size_t)t * cd + kd + (size_t)kh * m.dk, c.begin() + (size_t)t * cd + kd + (size_t)(kh + 1) * m.dk);
      const double* v = &c[(size_t)t * cd + 2 * kd + (size_t)h * m.dv];
      const double qn = 1.0 / std::sqrt(l2(q.data(), m.dk) * l2(q.data(), m.dk) + 1e-6);
      const double kn = 1.0 / std::sqrt(l2(k.data(), m.dk) * l2(k.data(), m.dk) + 1e-6);
      for (double& e : q) e *= qn / std::sqrt((double)m.dk);
      for (double& e : k) e *= kn;
      const double beta = sig(b[(size_t)t * m.nv + h]);
      const double sp = a[(size_t)t * m.nv + h] + dt[h];
      const double g = -std::exp(alog[h]) * (sp > 20 ? sp : std::log1p(std::exp(sp)));
      for (double& e : S) e *= std::exp(g);
      for (int j = 0; j < m.dv; j++) {
        double mem = 0;
        for (int i = 0; i < m.dk; i++) mem += S[(size_t)i * m.dv + j] * k[i];
        const double delta = (v[j] - mem) * beta;
        for (int i = 0; i < m.dk; i++) S[(size_t)i * m.dv + j] += k[i] * delta;
      }
      double* ot = &o[(size_t)t * vd + (size_t)h * m.dv];
      for (int j = 0; j < m.dv; j++)
        for (int i = 0; i < m.dk; i++) ot[j] += S[(size_t)i * m.dv + j] * q[i];
      double ss = 0;
      for (int j = 0; j < m.dv; j++) ss += ot[j] * ot[j];
      const double inv = 1.0 / std::sqrt(ss / m.dv + m.eps);
      for (int j = 0; j < m.dv; j++) ot[j] = ot[j] * inv * nw[j] * silu(z[(size_t)t * vd + (size_t)h * m.dv + j]);
    }
  }
  *out = linear(wout, o, T, m.H, vd);
  return true;
}

int cfg_int(const nlohmann::json& j, const char* key, int dflt) { return j.contains(key) ? j[key].get<int>() : dflt; }
}  // namespace

bool ref_forward(byte_source* src, const std::vector<int64_t>& ids, const std::vector<ref_unit>& off, ref_result* out,
                 std::string* error) {
  ref_model m;
  if (!ckpt_open(src, &m.ck, error)) return false;
  std::string text;
  if (!byte_source_read_all(src, "config.json", 4 << 20, &text, error)) return false;
  const nlohmann::json top = nlohmann::json::parse(text);
  m.cfg = top.contains("text_config") ? top["text_config"] : top;
  const std::string type = m.cfg.value("model_type", top.value("model_type", ""));
  m.qwen = type == "qwen3_5" || type == "qwen3_5_text";
  m.H = m.cfg["hidden_size"], m.F = m.cfg["intermediate_size"], m.L = m.cfg["num_hidden_layers"], m.V = m.cfg["vocab_size"];
  m.heads = m.cfg["num_attention_heads"];
  m.kv = cfg_int(m.cfg, "num_key_value_heads", m.heads);
  m.hd = cfg_int(m.cfg, "head_dim", m.H / m.heads);
  m.eps = m.cfg.value("rms_norm_eps", 1e-6);
  const nlohmann::json rp = m.cfg.contains("rope_parameters") ? m.cfg["rope_parameters"] : m.cfg;
  m.theta = rp.value("rope_theta", m.cfg.value("rope_theta", 10000.0));
  m.rot = (int)(m.hd * rp.value("partial_rotary_factor", m.qwen ? 0.25 : 1.0));
  m.rot -= m.rot % 2;
  m.nk = cfg_int(m.cfg, "linear_num_key_heads", 0), m.nv = cfg_int(m.cfg, "linear_num_value_heads", 0);
  m.dk = cfg_int(m.cfg, "linear_key_head_dim", 0), m.dv = cfg_int(m.cfg, "linear_value_head_dim", 0);
  m.K = cfg_int(m.cfg, "linear_conv_kernel_dim", 4);
  m.prefix = m.ck.prefix;
  std::vector<std::string> types((size_t)m.L, "full_attention");
  if (m.cfg.contains("layer_types")) types = m.cfg["layer_types"].get<std::vector<std::string>>();

  const int T = (int)ids.size(), H = m.H, F = m.F;
  // The prompt's embedding rows only (a real vocabulary's table is 2 GB as double).
  std::vector<float> rows;
  if (!ckpt_read_rows_f32(m.ck, m.prefix + "embed_tokens.weight", m.V, H, ids, &rows, error)) return false;
  vec h(rows.begin(), rows.end());
  out->mlp_l2.assign(m.L, vec(T)), out->out_l2.assign(m.L, vec(T)), out->act.assign(m.L, {}), out->mlp_in.assign(m.L, {});
  out->silu_gate.assign(m.L, {}), out->shortcut_silu_gate.assign(m.L, {});
  vec shortcut = h, n0;
  if (!m.read(m.layer(0, "post_attention_layernorm.weight"), &n0, error)) return false;
  rms_rows(&shortcut, T, H, n0, m.qwen, m.eps);
  for (int l = 0; l < m.L; l++) {
    vec n1, n2, wg, wu, wd;
    if (!m.read(m.layer(l, "input_layernorm.weight"), &n1, error) || !m.read(m.layer(l, "post_attention_layernorm.weight"), &n2, error) ||
        !m.read(m.layer(l, "mlp.gate_proj.weight"), &wg, error) || !m.read(m.layer(l, "mlp.up_proj.weight"), &wu, error) ||
        !m.read(m.layer(l, "mlp.down_proj.weight"), &wd, error))
      return false;
    vec x = h, mix;
    rms_rows(&x, T, H, n1, m.qwen, m.eps);
    if (types[l] == "linear_attention" ? !delta_net(m, l, x, T, &mix, error) : !attention(m, l, x, T, &mix, error)) return false;
    for (size_t i = 0; i < h.size(); i++) h[i] += mix[i];
    x = h;
    rms_rows(&x, T, H, n2, m.qwen, m.eps);
    out->mlp_in[l] = x;
    const vec g = linear(wg, x, T, F, H), u = linear(wu, x, T, F, H);
    vec act((size_t)T * F), sg((size_t)T * F);
    for (size_t i = 0; i < act.size(); i++) sg[i] = silu(g[i]), act[i] = sg[i] * u[i];
    out->silu_gate[l] = sg;
    vec sc = linear(wg, shortcut, T, F, H);
    for (double& v : sc) v = silu(v);
    out->shortcut_silu_gate[l] = sc;
    for (const ref_unit& o : off)
      if (o.layer == l)
        for (int t = 0; t < T; t++) act[(size_t)t * F + o.unit] = 0;
    out->act[l] = act;
    const vec y = linear(wd, act, T, H, F);
    for (size_t i = 0; i < h.size(); i++) h[i] += y[i];
    for (int t = 0; t < T; t++) {
      out->mlp_l2[l][t] = l2(&y[(size_t)t * H], H);
      out->out_l2[l][t] = l2(&h[(size_t)t * H], H);
    }
  }
  vec fn;
  if (!m.read(m.prefix + "norm.weight", &fn, error)) return false;
  const std::string head = m.has("lm_head.weight") ? "lm_head.weight" : m.prefix + "embed_tokens.weight";
  vec last(h.end() - H, h.end());
  rms_rows(&last, 1, H, fn, m.qwen, m.eps);
  // The unembedding a block of rows at a time.
  vec logits((size_t)m.V);
  for (int v0 = 0; v0 < m.V; v0 += 4096) {
    std::vector<int64_t> block;
    for (int v = v0; v < std::min(m.V, v0 + 4096); v++) block.push_back(v);
    if (!ckpt_read_rows_f32(m.ck, head, m.V, H, block, &rows, error)) return false;
    for (size_t i = 0; i < block.size(); i++) {
      double s = 0;
      for (int k = 0; k < H; k++) s += rows[i * H + k] * last[k];
      logits[v0 + i] = s;
    }
  }
  const double mx = *std::max_element(logits.begin(), logits.end());
  out->probs.resize(m.V);
  double z = 0;
  for (int v = 0; v < m.V; v++) z += (out->probs[v] = std::exp(logits[v] - mx));
  for (double& p : out->probs) p /= z;
  return true;
}
