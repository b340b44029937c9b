// Lessons 001/003's parameter budget, as a panel (ui/panel.h): a classic FFN at 4h (8 h^2), SwiGLU
// at 8/3 h (also 8 h^2), and SwiGLU at the chosen f (Qwen3.5-0.8B: 3584, about 10.5 h^2), as bars
// on one scale. Edits state->hidden, intermediate, layers.
#include "ui/panel.h"

#include <cmath>
#include <cstdio>

#include "core/views/lab_text.h"
#include "core/lesson/model_budget.h"
#include "core/base/number_format.h"
#include "core/lesson/param_budget.h"
#include "core/base/strings.h"
#include "imgui.h"
#include "ui/item_probe.h"
#include "ui/widgets.h"

struct bar_segment {
  const char* name;
  double params;
  ImU32 color;
};

// One bar of stacked matrices, on a common scale (pixels per parameter).
static void draw_bar(const char* label, const bar_segment* segs, int n, double px_per_param,
                     float label_width) {
  float fs = ImGui::GetFontSize();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  if (label_width > 0) ImGui::SameLine(label_width);  // narrow screens: label above its bar
  ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  float x = p.x, h = fs * 1.6f;
  double total = 0;
  for (int i = 0; i < n; ++i) {
    float w = float(segs[i].params * px_per_param);
    dl->AddRectFilled(ImVec2(x, p.y), ImVec2(x + w, p.y + h), segs[i].color);
    dl->AddRect(ImVec2(x, p.y), ImVec2(x + w, p.y + h), IM_COL32(255, 255, 255, 255), 0, 0, 2.0f);
    if (ImGui::CalcTextSize(segs[i].name).x + 6 < w)
      dl->AddText(ImVec2(x + 4, p.y + (h - fs) * 0.5f), IM_COL32(255, 255, 255, 255), segs[i].name);
    x += w;
    total += segs[i].params;
  }
  std::string sum = fmt_count(int64_t(total));
  dl->AddText(ImVec2(x + 6, p.y + (h - fs) * 0.5f), IM_COL32(40, 40, 40, 255), sum.c_str());
  ImGui::Dummy(ImVec2(x - p.x + ImGui::CalcTextSize(sum.c_str()).x + 10, h));
}

static bool int_input(const char* label, int64_t* v, int64_t step, int64_t lo, int64_t hi) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
  bool changed = ImGui::InputScalar(label, ImGuiDataType_S64, v, &step, &step, "%lld");
  if (*v < lo) *v = lo;
  if (*v > hi) *v = hi;
  return changed;
}

// [SECTION] the whole model (lessons 000/003: 752M, the MLP 35 %) and decode traffic
#define COLOR_EMBEDDING IM_COL32(120, 140, 110, 255)
#define COLOR_ATTENTION IM_COL32(70, 150, 170, 255)
#define COLOR_NORMS IM_COL32(200, 200, 200, 255)

static void draw_whole_model(const lab_state* s) {
  ImGui::Spacing();
  ImGui::Separator();
  widget_text_wrapped(tr(STR_MODEL_TITLE));
  const std::vector<lab_model_row> rows = lab_model_rows();  // embedding, MLP, attention, norms, total
  const ImU32 colors[] = {COLOR_EMBEDDING, COLOR_GATE, COLOR_ATTENTION, COLOR_NORMS};
  // One bar, as wide as the screen allows: each block's share of the whole, labelled with its
  // name and share where they fit inside it (the share alone where only that fits); a block too
  // thin for either (the norms: 0.0067 %) is labelled under the bar, at its place, with a tick.
  const float fs = ImGui::GetFontSize();
  const float width = std::fmax(fs * 10, widget_visible_width() - fs);
  const double total = double(rows.back().count);
  ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  float x = p.x, h = fs * 1.6f;
  std::vector<int> under;  // blocks labelled under the bar
  std::vector<float> centre(4);
  for (int i = 0; i < 4; ++i) {
    float w = float(double(rows[i].count) / total * width);
    dl->AddRectFilled(ImVec2(x, p.y), ImVec2(x + w, p.y + h), colors[i]);
    dl->AddRect(ImVec2(x, p.y), ImVec2(x + w, p.y + h), IM_COL32(255, 255, 255, 255), 0, 0, 2.0f);
    const std::string share = lab_model_percent(rows[i].count), named = std::string(tr(rows[i].name)) + " " + share;
    const ImU32 ink = i == 3 ? IM_COL32(40, 40, 40, 255) : IM_COL32(255, 255, 255, 255);
    const float ty = p.y + (h - fs) * 0.5f;
    if (ImGui::CalcTextSize(named.c_str()).x + 8 < w) widget_text_at(ImVec2(x + 4, ty), ink, named);
    else if (ImGui::CalcTextSize(share.c_str()).x + 8 < w) widget_text_at(ImVec2(x + 4, ty), ink, share);
    else under.push_back(i);
    centre[size_t(i)] = x + w * 0.5f;
    x += w;
  }
  float below = p.y + h;
  for (int i : under) {  // one row each, right-aligned to the block when it sits at the bar's end
    const std::string label = std::string(tr(rows[size_t(i)].name)) + " " + lab_model_percent(rows[size_t(i)].count);
    const float lw = ImGui::CalcTextSize(label.c_str()).x, c = centre[size_t(i)];
    const float lx = std::fmin(std::fmax(p.x, c - lw * 0.5f), p.x + width - lw);
    dl->AddLine(ImVec2(c, p.y + h), ImVec2(c, below + fs * 0.4f), IM_COL32(90, 90, 90, 255), 1.0f);
    widget_text_at(ImVec2(lx, below + fs * 0.4f), IM_COL32(40, 40, 40, 255), label);
    below += fs * 1.4f;
  }
  ImGui::Dummy(ImVec2(width, below - p.y));
  item_probe_shape("model-bar", p.x, p.y, p.x + width, p.y + h);
  std::vector<widget_cell> cells;
  for (size_t i = 0; i < rows.size(); ++i) {
    cells.push_back({tr(rows[i].name), i < 4 ? colors[i] : 0});
    cells.push_back({fmt_count(rows[i].count) + " (" + fmt_count_short(rows[i].count) + ")", 0});
    cells.push_back({lab_model_percent(rows[i].count), 0});
  }
  widget_text_table("model", {"", tr(STR_MODEL_PARAMETERS), tr(STR_MODEL_PERCENT)}, cells);
  widget_text_wrapped(lab_model_share_text());

  ImGui::Spacing();
  widget_text_wrapped(tr(STR_DECODE_TITLE));
  std::vector<widget_cell> traffic;
  for (const std::vector<std::string>& row : lab_decode_rows(*s))
    for (const std::string& cell : row) traffic.push_back({cell, 0});
  widget_text_table("decode", {"", tr(STR_DECODE_BF16), tr(STR_DECODE_INT8)}, traffic);
}

static void budget_draw(lab_state* s) {
  widget_prose(tr(STR_BUDGET_INTRO));
  const float input_w = ImGui::GetFontSize() * 9 + (ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x) * 2;
  int_input(tr(STR_BUDGET_HIDDEN), &s->hidden, 64, LAB_HIDDEN_MIN, LAB_HIDDEN_MAX);
  widget_same_line_if_fits(input_w + ImGui::CalcTextSize(tr(STR_BUDGET_INTERMEDIATE)).x);
  int_input(tr(STR_BUDGET_INTERMEDIATE), &s->intermediate, 64, LAB_INTERMEDIATE_MIN, LAB_INTERMEDIATE_MAX);
  widget_same_line_if_fits(input_w + ImGui::CalcTextSize(tr(STR_BUDGET_LAYERS)).x);
  int_input(tr(STR_BUDGET_LAYERS), &s->layers, 1, LAB_LAYERS_MIN, LAB_LAYERS_MAX);

  budget_counts c = budget_count(s->hidden, s->intermediate, s->layers);
  if (ImGui::Button(tr(STR_BUDGET_QWEN))) s->hidden = 1024, s->intermediate = 3584, s->layers = 24;
  item_probe("preset-qwen");
  widget_same_line_if_fits(widget_button_width("f = 8/3 h"));
  if (ImGui::Button("f = 8/3 h")) s->intermediate = c.balanced_f;
  item_probe("preset-balanced");
  widget_same_line_if_fits(widget_button_width("f = 4h"));
  if (ImGui::Button("f = 4h")) s->intermediate = 4 * s->hidden;
  item_probe("preset-4h");
  c = budget_count(s->hidden, s->intermediate, s->layers);

  double h = double(s->hidden), f = double(s->intermediate), fb = double(c.balanced_f);
  const bar_segment classic[] = {{"W_1 (4h x h)", 4 * h * h, COLOR_CLASSIC}, {"W_2 (h x 4h)", 4 * h * h, COLOR_CLASSIC}};
  const bar_segment balanced[] = {{"gate_proj", fb * h, COLOR_GATE}, {"up_proj", fb * h, COLOR_UP}, {"down_proj", fb * h, COLOR_DOWN}};
  const bar_segment actual[] = {{"gate_proj", f * h, COLOR_GATE}, {"up_proj", f * h, COLOR_UP}, {"down_proj", f * h, COLOR_DOWN}};
  double largest = std::fmax(double(c.classic_per_layer), std::fmax(double(c.balanced_per_layer), double(c.swiglu_per_layer)));
  float fs = ImGui::GetFontSize();
  float label_width = ImGui::GetContentRegionAvail().x < fs * 36 ? 0 : fs * 12;
  float bar_room = std::fmax(fs * 10, ImGui::GetContentRegionAvail().x - label_width - fs * 7);
  double px_per_param = bar_room / largest;

  ImGui::Spacing();
  ImGui::TextUnformatted(tr(STR_BUDGET_PER_LAYER));
  draw_bar(tr(STR_BUDGET_CLASSIC), classic, 2, px_per_param, label_width);
  draw_bar(tr(STR_BUDGET_BALANCED), balanced, 3, px_per_param, label_width);
  draw_bar(tr(STR_BUDGET_ACTUAL), actual, 3, px_per_param, label_width);
  ImGui::Spacing();

  const std::vector<std::string> headers = {"", tr(STR_BUDGET_PER_LAYER), lab_budget_all_layers_text(s->layers)};
  std::vector<widget_cell> cells;
  for (const lab_budget_row& r : lab_budget_rows(*s)) {  // the mirror prints the same rows
    cells.push_back({r.name + " (f = " + r.f + ")", 0});
    cells.push_back({r.per_layer + " (" + r.per_layer_short + ")", 0});
    cells.push_back({r.all_layers, 0});
  }
  widget_text_table("counts", headers, cells);
  widget_text_wrapped(lab_budget_ratio_text(c));
  draw_whole_model(s);
}

// [SECTION] the panel's row (ui/panel.h)
void* budget_panel_init() { return nullptr; }
void budget_panel_keys(void*, panel_frame*) {}
void budget_panel_draw(void*, panel_frame* f) { budget_draw(f->state); }
bool budget_panel_animating(const void*, double) { return false; }
std::string budget_panel_text(const void*, panel_frame*) { return ""; }
void budget_panel_free(void*) {}
