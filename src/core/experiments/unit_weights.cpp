// A unit's rows and column (see unit_weights.h).
#include "core/experiments/unit_weights.h"

#include <algorithm>

float unit_weights_matrix_max_abs(const q8_matrix_view* m) {
  float mx = 0;
  for (int n = 0; n < m->rows; n++) mx = std::max(mx, m->scales[n]);
  return mx > 0 ? mx * 127.0f : 1.0f;
}

bool unit_weights_update(unit_weights* u, layer_source* src, int layer, int unit) {
  if (src->phase() != SOURCE_READY) return false;
  const q8_matrix_view* m[MLP_PART_COUNT] = {src->matrix(layer, MLP_GATE), src->matrix(layer, MLP_UP), src->matrix(layer, MLP_DOWN)};
  if (!m[MLP_GATE] || !m[MLP_UP] || !m[MLP_DOWN]) return false;
  if (u->valid && u->layer == layer && u->unit == unit && u->generation == src->generation()) return true;
  const int H = (int)src->model().hidden;
  if (unit < 0 || unit >= m[MLP_GATE]->rows) return false;
  u->gate_row.resize(H);
  u->up_row.resize(H);
  u->down_col.resize(H);
  for (int k = 0; k < H; k++) {
    u->gate_row[k] = (float)q8_matrix_at(m[MLP_GATE], unit, k) * m[MLP_GATE]->scales[unit];
    u->up_row[k] = (float)q8_matrix_at(m[MLP_UP], unit, k) * m[MLP_UP]->scales[unit];
    u->down_col[k] = (float)q8_matrix_at(m[MLP_DOWN], k, unit) * m[MLP_DOWN]->scales[k];
  }
  for (int p = 0; p < MLP_PART_COUNT; p++) u->max_abs[p] = unit_weights_matrix_max_abs(m[p]);
  u->layer = layer;
  u->unit = unit;
  u->generation = src->generation();
  u->valid = true;
  return true;
}
