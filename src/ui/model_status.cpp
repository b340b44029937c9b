// The whole model's status and rows, drawn (see model_status.h).
#include "ui/model_status.h"

#include "core/experiments/live_session.h"
#include "core/views/model_offer.h"
#include "core/views/model_view.h"
#include "core/base/number_format.h"
#include "core/base/strings.h"
#include "imgui.h"
#include "ui/item_probe.h"
#include "ui/live_header_extras.h"
#include "ui/widgets.h"
#include "platform/platform.h"

void model_views_frame(live_session* ls, const lab_state& s, double now) {
  ls->precomputed.frame(&ls->model, s, platform_fetch_client());
  model_session_frame(&ls->model, s, platform_model(), now);
  const std::string text = model_session_fonts_text(&ls->model);
  if (!text.empty()) platform_fonts_need(text);
}

bool model_status_extras_shown(const live_session& ls, const lab_state& s) {
  return model_offer_whole_shown(ls.model, s) || cache_bytes_held() > 0 || !ls.cache_note.empty();
}

void model_status_draw(live_session* ls, lab_state* s, double now, bool controls) {
  model_session* ms = &ls->model;
  for (const std::string& line : model_status_lines(*ms)) widget_text_wrapped(line);
  for (const std::string& line : carried_check_lines(*ms, *s)) widget_text_wrapped(line);
  if (ms->carried.shown) {  // a student's page on the link's answers: the model only when asked for
    if (ImGui::Button(tr(ms->have_reply ? STR_CARRIED_CHECK : STR_CARRIED_LOAD))) model_session_use_model(ms);
    item_probe("class-check");
    return;
  }
  // The teacher's page: this answer into the link (Copy link and the QR code then carry it).
  if (carried_add_shown(*ms, *s)) {
    const std::string add = carried_add_button(*ms);
    if (ImGui::Button(add.c_str())) ms->carried.full = !model_session_add_to_link(*ms, s);
    item_probe("class-add", add);
  }
  if (controls && model_offer_whole_shown(*ms, *s)) {
    std::string label = model_offer_whole_button();
    if (widget_button_width(label.c_str()) > ImGui::GetContentRegionAvail().x) label = model_offer_whole_button(true);
    if (ImGui::SmallButton(label.c_str())) model_offer_apply(s);  // model= follows; other settings stay
    item_probe("model-offer-whole", label);
    widget_text_wrapped(tr(STR_MODEL_OFFER_NOTE));
  }
  if (controls) cache_clear_draw(ls, now);
  model_service* svc = ms->service;
  if (!svc) return;
  const model_status& st = ms->status;
  if (const uint64_t bytes = model_download_to_confirm(*ms)) {
    const std::string go = strf(tr(STR_MODEL_GO), fmt_mb((int64_t)bytes).c_str());
    if (ImGui::Button(go.c_str())) svc->model_go();
    item_probe("model-go", go);
  }
  // Nothing left to cancel once the load stopped (a part failed and nothing else is coming):
  // Retry or the way back is the next step. While the rest still comes, Cancel stays.
  if (st.phase == MODEL_STATUS_LOADING && !model_status_stopped(st)) {
    if (ImGui::Button(tr(STR_LIVE_CANCEL))) svc->model_cancel();
    item_probe("model-cancel");
  }
  if (model_status_retry(st)) {
    if (ImGui::Button(tr(STR_LIVE_RETRY))) svc->model_retry();
    item_probe("model-retry");
  }
  // The way back from a model that cannot be opened, loaded or run: the built-in weights, every
  // other setting kept (under lock=1 too: the teacher's model failed, and this keeps the class going).
  if (model_session_way_back(*ms)) {
    const char* label = tr(STR_LIVE_USE_BUILTIN);
    widget_same_line_if_fits(widget_button_width(label));
    if (ImGui::Button(label)) live_use_builtin(s);
    item_probe("model-use-builtin");
  }
}

void model_row_draw(const view_row& row) {
  std::string title = row.label;
  if (!row.note.empty()) title += " " + view_row_note(row);
  if (ImGui::CalcTextSize(title.c_str()).x > widget_visible_width()) {  // after buttons on a phone: wrapped, not cut
    ImGui::PushStyleColor(ImGuiCol_Text, widget_tone_color(row.tone));
    widget_text_wrapped(title);
    ImGui::PopStyleColor();
  } else {
    widget_text_colored(widget_tone_color(row.tone), title);
  }
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
  if (row.bar < 0) return;
  // The row's bar under it on its track (what the track stands for is the view's caption); with a
  // bar before a change, the two side by side on the same track: before in grey, then after.
  const float w = ImGui::GetContentRegionAvail().x * 0.6f, h = ImGui::GetFontSize() * 0.45f;
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  float y = p.y;
  for (int before = 1; before >= 0; before--) {
    const double bar = before ? row.bar_before : row.bar;
    if (bar < 0) continue;
    const ImU32 fill = before ? rgb_u32(RGB_CLASSIC) : widget_tone_color(TONE_OPEN);
    dl->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + w, y + h), IM_COL32(230, 230, 230, 255));
    dl->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + w * (float)bar, y + h), fill);
    y += h;
  }
  ImGui::Dummy(ImVec2(w, y - p.y));
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
