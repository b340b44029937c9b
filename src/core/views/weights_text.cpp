// The weights view's words and its unit's silu(gate) row (see live_view.h).
#include "core/views/live_view.h"

#include "core/base/number_format.h"
#include "core/base/strings.h"

std::string weights_matrix_text(const source_model& m, mlp_part part) {
  const int64_t rows = part == MLP_DOWN ? m.hidden : m.intermediate, cols = part == MLP_DOWN ? m.intermediate : m.hidden;
  return std::string(mlp_part_symbol(part)) + " (" + std::to_string(rows) + " x " + std::to_string(cols) + ")";
}

std::string weights_unit_text(const live_choice& c) { return std::string(tr(STR_WEIGHTS_UNIT)) + " " + std::to_string(c.unit); }

std::string weights_zoom_text(const lab_state& s) { return strf(tr(STR_WEIGHTS_ZOOM), fmt_zoom(s.heat_zoom).c_str()); }

view_row weights_silu_row(const lab_state& s, live_session* ls, const live_choice& c) {
  view_row row;
  bool live = false;
  const std::vector<float>* v = gate_activity_values(&ls->gates, ls->source.get(), c.layer, c.probe, &live);
  if (!v || !live) return row;
  const source_model& m = ls->source->model();
  row.label = tr(STR_WEIGHTS_SILU);
  const float thr = (float)s.threshold;  // the histograms' line: open above, shut below its negative
  for (int t = 0; t < c.tokens; t++) {
    const float val = (*v)[(size_t)t * m.intermediate + c.unit];
    row.cells.push_back({live_token_text(m, c.probe, t), fmt6(val), val > thr ? TONE_OPEN : val < -thr ? TONE_RELU : TONE_MUTED});
  }
  return row;
}

std::string weights_view_text(const lab_state& s, live_session* ls, const live_choice& c) {
  const source_model& m = ls->source->model();
  const std::string sep = tr(STR_MIRROR_SEP);
  std::string out = strf(tr(STR_LIVE_LAYER_N), std::to_string(c.layer).c_str()) + sep +
                    weights_matrix_text(m, (mlp_part)s.matrix) + sep + weights_unit_text(c) + sep + weights_zoom_text(s) +
                    "\n" + tr(STR_WEIGHTS_INTRO) + "\n";
  const view_row silu = weights_silu_row(s, ls, c);
  if (silu.cells.empty()) return out + live_needs_whole_text(ls->source.get(), c.layer) + "\n";
  return out + view_row_line(silu) + "\n" + tr(STR_WEIGHTS_SILU_INPUT) + "\n";
}
