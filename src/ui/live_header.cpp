// The live views' header (see live_header.h).
#include "ui/live_header.h"

#include <algorithm>

#include "core/views/live_view.h"
#include "core/base/strings.h"
#include "imgui.h"
#include "ui/item_probe.h"
#include "ui/live_header_extras.h"
#include "ui/sentence_box.h"
#include "ui/widgets.h"

static void layer_picker(lab_state* s, const source_model& m, const live_choice& c, bool several) {
  ImGui::AlignTextToFramePadding();
  widget_text(tr(several ? STR_LIVE_LAYERS : STR_LIVE_LAYER));
  for (int layer : m.layers) {
    const std::string label = std::to_string(layer);
    const bool on = several ? std::find(c.layers.begin(), c.layers.end(), layer) != c.layers.end() : c.layer == layer;
    widget_same_line_if_fits(widget_button_width(label.c_str()));
    if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::Button(label.c_str())) {
      if (several) {
        std::vector<int64_t> next(c.layers.begin(), c.layers.end());
        auto it = std::find(next.begin(), next.end(), (int64_t)layer);
        if (it != next.end() && next.size() > 1) next.erase(it);
        else if (it == next.end() && next.size() < LIVE_MAX_HIST_LAYERS) next.push_back(layer);
        std::sort(next.begin(), next.end());
        s->pack_layers = next;
      } else {
        s->layer = layer;
      }
    }
    item_probe(("layer-" + label).c_str());
    if (on) ImGui::PopStyleColor();
  }
}

// ui=present before "Explore freely": the layers shown, read rather than picked.
static void layer_line(const source_model& m, const live_choice& c, bool several) {
  std::string shown;
  for (int layer : m.layers)
    if (several ? std::find(c.layers.begin(), c.layers.end(), layer) != c.layers.end() : c.layer == layer)
      shown += (shown.empty() ? "" : ", ") + std::to_string(layer);
  widget_text_wrapped(std::string(tr(several ? STR_LIVE_LAYERS : STR_LIVE_LAYER)) + tr(STR_MIRROR_COLON) + shown);
}

static void source_lines(lab_state* s, const source_model& m, const live_choice& c, const live_session* ls, bool controls) {
  const layer_source* src = ls->source.get();
  if (m.synthetic) ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(150, 70, 0, 255));
  widget_text_wrapped(live_source_info(src, ls));
  if (m.synthetic) ImGui::PopStyleColor();
  if (m.probes.size() > 1 && controls) {
    ImGui::AlignTextToFramePadding();
    widget_text(tr(STR_LIVE_PROBE));
    for (size_t p = 0; p < m.probes.size(); p++) {
      const std::string label = live_probe_label(m, (int)p);
      widget_same_line_if_fits(widget_button_width(label.c_str()));
      ImGui::PushID((int)p);
      if (ImGui::RadioButton(label.c_str(), c.probe == (int)p))
        s->probe = (int64_t)p, live_fit_sentence(s, (int)m.probes[p].tokens.size());
      item_probe(("probe-" + std::to_string(p)).c_str());
      ImGui::PopID();
    }
  } else {
    widget_text_wrapped(std::string(tr(STR_LIVE_PROBE)) + tr(STR_MIRROR_COLON) + live_probe_label(m, (int)std::min<size_t>(size_t(std::max(0, (int)c.probe)), m.probes.size() - 1)));
  }
  if (live_probe_has_split_bytes(m, c.probe)) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    widget_text_wrapped(tr(STR_LIVE_SPLIT_BYTES));
    ImGui::PopStyleColor();
  }
}

void live_header_draw(lab_state* s, live_session* ls, const live_choice& c, bool pick_layers, double now, bool controls) {
  layer_source* src = ls->source.get();
  if (c.ready) {
    source_lines(s, src->model(), c, ls, controls);
    if (controls) {
      model_offer_draw(s, ls, c);  // never under lock=1: a student keeps the teacher's source
      layer_picker(s, src->model(), c, pick_layers);
      if (!s->lock) cache_clear_draw(ls, now);
    } else {
      layer_line(src->model(), c, pick_layers);
    }
  } else if (controls && src->phase() == SOURCE_FAILED) {
    cache_clear_draw(ls, now);  // a failed opening may be the cache's doing, or a teacher may want it gone
  }
  sentence_box_draw(s, ls, controls);  // model= only
  const std::vector<std::string> status = live_status_lines(src, ls);
  if (status.empty()) return;
  widget_fit_box_begin("stream-status", COLOR_NOTICE_BG, true);
  for (const std::string& line : status) widget_text_wrapped(line);
  const source_progress p = c.ready ? src->progress(-1) : source_progress();
  if (p.total > 0 && p.loading > 0) ImGui::ProgressBar((float)((double)p.loaded / (double)p.total), ImVec2(-1, 0), "");
  if (!controls) {  // Cancel, Retry and the way back wait under "Explore freely"
    widget_fit_box_end();
    return;
  }
  if (p.loading > 0 || src->phase() == SOURCE_OPENING) {
    if (ImGui::SmallButton(tr(STR_LIVE_CANCEL))) src->cancel();
    item_probe("stream-cancel");
  }
  // What the view needs and is not coming: failed ("Retry") or cancelled ("Load it").
  bool failed = false, cancelled = p.paused && p.loaded < p.total;
  for (const source_failure& f : src->failures()) (f.error.fault == STREAM_CANCELLED ? cancelled : failed) = true;
  if (failed || cancelled) {
    if (p.loading > 0) ImGui::SameLine();
    if (ImGui::SmallButton(tr(failed ? STR_LIVE_RETRY : STR_LIVE_LOAD_IT))) src->retry(now);
    item_probe("stream-retry");
  }
  // The way back from a model or pack that cannot be opened: the built-in weights, every other
  // setting kept (also under lock=1: the teacher's source failed, and this keeps the class going).
  if (src->phase() == SOURCE_FAILED && (!s->pack.empty() || !s->model.empty())) {
    const char* label = tr(s->model.empty() ? STR_LIVE_USE_DEFAULT : STR_LIVE_USE_BUILTIN);
    widget_same_line_if_fits(widget_button_width(label));
    if (ImGui::SmallButton(label)) live_use_builtin(s);
    item_probe("stream-use-default");
  }
  widget_fit_box_end();
}
