// What each MLP adds (view=flow, lesson 001): the L2 of the MLP's output over the L2 of the layer's
// output at the last token (or the one picked), drawn as lesson 001's figure "MLP contribution
// across all layers": one bar a layer, relative to the largest, each bar a control that marks its
// layer (layer=). Both L2s and the ratio are listed under it. The units off= names stay off here
// too. Rows: core/views/model_view.h.
#include <algorithm>
#include <cmath>

#include "core/views/model_view.h"
#include "core/base/number_format.h"
#include "core/base/strings.h"
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

// The chart's plot height in lines of text: with the lines above it, the whole chart stays on one
// laptop screen (1280×800) and one projector screen (ui=present's larger type scales it too).
static const float FLOW_CHART_LINES = 9.0f;

// One bar a layer, side by side at its layer's number, the largest full height. A bar is a button
// (a tap, a click, Tab then Enter): it marks its layer, or unmarks the marked one. A swipe that
// starts on a bar scrolls the page, as a swipe anywhere does, and marks nothing.
// `top`: the largest ratio, printed at the top of the scale.
static void flow_chart(lab_state* s, const std::vector<view_row>& rows, const std::string& top) {
  const int n = (int)rows.size();
  if (n == 0) return;
  const float fs = ImGui::GetFontSize();
  const ImU32 grey = rgb_u32(RGB_AXIS_TEXT);
  const float label_scale = 0.85f;
  const float axis_w = widget_text_at_size(top, label_scale).x + fs * 0.4f;
  const float width = std::min(widget_visible_width(), fs * 48);
  const float slot = (width - axis_w) / (float)n;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 p0(origin.x + axis_w, origin.y), p1(origin.x + width, origin.y + fs * FLOW_CHART_LINES);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p0, p1, IM_COL32(255, 255, 255, 255));
  const float usable = p1.y - p0.y - fs * 0.6f;  // the largest bar's height
  for (const float share : {0.5f, 1.0f}) {  // half and the whole of the largest
    const float y = p1.y - share * usable;
    dl->AddLine(ImVec2(p0.x, y), ImVec2(p1.x, y), IM_COL32(225, 225, 225, 255));
  }
  // The layers' numbers where they fit: every one, or every second, fourth...
  const float label_w = widget_text_at_size(std::to_string(n - 1), label_scale).x + fs * 0.3f;
  int every = 1;
  while (slot * (float)every < label_w && every < n) every *= 2;
  const ImGuiIO& io = ImGui::GetIO();
  for (int l = 0; l < n; l++) {
    const float x0 = p0.x + slot * (float)l, x1 = x0 + slot;
    const bool marked = s->layer == l;
    ImGui::SetCursorScreenPos(ImVec2(x0, p0.y));
    ImGui::PushID(l);
    const bool pressed = ImGui::InvisibleButton("##flow-layer", ImVec2(slot, p1.y - p0.y + fs * 1.2f));
    const bool hovered = ImGui::IsItemHovered();
    if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left)) widget_scroll_by_drag(io.MouseDelta);
    const float drag = fs * 0.5f;  // a finger that moved farther than this swiped (Enter moves none)
    const bool swiped = io.MouseReleased[0] && io.MouseDragMaxDistanceSqr[0] > drag * drag;
    if (pressed && !swiped) s->layer = marked ? -1 : l;
    item_probe(("flow-layer-" + std::to_string(l)).c_str());
    ImGui::PopID();
    const float y = p1.y - (float)rows[(size_t)l].bar * usable;
    const float inset = std::max(1.0f, slot * 0.12f);
    if (marked || hovered) dl->AddRectFilled(ImVec2(x0, p0.y), ImVec2(x1, p1.y), IM_COL32(235, 242, 250, 255));
    dl->AddRectFilled(ImVec2(x0 + inset, y), ImVec2(x1 - inset, p1.y), marked ? COLOR_LIVE : widget_tone_color(TONE_OPEN));
    if (marked) dl->AddRect(ImVec2(x0, p0.y), ImVec2(x1, p1.y), COLOR_LIVE, 0, 0, 2.0f * widget_line_scale());
    if (l % every == 0 || marked) {
      const std::string label = std::to_string(l);
      const ImVec2 size = widget_text_at_size(label, label_scale);
      widget_text_at(ImVec2((x0 + x1 - size.x) * 0.5f, p1.y + 2), marked ? COLOR_LIVE : grey, label, label_scale);
    }
  }
  dl->AddLine(ImVec2(p0.x, p1.y), ImVec2(p1.x, p1.y), rgb_u32(RGB_THRESHOLD), widget_line_scale());
  const float axis_x1 = p0.x - fs * 0.2f;  // the scale's ends, right-aligned beside the plot
  widget_text_at(ImVec2(axis_x1 - widget_text_at_size("0", label_scale).x, p1.y - fs * label_scale), grey, "0", label_scale);
  widget_text_at(ImVec2(axis_x1 - widget_text_at_size(top, label_scale).x, p1.y - usable - fs * label_scale * 0.5f), grey, top, label_scale);
  ImGui::SetCursorScreenPos(origin);
  ImGui::Dummy(ImVec2(width, p1.y - p0.y + fs * 1.3f));
  item_probe_shape("flow-chart", origin.x, origin.y, origin.x + width, p1.y + fs * 1.2f);
}

void* flow_panel_init() { return new flow_memory(); }
void flow_panel_keys(void*, panel_frame*) {}

void flow_panel_draw(void* self, panel_frame* f) {
  flow_memory* m = (flow_memory*)self;
  lab_state* s = f->state;
  if (!model_session_active(f->live->model)) return;
  model_session& ms = f->live->model;
  widget_prose(tr(STR_FLOW_INTRO));
  model_status_draw(f->live, s, f->now, f->controls);
  m->waiting = model_view_waiting(ms, *s);
  if (!model_view_ready(ms, *s)) return;
  const model_reply& r = ms.reply;
  ImGui::Separator();
  widget_text_wrapped(std::string(tr(STR_MODEL_PROMPT)) + tr(STR_MIRROR_COLON) + model_prompt_text(r));
  if (!s->off.empty()) widget_text_wrapped(strf(tr(STR_RULES_OFF), rules_off_text(*s).c_str()));
  model_token_picker(s, r, tr(STR_FLOW_PICK), "flow-token");  // the token the bars read
  widget_text(strf(tr(STR_FLOW_AT), model_token_text(r.prompt[(size_t)r.position]).c_str()) + tr(STR_MIRROR_COLON));
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  widget_text_wrapped(flow_scale_text(r));  // what the bars' heights are
  ImGui::PopStyleColor();
  flow_chart(s, flow_rows(r, *s), fmt_percent1(flow_find_extremes(r).largest_ratio));
  const std::string picked = flow_picked_text(r, *s);  // after the chart's taps
  if (!picked.empty()) widget_text_wrapped(picked);
  widget_text_wrapped(flow_extremes_text(r));
  for (view_row row : flow_rows(r, *s)) {
    row.bar = -1;  // the chart above draws them
    model_row_draw(row);
  }
}

bool flow_panel_animating(const void* self, double) { return ((const flow_memory*)self)->waiting; }
std::string flow_panel_text(const void*, panel_frame*) { return ""; }
void flow_panel_free(void* self) { delete (flow_memory*)self; }
