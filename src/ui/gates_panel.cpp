// Gate histograms (lessons 000/003), as a panel (ui/panel.h): for each selected layer, the
// distribution of silu(gate) over every probe token and intermediate unit (gate_activity), with the
// shares above +thr and below -thr. Bars are the pack's 64 bins of 0.05; the plot shows
// [-0.3, 1.2] and folds what lies beyond into its last bar, where almost nothing is.
#include "ui/panel.h"

#include <algorithm>
#include <cmath>

#include "core/activations.h"
#include "core/live_view.h"
#include "core/number_format.h"
#include "core/strings.h"
#include "imgui.h"
#include "ui/item_probe.h"
#include "ui/widgets.h"

static const int SHOWN_BINS = 30;  // [-0.3, 1.2)

static void histogram_plot(const gate_row& r, double thr, float width) {
  const float fs = ImGui::GetFontSize();
  const ImVec2 p0 = ImGui::GetCursorScreenPos(), size(width, fs * 7.5f);
  ImGui::Dummy(size);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p1(p0.x + size.x, p0.y + size.y);
  dl->AddRectFilled(p0, p1, IM_COL32(255, 255, 255, 255));
  const double step = (PACK_HIST_HI - PACK_HIST_LO) / PACK_HIST_BINS, lo = PACK_HIST_LO, hi = lo + SHOWN_BINS * step;
  auto x_at = [&](double v) { return p0.x + (float)((v - lo) / (hi - lo)) * size.x; };
  if (r.available) {
    int64_t bins[SHOWN_BINS] = {0}, peak = 1;
    for (int b = 0; b < PACK_HIST_BINS; b++) bins[std::min(b, SHOWN_BINS - 1)] += r.counts.histogram[b];
    for (int64_t n : bins) peak = std::max(peak, n);
    for (int b = 0; b < SHOWN_BINS; b++) {
      const double center = lo + (b + 0.5) * step;
      const ImU32 col = center > thr ? COLOR_GATE : center < -thr ? COLOR_RELU : COLOR_CLASSIC;
      const float h = (float)bins[b] / (float)peak * (size.y - fs * 0.3f);
      dl->AddRectFilled(ImVec2(x_at(lo + b * step) + 0.5f, p1.y - h), ImVec2(x_at(lo + (b + 1) * step) - 0.5f, p1.y), col);
    }
  }
  // The threshold lines and SiLU's floor, where the lesson draws them.
  for (double t : {thr, -thr}) dl->AddLine(ImVec2(x_at(t), p0.y), ImVec2(x_at(t), p1.y), IM_COL32(60, 60, 60, 200), 1.0f);
  const double floor = act_silu_minimum().value;
  dl->AddLine(ImVec2(x_at(floor), p0.y), ImVec2(x_at(floor), p1.y), IM_COL32(200, 30, 30, 255), 2.0f);
  dl->AddLine(ImVec2(x_at(0), p1.y), ImVec2(x_at(0), p1.y + fs * 0.3f), IM_COL32(60, 60, 60, 255));
  dl->AddRect(p0, p1, IM_COL32(180, 180, 180, 255));
  const char* labels[] = {"-0.3", "0", "0.5", "1"};
  const double at[] = {-0.3, 0, 0.5, 1.0};
  for (int i = 0; i < 4; i++) {
    const float w = ImGui::CalcTextSize(labels[i]).x;
    dl->AddText(ImVec2(std::min(std::max(x_at(at[i]) - w * 0.5f, p0.x), p1.x - w), p1.y + 2), IM_COL32(110, 110, 110, 255), labels[i]);
  }
  ImGui::Dummy(ImVec2(size.x, fs * 1.1f));
}

static void layer_column(const gate_row& r, double thr, float width) {
  ImGui::BeginGroup();
  ImGui::PushID(r.layer);
  widget_text(strf(tr(STR_LIVE_LAYER_N), std::to_string(r.layer).c_str()));
  ImGui::SameLine();
  if (!r.available) {
    widget_text_disabled(tr(STR_LIVE_WAITING));
  } else if (r.live) {
    widget_text_colored(IM_COL32(26, 128, 51, 255), tr(STR_LIVE_LIVE));
  } else {
    widget_text_colored(IM_COL32(153, 89, 0, 255), tr(STR_LIVE_PRECOMPUTED));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(STR_LIVE_PRECOMPUTED_NOTE));
  }
  item_probe(("gates-layer-" + std::to_string(r.layer)).c_str());
  histogram_plot(r, thr, width);
  if (r.available) {
    const double open = r.counts.open_share(), neg = r.counts.negative_share();
    widget_text_colored(COLOR_GATE, "> " + fmt_short(thr) + ": " + fmt_percent(open));
    widget_text_colored(COLOR_RELU, "< -" + fmt_short(thr) + ": " + fmt_percent(neg));
    widget_text_disabled(std::string(tr(STR_GATES_BETWEEN)) + ": " + fmt_percent(1 - open - neg));
  }
  ImGui::PopID();
  ImGui::EndGroup();
}

static void gates_draw(lab_state* s, live_session* ls, const live_choice& c) {
  widget_text_wrapped(tr(STR_GATES_INTRO));
  if (!c.ready) return;
  // Threshold and which tokens.
  float thr = (float)s->threshold;
  ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x * 0.6f, ImGui::GetFontSize() * 14));
  if (ImGui::SliderFloat(tr(STR_GATES_THRESHOLD), &thr, 0.0f, 0.5f, "%.2f")) s->threshold = std::round(thr * 100) / 100.0;
  item_probe("gates-threshold");
  ImGui::AlignTextToFramePadding();
  widget_text(tr(STR_GATES_TOKEN));
  widget_same_line_if_fits(widget_button_width(tr(STR_GATES_ALL_TOKENS)));
  if (ImGui::RadioButton(tr(STR_GATES_ALL_TOKENS), s->hist_token < 0)) s->hist_token = -1;
  item_probe("gates-token-all");
  for (int t = 0; t < c.tokens; t++) {
    const std::string label = live_token_text(ls->source->model(), c.probe, t);
    widget_same_line_if_fits(widget_button_width(label.c_str()));
    ImGui::PushID(t);
    if (ImGui::RadioButton(label.c_str(), s->hist_token == t)) s->hist_token = t;
    ImGui::PopID();
  }
  // Legend.
  widget_text_colored(COLOR_GATE, strf(tr(STR_GATES_OPEN), fmt_short(s->threshold).c_str()));
  widget_same_line_if_fits(ImGui::CalcTextSize(tr(STR_GATES_NEGATIVE)).x + ImGui::GetFontSize() * 2);
  widget_text_colored(COLOR_RELU, strf(tr(STR_GATES_NEGATIVE), fmt_short(s->threshold).c_str()));
  widget_same_line_if_fits(ImGui::CalcTextSize(tr(STR_GATES_FLOOR)).x);
  widget_text_colored(IM_COL32(199, 31, 31, 255), tr(STR_GATES_FLOOR));
  // One column per layer: side by side where they fit, stacked on a phone.
  const std::vector<gate_row> rows = live_gate_rows(ls, *s, c);
  const float fs = ImGui::GetFontSize(), avail = ImGui::GetContentRegionAvail().x;
  const float min_w = fs * 13, gap = ImGui::GetStyle().ItemSpacing.x * 2;
  int per_line = std::max(1, std::min((int)rows.size(), (int)((avail + gap) / (min_w + gap))));
  const float width = std::min(fs * 22, (avail - gap * (per_line - 1)) / per_line);
  for (size_t i = 0; i < rows.size(); i++) {
    if (i % per_line) ImGui::SameLine(0, gap);
    layer_column(rows[i], s->threshold, width);
  }
  ImGui::Spacing();
  for (const std::string& line : live_gate_summary(rows, s->threshold, ls->source->model().synthetic)) widget_text_wrapped(line);
}

// [SECTION] the panel's row (ui/panel.h)
void* gates_panel_init() { return nullptr; }
void gates_panel_keys(void*, panel_frame*) {}
void gates_panel_draw(void*, panel_frame* f) { gates_draw(f->state, f->live, *f->choice); }
bool gates_panel_animating(const void*, double) { return false; }
void gates_panel_free(void*) {}
