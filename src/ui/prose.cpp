// Prose with the glossary's terms marked, their hover and popup (see widgets.h: widget_prose).
// The core cuts a paragraph into runs (glossary_runs) and the line breaker into lines
// (widget_line_ranges, the Chinese rules included); this file only draws the pieces where the
// two meet, so a marked term wraps exactly as the same text unmarked would.
#include <algorithm>
#include <string>
#include <vector>

#include "core/lesson/glossary.h"
#include "core/base/strings.h"
#include "imgui.h"
#include "imgui_internal.h"  // the current window's rectangles
#include "ui/focus.h"
#include "ui/item_probe.h"
#include "ui/widgets.h"

struct term_state {
  int open = -1;              // the glossary_id whose popup is open
  bool open_drawn = false;    // its term was drawn this frame (anchor is fresh)
  ImVec2 anchor_min, anchor_max;
  bool term_hovered = false;  // a marked term is under the pointer this frame
  ImVec2 popup_min, popup_max;  // where the popup was last frame (a tap inside keeps it open)
  float tooltip_h = 0;        // the hover / focus definition's height last frame
  int serial = 0;             // this frame's marked pieces, for their ids
};
static term_state g_term;

int widget_term_open() { return g_term.open; }
void widget_term_close() { g_term.open = -1; }

// The popup's and tooltip's width: a comfortable measure, never wider than the screen.
static float definition_width() {
  return std::min(ImGui::GetFontSize() * 24, ImGui::GetIO().DisplaySize.x - ImGui::GetStyle().WindowPadding.x * 2 - 16);
}

// The term in its colour, then its definition, broken by the page's own line rules.
static void definition_body(int id) {
  const glossary_term& t = GLOSSARY[id];
  ImGui::PushStyleColor(ImGuiCol_Text, COLOR_TERM);
  widget_text(tr(t.term));
  ImGui::PopStyleColor();
  const std::string def = tr(t.definition);
  const std::string shown = widget_break_lines(def, definition_width());
  ImGui::TextUnformatted(shown.c_str(), shown.c_str() + shown.size());
  item_probe_text(def);
}

// The definition's place: under its term, kept on screen (a phone is narrow), above the term when
// there is no room below; never over the term itself (nor, under it, the view buttons above).
static void place_definition(ImVec2 term_min, ImVec2 term_max, float h) {
  const ImGuiIO& io = ImGui::GetIO();
  const float w = definition_width() + ImGui::GetStyle().WindowPadding.x * 2;
  if (h <= 0) h = ImGui::GetFontSize() * 6;
  const float x = ImClamp(term_min.x, 8.0f, ImMax(8.0f, io.DisplaySize.x - w - 8));
  float y = term_max.y + 4;
  if (y + h > io.DisplaySize.y && term_min.y - 4 - h >= 0) y = term_min.y - 4 - h;
  ImGui::SetNextWindowPos(ImVec2(x, ImClamp(y, 0.0f, ImMax(0.0f, io.DisplaySize.y - h))));
}

static void term_piece(const std::string& text, size_t a, size_t b, int id) {
  const char* name = GLOSSARY[id].name;
  const ImVec2 size = ImGui::CalcTextSize(text.c_str() + a, text.c_str() + b);
  ImGui::PushID(g_term.serial++);
  const bool pressed = ImGui::InvisibleButton(name, size);
  ImGui::PopID();
  const bool hovered = ImGui::IsItemHovered();
  const ImVec2 p0 = ImGui::GetItemRectMin(), p1 = ImGui::GetItemRectMax();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddText(p0, COLOR_TERM, text.c_str() + a, text.c_str() + b);
  // A dotted underline marks a term; a solid one while it is hovered or open.
  const float y = p1.y - 1, dot = std::max(1.0f, ImGui::GetFontSize() / 9);
  if (hovered || g_term.open == id) dl->AddLine(ImVec2(p0.x, y), ImVec2(p1.x, y), COLOR_TERM, dot);
  else
    for (float x = p0.x; x < p1.x; x += dot * 3) dl->AddRectFilled(ImVec2(x, y - dot / 2), ImVec2(std::min(x + dot, p1.x), y + dot / 2), COLOR_TERM);
  item_probe((std::string("gloss-") + name).c_str());
  g_term.term_hovered |= hovered;
  if (pressed) g_term.open = g_term.open == id ? -1 : id;
  if (g_term.open == id) {
    g_term.open_drawn = true;
    g_term.anchor_min = p0, g_term.anchor_max = p1;
  } else if (hovered || focus_current_id() == ImGui::GetItemID()) {  // the keyboard's focus shows it as hover does
    place_definition(p0, p1, g_term.tooltip_h);  // not where the mouse happens to be
    ImGui::BeginTooltip();
    definition_body(id);
    const ImVec2 at = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    g_term.tooltip_h = size.y;
    item_probe_shape("glossary-tooltip", at.x, at.y, at.x + size.x, at.y + size.y);
    ImGui::EndTooltip();
  }
}

void widget_prose(const std::string& text) {
  ImGuiWindow* w = ImGui::GetCurrentWindow();
  const float right_local = ImMin(w->Pos.x + w->Size.x - w->WindowPadding.x - (w->ParentWindow ? 0 : ImGui::GetStyle().ScrollbarSize),
                                  ImGui::GetContentRegionMaxAbs().x) - w->Pos.x + w->Scroll.x;
  const float width = right_local - ImGui::GetCursorPosX();
  const std::vector<glossary_run> runs = glossary_runs(text, strings_lang());
  std::vector<widget_line> terms;
  for (const glossary_run& run : runs)
    if (run.term >= 0) terms.push_back(widget_line{run.begin, run.end});
  const std::vector<widget_line> lines =
      widget_line_ranges(text, width < 50 ? FLT_MAX : width - 1, &terms);  // too narrow: only its own '\n'

  ImGui::BeginGroup();
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(0, 0));  // lines as close as one wrapped text's
  size_t r = 0;
  for (const widget_line& line : lines) {
    bool any = false;
    while (r < runs.size() && runs[r].end <= line.begin) ++r;
    for (size_t k = r; k < runs.size() && runs[k].begin < line.end; ++k) {
      const size_t a = std::max(runs[k].begin, line.begin), b = std::min(runs[k].end, line.end);
      if (a >= b) continue;
      if (any) ImGui::SameLine(0, 0);
      any = true;
      if (runs[k].term < 0) ImGui::TextUnformatted(text.c_str() + a, text.c_str() + b);
      else term_piece(text, a, b, runs[k].term);
    }
    if (!any) ImGui::TextUnformatted("");
  }
  ImGui::PopStyleVar();
  ImGui::EndGroup();
  item_probe_text(text);  // recorded as written, whatever the line breaks and marks
}

void widget_term_popup_draw() {
  ImGuiIO& io = ImGui::GetIO();
  const bool tapped = io.MouseClicked[0];
  const ImVec2 m = io.MousePos;
  const bool in_popup = m.x >= g_term.popup_min.x && m.x < g_term.popup_max.x && m.y >= g_term.popup_min.y && m.y < g_term.popup_max.y;
  // A tap elsewhere closes it (a tap on a term opens or closes that term itself), as does a term
  // no longer on the page.
  if (g_term.open >= 0 && ((tapped && !g_term.term_hovered && !in_popup) || !g_term.open_drawn)) g_term.open = -1;
  const int escape = io.KeyMap[ImGuiKey_Escape];
  if (escape >= 0 && ImGui::IsKeyPressed(escape, false)) g_term.open = -1;
  g_term.term_hovered = false;
  g_term.open_drawn = false;
  g_term.serial = 0;
  if (g_term.open < 0) {
    g_term.popup_min = g_term.popup_max = ImVec2(0, 0);
    return;
  }
  place_definition(g_term.anchor_min, g_term.anchor_max, g_term.popup_max.y - g_term.popup_min.y);
  ImGui::PushStyleColor(ImGuiCol_WindowBg, IM_COL32(255, 253, 240, 255));
  ImGui::PushStyleColor(ImGuiCol_Border, COLOR_TERM);
  ImGui::Begin("##glossary-popup", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove);
  definition_body(g_term.open);
  g_term.popup_min = ImGui::GetWindowPos();
  g_term.popup_max = ImVec2(g_term.popup_min.x + ImGui::GetWindowWidth(), g_term.popup_min.y + ImGui::GetWindowHeight());
  item_probe_shape("glossary-popup", g_term.popup_min.x, g_term.popup_min.y, g_term.popup_max.x, g_term.popup_max.y);
  ImGui::End();
  ImGui::PopStyleColor(2);
}

// [SECTION] ui=present
static bool g_present = false;
void widget_set_present(bool on) { g_present = on; }
bool widget_present() { return g_present; }
float widget_line_scale() { return g_present ? WIDGET_PRESENT_LINE_SCALE : 1.0f; }
