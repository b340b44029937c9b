// Small drawing helpers shared by the panels: the palette, matrix cells, printf into ImGui text.
#pragma once

#include <string>
#include <vector>

#include "core/views/gates_figure.h"  // lab_rgb, the lesson's hues
#include "core/base/number_format.h"  // strf
#include "core/views/view_rows.h"
#include "imgui.h"

// A colour of the core's table (gates_figure.h) as ImGui's.
inline ImU32 rgb_u32(lab_rgb c, int alpha = 255) { return IM_COL32(c.r, c.g, c.b, alpha); }

// The palette: what a step reads is blue, what it writes is orange (hand calculation);
// the same hues mark the curves of the SiLU plot.
#define COLOR_READ IM_COL32(198, 222, 255, 255)
#define COLOR_WRITE IM_COL32(255, 214, 165, 255)
#define COLOR_DONE IM_COL32(236, 240, 244, 255)
#define COLOR_SILU IM_COL32(230, 110, 20, 255)
#define COLOR_RELU rgb_u32(RGB_RELU)
#define COLOR_SIGMOID IM_COL32(120, 120, 120, 255)
#define COLOR_GELU IM_COL32(30, 150, 80, 255)
#define COLOR_UP IM_COL32(60, 120, 230, 255)
#define COLOR_Z IM_COL32(20, 180, 190, 255)
#define COLOR_GATE rgb_u32(RGB_GATE)
#define COLOR_DOWN IM_COL32(150, 90, 200, 255)
#define COLOR_CLASSIC rgb_u32(RGB_CLASSIC)
#define COLOR_NOTICE_BG IM_COL32(255, 243, 205, 255)
#define COLOR_TERM IM_COL32(20, 60, 130, 255)  // a glossary term, in the glossary view and marked in prose
#define COLOR_LIVE IM_COL32(26, 128, 51, 255)
#define COLOR_PRECOMPUTED IM_COL32(153, 89, 0, 255)

// The colour of a row's or cell's tone (core/views/view_rows.h) as text: the lesson's hues.
ImU32 widget_tone_color(view_tone tone);

// An editable number in a table cell: drag to change, double-click to type. Returns true on change.
bool widget_edit_cell(const char* id, double* value, ImU32 background);

// A computed number (6 decimals) in a table cell, or a dot while it is not computed yet.
void widget_value_cell(const double* value_or_null, ImU32 background);

// Phones are narrow: these continue the current line only if the next widget fits, and start a
// new line otherwise. Call before the widget, in place of ImGui::SameLine().
void widget_same_line_if_fits(float next_width);
float widget_button_width(const char* label);
float widget_checkbox_width(const char* label);

// ImGui::TextUnformatted with std::string, and a wrapped variant that wraps at the visible
// width (the screen, a table cell, a box), never at a wider content's edge. Both record the text
// for the reachability tests (item_probe.h): print numbers through these.
void widget_text(const std::string& text);
// The same in a colour (ImGui's TextDisabled colour for `disabled`); recorded like widget_text.
void widget_text_colored(ImU32 color, const std::string& text);
void widget_text_disabled(const std::string& text);
void widget_text_wrapped(const std::string& text);
void widget_text_wrapped_disabled(const std::string& text);  // a note under a figure, greyed
// The line breaks widget_text_wrapped draws at `width` pixels (current font): breaks at spaces,
// and in Chinese between characters; never inside a number or a Latin word ("-0.278",
// "qwen3.5-0.8b") unless it alone is wider than a line, never with CJK closing punctuation
// ("，", "。", "）") at a line start or opening punctuation at a line end; each line is filled as
// far as it goes. Existing '\n' are kept.
std::string widget_break_lines(const std::string& text, float width);
// The same lines as ranges [begin, end) of `text` (the spaces at a break belong to no line): for
// text drawn in pieces, such as prose with marked terms (widget_prose). `glued` (sorted ranges of
// `text`, may be null) never break inside, unless one alone is wider than a line: a marked term
// ("residual stream", "残差流") stays on one line.
struct widget_line { size_t begin, end; };
std::vector<widget_line> widget_line_ranges(const std::string& text, float width, const std::vector<widget_line>* glued = nullptr);

// A view's explanatory prose, wrapped as widget_text_wrapped, with the glossary's terms marked
// (core/lesson/glossary.h: glossary_runs): a dotted underline in the term colour; hover (or the keyboard
// focus) shows the definition, a tap, click or Enter opens it in a popup (widget_term_popup_draw)
// until a tap elsewhere or on the term again. Each marked piece is a control named "gloss-NAME".
void widget_prose(const std::string& text);
// Draws the open definition's popup under its term; call once per frame after the page's content.
// Closes it when its term was not drawn this frame (another view) or a tap lands elsewhere.
void widget_term_popup_draw();
// The open term (a glossary_id), or -1; closing it (a new link read).
int widget_term_open();
void widget_term_close();
// ui=present, for a projector (set by the app each frame): panels leave out editing chrome
// (hints for keys, field frames), draw plot lines widget_line_scale() times thicker and the hand
// calculation's current formula WIDGET_PRESENT_FORMULA_SCALE times larger, on top of the larger type.
#define WIDGET_PRESENT_LINE_SCALE 2.0f
#define WIDGET_PRESENT_FORMULA_SCALE 1.5f
void widget_set_present(bool on);
bool widget_present();
float widget_line_scale();

// A slider for a number a student sets (the threshold, token k, delta) that can also be typed
// into, as the hand calculation's fields: a double click (a double tap on a phone, which brings up
// its keyboard), Ctrl+click, or Enter when it has the keyboard focus. The value the first click
// of a double click jumped to is undone, so typing starts from the value that was there.
enum widget_slider_change { WIDGET_SLIDER_NONE, WIDGET_SLIDER_DRAGGED, WIDGET_SLIDER_TYPED };
widget_slider_change widget_slider_typable(const char* label, ImGuiDataType type, void* value, const void* lo,
                                           const void* hi, const char* format);

// [SECTION] boxes and wide content: every number stays reachable on a 390 px phone
// A box (child window) as tall as its content was last frame, so nothing in it needs a scroll
// of its own: a notice with its Dismiss button, the step's formula. Pass the fill colour (0: none).
void widget_fit_box_begin(const char* id, ImU32 background, bool border);
void widget_fit_box_end();

// True once after a frame in which a box or strip changed size: the host should draw another
// frame so the page settles (lab_app_animating asks).
bool widget_layout_changed();

// Content wider than the screen (a table of numbers). Where it fits it is drawn in place; where
// it does not, it goes into a strip as wide as the screen that scrolls sideways, with a hint line
// above it and a scrollbar that is always shown, and a swipe anywhere in it that does not start
// on an editable number pans it. `content_width` is what the content needs.
void widget_wide_begin(const char* id, float content_width);
void widget_wide_end();

// A table of printed values, row by row (cells.size() is a multiple of headers.size()): each
// column as wide as its widest text, never squeezed, in a sideways strip when wider than the screen.
struct widget_cell {
  std::string text;
  ImU32 background;  // 0: none
};
void widget_text_table(const char* id, const std::vector<std::string>& headers, const std::vector<widget_cell>& cells);

// Phones have no wheel: a drag that starts on the background of the current window (no widget
// under the finger) scrolls it, and whatever it cannot scroll goes to the window around it.
// Call at the end of every window that can scroll.
void widget_drag_to_scroll();
// Scrolls the current window by `delta` pixels of finger movement (content follows the finger);
// what it cannot take goes to the windows around it (the page). For a control that pans only
// some of a drag (the heatmap at its edge, or at x1 where it cannot pan at all).
void widget_scroll_by_drag(ImVec2 delta);

// The width left on screen from the cursor: the visible area, not a wider content's extent.
float widget_visible_width();

// A label at a place on a plot (an axis's number, a legend's scale), drawn over what is there
// (reserve the place first, ImGui::Dummy); recorded for the tests as a shape named "label:TEXT".
void widget_text_at(ImVec2 screen_pos, ImU32 color, const std::string& text, float scale = 1.0f);
// Its size at that scale (a narrow plot's axis text is smaller than the page's).
ImVec2 widget_text_at_size(const std::string& text, float scale = 1.0f);

