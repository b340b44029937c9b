// The rule book (view=rules, lesson 003): the prompt's next-token top 10, the most active units at
// a token (the last, or the one picked) and what each writes toward, a unit switched off by a tap
// (off= in the link), every probability then before → after, and a picked unit (layer=, unit=):
// where it fires, its condition, its conclusion. Rows: core/views/model_view.h.
#include <algorithm>
#include <cmath>

#include "core/views/gates_figure.h"
#include "core/views/model_view.h"
#include "core/base/strings.h"
#include "imgui.h"
#include "ui/item_probe.h"
#include "ui/model_status.h"
#include "ui/panel.h"
#include "ui/widgets.h"

namespace {
struct rules_memory {
  bool waiting = false;  // the model loads or runs: frames keep coming until its answer is drawn
};
}  // namespace

// The prompt's tokens in a row, each on a patch as strong as the unit's activation there (lesson
// 001's "fires on city names": orange where it is positive, blue where negative). A unit switched
// off shows what it computes, which the model then replaces by 0.
static void fires_on(const model_reply& r) {
  const std::vector<float>& values = r.picked_per_token;  // what it computes (switched off too)
  float top = 0;
  for (float a : values) top = std::max(top, std::fabs(a));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float pad = ImGui::GetFontSize() * 0.25f;
  for (size_t t = 0; t < r.prompt.size() && t < values.size(); t++) {
    const std::string text = model_token_text(r.prompt[t]);
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    widget_same_line_if_fits(size.x + pad * 2);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float a = values[t], share = top > 0 ? std::fabs(a) / top : 0;
    const lab_rgb hue = a >= 0 ? RGB_GATE : RGB_RELU;
    dl->AddRectFilled(p, ImVec2(p.x + size.x + pad * 2, p.y + size.y + pad * 2), rgb_u32(hue, (int)(20 + 215 * share)), pad);
    ImGui::SetCursorScreenPos(ImVec2(p.x + pad, p.y + pad));
    widget_text(text);
    ImGui::SetCursorScreenPos(ImVec2(p.x, p.y));
    ImGui::Dummy(ImVec2(size.x + pad * 2, size.y + pad * 2));
  }
}

// Switch off / Switch on under one ImGui id, so the keyboard focus stays on it when its words change.
static void switch_button(lab_state* s, const unit_ref& u, bool small, const char* id) {
  const std::string label = std::string(tr(rules_unit_is_off(*s, u) ? STR_RULES_SWITCH_ON : STR_RULES_SWITCH_OFF)) + "###" + id;
  if (small ? ImGui::SmallButton(label.c_str()) : ImGui::Button(label.c_str())) rules_toggle_unit(s, u);
  item_probe(id);
}

// The picked unit: where it fires, its condition at each token, its conclusion, and a way to its
// weights and to switching it off.
static void picked_unit(lab_state* s, const model_reply& r) {
  ImGui::Separator();
  widget_text_wrapped(rules_picked_title(r, *s));
  const std::string off_note = rules_picked_off_text(r, *s);
  if (!off_note.empty()) {  // its numbers below are what it computes; the model reads 0 instead
    ImGui::PushStyleColor(ImGuiCol_Text, widget_tone_color(TONE_RELU));
    widget_text_wrapped(off_note);
    ImGui::PopStyleColor();
  }
  widget_text_wrapped(std::string(tr(STR_RULES_FIRES)) + tr(STR_MIRROR_COLON));
  fires_on(r);
  widget_text_wrapped(std::string(tr(STR_RULES_CONDITION)) + tr(STR_MIRROR_COLON));
  for (const view_row& row : rules_picked_rows(r, *s)) model_row_draw(row);
  widget_text_wrapped(std::string(tr(STR_RULES_CONCLUSION)) + tr(STR_MIRROR_COLON) + " " + rules_toward_text(r, r.picked.toward));
  switch_button(s, r.picked.unit, false, "rules-picked-off");
  if (s->lock) return;  // a locked lesson keeps its views
  widget_same_line_if_fits(widget_button_width(tr(STR_RULES_WEIGHTS)));
  if (ImGui::Button(tr(STR_RULES_WEIGHTS))) rules_open_weights(s);
  item_probe("rules-weights");
}

void* rules_panel_init() { return new rules_memory(); }
void rules_panel_keys(void*, panel_frame*) {}

void rules_panel_draw(void* self, panel_frame* f) {
  rules_memory* m = (rules_memory*)self;
  lab_state* s = f->state;
  if (!model_session_active(f->live->model)) return;
  model_session& ms = f->live->model;
  widget_prose(tr(STR_RULES_INTRO));
  model_status_draw(f->live, s, f->now, f->controls);
  m->waiting = model_view_waiting(ms, *s);
  if (!model_view_ready(ms, *s)) return;
  const model_reply& r = ms.reply;
  const bool off = !s->off.empty();
  ImGui::Separator();
  widget_text_wrapped(std::string(tr(STR_MODEL_PROMPT)) + tr(STR_MIRROR_COLON) + model_prompt_text(r));
  if (off) {
    widget_text_wrapped(strf(tr(STR_RULES_OFF), rules_off_text(*s).c_str()));
  }
  widget_text(strf(tr(STR_RULES_NEXT), model_token_text(r.prompt.back()).c_str()) + tr(STR_MIRROR_COLON));
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  widget_text_wrapped(rules_scale_text(off));  // what the bars' track stands for
  ImGui::PopStyleColor();
  for (const view_row& row : rules_next_rows(r, off)) model_row_draw(row);
  if (off) {
    widget_text(std::string(tr(STR_RULES_RISE)) + tr(STR_MIRROR_COLON));
    for (const view_row& row : rules_rising_rows(r)) model_row_draw(row);
  }
  ImGui::Separator();
  model_token_picker(s, r, tr(STR_RULES_FIND), "rules-token");  // "find units for this token"
  widget_text_wrapped(strf(tr(STR_RULES_UNITS), model_token_text(r.prompt[(size_t)r.position]).c_str()) + tr(STR_MIRROR_COLON));
  const std::vector<view_row> rows = rules_unit_rows(r, *s);
  for (size_t i = 0; i < rows.size(); i++) {
    const unit_ref u = r.units[i].unit;
    const std::string id = std::to_string(u.layer) + "-" + std::to_string(u.unit);
    ImGui::PushID(id.c_str());  // the unit's, not its place in the list
    switch_button(s, u, true, ("rules-off-" + id).c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton(tr(STR_RULES_PICK))) rules_pick_unit(s, u);
    item_probe(("rules-pick-" + id).c_str());
    ImGui::SameLine();
    model_row_draw(rows[i]);
    ImGui::PopID();
  }
  if (r.picked.unit.layer >= 0) picked_unit(s, r);
}

bool rules_panel_animating(const void* self, double) { return ((const rules_memory*)self)->waiting; }
std::string rules_panel_text(const void*, panel_frame*) { return ""; }
void rules_panel_free(void* self) { delete (rules_memory*)self; }
