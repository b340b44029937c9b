// The whole-model views' rows, built once for the panel and the mirror (see model_view.h): the
// rule book's, the flow's and the gates view's on the stream.
#include "core/views/model_view.h"

#include <algorithm>
#include <cmath>

#include "core/views/gates_text.h"
#include "core/views/fault_text.h"
#include "core/base/number_format.h"
#include "core/base/read_error.h"
#include "core/base/strings.h"

// [SECTION] the rule book
static view_row next_row(const model_next_token& t, bool off) {
  view_row row;
  row.label = model_token_text(t.token);
  if (!t.token.piece.empty()) row.cells.push_back({"", fmt_token_id(t.token.id), TONE_MUTED});  // (else the label is the id)
  const std::string p = off ? fmt_before_after(fmt_percent1(t.p_before), fmt_percent1(t.p)) : fmt_percent1(t.p);
  row.cells.push_back({"P", p, off && t.p < t.p_before ? TONE_RELU : off && t.p > t.p_before ? TONE_OPEN : TONE_PLAIN});
  // Absolute probabilities, the track 100 %: before and after side by side when units are off.
  row.bar = std::max(0.0, std::min(1.0, t.p));
  if (off) row.bar_before = std::max(0.0, std::min(1.0, t.p_before));
  return row;
}

std::vector<view_row> rules_next_rows(const model_reply& r, bool off) {
  std::vector<view_row> rows;
  // With units off the list is the run as it was (the lesson's "P(北京) 18.6 % → 1.7 %").
  for (const model_next_token& t : off && !r.before_top.empty() ? r.before_top : r.top) rows.push_back(next_row(t, off));
  return rows;
}

std::vector<view_row> rules_rising_rows(const model_reply& r) {
  std::vector<view_row> rows;
  for (const model_next_token& t : r.rising) rows.push_back(next_row(t, true));
  return rows;
}

bool rules_unit_is_off(const lab_state& s, const unit_ref& u) {
  for (size_t i = 0; i + 1 < s.off.size(); i += 2)
    if (s.off[i] == u.layer && s.off[i + 1] == u.unit) return true;
  return false;
}

void rules_toggle_unit(lab_state* s, const unit_ref& u) {
  for (size_t i = 0; i + 1 < s->off.size(); i += 2)
    if (s->off[i] == u.layer && s->off[i + 1] == u.unit) {
      s->off.erase(s->off.begin() + (long)i, s->off.begin() + (long)i + 2);
      return;
    }
  if (s->off.size() / 2 >= 16) return;  // the link's bound (url_state.cpp)
  s->off.push_back(u.layer);
  s->off.push_back(u.unit);
}

std::string rules_unit_text(const unit_ref& u) {
  return strf(tr(STR_RULES_UNIT), std::to_string(u.layer).c_str(), std::to_string(u.unit).c_str());
}

std::string rules_off_text(const lab_state& s) {
  std::string out;
  for (size_t i = 0; i + 1 < s.off.size(); i += 2)
    out += (out.empty() ? "" : tr(STR_MIRROR_SEP)) + rules_unit_text({(int)s.off[i], (int)s.off[i + 1]});
  return out;
}

bool rules_unit_is_picked(const lab_state& s, const unit_ref& u) { return s.layer == u.layer && s.unit == u.unit; }

void rules_pick_unit(lab_state* s, const unit_ref& u) {
  s->layer = u.layer;
  s->unit = u.unit;
}

std::string rules_picked_title(const model_reply& r, const lab_state& s) {
  std::string unit = rules_unit_text(r.picked.unit);
  if (rules_unit_is_off(s, r.picked.unit)) unit += " (" + std::string(tr(STR_RULES_IS_OFF)) + ")";
  return strf(tr(STR_RULES_PICKED), unit.c_str());
}

std::string rules_picked_off_text(const model_reply& r, const lab_state& s) {
  return rules_unit_is_off(s, r.picked.unit) ? tr(STR_RULES_PICKED_OFF) : "";
}

std::vector<view_row> rules_picked_rows(const model_reply& r, const lab_state& s) {
  std::vector<view_row> rows;
  const std::vector<float>& values = r.picked_per_token;  // what it computes, switched off too
  const bool off = rules_unit_is_off(s, r.picked.unit);
  float top = 0;
  for (float a : values) top = std::max(top, std::fabs(a));
  for (size_t t = 0; t < r.prompt.size() && t < values.size(); t++) {
    const float a = values[t];
    view_row row;
    row.label = model_token_text(r.prompt[t]);
    if (t < r.picked_gate.size() && t < r.picked_up.size()) {
      row.cells.push_back({"silu(gate)", fmt6(r.picked_gate[t]), TONE_MUTED});
      row.cells.push_back({"up", fmt6(r.picked_up[t]), TONE_MUTED});
    }
    row.cells.push_back({tr(STR_RULES_PRODUCT), fmt6(a), a > 0 ? TONE_OPEN : a < 0 ? TONE_RELU : TONE_PLAIN});
    if (off) row.cells.push_back({tr(STR_RULES_IN_MODEL), "0", TONE_RELU});
    row.bar = top > 0 ? std::fabs(a) / top : 0;
    rows.push_back(row);
  }
  return rows;
}

std::string rules_toward_text(const model_reply& r, const std::vector<token_text>& toward) {
  if (toward.empty() && r.toward_pending) return "…";  // on its way (model_reply's toward_pending)
  std::string out;
  for (const token_text& t : toward) out += (out.empty() ? "" : " ") + model_token_text(t);
  return out;
}

void rules_open_weights(lab_state* s) {
  s->model = model_session_location(*s);
  s->view = LAB_VIEW_WEIGHTS;
  s->matrix = MLP_GATE;
}

std::vector<view_row> rules_unit_rows(const model_reply& r, const lab_state& s) {
  std::vector<view_row> rows;
  float top = 0;
  for (const model_unit_row& u : r.units) top = std::max(top, std::fabs(u.value));
  for (const model_unit_row& u : r.units) {
    view_row row;
    row.label = rules_unit_text(u.unit);
    const bool off = rules_unit_is_off(s, u.unit);
    if (off) row.note = tr(STR_RULES_IS_OFF), row.note_tone = TONE_RELU;
    if (rules_unit_is_picked(s, u.unit))
      row.note = off ? row.note + tr(STR_MIRROR_SEP) + tr(STR_PICKED) : std::string(tr(STR_PICKED)), row.note_tone = off ? TONE_RELU : TONE_LIVE;
    row.cells.push_back({"", fmt6(u.value), TONE_OPEN});
    row.cells.push_back({tr(STR_RULES_TOWARD), rules_toward_text(r, u.toward), TONE_PLAIN});
    row.bar = top > 0 ? std::fabs(u.value) / top : 0;
    rows.push_back(row);
  }
  return rows;
}

// [SECTION] what each MLP adds
static double flow_ratio(const model_layer_flow& f) { return f.out_l2 > 0 ? (double)f.mlp_l2 / f.out_l2 : 0.0; }

std::vector<view_row> flow_rows(const model_reply& r, const lab_state& s) {
  std::vector<view_row> rows;
  double top = 0;
  for (const model_layer_flow& f : r.flow) top = std::max(top, flow_ratio(f));
  for (size_t l = 0; l < r.flow.size(); l++) {
    const model_layer_flow& f = r.flow[l];
    const double ratio = flow_ratio(f);
    view_row row;
    row.label = strf(tr(STR_LIVE_LAYER_N), std::to_string(l).c_str());
    if (s.layer == (int64_t)l) row.note = tr(STR_PICKED), row.note_tone = TONE_LIVE;
    row.cells.push_back({tr(STR_FLOW_MLP), fmt6(f.mlp_l2), TONE_PLAIN});
    row.cells.push_back({tr(STR_FLOW_OUT), fmt6(f.out_l2), TONE_MUTED});
    row.cells.push_back({tr(STR_FLOW_RATIO), fmt_percent1(ratio), TONE_OPEN});
    row.bar = top > 0 ? ratio / top : 0;
    rows.push_back(row);
  }
  return rows;
}

flow_extremes flow_find_extremes(const model_reply& r) {
  flow_extremes e;
  for (size_t l = 0; l < r.flow.size(); l++) {
    const double ratio = flow_ratio(r.flow[l]);
    if (e.largest < 0 || ratio > e.largest_ratio) e.largest = (int)l, e.largest_ratio = ratio;
    if (ratio > 0 && (e.smallest < 0 || ratio < e.smallest_ratio)) e.smallest = (int)l, e.smallest_ratio = ratio;
  }
  return e;
}

std::string flow_extremes_text(const model_reply& r) {
  const flow_extremes e = flow_find_extremes(r);
  if (e.largest < 0 || e.smallest < 0) return "";
  return strf(tr(STR_FLOW_EXTREMES), std::to_string(e.largest).c_str(), fmt_percent1(e.largest_ratio).c_str(),
              std::to_string(e.smallest).c_str(), fmt_percent1(e.smallest_ratio).c_str());
}

std::string flow_scale_text(const model_reply& r) {
  const flow_extremes e = flow_find_extremes(r);
  if (e.largest < 0) return "";
  return strf(tr(STR_FLOW_SCALE), std::to_string(e.largest).c_str(), fmt_percent1(e.largest_ratio).c_str());
}

std::string rules_scale_text(bool off) { return tr(off ? STR_RULES_SCALE_OFF : STR_RULES_SCALE); }

std::string flow_picked_text(const model_reply& r, const lab_state& s) {
  if (s.layer < 0 || s.layer >= (int64_t)r.flow.size()) return "";
  view_row row = flow_rows(r, s)[(size_t)s.layer];
  row.note.clear();  // "Picked: Layer 5: |MLP| ...", not "(picked)" again
  return strf(tr(STR_FLOW_PICKED), view_row_line(row).c_str());
}

// [SECTION] the gates view on the stream
// The reply's counts of one input (stream or shortcut) as the gates view's rows: live, computed here.
static std::vector<gate_row> counted_rows(const model_reply& r, const std::vector<mlp_gate_counts>& counts) {
  std::vector<gate_row> rows;
  for (size_t i = 0; i < r.gate_layers.size() && i < counts.size(); i++) {
    gate_row row;
    row.layer = r.gate_layers[i];
    row.available = row.live = true;
    row.counts = counts[i];
    rows.push_back(row);
  }
  return rows;
}

std::vector<gate_row> gates_stream_rows(const model_reply& r) { return counted_rows(r, r.gates_stream); }

std::vector<view_row> gates_shortcut_rows(const model_reply& r, double thr) {
  std::vector<view_row> rows;
  for (const gate_row& g : counted_rows(r, r.gates_shortcut)) {
    view_row row = gates_layer_row(g, thr);
    row.note = tr(STR_GATES_SHORTCUT);
    row.note_tone = TONE_MUTED;
    rows.push_back(row);
  }
  return rows;
}

std::string gates_stream_token_line(const model_reply& r, const lab_state& s) {
  if (s.hist_token < 0 || s.hist_token >= (int64_t)r.prompt.size()) return "";
  return std::string(tr(STR_GATES_TOKEN)) + tr(STR_MIRROR_COLON) + std::to_string(s.hist_token) + " " +
         model_token_text(r.prompt[(size_t)s.hist_token]) + "\n";
}
