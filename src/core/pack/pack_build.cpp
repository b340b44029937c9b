// The converter (see pack_build.h).
#include "core/pack/pack_build.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/pack/mlp_experiments.h"
#include "core/quant/q8_format.h"
#include "core/base/number_parse.h"

void pack_probe_input(const float* emb, int T, int hidden, const float* norm_w, model_norm_kind kind, double eps,
                      float* x) {
  for (int t = 0; t < T; t++) {
    const float* e = emb + (size_t)t * hidden;
    double ss = 0;
    for (int c = 0; c < hidden; c++) ss += (double)e[c] * e[c];
    const double inv = 1.0 / std::sqrt(ss / hidden + eps);
    for (int c = 0; c < hidden; c++) {
      const double w = kind == MODEL_NORM_ONE_PLUS_W ? 1.0 + (double)norm_w[c] : (double)norm_w[c];
      x[(size_t)t * hidden + c] = (float)((double)e[c] * inv * w);
    }
  }
}

bool pack_parse_layers(const std::string& text, int64_t num_layers, std::vector<int>* layers, std::string* error) {
  layers->clear();
  if (text == "all") {
    for (int64_t i = 0; i < num_layers; i++) layers->push_back((int)i);
    return true;
  }
  std::vector<int64_t> v;
  if (!parse_index_list(text, &v)) {
    *error = "layers '" + text + "' must be \"all\" or a comma list like 0,11,23";
    return false;
  }
  for (int64_t l : v) {
    if (l >= num_layers) {
      *error = "layer " + std::to_string(l) + " is not a layer of this model (0.." + std::to_string(num_layers - 1) + ")";
      return false;
    }
    if (std::find(layers->begin(), layers->end(), (int)l) != layers->end()) {
      *error = "layer " + std::to_string(l) + " is listed twice";
      return false;
    }
    layers->push_back((int)l);
  }
  return true;
}

static std::string pack_layer_file(int layer, mlp_part p) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "layer-%03d-%s.q8", layer, mlp_part_name(p));
  return buf;
}

// Appends bytes to probes.bin at a 64-byte boundary and describes them as a blob.
static pack_blob pack_append(std::string* file, const void* data, size_t n, const char* encoding,
                             std::vector<int64_t> shape) {
  while (file->size() % Q8_ALIGN) file->push_back('\0');
  pack_blob b;
  b.file = PACK_PROBES_FILE;
  b.offset = file->size();
  b.bytes = n;
  b.shape = std::move(shape);
  b.encoding = encoding;
  b.xxh3 = hash64(data, n);
  file->append((const char*)data, n);
  return b;
}

static void pack_quant_error(const float* w, const q8_matrix_view* q, size_t n, double* max_abs, double* rel_rms) {
  std::vector<float> dq(n);
  q8_matrix_dequantize_ref(q, dq.data());
  double mx = 0, err2 = 0, ref2 = 0;
  for (size_t i = 0; i < n; i++) {
    const double d = (double)dq[i] - (double)w[i];
    mx = std::fmax(mx, std::fabs(d));
    err2 += d * d;
    ref2 += (double)w[i] * w[i];
  }
  *max_abs = mx;
  *rel_rms = ref2 > 0 ? std::sqrt(err2 / ref2) : 0;
}

bool pack_build(const checkpoint& ck, const pack_build_options& opt, byte_sink* out, pack_build_result* result,
                std::string* error) {
  const model_config& cfg = ck.config;
  const int H = (int)cfg.hidden, F = (int)cfg.intermediate;
  auto say = [&](const std::string& s) {
    if (opt.progress) opt.progress(s);
  };
  if (opt.probes.empty()) return *error = "no probe: give at least one --tokens list", false;
  if (opt.probes.size() > PACK_MAX_PROBES) return *error = "too many probes (at most " + std::to_string((int)PACK_MAX_PROBES) + ")", false;
  for (const pack_probe_spec& p : opt.probes) {
    if (p.tokens.empty() || p.tokens.size() > PACK_MAX_TOKENS)
      return *error = "a probe needs 1.." + std::to_string((int)PACK_MAX_TOKENS) + " tokens", false;
    if (!p.pieces.empty() && p.pieces.size() != p.tokens.size()) return *error = "a probe's pieces must match its tokens", false;
  }
  std::vector<int> layers = opt.layers;
  if (layers.empty())
    for (int i = 0; i < cfg.layers; i++) layers.push_back(i);

  pack_build_result res;
  pack_manifest& m = res.manifest;
  m.model_id = !opt.model_id.empty() ? opt.model_id : !cfg.name_or_path.empty() ? cfg.name_or_path : "unknown";
  m.model_type = cfg.model_type;
  m.synthetic = cfg.synthetic;
  m.hidden = cfg.hidden;
  m.intermediate = cfg.intermediate;
  m.num_layers = cfg.layers;
  m.vocab = cfg.vocab;
  m.rms_norm_eps = cfg.rms_norm_eps;
  m.norm = model_norm_name(cfg.norm);
  m.probe_recipe = std::string("embed_tokens rows of the probe's token ids, RMS-normalised (eps from config.json), ") +
                   "times (" + (cfg.norm == MODEL_NORM_ONE_PLUS_W ? "1 + w" : "w") +
                   ") with w = layer 0's post_attention_layernorm weight; the same input for every layer";

  // [SECTION] probe inputs
  say("probe inputs from " + ckpt_embed_name(ck) + " and layer 0's post_attention_layernorm");
  std::vector<float> norm_w;
  if (!ckpt_read_f32(ck, ckpt_post_norm_name(ck, 0), {cfg.hidden}, &norm_w, error)) return false;
  // The norm rule comes from model_type; the weights themselves say whether it is plausible:
  // Qwen3.5 stores w near 0 (it multiplies by 1 + w), Llama-style models near 1.
  double mean_w = 0;
  for (float w : norm_w) mean_w += w;
  mean_w /= (double)norm_w.size();
  if (cfg.norm == MODEL_NORM_W && std::fabs(mean_w) < 0.2)
    res.warnings.push_back("layer 0's post_attention_layernorm weights average " + std::to_string(mean_w) +
                           ", near 0, but model_type '" + cfg.model_type +
                           "' multiplies by w: if this model's RMSNorm uses (1 + w), as Qwen3.5's does, the probe inputs are nearly zero");
  if (cfg.norm == MODEL_NORM_ONE_PLUS_W && mean_w > 0.5)
    res.warnings.push_back("layer 0's post_attention_layernorm weights average " + std::to_string(mean_w) +
                           ", near 1, but model_type '" + cfg.model_type + "' multiplies by (1 + w): check the norm rule");
  std::vector<std::vector<float>> inputs;
  for (const pack_probe_spec& p : opt.probes) {
    std::vector<float> emb, x(p.tokens.size() * (size_t)H);
    if (!ckpt_read_rows_f32(ck, ckpt_embed_name(ck), cfg.vocab, cfg.hidden, p.tokens, &emb, error)) return false;
    pack_probe_input(emb.data(), (int)p.tokens.size(), H, norm_w.data(), cfg.norm, cfg.rms_norm_eps, x.data());
    inputs.push_back(std::move(x));
  }
  std::string probes_bin;
  for (size_t i = 0; i < opt.probes.size(); i++) {
    pack_probe p;
    p.label = opt.probes[i].label;
    p.tokens = opt.probes[i].tokens;
    p.pieces = opt.probes[i].pieces;
    p.input = pack_append(&probes_bin, inputs[i].data(), inputs[i].size() * 4, PACK_ENC_F32,
                          {(int64_t)p.tokens.size(), cfg.hidden});
    m.probes.push_back(std::move(p));
  }

  // [SECTION] layers: quantize, write, precompute the gate results on the pack's own weights
  for (int layer : layers) {
    pack_layer pl;
    pl.layer = layer;
    q8_matrix_owned gate_q{};
    for (int part = 0; part < MLP_PART_COUNT; part++) {
      const std::string name = ckpt_mlp_name(ck, layer, (mlp_part)part);
      const int rows = part == MLP_DOWN ? H : F, cols = part == MLP_DOWN ? F : H;
      say("layer " + std::to_string(layer) + ": " + name + " (" + std::to_string(rows) + " x " + std::to_string(cols) + ")");
      std::vector<float> w;
      if (!ckpt_read_f32(ck, name, {rows, cols}, &w, error)) return false;
      for (float v : w)
        if (!std::isfinite(v)) return *error = "tensor '" + name + "' holds NaN or infinity", false;
      q8_matrix_owned q{};
      q8_status st = q8_matrix_owned_init(&q, w.data(), rows, cols);
      if (st != Q8_OK) return *error = "tensor '" + name + "': " + q8_status_str(st), false;
      pack_blob& b = pl.part[part];
      b.file = pack_layer_file(layer, (mlp_part)part);
      b.offset = 0;
      b.bytes = q.bytes;
      b.shape = {rows, cols};
      b.encoding = PACK_ENC_Q8;
      b.xxh3 = hash64(q.blob, q.bytes);
      pack_quant_error(w.data(), &q.view, w.size(), &b.max_abs_error, &b.rel_rms_error);
      res.quant.push_back({name, b.max_abs_error, b.rel_rms_error});
      bool ok = out->write(b.file, q.blob, q.bytes, error);
      if (part == MLP_GATE && ok) gate_q = q;
      else q8_matrix_owned_free(&q);
      if (!ok) {
        q8_matrix_owned_free(&gate_q);
        return false;
      }
    }
    for (size_t i = 0; i < m.probes.size(); i++) {
      const int T = (int)m.probes[i].tokens.size();
      std::vector<float> sg((size_t)T * F);
      mlp_gate_silu(&gate_q.view, inputs[i].data(), T, sg.data());
      mlp_gate_counts c;
      mlp_gate_count(sg.data(), sg.size(), PACK_THRESHOLD, &c);
      pack_probe_layer r;
      r.layer = layer;
      r.open = c.open_share();
      r.negative = c.negative_share();
      r.histogram.assign(c.histogram, c.histogram + GATE_HIST_BINS);
      // f32, exactly what the live path counts (f16 moved shares by a last printed digit).
      r.silu_gate = pack_append(&probes_bin, sg.data(), sg.size() * 4, PACK_ENC_F32, {T, cfg.intermediate});
      m.probes[i].layers.push_back(std::move(r));
    }
    q8_matrix_owned_free(&gate_q);
    m.layers.push_back(pl);
  }
  for (size_t i = 1; i < res.quant.size(); i++)
    if (res.quant[i].rel_rms > res.quant[res.worst].rel_rms) res.worst = i;

  // [SECTION] probes.bin, then the manifest last, then commit
  say("writing " PACK_PROBES_FILE " and " PACK_MANIFEST_FILE);
  if (!out->write(PACK_PROBES_FILE, probes_bin.data(), probes_bin.size(), error)) return false;
  const std::string manifest = pack_manifest_to_json(m);
  if (!out->write(PACK_MANIFEST_FILE, manifest.data(), manifest.size(), error)) return false;
  if (!out->commit(error)) return false;
  *result = std::move(res);
  return true;
}
