// Small drawing helpers shared by the panels: the palette, matrix cells, printf into ImGui text.
#pragma once

#include <string>

#include "imgui.h"

// The palette: what a step reads is blue, what it writes is orange (hand calculation);
// the same hues mark the curves of the SiLU plot.
#define COLOR_READ IM_COL32(198, 222, 255, 255)
#define COLOR_WRITE IM_COL32(255, 214, 165, 255)
#define COLOR_DONE IM_COL32(236, 240, 244, 255)
#define COLOR_SILU IM_COL32(230, 110, 20, 255)
#define COLOR_RELU IM_COL32(40, 100, 220, 255)
#define COLOR_SIGMOID IM_COL32(120, 120, 120, 255)
#define COLOR_GELU IM_COL32(30, 150, 80, 255)
#define COLOR_UP IM_COL32(60, 120, 230, 255)
#define COLOR_Z IM_COL32(20, 180, 190, 255)
#define COLOR_GATE IM_COL32(240, 150, 40, 255)
#define COLOR_DOWN IM_COL32(150, 90, 200, 255)
#define COLOR_CLASSIC IM_COL32(140, 150, 165, 255)
#define COLOR_NOTICE_BG IM_COL32(255, 243, 205, 255)

// An editable number in a table cell: drag to change, double-click to type. Returns true on change.
bool widget_edit_cell(const char* id, double* value, ImU32 background);

// A computed number (6 decimals) in a table cell, or a dot while it is not computed yet.
void widget_value_cell(const double* value_or_null, ImU32 background);

// Phones are narrow: these continue the current line only if the next widget fits, and start a
// new line otherwise. Call before the widget, in place of ImGui::SameLine().
void widget_same_line_if_fits(float next_width);
float widget_button_width(const char* label);
float widget_checkbox_width(const char* label);

// ImGui::TextUnformatted with std::string, and a wrapped variant.
void widget_text(const std::string& text);
void widget_text_wrapped(const std::string& text);

// printf into a std::string; the table strings are formats.
std::string strf(const char* fmt, ...);
