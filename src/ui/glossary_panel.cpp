// Glossary and common questions (see glossary_panel.h).
#include "ui/glossary_panel.h"
#include "ui/panel.h"

#include <string>

#include "core/lesson/glossary.h"
#include "core/base/strings.h"
#include "imgui.h"
#include "ui/item_probe.h"
#include "ui/widgets.h"


static void glossary_draw() {
  widget_text_wrapped(tr(STR_GLOSSARY_INTRO));
  for (const glossary_term& t : GLOSSARY) {
    ImGui::Spacing();
    ImGui::PushStyleColor(ImGuiCol_Text, COLOR_TERM);
    widget_text(tr(t.term));
    ImGui::PopStyleColor();
    item_probe((std::string("term-") + t.name).c_str());
    ImGui::Indent();
    widget_text_wrapped(tr(t.definition));
    ImGui::Unindent();
  }
}

void faq_panel_draw(lab_view view, faq_open_set* open) {
  bool any = false;
  for (const faq_entry& f : FAQ) any |= f.view == view;
  if (!any) return;
  ImGui::Spacing();
  ImGui::Separator();
  widget_text_disabled(tr(STR_FAQ_TITLE));
  for (const faq_entry& f : FAQ) {
    if (f.view != view) continue;
    // A fold whose question wraps beside its arrow: a phone shows the whole question, and a tap
    // on the arrow or on the question (or Enter on the arrow) opens it.
    const unsigned bit = 1u << f.id;
    ImGui::PushID(f.name);
    ImGui::SetNextItemOpen((*open & bit) != 0);
    const bool unfolded = ImGui::TreeNodeEx("##faq", ImGuiTreeNodeFlags_NoTreePushOnOpen | ImGuiTreeNodeFlags_FramePadding);
    ImGui::PopID();
    item_probe((std::string("faq-") + f.name).c_str());
    *open = unfolded ? *open | bit : *open & ~bit;
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    widget_text_wrapped(tr(f.question));
    if (ImGui::IsItemClicked()) *open ^= bit;
    if (unfolded) {
      ImGui::Indent();
      widget_prose(tr(f.answer));
      ImGui::Unindent();
    }
  }
}

// [SECTION] the panel's row (ui/panel.h)
void* glossary_panel_init() { return nullptr; }
void glossary_panel_keys(void*, panel_frame*) {}
void glossary_panel_draw(void*, panel_frame*) { glossary_draw(); }
bool glossary_panel_animating(const void*, double) { return false; }
std::string glossary_panel_text(const void*, panel_frame*) { return ""; }
void glossary_panel_free(void*) {}
