// What each MLP adds (view=flow, lesson 001): a bar a layer, the L2 of the MLP's output over the
// L2 of the layer's output at the last token, with both L2s and the ratio as numbers. The units
// off= names stay off here too. Rows: core/model_view.h.
#include "core/model_view.h"
#include "core/strings.h"
#include "imgui.h"
#include "ui/item_probe.h"
#include "ui/model_status.h"
#include "ui/panel.h"
#include "ui/widgets.h"

namespace {
struct flow_memory {
  bool waiting = false;  // the model loads or runs: frames keep coming until its answer is drawn
};
}  // namespace

void* flow_panel_init() { return new flow_memory(); }
void flow_panel_keys(void*, panel_frame*) {}

void flow_panel_draw(void* self, panel_frame* f) {
  flow_memory* m = (flow_memory*)self;
  lab_state* s = f->state;
  if (!f->live->model.service) return;
  model_session& ms = f->live->model;
  widget_text_wrapped(tr(STR_FLOW_INTRO));
  model_status_draw(f->live, s, f->now, f->controls);
  m->waiting = model_view_waiting(ms, *s);
  if (!model_view_ready(ms, *s)) return;
  const model_reply& r = ms.reply;
  ImGui::Separator();
  widget_text_wrapped(std::string(tr(STR_MODEL_PROMPT)) + tr(STR_MIRROR_COLON) + model_prompt_text(r));
  if (!s->off.empty()) widget_text_wrapped(strf(tr(STR_RULES_OFF), rules_off_text(*s).c_str()));
  model_token_picker(s, r, tr(STR_FLOW_PICK), "flow-token");  // the token the bars read
  widget_text(strf(tr(STR_FLOW_AT), model_token_text(r.prompt[(size_t)r.position]).c_str()) + tr(STR_MIRROR_COLON));
  const std::string picked = flow_picked_text(r, *s);
  if (!picked.empty()) widget_text_wrapped(picked);
  widget_text_wrapped(flow_extremes_text(r));
  for (const view_row& row : flow_rows(r, *s)) model_row_draw(row);
}

bool flow_panel_animating(const void* self, double) { return ((const flow_memory*)self)->waiting; }
std::string flow_panel_text(const void*, panel_frame*) { return ""; }
void flow_panel_free(void* self) { delete (flow_memory*)self; }
