// The real model's offer and the cache's Clear button (see live_header_extras.h).
#include "ui/live_header_extras.h"

#include "core/views/model_offer.h"
#include "imgui.h"
#include "core/model/model_service.h"
#include "platform/platform.h"
#include "core/stream/fetch_seam.h"
#include "ui/item_probe.h"
#include "ui/widgets.h"

void model_offer_draw(lab_state* s, live_session* ls, const live_choice& c) {
  if (!c.ready || !model_offer_shown(*ls, *s)) return;
  const uint64_t bytes = model_offer_bytes(*ls, c);
  std::string label = model_offer_button(bytes);
  if (ImGui::CalcTextSize(label.c_str()).x + 2 * ImGui::GetStyle().FramePadding.x > ImGui::GetContentRegionAvail().x)
    label = model_offer_button(bytes, true);
  if (ImGui::SmallButton(label.c_str())) model_offer_apply(s);  // the link follows the state
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", model_offer_detail(bytes).c_str());
  item_probe("model-offer", label);
}

uint64_t cache_bytes_held() {
  fetch_client* client = platform_fetch_client();
  model_service* model = platform_model();
  return (client ? client->cache_bytes() : 0) + (model ? model->model_cache_bytes() : 0);
}

// One button for both caches: the weights' (256 MiB) and the whole model's (its own bound).
void cache_clear_draw(live_session* ls, double now) {
  fetch_client* client = platform_fetch_client();
  model_service* model = platform_model();
  const uint64_t in_caches = cache_bytes_held();
  // While the caches fill the label moves as progress does (each new label is a redraw); the
  // button's coming and going is news.
  const uint64_t held = ls->cache_shown.take(in_caches, now, in_caches == 0 || ls->cache_shown.shown == 0);
  if (held > 0) {
    const std::string label = cache_clear_button(held);
    widget_same_line_if_fits(widget_button_width(label.c_str()));
    if (ImGui::SmallButton(label.c_str()))
      ls->cache_note = cache_cleared_text((client ? client->cache_clear("") : 0) + (model ? model->model_clear_cache() : 0));
    item_probe("cache-clear", label);
  }
  if (!ls->cache_note.empty()) widget_text_wrapped(ls->cache_note);
}
