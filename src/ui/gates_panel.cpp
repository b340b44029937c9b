// Gate histograms (lessons 000/003), as a panel (ui/panel.h): for each selected layer, the
// distribution of silu(gate) over every probe token and intermediate unit (gate_activity), with the
// shares above +thr and below -thr. Bars are the pack's 64 bins of 0.05 over [-0.3, 1.2), then one
// labelled bar for everything above.
#include "ui/panel.h"

#include <algorithm>
#include <cmath>

#include "core/lesson/activations.h"
#include "core/views/gates_figure.h"
#include "core/views/live_view.h"
#include "core/views/model_view.h"
#include "core/base/number_format.h"
#include "core/base/strings.h"
#include "imgui.h"
#include "ui/item_probe.h"
#include "ui/model_status.h"
#include "ui/widgets.h"


// A round step for about `ticks` count marks up to `peak`: 1, 2 or 5 times a power of ten.
static int64_t count_step(int64_t peak, int ticks) {
  int64_t step = 1;
  while (step * ticks < peak) {
    if (step * 2 * ticks >= peak) return step * 2;
    if (step * 5 * ticks >= peak) return step * 5;
    step *= 10;
  }
  return step;
}

// The bars over [-0.3, 1.2), then after a gap one more bar for everything at 1.2 and above
// (labelled, so a tall one there reads as what it is), a count axis on the left.
static void histogram_plot(const gate_row& r, double thr, float width) {
  const float fs = ImGui::GetFontSize();
  // A narrow plot (two to a row on a phone, as the early text's figure) has smaller axis text.
  const float ax = width < fs * 13 ? 0.8f : 1.0f;
  auto label_w = [&](const std::string& t) { return widget_text_at_size(t, ax).x; };
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(width, fs * 8.5f + fs * 1.3f));
  const float axis_w = label_w("00,000") + fs * 0.4f;
  const ImVec2 p0(origin.x + axis_w, origin.y + fs * 1.5f), p1(origin.x + width, origin.y + fs * 8.5f);
  const float slot = (p1.x - p0.x) / (GATES_SHOWN_BINS + 1.5f);  // 30 bins, a gap, the overflow bar
  const float plot_x1 = p0.x + slot * GATES_SHOWN_BINS;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p0, p1, IM_COL32(255, 255, 255, 255));
  const double lo = gates_plot_lo(), hi = gates_plot_hi();
  auto x_at = [&](double v) { return p0.x + (float)((v - lo) / (hi - lo)) * (plot_x1 - p0.x); };
  const ImU32 grey = rgb_u32(RGB_AXIS_TEXT);
  if (r.available) {
    const gates_bars bars = gates_bars_from(r.counts.histogram);
    const int64_t peak = bars.peak;
    const int64_t tick = count_step(peak, 3);
    const float usable = p1.y - p0.y - fs * 0.3f;
    auto y_at = [&](int64_t n) { return p1.y - (float)n / (float)peak * usable; };
    widget_text_at(origin, grey, tr(STR_LIVEUX_COUNT), ax);  // what the axis counts: values in each bin
    for (int64_t n = 0; n <= peak; n += tick) {  // the count axis: gridlines and their counts
      const float y = y_at(n);
      dl->AddLine(ImVec2(p0.x - fs * 0.2f, y), ImVec2(p1.x, y), n ? IM_COL32(225, 225, 225, 255) : grey);
      const std::string label = fmt_count(n);
      widget_text_at(ImVec2(p0.x - fs * 0.3f - label_w(label), y - fs * ax * 0.5f), grey, label, ax);
    }
    for (int b = 0; b <= GATES_SHOWN_BINS; b++) {
      const bool overflow = b == GATES_SHOWN_BINS;
      const float x0 = overflow ? p1.x - slot : x_at(gates_bar_begin(b)), x1 = overflow ? p1.x : x_at(gates_bar_begin(b + 1));
      dl->AddRectFilled(ImVec2(x0 + 0.5f, y_at(bars.count[b])), ImVec2(x1 - 0.5f, p1.y), rgb_u32(gates_bar_rgb(b, thr)));
    }
    item_probe_shape(("gates-overflow-" + std::to_string(r.layer)).c_str(), p1.x - slot, y_at(bars.count[GATES_SHOWN_BINS]), p1.x, p1.y);
  }
  // The threshold lines and SiLU's floor, where the lesson draws them.
  for (double t : {thr, -thr}) dl->AddLine(ImVec2(x_at(t), p0.y), ImVec2(x_at(t), p1.y), rgb_u32(RGB_THRESHOLD, 200), widget_line_scale());
  const double floor = act_silu_minimum().value;
  dl->AddLine(ImVec2(x_at(floor), p0.y), ImVec2(x_at(floor), p1.y), rgb_u32(RGB_FLOOR), 2.0f * widget_line_scale());
  dl->AddLine(ImVec2(x_at(0), p1.y), ImVec2(x_at(0), p1.y + fs * 0.3f), rgb_u32(RGB_THRESHOLD));
  dl->AddLine(ImVec2(plot_x1 + slot * 0.25f, p0.y), ImVec2(plot_x1 + slot * 0.25f, p1.y), rgb_u32(RGB_FRAME));
  dl->AddRect(p0, p1, rgb_u32(RGB_FRAME));
  const std::string overflow = tr(STR_LIVEUX_OVERFLOW);
  const float overflow_w = label_w(overflow);
  const float overflow_x = std::min(p1.x - overflow_w, p1.x - slot * 0.5f - overflow_w * 0.5f);
  // The tick labels where they do not touch: on a narrow plot "-0.3" (the axis's start, where the
  // floor's line is) gives way to "0", and any later one to the one before it.
  float tick_x[GATES_TICKS], tick_w[GATES_TICKS];
  bool shown[GATES_TICKS];
  for (int i = 0; i < GATES_TICKS; i++) {
    tick_w[i] = label_w(GATES_TICK_LABEL[i]);
    tick_x[i] = std::min(std::max(x_at(GATES_TICK_AT[i]) - tick_w[i] * 0.5f, p0.x), overflow_x - tick_w[i] - fs * 0.3f);
    shown[i] = true;
  }
  for (int i = 1, last = 0; i < GATES_TICKS; i++) {
    if (tick_x[i] >= tick_x[last] + tick_w[last] + fs * 0.3f) {
      last = i;
      continue;
    }
    if (last == 0) shown[0] = false, last = i;
    else shown[i] = false;
  }
  for (int i = 0; i < GATES_TICKS; i++)
    if (shown[i]) widget_text_at(ImVec2(tick_x[i], p1.y + 2), grey, GATES_TICK_LABEL[i], ax);
  widget_text_at(ImVec2(overflow_x, p1.y + 2), grey, overflow, ax);
}

// One layer: its title and state, the histogram, its shares (the mirror prints the same row).
// `status_below`: the state goes under the title (in every column alike, so the plots line up).
static void layer_column(const gate_row& r, double thr, float width, bool status_below) {
  const view_row row = gates_layer_row(r, thr);
  ImGui::BeginGroup();
  ImGui::PushID(r.layer);
  widget_text(row.label);
  if (!status_below) ImGui::SameLine();
  widget_text_colored(widget_tone_color(row.note_tone), row.note);  // "precomputed" is explained under the plots
  item_probe(("gates-layer-" + std::to_string(r.layer)).c_str());
  histogram_plot(r, thr, width);
  for (const view_cell& c : row.cells) widget_text_colored(widget_tone_color(c.tone), view_cell_text(c));
  ImGui::PopID();
  ImGui::EndGroup();
}

// What the histograms are computed on (in=): the lessons' shortcut input or the real stream.
static void gates_input_choice(lab_state* s) {
  ImGui::AlignTextToFramePadding();
  widget_text(tr(STR_GATES_INPUT));
  const struct { int input; str_id label; const char* probe; } choices[] = {
      {LAB_GATES_EMBED, STR_GATES_IN_EMBED_SHORT, "gates-in-embed"}, {LAB_GATES_STREAM, STR_GATES_IN_STREAM_SHORT, "gates-in-stream"}};
  for (const auto& c : choices) {
    widget_same_line_if_fits(widget_checkbox_width(tr(c.label)));
    if (ImGui::RadioButton(tr(c.label), s->gates_input == c.input)) s->gates_input = c.input;
    item_probe(c.probe);
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
  widget_text_wrapped(tr(s->gates_input == LAB_GATES_STREAM ? STR_GATES_IN_STREAM : STR_GATES_IN_EMBED));
  ImGui::PopStyleColor();
}

// The threshold (typed or dragged) and which tokens (`tokens`: their chips' labels).
static void gates_controls(lab_state* s, const std::vector<std::string>& tokens) {
  // A drag moves it by 0.01; a typed value keeps up to 3 decimals (the link carries them).
  double thr = s->threshold;
  const double thr_lo = 0, thr_hi = 0.5;
  const bool fine = std::fabs(thr * 100 - std::round(thr * 100)) > 1e-9;
  ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x * 0.6f, ImGui::GetFontSize() * 14));
  const widget_slider_change how =
      widget_slider_typable(tr(STR_GATES_THRESHOLD), ImGuiDataType_Double, &thr, &thr_lo, &thr_hi, fine ? "%.3f" : "%.2f");
  if (how != WIDGET_SLIDER_NONE) {
    const double scale = how == WIDGET_SLIDER_TYPED ? 1000 : 100;
    s->threshold = std::round(std::min(std::max(thr, thr_lo), thr_hi) * scale) / scale + 0.0;  // + 0.0: never -0
  }
  item_probe("gates-threshold");
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
  widget_text_wrapped(tr(STR_LIVEUX_TYPE_HINT));
  ImGui::PopStyleColor();
  ImGui::AlignTextToFramePadding();
  widget_text(tr(STR_GATES_TOKEN));
  widget_same_line_if_fits(widget_button_width(tr(STR_GATES_ALL_TOKENS)));
  if (ImGui::RadioButton(tr(STR_GATES_ALL_TOKENS), s->hist_token < 0)) s->hist_token = -1;
  item_probe("gates-token-all");
  for (int t = 0; t < (int)tokens.size(); t++) {
    const std::string& label = tokens[t];
    widget_same_line_if_fits(widget_button_width(label.c_str()));
    ImGui::PushID(t);
    if (ImGui::RadioButton(label.c_str(), s->hist_token == t)) s->hist_token = t;
    ImGui::PopID();
  }
}

static void gates_legend(const lab_state* s) {
  const std::vector<std::string> legend = gates_legend_lines(s->threshold);
  widget_text_colored(COLOR_GATE, legend[0]);
  widget_same_line_if_fits(ImGui::CalcTextSize(legend[1].c_str()).x + ImGui::GetFontSize() * 2);
  widget_text_colored(COLOR_RELU, legend[1]);
  widget_same_line_if_fits(ImGui::CalcTextSize(tr(STR_GATES_FLOOR)).x);
  widget_text_colored(IM_COL32(199, 31, 31, 255), tr(STR_GATES_FLOOR));
}

// One column per layer: side by side where they fit, stacked on a laptop's narrow window; two to
// a row on a phone when the figure comes first (as the early text's figure is), so that every
// layer's shares are on its first screen.
static void gates_figure(const std::vector<gate_row>& rows, double thr, bool two_on_a_phone) {
  const float fs = ImGui::GetFontSize(), avail = ImGui::GetContentRegionAvail().x;
  const float min_w = fs * (two_on_a_phone ? 9 : 13), gap = ImGui::GetStyle().ItemSpacing.x * 2;
  int per_line = std::max(1, std::min((int)rows.size(), (int)((avail + gap) / (min_w + gap))));
  const float width = std::min(fs * 22, (avail - gap * (per_line - 1)) / per_line);
  // Each status beside its title where every column has room for both (two to a phone's row may not).
  bool below = false;
  for (const gate_row& r : rows) {
    const view_row row = gates_layer_row(r, thr);
    below |= ImGui::CalcTextSize(row.label.c_str()).x + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(row.note.c_str()).x > width;
  }
  for (size_t i = 0; i < rows.size(); i++) {
    if (i % per_line) ImGui::SameLine(0, gap);
    layer_column(rows[i], thr, width, below);
  }
  ImGui::Spacing();
}

// What the numbers say, the lesson's real figures beside synthetic ones, and what
// "precomputed" means (on screen: phones and keyboards see no hover tooltip); the mirror too.
static void gates_summary(const std::vector<gate_row>& rows, double thr, bool synthetic) {
  for (const std::string& line : live_gate_summary(rows, thr, synthetic)) widget_text_wrapped(line);
}

static std::vector<std::string> probe_tokens(live_session* ls, const live_choice& c) {
  std::vector<std::string> out;
  for (int t = 0; t < c.tokens; t++) out.push_back(live_token_text(ls->source->model(), c.probe, t));
  return out;
}

// On the stream (in=stream): the whole model's answer for the prompt, drawn as on the pack, and
// the same layers' shares on the lessons' shortcut under them. On a phone (`figure_first`) the
// figure and its shares come first, as on the pack, when they are there from the visit's first
// frame (precomputed, or carried by the link; the precomputed file itself may take a moment). An
// answer that comes later goes under the intro
// and the input's choice: drawn above them, it would push what the student reads off the screen.
static void gates_stream_draw(lab_state* s, live_session* ls, bool figure_first, double now, bool controls, bool* arrived_late) {
  const model_session* ms = model_session_active(ls->model) ? &ls->model : nullptr;
  const bool ready = ms && model_view_ready(*ms, *s);
  if (!ready && !ls->precomputed.pending()) *arrived_late = true;
  figure_first = figure_first && !*arrived_late;
  auto figure = [&]() {
    const model_reply& r = ms->reply;
    gates_legend(s);
    const std::vector<gate_row> rows = gates_stream_rows(r);
    gates_figure(rows, s->threshold, figure_first);
    gates_summary(rows, s->threshold, ms->status.synthetic);  // then the shortcut's rows, as the mirror prints them
    for (const view_row& row : gates_shortcut_rows(r, s->threshold)) model_row_draw(row);
  };
  if (ready && figure_first) {  // what the figure is computed on, said above it (the choice is further down)
    widget_text_wrapped(gates_input_line(*s));
    figure();
    ImGui::Separator();
  }
  widget_prose(tr(STR_GATES_INTRO));
  gates_input_choice(s);
  widget_prose(tr(STR_GATES_STREAM_NOTE));
  if (!ms) return;
  model_status_draw(ls, s, now, controls);
  if (!ready) return;
  const model_reply& r = ms->reply;
  ImGui::Separator();
  widget_text_wrapped(std::string(tr(STR_MODEL_PROMPT)) + tr(STR_MIRROR_COLON) + model_prompt_text(r));
  std::vector<std::string> tokens;
  for (const token_text& t : r.prompt) tokens.push_back(model_token_text(t));
  gates_controls(s, tokens);
  if (!figure_first) figure();
}

static void gates_draw(lab_state* s, live_session* ls, const live_choice& c, bool figure_first, double now, bool controls,
                       bool* arrived_late) {
  if (s->gates_input == LAB_GATES_STREAM) return gates_stream_draw(s, ls, figure_first, now, controls, arrived_late);
  if (!c.ready) {
    widget_prose(tr(STR_GATES_INTRO));
    return gates_input_choice(s);
  }
  const bool synthetic = ls->source->model().synthetic;
  if (figure_first) {  // a phone: the figure as the early text showed it, then what explains and moves it
    const std::vector<gate_row> rows = live_gate_rows(ls, *s, c);
    gates_figure(rows, s->threshold, true);
    gates_legend(s);
    gates_summary(rows, s->threshold, synthetic);
    ImGui::Spacing();
    widget_prose(tr(STR_GATES_INTRO));
    gates_input_choice(s);
    gates_controls(s, probe_tokens(ls, c));
    return;
  }
  widget_prose(tr(STR_GATES_INTRO));
  gates_input_choice(s);
  gates_controls(s, probe_tokens(ls, c));
  gates_legend(s);
  const std::vector<gate_row> rows = live_gate_rows(ls, *s, c);  // after the controls' edits
  gates_figure(rows, s->threshold, false);
  gates_summary(rows, s->threshold, synthetic);
}

// [SECTION] the panel's row (ui/panel.h)
namespace {
struct gates_memory {
  bool waiting = false;       // on the stream, the whole model loads or runs: frames keep coming
  bool arrived_late = false;  // on the stream, this visit has drawn a frame without the answer
  int last_frame = -2;        // the frame this panel last drew: a gap starts a new visit
  int last_input = -1;
};
}  // namespace

void* gates_panel_init() { return new gates_memory(); }
void gates_panel_keys(void*, panel_frame*) {}
void gates_panel_draw(void* self, panel_frame* f) {
  gates_memory* m = (gates_memory*)self;
  const int frame = ImGui::GetFrameCount();
  if (frame > m->last_frame + 1 || f->state->gates_input != m->last_input) m->arrived_late = false;
  m->last_frame = frame, m->last_input = f->state->gates_input;
  gates_draw(f->state, f->live, *f->choice, f->figure_first, f->now, f->controls, &m->arrived_late);
  m->waiting =
      f->state->gates_input == LAB_GATES_STREAM && model_session_active(f->live->model) && model_view_waiting(f->live->model, *f->state);
}
bool gates_panel_animating(const void* self, double) { return ((const gates_memory*)self)->waiting; }
std::string gates_panel_text(const void*, panel_frame*) { return ""; }
void gates_panel_free(void* self) { delete (gates_memory*)self; }
