// Per token (lessons 000/003), as a panel (ui/panel.h): shuffle the probe's tokens and compare
// MLP(x[perm]) with MLP(x)[perm] (exactly 0), and change one token to see that no other output
// moves (token_experiments). The order is a row of chips; dragging one onto another moves it there
// (touch and mouse alike; Alt/Ctrl + arrows on the keyboard), and the link keeps the order (perm=).
#include "ui/panel.h"

#include <algorithm>
#include <cmath>

#include "core/views/live_view.h"
#include "core/base/number_format.h"
#include "core/base/strings.h"
#include "imgui.h"
#include "imgui_internal.h"  // the chip's item id
#include "ui/focus.h"
#include "ui/item_probe.h"
#include "ui/widgets.h"

static void set_perm(lab_state* s, const std::vector<int>& p) { s->perm.assign(p.begin(), p.end()); }

// Alt (or Ctrl) + Left / Right on the chip with the keyboard focus: -1 / +1, else 0.
static int chip_key_move() {
  ImGuiIO& io = ImGui::GetIO();
  if (!(io.KeyAlt || io.KeyCtrl) || focus_current_id() != ImGui::GetItemID()) return 0;
  if (ImGui::IsKeyPressed(io.KeyMap[ImGuiKey_LeftArrow])) return -1;
  if (ImGui::IsKeyPressed(io.KeyMap[ImGuiKey_RightArrow])) return 1;
  return 0;
}

static void order_chips(lab_state* s, const source_model& m, const live_choice& c) {
  std::vector<int> perm = c.perm;
  bool moved = false;
  for (int i = 0; i < c.tokens; i++) {
    const std::string label = std::to_string(perm[i]) + " " + live_token_text(m, c.probe, perm[i]);
    widget_same_line_if_fits(widget_button_width(label.c_str()));
    ImGui::PushID(perm[i]);  // a chip is its token: the keyboard focus moves with it
    ImGui::PushStyleColor(ImGuiCol_Button, ImGui::ColorConvertU32ToFloat4(COLOR_READ));
    ImGui::Button(label.c_str());
    ImGui::PopStyleColor();
    item_probe(("perm-chip-" + std::to_string(i)).c_str());
    const int to = moved ? i : i + chip_key_move();  // once a frame: the chip moved is drawn again next
    if (to != i && to >= 0 && to < c.tokens) {
      std::swap(perm[i], perm[to]);
      set_perm(s, perm);
      moved = true;
    }
    if (ImGui::BeginDragDropSource(ImGuiDragDropFlags_SourceAllowNullID)) {
      ImGui::SetDragDropPayload("perm-chip", &i, sizeof i);
      ImGui::TextUnformatted(label.c_str());  // the dragged chip's ghost
      ImGui::EndDragDropSource();
    }
    if (ImGui::BeginDragDropTarget()) {
      if (const ImGuiPayload* p = ImGui::AcceptDragDropPayload("perm-chip")) {
        const int from = *(const int*)p->Data;
        const int token = perm[from];
        perm.erase(perm.begin() + from);
        perm.insert(perm.begin() + i, token);
        set_perm(s, perm);
      }
      ImGui::EndDragDropTarget();
    }
    ImGui::PopID();
  }
}

// Horizontal bars of the change at every position, scaled to the largest (the mirror prints the
// same rows: perm_change_rows).
static void change_bars(const std::vector<view_row>& rows) {
  const float fs = ImGui::GetFontSize();
  // Label, bar and number within the visible width: a row 1 px too wide lets a phone's sideways
  // swipe shift the whole page.
  const float spacing = ImGui::GetStyle().ItemSpacing.x, label_w = fs * 6;
  float value_w = ImGui::CalcTextSize("0").x;
  for (const view_row& r : rows) value_w = std::max(value_w, ImGui::CalcTextSize(r.cells[0].value.c_str()).x);
  const float bar_w = std::max(fs * 3, widget_visible_width() - label_w - spacing * 2 - value_w - 1);
  for (const view_row& r : rows) {
    widget_text(r.label);
    ImGui::SameLine(label_w);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = (float)r.bar * bar_w;
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + fs * 0.15f), ImVec2(p.x + std::max(w, 1.0f), p.y + fs * 0.95f),
                                              r.tone == TONE_MARKED ? COLOR_WRITE : COLOR_DONE);
    ImGui::Dummy(ImVec2(bar_w, fs));
    ImGui::SameLine();
    widget_text(r.cells[0].value);
  }
}

static void perm_draw(lab_state* s, live_session* ls, const live_choice& c, double now) {
  widget_prose(tr(STR_PERM_INTRO));
  if (!c.ready) return;
  const source_model& m = ls->source->model();
  widget_text_wrapped(tr(STR_PERM_ORDER));
  order_chips(s, m, c);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
  widget_text_wrapped(tr(STR_LIVEUX_CHIP_KEYS));
  ImGui::PopStyleColor();
  if (ImGui::Button(tr(STR_PERM_SHUFFLE))) {
    std::vector<int> p = c.perm;
    uint64_t seed = (uint64_t)(now * 1000.0) * 0x9e3779b97f4a7c15ull + 1;
    for (int i = (int)p.size() - 1; i > 0; i--) {  // Fisher-Yates on a splitmix stream
      seed += 0x9e3779b97f4a7c15ull;
      uint64_t z = (seed ^ (seed >> 30)) * 0xbf58476d1ce4e5b9ull;
      std::swap(p[i], p[(size_t)((z ^ (z >> 27)) % (uint64_t)(i + 1))]);
    }
    set_perm(s, p);
  }
  item_probe("perm-shuffle");
  widget_same_line_if_fits(widget_button_width(tr(STR_PERM_LESSON)));
  if (ImGui::Button(tr(STR_PERM_LESSON))) s->perm.clear();
  item_probe("perm-lesson");

  if (!perm_results_shown(ls, c)) {
    const source_progress p = ls->source->progress(c.layer);
    bool loading = false;
    widget_text_wrapped(live_needs_whole_text(ls->source.get(), c.layer, &loading));
    if (loading) ImGui::ProgressBar((float)((double)p.loaded / (double)p.total));
    return;
  }
  ImGui::Separator();
  // Wrapped: on a phone this line is wider than the screen (it let a sideways swipe pan the page).
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(26, 115, 38, 255));
  widget_text_wrapped(perm_result_text(ls));
  ImGui::PopStyleColor();
  item_probe("perm-result");
  widget_prose(tr(STR_PERM_WHY));

  ImGui::Separator();
  widget_text_wrapped(tr(STR_PERM_CHANGE));
  // Both typable (double-click or tap, or Enter); a drag moves delta by 0.01, a typed delta
  // keeps 3 decimals, within the link's -100..100.
  int tok = c.token;
  const int tok_lo = 0, tok_hi = c.tokens - 1;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  if (widget_slider_typable(tr(STR_PERM_TOKEN), ImGuiDataType_S32, &tok, &tok_lo, &tok_hi, "%d")) s->token = std::min(std::max(tok, tok_lo), tok_hi);
  item_probe("perm-token");
  widget_same_line_if_fits(ImGui::GetFontSize() * 8 + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(tr(STR_PERM_DELTA)).x);
  double delta = s->delta;
  const double delta_lo = -5, delta_hi = 5, typed_lo = -LAB_DELTA_LIMIT, typed_hi = LAB_DELTA_LIMIT;
  const bool fine = std::fabs(delta * 100 - std::round(delta * 100)) > 1e-9;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  const widget_slider_change how =
      widget_slider_typable(tr(STR_PERM_DELTA), ImGuiDataType_Double, &delta, &delta_lo, &delta_hi, fine ? "%.3f" : "%.2f");
  if (how != WIDGET_SLIDER_NONE) {
    const double scale = how == WIDGET_SLIDER_TYPED ? 1000 : 100;
    s->delta = std::round(std::min(std::max(delta, typed_lo), typed_hi) * scale) / scale + 0.0;  // + 0.0: never -0
  }
  item_probe("perm-delta");
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
  widget_text_wrapped(tr(STR_LIVEUX_TYPE_HINT));
  ImGui::PopStyleColor();
  widget_text(tr(STR_PERM_CHANGE_ROW));
  change_bars(perm_change_rows(ls, c));
  const std::string only_k = perm_only_k_text(ls, c);
  if (!only_k.empty()) widget_text_wrapped(only_k);
}

// [SECTION] the panel's row (ui/panel.h)
void* perm_panel_init() { return nullptr; }
void perm_panel_keys(void*, panel_frame*) {}
void perm_panel_draw(void*, panel_frame* f) { perm_draw(f->state, f->live, *f->choice, f->now); }
bool perm_panel_animating(const void*, double) { return false; }
std::string perm_panel_text(const void*, panel_frame*) { return ""; }
void perm_panel_free(void*) {}
