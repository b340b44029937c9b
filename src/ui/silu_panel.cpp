// Lesson 001's SiLU vs ReLU, as a panel (ui/panel.h): both curves on z in [-6, 6], a probe z (drag
// on the plot or the slider, snapping to whole numbers and the minimum; or typed), SiLU's minimum
// (about -0.278 at z about -1.278), sigmoid and GELU as overlays. Keys: right/left arrow move the
// probe by 0.01 (with Shift 0.1), unless a text field has the keyboard.
#include "ui/panel.h"

#include <cmath>

#include "core/lesson/activations.h"
#include "core/views/lab_text.h"
#include "core/base/number_format.h"
#include "core/base/strings.h"
#include "imgui.h"
#include "ui/item_probe.h"
#include "ui/widgets.h"

static const double PLOT_Y_MIN = -1.0, PLOT_Y_MAX = 6.2;
// The minimum's label keeps this much (in plot units) above the curves under it.
static const double LABEL_GAP = 0.35;
static const int CURVE_SAMPLES = 241;  // every 0.05 on [-6, 6]
// A drag that passes within this many pixels of a whole number or of SiLU's minimum lands on it
// exactly, so the lesson's z = -1 (SiLU(-1) = -0.268941) is one drag away at any screen width.
static const float SNAP_PIXELS = 4.0f;
static const double PROBE_STEP = 0.01, PROBE_STEP_FAST = 0.1;  // the typed field's - / + and arrow keys

static double clamp_probe(double z) { return z < LAB_PROBE_MIN ? LAB_PROBE_MIN : z > LAB_PROBE_MAX ? LAB_PROBE_MAX : z; }

// z from a drag where one pixel is `units_per_pixel` of z: 0.01 steps (short links), or the nearest
// marked point when one is within SNAP_PIXELS.
static double snap_probe(double z, double units_per_pixel) {
  double best = std::round(z / PROBE_STEP) * PROBE_STEP, best_distance = SNAP_PIXELS * units_per_pixel;
  for (double mark : {std::round(z), act_silu_minimum().z}) {
    if (std::fabs(mark - z) <= best_distance) best = mark, best_distance = std::fabs(mark - z);
  }
  best = clamp_probe(best);
  return best == 0 ? 0.0 : best;  // no "-0" in links
}

struct plot_frame {
  ImVec2 min, max;
  ImVec2 to_screen(double z, double v) const {
    float fx = float((z - LAB_PROBE_MIN) / (LAB_PROBE_MAX - LAB_PROBE_MIN));
    float fy = float((v - PLOT_Y_MIN) / (PLOT_Y_MAX - PLOT_Y_MIN));
    return ImVec2(min.x + fx * (max.x - min.x), max.y - fy * (max.y - min.y));
  }
  double z_at(float screen_x) const {
    double f = (screen_x - min.x) / (max.x - min.x);
    return LAB_PROBE_MIN + f * (LAB_PROBE_MAX - LAB_PROBE_MIN);
  }
};

static void draw_curve(ImDrawList* dl, const plot_frame& pf, double (*fn)(double), ImU32 color, float thickness) {
  ImVec2 pts[CURVE_SAMPLES];
  for (int i = 0; i < CURVE_SAMPLES; ++i) {
    double z = LAB_PROBE_MIN + (LAB_PROBE_MAX - LAB_PROBE_MIN) * i / (CURVE_SAMPLES - 1);
    pts[i] = pf.to_screen(z, fn(z));
  }
  dl->AddPolyline(pts, CURVE_SAMPLES, color, 0, thickness * widget_line_scale());
}

static void draw_grid(ImDrawList* dl, const plot_frame& pf) {
  dl->AddRectFilled(pf.min, pf.max, IM_COL32(255, 255, 255, 255));
  for (int z = -6; z <= 6; ++z) {
    ImVec2 a = pf.to_screen(z, PLOT_Y_MIN), b = pf.to_screen(z, PLOT_Y_MAX);
    dl->AddLine(a, b, z == 0 ? IM_COL32(90, 90, 90, 255) : IM_COL32(230, 230, 230, 255), widget_line_scale());
    std::string label = std::to_string(z);
    dl->AddText(ImVec2(a.x - ImGui::CalcTextSize(label.c_str()).x * 0.5f, a.y + 2), IM_COL32(110, 110, 110, 255), label.c_str());
  }
  for (int v = -1; v <= 6; ++v) {
    ImVec2 a = pf.to_screen(LAB_PROBE_MIN, v), b = pf.to_screen(LAB_PROBE_MAX, v);
    dl->AddLine(a, b, v == 0 ? IM_COL32(90, 90, 90, 255) : IM_COL32(230, 230, 230, 255), widget_line_scale());
    std::string label = std::to_string(v);
    dl->AddText(ImVec2(a.x - ImGui::CalcTextSize(label.c_str()).x - 4, a.y - ImGui::GetFontSize() * 0.5f), IM_COL32(110, 110, 110, 255), label.c_str());
  }
  dl->AddRect(pf.min, pf.max, IM_COL32(180, 180, 180, 255));
}

static void legend_entry(ImU32 color, const char* label) {
  ImVec2 p = ImGui::GetCursorScreenPos();
  float fs = ImGui::GetFontSize();
  ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + fs * 0.4f), ImVec2(p.x + fs * 1.4f, p.y + fs * 0.65f), color);
  ImGui::Dummy(ImVec2(fs * 1.5f, fs));
  ImGui::SameLine();
  widget_text(label);
}

static void draw_plot(lab_state* s, float width) {
  float fs = ImGui::GetFontSize();
  float height = std::fmax(fs * 12, std::fmin(width * 0.55f, fs * 24));
  ImVec2 origin = ImGui::GetCursorScreenPos();
  plot_frame pf{ImVec2(origin.x + fs * 2, origin.y + fs * 0.5f), ImVec2(origin.x + width - fs * 0.5f, origin.y + height - fs * 1.5f)};

  ImGui::InvisibleButton("plot", ImVec2(width, height));
  item_probe("plot");
  if (ImGui::IsItemActive() && ImGui::IsMouseDown(ImGuiMouseButton_Left)) {  // not a key activating it
    double units_per_pixel = (LAB_PROBE_MAX - LAB_PROBE_MIN) / (pf.max.x - pf.min.x);
    s->probe_z = snap_probe(pf.z_at(ImGui::GetIO().MousePos.x), units_per_pixel);
  }

  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(origin, ImVec2(origin.x + width, origin.y + height), true);
  draw_grid(dl, pf);
  dl->PushClipRect(pf.min, pf.max, true);
  if (s->show_sigmoid) draw_curve(dl, pf, act_sigmoid, COLOR_SIGMOID, 2.0f);
  if (s->show_gelu) draw_curve(dl, pf, act_gelu, COLOR_GELU, 2.0f);
  draw_curve(dl, pf, act_relu, COLOR_RELU, 2.5f);
  draw_curve(dl, pf, act_silu, COLOR_SILU, 3.0f);

  act_extremum m = act_silu_minimum();
  ImVec2 mp = pf.to_screen(m.z, m.value);
  dl->AddCircle(mp, fs * 0.35f, IM_COL32(0, 0, 0, 255), 16, 1.5f * widget_line_scale());
  std::string min_label = std::string(tr(STR_SILU_MIN)) + " (" + fmt_fixed(m.z, 3) + ", " + fmt_fixed(m.value, 3) + ")";
  // Above the point and clear of every curve: left of z = 0 they all stay below 1 (sigmoid's
  // top); to the right none rises above z itself. So the label, centred on the point or pushed
  // left to the plot's edge, sits just above max(1, z at its right end); a leader line goes down.
  // On a narrow plot the label takes two lines, so it ends left of z = 1.5.
  const float room = pf.to_screen(1.5, 0).x - pf.min.x - 4;
  if (ImGui::CalcTextSize(min_label.c_str()).x > room) min_label = widget_break_lines(min_label, room);
  ImVec2 label_size = ImGui::CalcTextSize(min_label.c_str());
  float label_x = std::fmax(pf.min.x + 4, mp.x - label_size.x * 0.5f);
  double right_z = pf.z_at(label_x + label_size.x);
  float label_bottom = std::fmax(pf.to_screen(0, std::fmax(1.0, right_z) + LABEL_GAP).y, pf.min.y + label_size.y + 2);
  ImVec2 label_pos(label_x, label_bottom - label_size.y);
  dl->AddLine(ImVec2(mp.x, label_pos.y + label_size.y), ImVec2(mp.x, mp.y - fs * 0.35f), IM_COL32(0, 0, 0, 110), 1.0f);
  dl->AddRectFilled(label_pos, ImVec2(label_pos.x + label_size.x, label_pos.y + label_size.y), IM_COL32(255, 255, 255, 200));
  dl->AddText(label_pos, IM_COL32(0, 0, 0, 255), min_label.c_str());
  item_probe_shape("silu-min-label", label_pos.x, label_pos.y, label_pos.x + label_size.x, label_pos.y + label_size.y);

  double z = s->probe_z;
  ImVec2 top = pf.to_screen(z, PLOT_Y_MAX), bottom = pf.to_screen(z, PLOT_Y_MIN);
  dl->AddLine(top, bottom, IM_COL32(200, 30, 60, 200), 1.5f * widget_line_scale());
  dl->AddCircleFilled(pf.to_screen(z, act_relu(z)), fs * 0.3f, COLOR_RELU);
  dl->AddCircleFilled(pf.to_screen(z, act_silu(z)), fs * 0.3f, COLOR_SILU);
  if (s->show_sigmoid) dl->AddCircleFilled(pf.to_screen(z, act_sigmoid(z)), fs * 0.25f, COLOR_SIGMOID);
  if (s->show_gelu) dl->AddCircleFilled(pf.to_screen(z, act_gelu(z)), fs * 0.25f, COLOR_GELU);
  dl->PopClipRect();
  dl->PopClipRect();
}


// The probe by hand: a slider and a typed field (with - / + buttons), both exact.
static void draw_probe_inputs(lab_state* s) {
  float fs = ImGui::GetFontSize();
  const char* label = tr(STR_SILU_PROBE);
  float label_w = ImGui::CalcTextSize(label).x + ImGui::GetStyle().ItemInnerSpacing.x;
  float slider_w = std::fmin(widget_visible_width() - label_w, fs * 30);
  ImGui::SetNextItemWidth(slider_w);
  const double lo = LAB_PROBE_MIN, hi = LAB_PROBE_MAX;
  if (ImGui::SliderScalar(label, ImGuiDataType_Double, &s->probe_z, &lo, &hi, "z = %.2f", ImGuiSliderFlags_AlwaysClamp))
    s->probe_z = snap_probe(s->probe_z, (hi - lo) / slider_w);
  item_probe("probe-slider");

  const char* type_label = tr(STR_SILU_TYPE_Z);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(type_label);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(fs * 10);
  if (ImGui::InputScalar("##z-typed", ImGuiDataType_Double, &s->probe_z, &PROBE_STEP, &PROBE_STEP_FAST, "%.6g")) {
    s->probe_z = clamp_probe(s->probe_z);
    if (s->probe_z == 0) s->probe_z = 0;
  }
  item_probe("probe-typed");
}

// Left/right arrow keys move the probe (Shift: by 0.1) when no text field has the keyboard.
static void silu_keys(lab_state* s) {
  ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput || ImGui::IsAnyItemActive()) return;
  double step = io.KeyShift ? PROBE_STEP_FAST : PROBE_STEP;
  double z = s->probe_z;
  if (ImGui::IsKeyPressed(io.KeyMap[ImGuiKey_RightArrow])) z += step;
  if (ImGui::IsKeyPressed(io.KeyMap[ImGuiKey_LeftArrow])) z -= step;
  if (z != s->probe_z) s->probe_z = snap_probe(z, 0);
}

// The readout the mirror prints too (lab_silu_rows): each name in its curve's colour, its value.
static void draw_readout(lab_state* s) {
  if (ImGui::BeginTable("readout", 2, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoHostExtendX)) {
    for (const view_row& r : lab_silu_rows(*s)) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushStyleColor(ImGuiCol_Text, widget_tone_color(r.tone));
      ImGui::TextUnformatted(r.label.c_str());
      ImGui::PopStyleColor();
      ImGui::TableNextColumn();
      widget_text(r.cells[0].value);
    }
    ImGui::EndTable();
  }
  widget_text_wrapped(lab_silu_probe_text(*s));
  widget_text_wrapped(lab_silu_minimum_text());
}

static void silu_draw(lab_state* s) {
  float fs = ImGui::GetFontSize();
  widget_prose(tr(STR_SILU_INTRO));
  // The legend names every curve on the plot, the overlays too.
  struct entry { ImU32 color; const char* label; bool shown; };
  const entry legend[] = {{COLOR_SILU, tr(STR_SILU_LEGEND_SILU), true},
                          {COLOR_RELU, tr(STR_SILU_LEGEND_RELU), true},
                          {COLOR_SIGMOID, tr(STR_SILU_LEGEND_SIGMOID), s->show_sigmoid},
                          {COLOR_GELU, tr(STR_SILU_LEGEND_GELU), s->show_gelu}};
  bool first = true;
  for (const entry& e : legend) {
    if (!e.shown) continue;
    if (!first) widget_same_line_if_fits(fs * 1.5f + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(e.label).x);
    legend_entry(e.color, e.label);
    first = false;
  }
  ImGui::Checkbox(tr(STR_SILU_SHOW_SIGMOID), &s->show_sigmoid);
  item_probe("show-sigmoid");
  widget_same_line_if_fits(widget_checkbox_width(tr(STR_SILU_SHOW_GELU)));
  ImGui::Checkbox(tr(STR_SILU_SHOW_GELU), &s->show_gelu);
  item_probe("show-gelu");

  // Wide screens: the numbers beside the plot, so they stay above the fold with the overlays on.
  float avail = widget_visible_width(), plot_w = std::fmin(avail, fs * 50), side_w = fs * 22;
  bool side_by_side = avail >= plot_w + side_w + ImGui::GetStyle().ItemSpacing.x;
  if (side_by_side && ImGui::BeginTable("silu-layout", 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoHostExtendX)) {
    ImGui::TableSetupColumn("plot", ImGuiTableColumnFlags_WidthFixed, plot_w);
    ImGui::TableSetupColumn("numbers", ImGuiTableColumnFlags_WidthFixed, avail - plot_w - ImGui::GetStyle().CellPadding.x * 4);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
  } else {
    side_by_side = false;
  }
  draw_plot(s, plot_w);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  widget_text_wrapped(tr(STR_SILU_DRAG_HINT));
  ImGui::PopStyleColor();
  draw_probe_inputs(s);
  if (side_by_side) ImGui::TableNextColumn();
  draw_readout(s);
  if (side_by_side) ImGui::EndTable();
}

// [SECTION] the panel's row (ui/panel.h)
void* silu_panel_init() { return nullptr; }
void silu_panel_keys(void*, panel_frame* f) { silu_keys(f->state); }
void silu_panel_draw(void*, panel_frame* f) { silu_draw(f->state); }
bool silu_panel_animating(const void*, double) { return false; }
std::string silu_panel_text(const void*, panel_frame*) { return ""; }
void silu_panel_free(void*) {}
