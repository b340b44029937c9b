// Panel drawing helpers (see widgets.h).
#include "ui/widgets.h"

#include <cstdarg>
#include <cstdio>

#include "core/lab_state.h"
#include "core/number_format.h"
#include "core/strings.h"
#include "imgui_internal.h"  // the current window's rectangles, scroll and move handle
#include "ui/item_probe.h"

bool widget_edit_cell(const char* id, double* value, ImU32 background) {
  if (background) ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, background);
  ImGui::SetNextItemWidth(-FLT_MIN);
  const double lo = -LAB_VALUE_LIMIT, hi = LAB_VALUE_LIMIT;
  bool changed = ImGui::DragScalar(id, ImGuiDataType_Double, value, 0.01f, &lo, &hi, "%g",
                                   ImGuiSliderFlags_AlwaysClamp);
  if (changed && *value == 0) *value = 0;  // no "-0" in links
  return changed;
}

void widget_value_cell(const double* value, ImU32 background) {
  if (background) ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, background);
  if (value) widget_text(fmt6(*value));
  else ImGui::TextDisabled("·");
}

void widget_same_line_if_fits(float next_width) {
  float right_edge = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  float spacing = ImGui::GetStyle().ItemSpacing.x;
  if (ImGui::GetItemRectMax().x + spacing + next_width <= right_edge) ImGui::SameLine();
}

float widget_button_width(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2;
}

float widget_checkbox_width(const char* label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
}

void widget_text(const std::string& text) {
  ImGui::TextUnformatted(text.c_str(), text.c_str() + text.size());
  item_probe_text(text);
}

void widget_text_colored(ImU32 color, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  widget_text(text);
  ImGui::PopStyleColor();
}

void widget_text_disabled(const std::string& text) {
  widget_text_colored(ImGui::GetColorU32(ImGuiCol_TextDisabled), text);
}

// The right edge of what a person sees, in screen coordinates: the window's visible inner edge
// (its scrollbar's room kept free so the layout does not jump), or a table cell's edge.
static float visible_right_abs() {
  ImGuiWindow* w = ImGui::GetCurrentWindow();
  float right = w->Pos.x + w->Size.x - w->WindowPadding.x - ImGui::GetStyle().ScrollbarSize;
  if (w->ParentWindow) right = w->Pos.x + w->Size.x - w->WindowPadding.x;  // boxes: their scrollbar, if any, is below
  return ImMin(right, ImGui::GetContentRegionMaxAbs().x);
}

float widget_visible_width() { return visible_right_abs() - ImGui::GetCursorScreenPos().x; }

// Chinese characters and full-width punctuation (U+3000..U+9FFF, U+FF00..): lines may break
// between any two of them, not only at spaces.
static bool has_cjk(const std::string& text) {
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c >= 0xE3 && c <= 0xE9) || (c == 0xEF && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0xBC)) return true;
  }
  return false;
}

// Line breaks at spaces only: ImGui also breaks after '.', which would cut "0.000000" in two.
// Chinese text, and text with a run too wide for a line, is left to ImGui's wrapping.
static std::string break_at_spaces(const std::string& text, float width) {
  if (has_cjk(text)) return text;
  std::string out, line;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(start, end - start);
    if (ImGui::CalcTextSize(word.c_str()).x > width) return text;  // a run of Chinese: ImGui wraps it
    std::string candidate = line.empty() ? word : line + " " + word;
    if (!line.empty() && ImGui::CalcTextSize(candidate.c_str()).x > width) {
      out += line + "\n";
      line = word;
    } else {
      line = candidate;
    }
    start = end + 1;
  }
  return out + line;
}

void widget_text_wrapped(const std::string& text) {
  ImGuiWindow* w = ImGui::GetCurrentWindow();
  float right_local = visible_right_abs() - w->Pos.x + w->Scroll.x;
  float width = right_local - ImGui::GetCursorPosX();
  if (width < 50) return widget_text(text);
  ImGui::PushTextWrapPos(right_local);
  std::string shown = text.find('\n') == std::string::npos ? break_at_spaces(text, width) : text;
  ImGui::TextUnformatted(shown.c_str(), shown.c_str() + shown.size());
  item_probe_text(text);  // recorded as written, whatever the line breaks
  ImGui::PopTextWrapPos();
}

// [SECTION] boxes and wide content
void widget_drag_to_scroll() {
  ImGuiContext& g = *GImGui;
  ImGuiWindow* w = g.CurrentWindow;
  // A press on a window's background makes its move handle the active item, even for a window
  // that cannot move: that is the "empty page" case.
  if (!ImGui::IsMouseDragging(ImGuiMouseButton_Left) || g.ActiveId != w->MoveId || g.ActiveIdWindow != w) return;
  ImVec2 delta = g.IO.MouseDelta;
  for (ImGuiWindow* target = w; target && (delta.x != 0 || delta.y != 0); target = target->ParentWindow) {
    float x = ImClamp(target->Scroll.x - delta.x, 0.0f, target->ScrollMax.x);
    float y = ImClamp(target->Scroll.y - delta.y, 0.0f, target->ScrollMax.y);
    delta.x -= target->Scroll.x - x;  // what this window could not take goes to its parent
    delta.y -= target->Scroll.y - y;
    if (x != target->Scroll.x) ImGui::SetScrollX(target, x);
    if (y != target->Scroll.y) ImGui::SetScrollY(target, y);
  }
}

// Each box remembers the size its content took (height under its id, width under id + 1), in
// the state storage of the window around it.
static float remembered(ImGuiID key, float fallback) { return ImGui::GetStateStorage()->GetFloat(key, fallback); }

static bool g_resized;  // a box's size changed this frame: the next frame lays out differently

bool widget_layout_changed() {
  bool changed = g_resized;
  g_resized = false;
  return changed;
}

struct box_frame { ImGuiID key; float extra; bool child; int colors; };
static ImVector<box_frame> g_boxes;

void widget_fit_box_begin(const char* id, ImU32 background, bool border) {
  ImGuiID key = ImGui::GetID(id);
  int colors = 0;
  if (background) ImGui::PushStyleColor(ImGuiCol_ChildBg, background), colors = 1;
  float h = remembered(key, ImGui::GetTextLineHeightWithSpacing() * 4);
  ImGui::BeginChild(id, ImVec2(0, h), border, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  g_boxes.push_back(box_frame{key, 0, true, colors});
}

void widget_fit_box_end() {
  box_frame b = g_boxes.back();
  g_boxes.pop_back();
  ImGuiWindow* child = ImGui::GetCurrentWindow();
  float content_w = child->DC.CursorMaxPos.x - child->DC.CursorStartPos.x;
  float content_h = child->DC.CursorMaxPos.y - child->DC.CursorStartPos.y;
  if (!child->SkipItems) {  // a box scrolled out of view draws nothing: keep what it measured
    ImGuiStorage* storage = &child->ParentWindow->StateStorage;
    float h = content_h + child->WindowPadding.y * 2 + b.extra;
    g_resized |= ImFabs(storage->GetFloat(b.key, -1) - h) > 0.5f || ImFabs(storage->GetFloat(b.key + 1, -1) - content_w) > 0.5f;
    storage->SetFloat(b.key, h);
    storage->SetFloat(b.key + 1, content_w);
  }
  widget_drag_to_scroll();
  ImGui::EndChild();
  ImGui::PopStyleColor(b.colors);
}

void widget_wide_begin(const char* id, float content_width) {
  ImGuiID key = ImGui::GetID(id);
  // What the content took last frame, for content whose width is only known once drawn.
  float width = ImMax(content_width, remembered(key + 1, 0));
  float avail = widget_visible_width();
  if (width <= avail) {
    ImGui::BeginGroup();
    g_boxes.push_back(box_frame{key, 0, false, 0});
    return;
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  widget_text_wrapped(tr(STR_WIDE_HINT));
  ImGui::PopStyleColor();
  float h = remembered(key, ImGui::GetFrameHeightWithSpacing() * 6);
  ImGui::BeginChild(id, ImVec2(avail, h), false,
                    ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_AlwaysHorizontalScrollbar);
  g_boxes.push_back(box_frame{key, ImGui::GetStyle().ScrollbarSize, true, 0});
}

void widget_wide_end() {
  box_frame b = g_boxes.back();
  if (b.child) return widget_fit_box_end();
  g_boxes.pop_back();
  ImGui::EndGroup();
  float w = ImGui::GetItemRectSize().x;
  g_resized |= ImFabs(ImGui::GetStateStorage()->GetFloat(b.key + 1, -1) - w) > 0.5f;
  ImGui::GetStateStorage()->SetFloat(b.key + 1, w);
}

void widget_text_table(const char* id, const std::vector<std::string>& headers, const std::vector<widget_cell>& cells) {
  const int columns = int(headers.size());
  const float pad = ImGui::GetStyle().CellPadding.x * 2 + 1;  // padding and a border
  std::vector<float> widths(columns);
  float total = 1;
  for (int c = 0; c < columns; ++c) {
    widths[c] = ImGui::CalcTextSize(headers[c].c_str()).x;
    for (size_t i = c; i < cells.size(); i += columns) widths[c] = ImMax(widths[c], ImGui::CalcTextSize(cells[i].text.c_str()).x);
    total += widths[c] + pad;
  }
  widget_wide_begin(id, total);
  if (ImGui::BeginTable(id, columns, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoHostExtendX,
                        ImVec2(total, 0))) {
    for (int c = 0; c < columns; ++c) ImGui::TableSetupColumn(headers[c].c_str(), ImGuiTableColumnFlags_WidthFixed, widths[c]);
    ImGui::TableHeadersRow();
    for (size_t i = 0; i < cells.size(); ++i) {
      if (i % columns == 0) ImGui::TableNextRow();
      ImGui::TableNextColumn();
      if (cells[i].background) ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, cells[i].background);
      widget_text(cells[i].text);
    }
    ImGui::EndTable();
  }
  widget_wide_end();
}

