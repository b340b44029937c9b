// The rule book (view=rules, lesson 003): the prompt's next-token top 10, the most active units at
// its last token and what each writes toward, and a unit switched off by a tap (off= in the link),
// every probability then before → after. Rows: core/model_view.h.
#include "core/model_view.h"
#include "core/strings.h"
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

void* rules_panel_init() { return new rules_memory(); }
void rules_panel_keys(void*, panel_frame*) {}

void rules_panel_draw(void* self, panel_frame* f) {
  rules_memory* m = (rules_memory*)self;
  lab_state* s = f->state;
  if (!f->live->model) return;
  model_session& ms = *f->live->model;
  widget_text_wrapped(tr(STR_RULES_INTRO));
  model_status_draw(f->live, s);
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
  for (const view_row& row : rules_next_rows(r, off)) model_row_draw(row);
  if (off) {
    widget_text(std::string(tr(STR_RULES_RISE)) + tr(STR_MIRROR_COLON));
    for (const view_row& row : rules_rising_rows(r)) model_row_draw(row);
  }
  ImGui::Separator();
  widget_text_wrapped(std::string(tr(STR_RULES_UNITS)) + tr(STR_MIRROR_COLON));
  const std::vector<view_row> rows = rules_unit_rows(r, *s);
  for (size_t i = 0; i < rows.size(); i++) {
    const unit_ref u = r.units[i].unit;
    ImGui::PushID((int)i);
    const char* label = tr(rules_unit_is_off(*s, u) ? STR_RULES_SWITCH_ON : STR_RULES_SWITCH_OFF);
    if (ImGui::SmallButton(label)) rules_toggle_unit(s, u);
    item_probe(("rules-off-" + std::to_string(u.layer) + "-" + std::to_string(u.unit)).c_str());
    ImGui::SameLine();
    model_row_draw(rows[i]);
    ImGui::PopID();
  }
}

bool rules_panel_animating(const void* self, double) { return ((const rules_memory*)self)->waiting; }
std::string rules_panel_text(const void*, panel_frame*) { return ""; }
void rules_panel_free(void* self) { delete (rules_memory*)self; }
