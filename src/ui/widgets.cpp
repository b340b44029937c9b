// Panel drawing helpers (see widgets.h).
#include "ui/widgets.h"

#include <cstdarg>
#include <cstdio>

#include "core/lab_state.h"
#include "core/number_format.h"

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

void widget_text(const std::string& text) { ImGui::TextUnformatted(text.c_str(), text.c_str() + text.size()); }

void widget_text_wrapped(const std::string& text) {
  // Wrap at the screen's width, not at the content's: on a phone the tables are wider than the
  // screen and the page pans, but prose should still fit.
  const ImGuiStyle& st = ImGui::GetStyle();
  float right = ImGui::GetWindowWidth() - st.WindowPadding.x - st.ScrollbarSize;
  ImGui::PushTextWrapPos(right > ImGui::GetCursorPosX() + 50 ? right : 0.0f);
  widget_text(text);
  ImGui::PopTextWrapPos();
}

std::string strf(const char* fmt, ...) {
  char buf[1024];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  return buf;
}
