// The live views' header (see live_header.h).
#include "ui/live_header.h"

#include <algorithm>

#include "core/strings.h"
#include "imgui.h"
#include "ui/item_probe.h"
#include "ui/widgets.h"

static void layer_picker(lab_state* s, const pack_stream* st, const live_choice& c, bool several) {
  ImGui::AlignTextToFramePadding();
  widget_text(tr(several ? STR_LIVE_LAYERS : STR_LIVE_LAYER));
  for (const pack_layer& l : st->manifest.layers) {
    const std::string label = std::to_string(l.layer);
    const bool on = several ? std::find(c.layers.begin(), c.layers.end(), l.layer) != c.layers.end() : c.layer == l.layer;
    widget_same_line_if_fits(widget_button_width(label.c_str()));
    if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::Button(label.c_str())) {
      if (several) {
        std::vector<int64_t> next(c.layers.begin(), c.layers.end());
        auto it = std::find(next.begin(), next.end(), (int64_t)l.layer);
        if (it != next.end() && next.size() > 1) next.erase(it);
        else if (it == next.end() && next.size() < LIVE_MAX_HIST_LAYERS) next.push_back(l.layer);
        std::sort(next.begin(), next.end());
        s->pack_layers = next;
      } else {
        s->layer = l.layer;
      }
    }
    item_probe(("layer-" + label).c_str());
    if (on) ImGui::PopStyleColor();
  }
}

void live_header_draw(lab_state* s, pack_stream* st, const live_choice& c, bool pick_layers, double now) {
  if (c.ready) {
    const bool synthetic = st->manifest.synthetic;
    if (synthetic) ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(150, 70, 0, 255));
    widget_text_wrapped(live_pack_info(st));
    if (synthetic) ImGui::PopStyleColor();
    const pack_manifest& m = st->manifest;
    if (m.probes.size() > 1) {
      ImGui::AlignTextToFramePadding();
      widget_text(tr(STR_LIVE_PROBE));
      for (size_t p = 0; p < m.probes.size(); p++) {
        widget_same_line_if_fits(widget_button_width(m.probes[p].label.c_str()));
        ImGui::PushID((int)p);
        if (ImGui::RadioButton(m.probes[p].label.c_str(), c.probe == (int)p)) s->probe = (int64_t)p, s->perm.clear();
        ImGui::PopID();
      }
    } else {
      widget_text_wrapped(std::string(tr(STR_LIVE_PROBE)) + ": " + m.probes[0].label);
    }
    layer_picker(s, st, c, pick_layers);
  }
  const std::vector<std::string> status = live_status_lines(st);
  if (status.empty()) return;
  widget_fit_box_begin("stream-status", COLOR_NOTICE_BG, true);
  for (const std::string& line : status) widget_text_wrapped(line);
  const pack_stream_progress p = pack_stream_progress_of(st, -1);
  if (p.total > 0 && p.loading > 0) ImGui::ProgressBar((float)((double)p.loaded / (double)p.total), ImVec2(-1, 0), "");
  if (p.loading > 0 || st->phase == PACK_STREAM_MANIFEST) {
    if (ImGui::SmallButton(tr(STR_LIVE_CANCEL))) pack_stream_cancel(st);
    item_probe("stream-cancel");
  }
  if (!pack_stream_errors(st).empty()) {
    if (p.loading > 0) ImGui::SameLine();
    if (ImGui::SmallButton(tr(STR_LIVE_RETRY))) pack_stream_retry(st, now);
    item_probe("stream-retry");
  }
  widget_fit_box_end();
}
