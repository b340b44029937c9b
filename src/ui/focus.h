// Keyboard use of the whole page: Tab / Shift-Tab move a visible focus mark through every
// control of every panel in drawing order (buttons, checkboxes, fields, foldable sections, the
// plot), Enter or Space presses a button or toggles a box, and on a number field starts typing.
// Panels need nothing for this: every enabled ImGui widget takes part, however it was drawn.
//
// Dear ImGui 1.86 tabs only between text fields and its keyboard navigation also takes the arrow
// keys, which here step the lesson. So this module keeps its own list of the frame's widgets
// (through ImGui's item hook, IMGUI_ENABLE_TEST_ENGINE), moves ImGui's nav focus itself, and
// feeds Enter/Space to ImGui's activation; ImGui's own keyboard navigation stays off.
#pragma once

#include <string>

// Hooks into the current ImGui context (once per context). Call after ImGui::CreateContext().
void focus_install();
// The ImGui id of the control with the keyboard focus mark, or 0 when none is shown.
unsigned focus_current_id();
// The name (item_probe) of the focused control: the named widget it is, or lies in (a number
// field with its - / + buttons is one named widget); "" when none is focused or it has no name.
std::string focus_current_name();
// A control the keyboard was on went away (a button that hides itself when pressed): while the
// keyboard leads, the focus goes to the named control once it is drawn, not to nowhere.
void focus_move_to(const char* name);
