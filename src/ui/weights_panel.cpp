// Weights (lessons 000/003, "the rule book"), as a panel (ui/panel.h): one matrix of one layer as a
// zoomable, pannable heatmap drawn by a shader from the int8 data, with its axes and colour scale,
// and one intermediate unit's gate row, up row and down column (unit_weights) with its silu(gate)
// on each probe token. Zoom and centre live in the view state (the link: zoom=, cx=, cy=).
#include "ui/panel.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/views/live_view.h"
#include "core/base/number_format.h"
#include "core/base/strings.h"
#include "imgui.h"
#include "imgui_internal.h"  // ImRect
#include "ui/focus.h"
#include "ui/item_probe.h"
#include "ui/renderer.h"
#include "ui/widgets.h"

// The panel's memory: the matrix uploaded to the renderer, and whether a press panned.
struct weights_panel {
  uint32_t heatmap = 0;                  // renderer handle of the uploaded matrix
  const void* uploaded_from = nullptr;  // the source it came from
  int uploaded_layer = -1, uploaded_matrix = -1;
  bool dragged = false;      // this press panned: its release picks nothing
  bool mouse_press = false;  // pressed by a mouse or finger (Enter or Space on it picks nothing)
};

// Zoom 1..256 and a centre that keeps the view inside the matrix, rounded so links stay short.
static void heatmap_set_view(lab_state* s, double zoom, double cx, double cy) {
  zoom = std::min(std::max(std::round(zoom * 100) / 100, 1.0), LAB_ZOOM_MAX);
  const double h = 0.5 / zoom;
  s->heat_zoom = zoom;
  s->heat_cx = std::round(std::min(std::max(cx, h), 1 - h) * 1e5) / 1e5;
  s->heat_cy = std::round(std::min(std::max(cy, h), 1 - h) * 1e5) / 1e5;
}


// The shader's colour for w / max|w| (shaders/heatmap.frag), for the legend.
static ImU32 heat_colour(float t_signed) {
  const float t = std::sqrt(std::min(std::fabs(t_signed), 1.0f));
  const float neg[3] = {0.16f, 0.40f, 0.85f}, pos[3] = {0.86f, 0.24f, 0.16f};
  const float* end = t_signed < 0 ? neg : pos;
  return ImGui::ColorConvertFloat4ToU32(ImVec4(1 + (end[0] - 1) * t, 1 + (end[1] - 1) * t, 1 + (end[2] - 1) * t, 1));
}

// Keeps [unit, unit + 1) of `count` inside the view centred at *centre (half-width `half`).
static void keep_in_view(double* centre, double half, int unit, int count) {
  const double a = (double)unit / count, b = (double)(unit + 1) / count;
  if (a < *centre - half) *centre = a + half;
  if (b > *centre + half) *centre = b - half;
}

// The heatmap's keys while it has the keyboard focus: the arrows along the unit's axis pick the
// next unit (the view follows), across it they pan; Page Up / Down jump a view's worth, Home / End
// to the ends, + / - zoom. Space and Enter pick nothing (a unit is picked by pointing at it).
static void heatmap_keys(lab_state* s, const q8_matrix_view* m, const live_choice& c) {
  ImGuiIO& io = ImGui::GetIO();
  const bool by_col = s->matrix == MLP_DOWN;
  const int count = by_col ? m->cols : m->rows;
  const int page = std::max(1, (int)(count / s->heat_zoom));
  auto pressed = [&](ImGuiKey k) { return io.KeyMap[k] >= 0 && ImGui::IsKeyPressed(io.KeyMap[k]); };
  int unit = c.unit;
  unit += pressed(by_col ? ImGuiKey_RightArrow : ImGuiKey_DownArrow) - pressed(by_col ? ImGuiKey_LeftArrow : ImGuiKey_UpArrow);
  unit += page * (pressed(ImGuiKey_PageDown) - pressed(ImGuiKey_PageUp));
  if (pressed(ImGuiKey_Home)) unit = 0;
  if (pressed(ImGuiKey_End)) unit = count - 1;
  unit = std::min(std::max(unit, 0), count - 1);
  double zoom = s->heat_zoom, cx = s->heat_cx, cy = s->heat_cy;
  const int across = pressed(by_col ? ImGuiKey_DownArrow : ImGuiKey_RightArrow) - pressed(by_col ? ImGuiKey_UpArrow : ImGuiKey_LeftArrow);
  (by_col ? cy : cx) += across * 0.25 / zoom;
  for (ImWchar ch : io.InputQueueCharacters) {
    if (ch == '+' || ch == '=') zoom *= 2;
    if (ch == '-' || ch == 0x2212) zoom /= 2;
  }
  zoom = std::min(std::max(zoom, 1.0), LAB_ZOOM_MAX);
  if (unit != c.unit || zoom != s->heat_zoom) keep_in_view(by_col ? &cx : &cy, 0.5 / zoom, unit, count);
  if (unit != c.unit) s->unit = unit;
  heatmap_set_view(s, zoom, cx, cy);
}

// The heatmap with zoom (wheel, pinch), pan (drag) and pick (click): gate/up pick a row, down a
// column; row and column numbers on its axes.
static void heatmap_area(weights_panel* w, lab_state* s, const q8_matrix_view* m, const live_choice& c, float max_abs) {
  const float fs = ImGui::GetFontSize(), avail = ImGui::GetContentRegionAvail().x;
  const float axis_w = ImGui::CalcTextSize("0000").x + fs * 0.4f, axis_h = fs * 1.3f;
  const float width = avail - axis_w;
  const ImVec2 size(width, std::min(width * 0.75f, fs * 20));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 p0(origin.x + axis_w, origin.y), p1(p0.x + size.x, p0.y + size.y);
  ImGui::SetCursorScreenPos(p0);
  ImGui::InvisibleButton("heatmap", size);
  ImGui::SetItemUsingMouseWheel();  // the wheel (or a pinch) over it zooms it, not the page
  item_probe("weights-heatmap");
  const bool focused = focus_current_id() == ImGui::GetItemID();
  ImGuiIO& io = ImGui::GetIO();
  double zoom = s->heat_zoom, cx = s->heat_cx, cy = s->heat_cy;
  const double half = 0.5 / zoom;
  if (ImGui::IsItemHovered() && io.MouseWheel != 0) {
    const double fx = (io.MousePos.x - p0.x) / size.x, fy = (io.MousePos.y - p0.y) / size.y;
    const double ux = cx - half + fx * 2 * half, uy = cy - half + fy * 2 * half;  // keep the point under the cursor
    zoom = std::min(std::max(zoom * std::pow(1.25, (double)io.MouseWheel), 1.0), LAB_ZOOM_MAX);
    const double nh = 0.5 / zoom;
    cx = ux + nh - fx * 2 * nh;
    cy = uy + nh - fy * 2 * nh;
  }
  if (ImGui::IsItemActivated()) w->dragged = false, w->mouse_press = ImGui::IsMouseClicked(ImGuiMouseButton_Left);
  if (ImGui::IsItemActive() && w->mouse_press && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 2.0f)) {
    w->dragged = true;
    // Pan as far as the matrix goes; the rest of the finger's move scrolls the page (at x1 the
    // map cannot pan at all, and it fills a third of a phone's screen).
    const double ncx = std::min(std::max(cx - io.MouseDelta.x / size.x * 2 * half, half), 1 - half);
    const double ncy = std::min(std::max(cy - io.MouseDelta.y / size.y * 2 * half, half), 1 - half);
    widget_scroll_by_drag(ImVec2(io.MouseDelta.x - (float)((cx - ncx) * size.x / (2 * half)),
                                 io.MouseDelta.y - (float)((cy - ncy) * size.y / (2 * half))));
    cx = ncx, cy = ncy;
  }
  heatmap_set_view(s, zoom, cx, cy);
  if (ImGui::IsItemDeactivated() && w->mouse_press && !w->dragged && ImRect(p0, p1).Contains(io.MousePos)) {
    const float h = (float)(0.5 / s->heat_zoom), fx = (io.MousePos.x - p0.x) / size.x, fy = (io.MousePos.y - p0.y) / size.y;
    const int row = (int)((s->heat_cy - h + fy * 2 * h) * m->rows), col = (int)((s->heat_cx - h + fx * 2 * h) * m->cols);
    s->unit = s->matrix == MLP_DOWN ? std::min(std::max(col, 0), m->cols - 1) : std::min(std::max(row, 0), m->rows - 1);
  }
  if (focused) heatmap_keys(s, m, c);
  const float h = (float)(0.5 / s->heat_zoom);
  const float vx = (float)s->heat_cx, vy = (float)s->heat_cy;
  const ImVec2 uv0(vx - h, vy - h), uv1(vx + h, vy + h);
  renderer_heatmap_draw(w->heatmap, p0, p1, uv0, uv1, max_abs);
  // The picked unit: a row of gate/up, a column of down.
  const int unit = s->unit >= 0 ? (int)std::min<int64_t>(s->unit, (s->matrix == MLP_DOWN ? m->cols : m->rows) - 1) : c.unit;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(p0, p1, true);
  if (s->matrix == MLP_DOWN) {
    const float x = p0.x + ((unit + 0.5f) / m->cols - uv0.x) / (uv1.x - uv0.x) * size.x;
    dl->AddLine(ImVec2(x, p0.y), ImVec2(x, p1.y), IM_COL32(20, 20, 20, 255), 1.5f * widget_line_scale());
  } else {
    const float y = p0.y + ((unit + 0.5f) / m->rows - uv0.y) / (uv1.y - uv0.y) * size.y;
    dl->AddLine(ImVec2(p0.x, y), ImVec2(p1.x, y), IM_COL32(20, 20, 20, 255), 1.5f * widget_line_scale());
  }
  dl->PopClipRect();
  dl->AddRect(p0, p1, IM_COL32(160, 160, 160, 255));
  // Axes: the first, middle and last row and column in view.
  const ImU32 grey = IM_COL32(110, 110, 110, 255);
  const int r0 = std::min((int)std::ceil(uv0.y * m->rows - 0.5f), m->rows - 1), r1 = std::max((int)std::floor(uv1.y * m->rows - 0.5f), r0);
  const int c0 = std::min((int)std::ceil(uv0.x * m->cols - 0.5f), m->cols - 1), c1 = std::max((int)std::floor(uv1.x * m->cols - 0.5f), c0);
  for (int r : {r0, (r0 + r1) / 2, r1}) {
    const std::string t = std::to_string(r);
    const float y = p0.y + ((r + 0.5f) / m->rows - uv0.y) / (uv1.y - uv0.y) * size.y - fs * 0.5f;
    widget_text_at(ImVec2(p0.x - fs * 0.2f - ImGui::CalcTextSize(t.c_str()).x, std::min(std::max(y, p0.y), p1.y - fs)), grey, t);
    if (r0 == r1) break;
  }
  for (int col : {c0, (c0 + c1) / 2, c1}) {
    const std::string t = std::to_string(col);
    const float tw = ImGui::CalcTextSize(t.c_str()).x;
    const float x = p0.x + ((col + 0.5f) / m->cols - uv0.x) / (uv1.x - uv0.x) * size.x - tw * 0.5f;
    widget_text_at(ImVec2(std::min(std::max(x, p0.x), p1.x - tw), p1.y + 2), grey, t);
    if (c0 == c1) break;
  }
  ImGui::SetCursorScreenPos(ImVec2(origin.x, p1.y));
  ImGui::Dummy(ImVec2(avail, axis_h));
}

// The colour scale: the shader's colours from -max|w| to +max|w|, with the weights they stand
// for (a square root: a quarter of max|w| is already half the colour).
static void heatmap_legend(float max_abs) {
  const float fs = ImGui::GetFontSize(), width = std::min(widget_visible_width() - fs, fs * 22);
  widget_text_disabled(tr(STR_LIVEUX_LEGEND));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const std::string far_left = fmt_sig3(-max_abs);
  const float pad = ImGui::CalcTextSize(far_left.c_str()).x * 0.5f;
  const ImVec2 p0(origin.x + pad, origin.y), p1(origin.x + width - pad, origin.y + fs * 0.9f);
  ImGui::Dummy(ImVec2(width, fs * 0.9f + fs * 1.3f));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const int steps = 64;
  for (int i = 0; i < steps; i++) {
    const float x0 = p0.x + (p1.x - p0.x) * i / steps, x1 = p0.x + (p1.x - p0.x) * (i + 1) / steps;
    dl->AddRectFilled(ImVec2(x0, p0.y), ImVec2(x1 + 0.5f, p1.y), heat_colour(-1 + 2 * (i + 0.5f) / steps));
  }
  dl->AddRect(p0, p1, IM_COL32(160, 160, 160, 255));
  item_probe_shape("weights-legend", p0.x, p0.y, p1.x, p1.y);
  for (float f : {-1.0f, -0.25f, 0.0f, 0.25f, 1.0f}) {
    const float x = p0.x + (p1.x - p0.x) * (f + 1) * 0.5f;
    const std::string t = fmt_sig3(f * max_abs);
    dl->AddLine(ImVec2(x, p1.y), ImVec2(x, p1.y + fs * 0.25f), IM_COL32(60, 60, 60, 255));
    widget_text_at(ImVec2(x - ImGui::CalcTextSize(t.c_str()).x * 0.5f, p1.y + fs * 0.25f), IM_COL32(110, 110, 110, 255), t);
  }
}

// One vector along the hidden dimension, with its value scale (max, 0, min) and components.
static void vector_plot(const char* label, const char* probe_name, const std::vector<float>& v, ImU32 color) {
  widget_text(label);
  const float fs = ImGui::GetFontSize(), width = widget_visible_width();
  float lo = 0, hi = 0;
  for (float x : v) lo = std::min(lo, x), hi = std::max(hi, x);
  if (hi == lo) hi = lo + 1;
  const std::string top = fmt_sig3(hi), bottom = fmt_sig3(lo);
  const float axis_w = std::max(ImGui::CalcTextSize(top.c_str()).x, ImGui::CalcTextSize(bottom.c_str()).x) + fs * 0.4f;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 p0(origin.x + axis_w, origin.y + fs * 0.5f), p1(origin.x + width, origin.y + fs * 4.5f);
  ImGui::Dummy(ImVec2(width, fs * 4.5f + fs * 1.3f));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  auto y_at = [&](float x) { return p1.y - (x - lo) / (hi - lo) * (p1.y - p0.y); };
  dl->AddRectFilled(p0, p1, IM_COL32(255, 255, 255, 255));
  dl->AddLine(ImVec2(p0.x, y_at(0)), ImVec2(p1.x, y_at(0)), IM_COL32(150, 150, 150, 255));
  std::vector<ImVec2> pts(v.size());
  for (size_t k = 0; k < v.size(); k++) pts[k] = ImVec2(p0.x + (p1.x - p0.x) * (k + 0.5f) / v.size(), y_at(v[k]));
  dl->AddPolyline(pts.data(), (int)pts.size(), color, 0, widget_line_scale());
  dl->AddRect(p0, p1, IM_COL32(180, 180, 180, 255));
  item_probe_shape(probe_name, p0.x, p0.y, p1.x, p1.y);
  const ImU32 grey = IM_COL32(110, 110, 110, 255);
  widget_text_at(ImVec2(p0.x - fs * 0.2f - ImGui::CalcTextSize(top.c_str()).x, p0.y - fs * 0.5f), grey, top);
  widget_text_at(ImVec2(p0.x - fs * 0.2f - ImGui::CalcTextSize(bottom.c_str()).x, p1.y - fs * 0.5f), grey, bottom);
  if (y_at(0) - p0.y > fs && p1.y - y_at(0) > fs) widget_text_at(ImVec2(p0.x - fs * 0.2f - ImGui::CalcTextSize("0").x, y_at(0) - fs * 0.5f), grey, "0");
  const std::string last = std::to_string(v.size() - 1), caption = tr(STR_LIVEUX_COMPONENT);
  widget_text_at(ImVec2(p0.x, p1.y + 2), grey, "0");
  widget_text_at(ImVec2(p1.x - ImGui::CalcTextSize(last.c_str()).x, p1.y + 2), grey, last);
  widget_text_at(ImVec2((p0.x + p1.x - ImGui::CalcTextSize(caption.c_str()).x) * 0.5f, p1.y + 2), grey, caption);
}

static void weights_draw(weights_panel* w, lab_state* s, live_session* ls, const live_choice& c) {
  widget_prose(tr(STR_WEIGHTS_INTRO));
  if (!c.ready) return;
  ImGui::AlignTextToFramePadding();
  widget_text(tr(STR_WEIGHTS_MATRIX));
  for (int m = 0; m < MLP_PART_COUNT; m++) {
    widget_same_line_if_fits(widget_button_width(MLP_PART_SYMBOLS[m]));
    if (ImGui::RadioButton(MLP_PART_SYMBOLS[m], s->matrix == m)) s->matrix = m;
    item_probe((std::string("weights-") + MLP_PART_SYMBOLS[m]).c_str());
  }
  int unit = c.unit;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  if (ImGui::InputInt(tr(STR_WEIGHTS_UNIT), &unit)) s->unit = std::min<int64_t>(std::max(unit, 0), ls->source->model().intermediate - 1);
  item_probe("weights-unit");

  layer_source* src = ls->source.get();
  const unit_weights& u = ls->unit;
  const q8_matrix_view* m = src->matrix(c.layer, (mlp_part)s->matrix);
  if (!m || !u.valid || u.layer != c.layer || u.unit != c.unit) {
    bool loading = false;
    widget_text_wrapped(live_needs_whole_text(src, c.layer, &loading));
    const source_progress p = src->progress(c.layer);
    if (loading) ImGui::ProgressBar((float)((double)p.loaded / (double)p.total));
    return;
  }
  // The matrix goes to the renderer once; again only when another one is shown.
  if (w->uploaded_from != src || w->uploaded_layer != c.layer || w->uploaded_matrix != s->matrix ||
      !renderer_heatmap_valid(w->heatmap)) {
    if (w->heatmap) renderer_heatmap_free(w->heatmap);
    w->heatmap = renderer_heatmap_upload(m);
    w->uploaded_from = src;
    w->uploaded_layer = c.layer;
    w->uploaded_matrix = s->matrix;
  }
  const float max_abs = u.max_abs[s->matrix];
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
  widget_text_wrapped(weights_matrix_text(src->model(), (mlp_part)s->matrix) + ", " + tr(STR_WEIGHTS_INT8));
  widget_text_wrapped(std::string(tr(s->matrix == MLP_DOWN ? STR_LIVEUX_ROWS_OUTPUT : STR_LIVEUX_ROWS_UNITS)) + ", " +
                      tr(s->matrix == MLP_DOWN ? STR_LIVEUX_COLS_UNITS : STR_LIVEUX_COLS_INPUT));
  ImGui::PopStyleColor();
  heatmap_area(w, s, m, c, max_abs);
  heatmap_legend(max_abs);
  // Buttons too: not every phone user knows to pinch, and a mouse may have no wheel.
  if (ImGui::Button(" + ")) heatmap_set_view(s, s->heat_zoom * 2, s->heat_cx, s->heat_cy);
  item_probe("weights-zoom-in");
  ImGui::SameLine();
  if (ImGui::Button(" - ")) heatmap_set_view(s, s->heat_zoom / 2, s->heat_cx, s->heat_cy);
  item_probe("weights-zoom-out");
  ImGui::SameLine();
  widget_text_disabled(fmt_zoom(s->heat_zoom));  // the mirror says "zoom ×2" (weights_zoom_text)
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
  widget_text_wrapped(tr(STR_WEIGHTS_ZOOM_HINT));
  widget_text_wrapped(tr(STR_LIVEUX_HEATMAP_KEYS));
  ImGui::PopStyleColor();

  // The unit's rule: its gate and up rows (conditions on the input), its down column (what it writes).
  widget_text(weights_unit_text(c));
  vector_plot(tr(STR_WEIGHTS_GATE_ROW), "weights-plot-gate", u.gate_row, COLOR_GATE);
  vector_plot(tr(STR_WEIGHTS_UP_ROW), "weights-plot-up", u.up_row, COLOR_UP);
  vector_plot(tr(STR_WEIGHTS_DOWN_COL), "weights-plot-down", u.down_col, COLOR_DOWN);
  const view_row silu = weights_silu_row(*s, ls, c);  // the mirror prints the same row
  if (!silu.cells.empty()) {
    widget_text_wrapped(silu.label);
    for (const view_cell& cell : silu.cells) {
      const std::string text = view_cell_text(cell);
      widget_same_line_if_fits(ImGui::CalcTextSize(text.c_str()).x + ImGui::GetFontSize());
      widget_text_colored(widget_tone_color(cell.tone), text);
    }
    widget_text_wrapped_disabled(tr(STR_WEIGHTS_SILU_INPUT));
  }
}

// [SECTION] the panel's row (ui/panel.h)
void* weights_panel_init() { return new weights_panel(); }
void weights_panel_keys(void*, panel_frame*) {}
void weights_panel_draw(void* self, panel_frame* f) { weights_draw((weights_panel*)self, f->state, f->live, *f->choice); }
bool weights_panel_animating(const void*, double) { return false; }
std::string weights_panel_text(const void*, panel_frame*) { return ""; }
void weights_panel_free(void* self) {
  weights_panel* w = (weights_panel*)self;
  if (w->heatmap) renderer_heatmap_free(w->heatmap);
  delete w;
}
