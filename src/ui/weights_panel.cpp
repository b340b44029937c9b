// Weights (lessons 000/003, "the rule book"), as a panel (ui/panel.h): one matrix of one layer as a
// zoomable, pannable heatmap drawn by a shader from the int8 data, and one intermediate unit's gate
// row, up row and down column (unit_weights) with its silu(gate) on each probe token. Zoom and
// centre live in the view state (the link: zoom=, cx=, cy=), so a shared link shows the same patch.
#include "ui/panel.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/live_view.h"
#include "core/number_format.h"
#include "core/strings.h"
#include "imgui.h"
#include "ui/item_probe.h"
#include "ui/renderer.h"
#include "ui/widgets.h"

// The panel's memory: the matrix uploaded to the renderer, and whether a press panned.
struct weights_panel {
  uint32_t heatmap = 0;  // renderer handle of the uploaded matrix
  const void* uploaded_from = nullptr;  // the source it came from
  int uploaded_layer = -1, uploaded_matrix = -1;
  uint64_t uploaded_generation = 0;
  bool dragged = false;  // this press panned: its release picks nothing
};


// Zoom 1..256 and a centre that keeps the view inside the matrix, rounded so links stay short.
static void heatmap_set_view(lab_state* s, double zoom, double cx, double cy) {
  zoom = std::min(std::max(std::round(zoom * 100) / 100, 1.0), LAB_ZOOM_MAX);
  const double h = 0.5 / zoom;
  s->heat_zoom = zoom;
  s->heat_cx = std::round(std::min(std::max(cx, h), 1 - h) * 1e5) / 1e5;
  s->heat_cy = std::round(std::min(std::max(cy, h), 1 - h) * 1e5) / 1e5;
}


// The heatmap with zoom (wheel), pan (drag) and pick (click): gate/up pick a row, down a column.
static void heatmap_area(weights_panel* w, lab_state* s, const q8_matrix_view* m, const live_choice& c, float max_abs) {
  const float fs = ImGui::GetFontSize(), width = ImGui::GetContentRegionAvail().x;
  const ImVec2 size(width, std::min(width * 0.75f, fs * 20));
  const ImVec2 p0 = ImGui::GetCursorScreenPos(), p1(p0.x + size.x, p0.y + size.y);
  ImGui::InvisibleButton("heatmap", size);
  item_probe("weights-heatmap");
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
  if (ImGui::IsItemActivated()) w->dragged = false;
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 2.0f)) {
    w->dragged = true;
    cx -= io.MouseDelta.x / size.x * 2 * half;
    cy -= io.MouseDelta.y / size.y * 2 * half;
  }
  heatmap_set_view(s, zoom, cx, cy);
  const float h = (float)(0.5 / s->heat_zoom);
  const float vx = (float)s->heat_cx, vy = (float)s->heat_cy;
  const ImVec2 uv0(vx - h, vy - h), uv1(vx + h, vy + h);
  if (ImGui::IsItemDeactivated() && !w->dragged) {
    const float fx = (io.MousePos.x - p0.x) / size.x, fy = (io.MousePos.y - p0.y) / size.y;
    const int row = (int)((uv0.y + fy * (uv1.y - uv0.y)) * m->rows), col = (int)((uv0.x + fx * (uv1.x - uv0.x)) * m->cols);
    s->unit = s->matrix == MLP_DOWN ? std::min(std::max(col, 0), m->cols - 1) : std::min(std::max(row, 0), m->rows - 1);
  }
  renderer_heatmap_draw(w->heatmap, p0, p1, uv0, uv1, max_abs);
  // The picked unit: a row of gate/up, a column of down.
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(p0, p1, true);
  if (s->matrix == MLP_DOWN) {
    const float x = p0.x + ((c.unit + 0.5f) / m->cols - uv0.x) / (uv1.x - uv0.x) * size.x;
    dl->AddLine(ImVec2(x, p0.y), ImVec2(x, p1.y), IM_COL32(20, 20, 20, 255), 1.5f);
  } else {
    const float y = p0.y + ((c.unit + 0.5f) / m->rows - uv0.y) / (uv1.y - uv0.y) * size.y;
    dl->AddLine(ImVec2(p0.x, y), ImVec2(p1.x, y), IM_COL32(20, 20, 20, 255), 1.5f);
  }
  dl->PopClipRect();
  dl->AddRect(p0, p1, IM_COL32(160, 160, 160, 255));
}

static void vector_plot(const char* label, const std::vector<float>& v, ImU32 color) {
  widget_text(label);
  ImGui::PushStyleColor(ImGuiCol_PlotLines, ImGui::ColorConvertU32ToFloat4(color));
  ImGui::PlotLines((std::string("##") + label).c_str(), v.data(), (int)v.size(), 0, nullptr, FLT_MAX, FLT_MAX,
                   ImVec2(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 4));
  ImGui::PopStyleColor();
}

static void weights_draw(weights_panel* w, lab_state* s, live_session* ls, const live_choice& c) {
  widget_text_wrapped(tr(STR_WEIGHTS_INTRO));
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
    widget_text_wrapped(tr(STR_LIVE_NEEDS_WHOLE));
    const source_progress p = src->progress(c.layer);
    if (p.total) ImGui::ProgressBar((float)((double)p.loaded / (double)p.total));
    return;
  }
  // The matrix goes to the renderer once; again only when another one is shown (or it was evicted and came back).
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
  widget_text_wrapped(strf("%s (%d x %d), %s", MLP_PART_SYMBOLS[s->matrix], m->rows, m->cols, tr(STR_WEIGHTS_INT8)));
  ImGui::PopStyleColor();
  heatmap_area(w, s, m, c, max_abs);
  // Buttons too: a phone has no wheel (and a pinch zooms the page, not the canvas).
  if (ImGui::Button(" + ")) heatmap_set_view(s, s->heat_zoom * 2, s->heat_cx, s->heat_cy);
  item_probe("weights-zoom-in");
  ImGui::SameLine();
  if (ImGui::Button(" - ")) heatmap_set_view(s, s->heat_zoom / 2, s->heat_cx, s->heat_cy);
  item_probe("weights-zoom-out");
  ImGui::SameLine();
  widget_text_disabled(strf("x%g", s->heat_zoom));
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
  widget_text_wrapped(tr(STR_WEIGHTS_ZOOM_HINT));
  ImGui::PopStyleColor();

  // The unit's rule: its gate and up rows (conditions on the input), its down column (what it writes).
  widget_text(std::string(tr(STR_WEIGHTS_UNIT)) + " " + std::to_string(c.unit));
  vector_plot(tr(STR_WEIGHTS_GATE_ROW), u.gate_row, COLOR_GATE);
  vector_plot(tr(STR_WEIGHTS_UP_ROW), u.up_row, COLOR_UP);
  vector_plot(tr(STR_WEIGHTS_DOWN_COL), u.down_col, COLOR_DOWN);
  bool live = false;
  const std::vector<float>* v = gate_activity_values(&ls->gates, src, c.layer, c.probe, &live);
  if (v && live) {
    widget_text(tr(STR_WEIGHTS_SILU));
    const source_model& md = src->model();
    const float thr = (float)s->threshold;
    for (int t = 0; t < c.tokens; t++) {
      const float val = (*v)[(size_t)t * md.intermediate + c.unit];
      const std::string label = live_token_text(md, c.probe, t) + " " + fmt6(val);
      widget_same_line_if_fits(ImGui::CalcTextSize(label.c_str()).x + ImGui::GetFontSize());
      widget_text_colored(val > thr ? COLOR_GATE : val < -thr ? COLOR_RELU : COLOR_CLASSIC, label);
    }
  }
}

// [SECTION] the panel's row (ui/panel.h)
void* weights_panel_init() { return new weights_panel(); }
void weights_panel_keys(void*, panel_frame*) {}
void weights_panel_draw(void* self, panel_frame* f) { weights_draw((weights_panel*)self, f->state, f->live, *f->choice); }
bool weights_panel_animating(const void*, double) { return false; }
void weights_panel_free(void* self) {
  weights_panel* w = (weights_panel*)self;
  if (w->heatmap) renderer_heatmap_free(w->heatmap);
  delete w;
}
