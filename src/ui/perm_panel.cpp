// Per token (lessons 000/003), as a panel (ui/panel.h): shuffle the probe's tokens and compare
// MLP(x[perm]) with MLP(x)[perm] (exactly 0), and change one token to see that no other output
// moves (token_experiments). The order is a row of chips; dragging one onto another moves it
// there (touch and mouse alike), and the link keeps the order (perm=).
#include "ui/panel.h"

#include <algorithm>
#include <cmath>

#include "core/live_view.h"
#include "core/number_format.h"
#include "core/strings.h"
#include "imgui.h"
#include "ui/item_probe.h"
#include "ui/widgets.h"

static void set_perm(lab_state* s, const std::vector<int>& p) { s->perm.assign(p.begin(), p.end()); }

static void order_chips(lab_state* s, const source_model& m, const live_choice& c) {
  std::vector<int> perm = c.perm;
  for (int i = 0; i < c.tokens; i++) {
    const std::string label = std::to_string(perm[i]) + " " + live_token_text(m, c.probe, perm[i]);
    widget_same_line_if_fits(widget_button_width(label.c_str()));
    ImGui::PushID(i);
    ImGui::PushStyleColor(ImGuiCol_Button, ImGui::ColorConvertU32ToFloat4(COLOR_READ));
    ImGui::Button(label.c_str());
    ImGui::PopStyleColor();
    item_probe(("perm-chip-" + std::to_string(i)).c_str());
    if (ImGui::BeginDragDropSource(ImGuiDragDropFlags_SourceAllowNullID)) {
      ImGui::SetDragDropPayload("perm-chip", &i, sizeof i);
      ImGui::TextUnformatted(label.c_str());  // the dragged chip's ghost
      ImGui::EndDragDropSource();
    }
    if (ImGui::BeginDragDropTarget()) {
      if (const ImGuiPayload* p = ImGui::AcceptDragDropPayload("perm-chip")) {
        const int from = *(const int*)p->Data;
        const int moved = perm[from];
        perm.erase(perm.begin() + from);
        perm.insert(perm.begin() + i, moved);
        set_perm(s, perm);
      }
      ImGui::EndDragDropTarget();
    }
    ImGui::PopID();
  }
}

// Horizontal bars of the change at every position, scaled to the largest.
static void change_bars(const token_experiments* k, const source_model& m, const live_choice& c) {
  const float fs = ImGui::GetFontSize();
  double peak = 0;
  for (double v : k->change) peak = std::max(peak, v);
  const float label_w = fs * 6, bar_w = std::max(fs * 6, ImGui::GetContentRegionAvail().x - label_w - fs * 6);
  for (int t = 0; t < c.tokens; t++) {
    const std::string label = std::to_string(t) + " " + live_token_text(m, c.probe, t);
    widget_text(label);
    ImGui::SameLine(label_w);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = peak > 0 ? (float)(k->change[t] / peak) * bar_w : 0;
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + fs * 0.15f), ImVec2(p.x + std::max(w, 1.0f), p.y + fs * 0.95f),
                                              t == c.token ? COLOR_WRITE : COLOR_DONE);
    ImGui::Dummy(ImVec2(bar_w, fs));
    ImGui::SameLine();
    widget_text(k->change[t] == 0 ? std::string("0") : fmt6(k->change[t]));
  }
}

static void perm_draw(lab_state* s, live_session* ls, const live_choice& c, double now) {
  widget_text_wrapped(tr(STR_PERM_INTRO));
  if (!c.ready) return;
  const source_model& m = ls->source->model();
  const token_experiments* k = &ls->tokens;
  widget_text(tr(STR_PERM_ORDER));
  order_chips(s, m, c);
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

  if (!k->valid || k->layer != c.layer || k->probe != c.probe) {
    const source_progress p = ls->source->progress(c.layer);
    widget_text_wrapped(tr(STR_LIVE_NEEDS_WHOLE));
    if (p.total) ImGui::ProgressBar((float)((double)p.loaded / (double)p.total));
    return;
  }
  ImGui::Separator();
  const std::string result = k->shuffle.max_abs_diff == 0 ? tr(STR_PERM_EXACT) : fmt6(k->shuffle.max_abs_diff);
  widget_text_colored(IM_COL32(26, 115, 38, 255), strf(tr(STR_PERM_RESULT), result.c_str()));
  item_probe("perm-result");
  widget_text_wrapped(tr(STR_PERM_WHY));

  ImGui::Separator();
  widget_text_wrapped(tr(STR_PERM_CHANGE));
  int tok = c.token;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  if (ImGui::SliderInt(tr(STR_PERM_TOKEN), &tok, 0, c.tokens - 1)) s->token = tok;
  item_probe("perm-token");
  widget_same_line_if_fits(ImGui::GetFontSize() * 14);
  float delta = (float)s->delta;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  if (ImGui::SliderFloat(tr(STR_PERM_DELTA), &delta, -5.0f, 5.0f, "%.2f")) s->delta = std::round(delta * 100) / 100.0;
  item_probe("perm-delta");
  widget_text(tr(STR_PERM_CHANGE_ROW));
  change_bars(k, m, c);
  bool only_k = k->change[c.token] > 0;
  for (int t = 0; t < c.tokens; t++) only_k &= t == c.token || k->change[t] == 0;
  if (only_k) widget_text_wrapped(strf(tr(STR_PERM_ONLY_K), std::to_string(c.token).c_str()));
}

// [SECTION] the panel's row (ui/panel.h)
void* perm_panel_init() { return nullptr; }
void perm_panel_keys(void*, panel_frame*) {}
void perm_panel_draw(void*, panel_frame* f) { perm_draw(f->state, f->live, *f->choice, f->now); }
bool perm_panel_animating(const void*, double) { return false; }
void perm_panel_free(void*) {}
