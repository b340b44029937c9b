// The gates view's rows as words and SVG (see gates_text.h).
#include "core/views/gates_text.h"

#include <algorithm>
#include <cstdio>

#include "core/lesson/activations.h"
#include "core/views/gates_figure.h"
#include "core/base/number_format.h"
#include "core/pack/pack_summary.h"
#include "core/base/strings.h"

std::vector<int> gates_shown_layers(const std::vector<int64_t>& asked, const std::vector<int>& model_layers, size_t max,
                                    bool* dropped) {
  std::vector<int> out;
  *dropped = false;
  auto has = [&](int64_t l) { return l <= INT32_MAX && std::find(model_layers.begin(), model_layers.end(), (int)l) != model_layers.end(); };
  for (int64_t l : asked) {
    const bool dup = std::find(out.begin(), out.end(), (int)l) != out.end();
    if (has(l) && !dup && out.size() < max) out.push_back((int)l);
    else *dropped |= !dup || !has(l);
  }
  if (out.empty() && !model_layers.empty()) {
    // Every layer when they fit side by side, else the first, middle and last (as the lessons pick 0, 11, 23).
    const size_t n = model_layers.size();
    if (n <= max) out = model_layers;
    else out = {model_layers[0], model_layers[(n - 1) / 2], model_layers[n - 1]};  // 24 layers: 0, 11, 23
  }
  return out;
}

std::vector<std::string> live_gate_summary(const std::vector<gate_row>& rows, double thr, bool synthetic) {
  std::vector<std::string> out;
  double open_lo = 2, open_hi = -1, neg_lo = 2, neg_hi = -1;
  int shown = 0;
  for (const gate_row& r : rows) {
    if (!r.available) continue;
    shown++;
    open_lo = std::min(open_lo, r.counts.open_share()), open_hi = std::max(open_hi, r.counts.open_share());
    neg_lo = std::min(neg_lo, r.counts.negative_share()), neg_hi = std::max(neg_hi, r.counts.negative_share());
  }
  if (shown == 0) return out;
  auto range = [](double lo, double hi) {
    return fmt_percent(lo) == fmt_percent(hi) ? fmt_percent(lo) : fmt_percent(lo) + " – " + fmt_percent(hi);
  };
  const std::string t = fmt_short(thr), neg_t = fmt_short(-thr);  // "-0.1"; "0", never "-0"
  if (shown == 1) {
    const gate_row* r = &rows[0];
    for (const gate_row& x : rows)
      if (x.available) r = &x;
    out.push_back(strf(tr(STR_GATES_SUMMARY_ONE), std::to_string(r->layer).c_str(), fmt_percent(r->counts.open_share()).c_str(),
                       t.c_str(), fmt_percent(r->counts.negative_share()).c_str(), neg_t.c_str()));
  } else {
    out.push_back(strf(tr(STR_GATES_SUMMARY), range(open_lo, open_hi).c_str(), t.c_str(), range(neg_lo, neg_hi).c_str(), neg_t.c_str()));
  }
  out.push_back(tr(STR_GATES_SPARSE));
  if (synthetic) out.push_back(tr(STR_GATES_REAL_FIGURES));
  bool precomputed = false;
  for (const gate_row& r : rows) precomputed |= r.available && !r.live;
  if (precomputed) out.push_back(std::string(tr(STR_LIVE_PRECOMPUTED)) + tr(STR_MIRROR_COLON) + tr(STR_LIVE_PRECOMPUTED_NOTE));
  return out;
}

std::vector<std::string> gates_legend_lines(double thr) {
  const std::string t = fmt_short(thr);
  return {strf(tr(STR_GATES_OPEN), t.c_str()),
          thr > 0 ? strf(tr(STR_GATES_NEGATIVE), t.c_str()) : std::string(tr(STR_LIVEUX_NEGATIVE_ZERO))};
}

view_row gates_layer_row(const gate_row& r, double thr) {
  view_row row;
  row.label = strf(tr(STR_LIVE_LAYER_N), std::to_string(r.layer).c_str());
  if (!r.available) {
    row.note = tr(STR_LIVE_WAITING);
    row.note_tone = TONE_MUTED;
    return row;
  }
  row.note = tr(r.live ? STR_LIVE_LIVE : STR_LIVE_PRECOMPUTED);
  row.note_tone = r.live ? TONE_LIVE : TONE_PRECOMPUTED;
  const double open = r.counts.open_share(), neg = r.counts.negative_share();
  row.cells = {{"> " + fmt_short(thr), fmt_percent(open), TONE_OPEN},
               {"< " + fmt_short(-thr), fmt_percent(neg), TONE_RELU},  // "-0.1"; "0", never "-0"
               {tr(STR_GATES_BETWEEN), fmt_percent(std::max(0.0, 1 - open - neg)), TONE_MUTED}};
  return row;
}

std::string gates_input_line(const lab_state& s) {
  return std::string(tr(STR_GATES_INPUT)) + " " + tr(s.gates_input == LAB_GATES_STREAM ? STR_GATES_IN_STREAM : STR_GATES_IN_EMBED);
}

std::string gates_rows_text(const lab_state& s, const std::vector<gate_row>& rows, bool synthetic,
                            const std::string& token_line) {
  const std::vector<std::string> legend = gates_legend_lines(s.threshold);
  std::string out = gates_input_line(s) + "\n" + legend[0] + "; " + legend[1] + "\n";
  out += token_line;
  for (const gate_row& r : rows) out += view_row_line(gates_layer_row(r, s.threshold)) + "\n";
  for (const std::string& line : live_gate_summary(rows, s.threshold, synthetic)) out += line + "\n";
  return out;
}

// [SECTION] the histograms as SVG (the panel's bins and colours: ui/gates_panel.cpp, ui/widgets.h)
static std::string xml_text(const std::string& s) {
  std::string out;
  for (char ch : s) out += ch == '<' ? "&lt;" : ch == '>' ? "&gt;" : ch == '&' ? "&amp;" : std::string(1, ch);
  return out;
}

// Coordinates to 0.01 of the 200-unit box: plenty for a drawing, and one printf each (fmt_short's
// shortest exact text takes up to 17, which made the SVG cost 30 ms in the early module).
static std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

// Characters, not bytes, of UTF-8 text.
static size_t utf8_length(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// "#rrggbb" for SVG.
static std::string hex(lab_rgb c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
  return buf;
}

std::string gates_histogram_svg(const std::vector<gate_row>& rows, double thr) {
  // One <svg> per layer, so the page can put them side by side on a laptop and two to a row on a
  // phone, where three across would print the axis at 7 px.
  const double W = 200, PX0 = 4, PX1 = 196, PY0 = 22, PY1 = 102, H = 118;  // one layer's box
  const double slot = (PX1 - PX0) / (GATES_SHOWN_BINS + 1.5), plot_x1 = PX0 + slot * GATES_SHOWN_BINS;
  const double lo = gates_plot_lo(), hi = gates_plot_hi();
  auto x_at = [&](double v) { return PX0 + (v - lo) / (hi - lo) * (plot_x1 - PX0); };
  const std::string axis_text = hex(RGB_AXIS_TEXT);
  std::string out;
  for (const gate_row& r : rows) {
    out += "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"gates-svg\" viewBox=\"0 0 " + num(W) + " " + num(H) +
           "\" font-size=\"12\" font-family=\"system-ui, sans-serif\"><g class=\"gates-layer\" data-layer=\"" +
           std::to_string(r.layer) + "\">";
    const view_row row = gates_layer_row(r, thr);
    const std::string title = r.available ? row.label + " " + view_row_note(row) : row.label;
    out += "<text x=\"" + num(PX0) + "\" y=\"14\" fill=\"#333\">" + xml_text(title) + "</text>";
    out += "<rect x=\"" + num(PX0) + "\" y=\"" + num(PY0) + "\" width=\"" + num(PX1 - PX0) + "\" height=\"" + num(PY1 - PY0) +
           "\" fill=\"#fff\" stroke=\"" + hex(RGB_FRAME) + "\"/>";
    if (r.available) {
      const gates_bars bars = gates_bars_from(r.counts.histogram);
      for (int b = 0; b <= GATES_SHOWN_BINS; b++) {
        const bool overflow = b == GATES_SHOWN_BINS;
        const double x0 = overflow ? PX1 - slot : x_at(gates_bar_begin(b)), x1 = overflow ? PX1 : x_at(gates_bar_begin(b + 1));
        const double h = (double)bars.count[b] / (double)bars.peak * (PY1 - PY0 - 2);
        out += "<rect class=\"bar\" x=\"" + num(x0 + 0.25) + "\" y=\"" + num(PY1 - h) + "\" width=\"" + num(x1 - x0 - 0.5) +
               "\" height=\"" + num(h) + "\" fill=\"" + hex(gates_bar_rgb(b, thr)) + "\"/>";
      }
    }
    for (double t : {thr, -thr})  // the threshold lines and SiLU's floor, where the panel draws them
      out += "<line x1=\"" + num(x_at(t)) + "\" x2=\"" + num(x_at(t)) + "\" y1=\"" + num(PY0) + "\" y2=\"" + num(PY1) +
             "\" stroke=\"" + hex(RGB_THRESHOLD) + "\" stroke-opacity=\"0.8\"/>";
    const double floor = x_at(act_silu_minimum().value);
    out += "<line x1=\"" + num(floor) + "\" x2=\"" + num(floor) + "\" y1=\"" + num(PY0) + "\" y2=\"" + num(PY1) +
           "\" stroke=\"" + hex(RGB_FLOOR) + "\" stroke-width=\"1.5\"/>";
    // As the panel does: a tick label gives way to the overflow bar's label (widths estimated at
    // 0.62 em a character, as the page's fonts are not known here).
    const std::string overflow = tr(STR_LIVEUX_OVERFLOW);
    const double overflow_w = 0.62 * 12 * (double)utf8_length(overflow), tick_max = PX1 - overflow_w - 8;
    for (int k = 0; k < GATES_TICKS; k++)
      out += "<text x=\"" + num(std::min(std::max(x_at(GATES_TICK_AT[k]), PX0 + 8), tick_max)) + "\" y=\"" + num(PY1 + 13) +
             "\" text-anchor=\"middle\" fill=\"" + axis_text + "\">" + GATES_TICK_LABEL[k] + "</text>";
    out += "<text x=\"" + num(PX1) + "\" y=\"" + num(PY1 + 13) + "\" text-anchor=\"end\" fill=\"" + axis_text + "\">" +
           xml_text(overflow) + "</text></g></svg>";
  }
  return out;
}

bool gates_rows_from_manifest(const lab_state& s, const pack_manifest& m, size_t max_layers, std::vector<gate_row>* rows) {
  rows->clear();
  if (!s.pack.empty() || !s.model.empty() || s.threshold != PACK_THRESHOLD || s.hist_token >= 0 || m.probes.empty()) return false;
  std::vector<int> layers;
  for (const pack_layer& l : m.layers) layers.push_back(l.layer);
  bool dropped = false;
  for (int layer : gates_shown_layers(s.pack_layers, layers, max_layers, &dropped)) {
    gate_row r;
    r.layer = layer;
    r.available = pack_summary_counts(m, layer, &r.counts);
    rows->push_back(r);
  }
  return !rows->empty();
}
