// The whole model's status and rows, drawn (see model_status.h).
#include "ui/model_status.h"

#include "core/experiments/live_session.h"
#include "core/model_offer.h"
#include "core/model_view.h"
#include "core/number_format.h"
#include "core/strings.h"
#include "imgui.h"
#include "ui/item_probe.h"
#include "ui/live_header_extras.h"
#include "ui/widgets.h"
#include "platform/platform.h"

void model_views_frame(live_session* ls, const lab_state& s, double now) {
  static model_session page;
  static std::string fonts_name;  // the model and the reply whose words the fonts were asked for
  static uint32_t fonts_reply = 0;
  ls->model = &page;
  model_session_frame(&page, s, platform_model(), now);
  // The model's own words (its name, the prompt, the tokens it names): the page's fonts hold only
  // the string table's characters until asked for more. Once per model and per reply.
  const uint32_t reply = page.have_reply ? page.reply.id : 0;
  if (page.status.name == fonts_name && reply == fonts_reply) return;
  fonts_name = page.status.name;
  fonts_reply = reply;
  std::string text = page.status.name;
  if (page.have_reply) {
    const model_reply& r = page.reply;
    for (const token_text& t : r.prompt) text += t.piece;
    for (const auto* list : {&r.top, &r.before_top, &r.rising})
      for (const model_next_token& t : *list) text += t.token.piece;
    for (const model_unit_row& u : r.units)
      for (const token_text& t : u.toward) text += t.piece;
  }
  platform_fonts_need(text);
}

void model_status_draw(live_session* ls, lab_state* s, double now) {
  model_session* ms = ls->model;
  for (const std::string& line : model_status_lines(*ms)) widget_text_wrapped(line);
  if (ms->status.synthetic && model_session_builtin(*ms) && !s->lock) {  // the real model instead of the built-in one
    if (ImGui::SmallButton(tr(STR_OFFER_BUTTON))) model_offer_apply(s);  // model= follows; other settings stay
    item_probe("model-offer-whole");
    widget_text_wrapped(tr(STR_MODEL_OFFER_NOTE));
  }
  cache_clear_draw(ls, now);
  model_service* svc = ms->service;
  if (!svc) return;
  const model_status& st = ms->status;
  if (const uint64_t bytes = model_download_to_confirm(*ms)) {
    const std::string go = strf(tr(STR_MODEL_GO), fmt_mb((int64_t)bytes).c_str());
    if (ImGui::Button(go.c_str())) svc->model_go();
    item_probe("model-go");
  }
  if (st.phase == MODEL_STATUS_LOADING && !st.paused) {
    if (ImGui::Button(tr(STR_LIVE_CANCEL))) svc->model_cancel();
    item_probe("model-cancel");
  }
  if (st.phase == MODEL_STATUS_FAILED || st.paused) {
    if (ImGui::Button(tr(STR_LIVE_RETRY))) svc->model_retry();
    item_probe("model-retry");
  }
}

void model_row_draw(const view_row& row) {
  std::string title = row.label;
  if (!row.note.empty()) title += " " + view_row_note(row);
  widget_text_colored(widget_tone_color(row.tone), title);
  for (const view_cell& c : row.cells) {
    const std::string text = view_cell_text(c);
    const float w = ImGui::CalcTextSize(text.c_str()).x;
    if (w > widget_visible_width() * 0.9f) {  // a long list of tokens: its own lines (a phone)
      ImGui::PushStyleColor(ImGuiCol_Text, widget_tone_color(c.tone));
      widget_text_wrapped(text);
      ImGui::PopStyleColor();
      continue;
    }
    widget_same_line_if_fits(w);
    widget_text_colored(widget_tone_color(c.tone), text);
  }
  if (row.bar >= 0) {  // the row's share of the largest, as a bar under it
    const float w = ImGui::GetContentRegionAvail().x * 0.6f, h = ImGui::GetFontSize() * 0.45f;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), IM_COL32(230, 230, 230, 255));
    dl->AddRectFilled(p, ImVec2(p.x + w * (float)row.bar, p.y + h), widget_tone_color(TONE_OPEN));
    ImGui::Dummy(ImVec2(w, h));
  }
}

void model_token_picker(lab_state* s, const model_reply& r, const char* label, const char* probe_prefix) {
  ImGui::AlignTextToFramePadding();
  widget_text(label);
  for (size_t t = 0; t < r.prompt.size(); t++) {
    const std::string text = model_token_text(r.prompt[t]);
    widget_same_line_if_fits(widget_checkbox_width(text.c_str()));
    ImGui::PushID((int)t);
    if (ImGui::RadioButton(text.c_str(), r.position == (int)t)) s->token = (int64_t)t;
    item_probe((std::string(probe_prefix) + "-" + std::to_string(t)).c_str());
    ImGui::PopID();
  }
}
