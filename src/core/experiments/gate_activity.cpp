// Gate values and counts (see gate_activity.h).
#include "core/experiments/gate_activity.h"

#include "core/pack/pack_format.h"

static const gate_activity::layer_values* find_live(const gate_activity* g, int layer) {
  for (const gate_activity::layer_values& v : g->live)
    if (v.layer == layer) return &v;
  return nullptr;
}

std::vector<int> gate_activity_update(gate_activity* g, layer_source* src, const std::vector<int>& layers) {
  std::vector<int> missing;
  if (src->phase() != SOURCE_READY) return layers;
  const source_model& m = src->model();
  for (int layer : layers) {
    if (find_live(g, layer)) continue;
    bool inputs = true;
    for (size_t p = 0; p < m.probes.size(); p++) inputs &= src->probe_input((int)p) != nullptr;
    const q8_matrix_view* gate = inputs ? src->matrix(layer, MLP_GATE) : nullptr;
    if (!gate) {
      missing.push_back(layer);
      continue;
    }
    gate_activity::layer_values v;
    v.layer = layer;
    v.silu.resize(m.probes.size());
    for (size_t p = 0; p < m.probes.size(); p++) {
      const int T = (int)m.probes[p].tokens.size();
      v.silu[p].resize((size_t)T * (size_t)m.intermediate);
      mlp_gate_silu(gate, src->probe_input((int)p)->data(), T, v.silu[p].data());
    }
    g->live.push_back(std::move(v));
  }
  return missing;
}

const std::vector<float>* gate_activity_values(const gate_activity* g, const layer_source* src, int layer, int probe,
                                               bool* live) {
  *live = false;
  if (const gate_activity::layer_values* v = find_live(g, layer)) {
    if (probe < 0 || probe >= (int)v->silu.size()) return nullptr;
    *live = true;
    return &v->silu[probe];
  }
  return src->precomputed_silu(probe, layer);
}

static gate_row count_row(const gate_activity* g, const layer_source* src, int layer, double thr, int probe, int token) {
  gate_row r;
  r.layer = layer;
  if (src->phase() != SOURCE_READY || src->model().find_layer(layer) < 0) return r;
  const source_model& m = src->model();
  const size_t F = (size_t)m.intermediate;
  mlp_gate_counts c;
  for (size_t p = 0; p < m.probes.size(); p++) {
    if (token >= 0 && (int)p != probe) continue;
    bool live = false;
    const std::vector<float>* v = gate_activity_values(g, src, layer, (int)p, &live);
    if (!v) {
      // Nothing per token yet: the source's summary is the lessons' own count (thr 0.1, all tokens).
      if (token >= 0 || thr != PACK_THRESHOLD || !src->summary_counts(layer, &c)) return r;
      r.available = true;
      r.counts = c;
      return r;
    }
    r.live = live;
    if (token < 0) mlp_gate_count(v->data(), v->size(), thr, &c);
    else if ((size_t)token * F < v->size()) mlp_gate_count(v->data() + (size_t)token * F, F, thr, &c);
  }
  r.available = true;
  r.counts = c;
  return r;
}

gate_row gate_activity_row(gate_activity* g, const layer_source* src, int layer, double thr, int probe, int token) {
  if (g->rows_generation != src->generation() || g->rows_live != g->live.size()) {
    g->rows.clear();
    g->rows_generation = src->generation();
    g->rows_live = g->live.size();
  }
  for (const gate_activity::cached_row& c : g->rows)
    if (c.row.layer == layer && c.thr == thr && c.probe == probe && c.token == token) return c.row;
  gate_row r = count_row(g, src, layer, thr, probe, token);
  g->rows.push_back({thr, probe, token, r});
  return r;
}
