// Lesson 002 step by step, as a panel (ui/panel.h): x = [1, 2] -> u, a, g = silu(a), z = u * g ->
// y ~ [1.924234, -1.761594]. Every weight and x is editable; each step highlights what it reads
// (blue) and writes (orange). Keys: right/left arrow step, unless a text field has the keyboard.
#include "ui/panel.h"

#include <cmath>

#include "core/lesson/activations.h"
#include "core/lesson/hand_calc.h"
#include "core/lesson/hand_explain.h"
#include "core/views/lab_text.h"
#include "core/base/number_format.h"
#include "core/base/strings.h"
#include "imgui.h"
#include "ui/focus.h"
#include "ui/item_probe.h"
#include "ui/widgets.h"

static const double PLAY_SECONDS_PER_STEP = 1.5;
static const int LAST_STEP = HAND_STEP_COUNT - 1;

struct hand_panel {
  bool playing = false;
  double next_step_at = 0;  // seconds, while playing
};

static void set_step(hand_panel* panel, lab_state* s, int step) {
  s->step = step < 0 ? 0 : step > LAST_STEP ? LAST_STEP : step;
  if (s->step == LAST_STEP) panel->playing = false;
}

static void hand_keys(hand_panel* panel, lab_state* s) {
  ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput || ImGui::IsAnyItemActive()) return;
  if (ImGui::IsKeyPressed(io.KeyMap[ImGuiKey_RightArrow])) set_step(panel, s, s->step + 1);
  if (ImGui::IsKeyPressed(io.KeyMap[ImGuiKey_LeftArrow])) panel->playing = false, set_step(panel, s, s->step - 1);
}

// [SECTION] what each step reads and writes
enum cell_group { G_X, G_WUP, G_U, G_WGATE, G_A, G_SIG, G_G, G_Z, G_WDOWN, G_Y };

static ImU32 cell_color(int step, cell_group g) {
  switch (step) {
    case HAND_STEP_UP: return g == G_X || g == G_WUP ? COLOR_READ : g == G_U ? COLOR_WRITE : 0;
    case HAND_STEP_GATE: return g == G_X || g == G_WGATE ? COLOR_READ : g == G_A ? COLOR_WRITE : 0;
    case HAND_STEP_SILU: return g == G_A ? COLOR_READ : g == G_SIG || g == G_G ? COLOR_WRITE : 0;
    case HAND_STEP_MUL: return g == G_U || g == G_G ? COLOR_READ : g == G_Z ? COLOR_WRITE : 0;
    case HAND_STEP_DOWN: return g == G_Z || g == G_WDOWN ? COLOR_READ : g == G_Y ? COLOR_WRITE : 0;
  }
  return 0;
}

// The step at which a group of computed cells gets its value.
static int computed_at(cell_group g) {
  switch (g) {
    case G_U: return HAND_STEP_UP;
    case G_A: return HAND_STEP_GATE;
    case G_SIG: case G_G: return HAND_STEP_SILU;
    case G_Z: return HAND_STEP_MUL;
    case G_Y: return HAND_STEP_DOWN;
    default: return 0;
  }
}

static void value(int step, cell_group g, const double* v) {
  widget_value_cell(step >= computed_at(g) ? v : nullptr, cell_color(step, g));
}

// [SECTION] controls
static void draw_controls(hand_panel* panel, lab_state* s, double now) {
  ImGui::BeginDisabled(s->step == 0);
  if (ImGui::Button(tr(STR_HAND_PREV))) panel->playing = false, set_step(panel, s, s->step - 1);
  item_probe("prev");
  ImGui::EndDisabled();
  widget_same_line_if_fits(widget_button_width(tr(STR_HAND_NEXT)));
  ImGui::BeginDisabled(s->step == LAST_STEP);
  if (ImGui::Button(tr(STR_HAND_NEXT))) set_step(panel, s, s->step + 1);
  item_probe("next");
  ImGui::EndDisabled();
  widget_same_line_if_fits(widget_button_width(tr(STR_HAND_PAUSE)));
  if (ImGui::Button(panel->playing ? tr(STR_HAND_PAUSE) : tr(STR_HAND_PLAY))) {
    panel->playing = !panel->playing;
    if (panel->playing) {
      if (s->step == LAST_STEP) s->step = 0;
      panel->next_step_at = now + PLAY_SECONDS_PER_STEP;
    }
  }
  item_probe("play");
  widget_same_line_if_fits(widget_button_width(tr(STR_HAND_RESET)));
  if (ImGui::Button(tr(STR_HAND_RESET))) {
    lab_state def = lab_state_default();
    hand_lesson_input(s->x);
    s->w = def.w;
    s->step = def.step;
    panel->playing = false;
  }
  item_probe("reset");
  std::string step_of = lab_step_of_text(s->step);
  widget_same_line_if_fits(ImGui::CalcTextSize(step_of.c_str()).x);
  ImGui::AlignTextToFramePadding();
  widget_text(step_of);
  if (!widget_present()) {  // a projector's audience has no keyboard
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    widget_text_wrapped(tr(STR_HAND_KEYS_HINT));
    ImGui::PopStyleColor();
  }

  if (panel->playing && now >= panel->next_step_at) {
    set_step(panel, s, s->step + 1);
    panel->next_step_at = now + PLAY_SECONDS_PER_STEP;
  }
}

// [SECTION] the two tables: one row per intermediate cell, then one per output

// The tables keep their width on a narrow phone (they then scroll sideways in a strip, see
// widget_wide_begin) rather than squeezing "-0.268941" into three characters.
static float table_width(int columns, int edit_columns, int value_columns) {
  float fs = ImGui::GetFontSize(), pad = ImGui::GetStyle().CellPadding.x * 2 + 1;
  return fs * (1.2f + 3.4f * edit_columns + 6.0f * value_columns) + pad * columns;
}
// The row number, then one editable cell per weight of that matrix row.
static void row_label(int row) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::AlignTextToFramePadding();
  ImGui::Text("%d", row + 1);
}

static void edit_cells(const char* id, double* weights, int count, ImU32 color) {
  for (int c = 0; c < count; ++c) {
    ImGui::TableNextColumn();
    ImGui::PushID(c);
    widget_edit_cell(id, &weights[c], color);
    ImGui::PopID();
  }
}

static void draw_mid_table(lab_state* s, const hand_trace& t) {
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoHostExtendX;
  const float edit_w = ImGui::GetFontSize() * 3.4f, value_w = ImGui::GetFontSize() * 6.0f;
  const float width = table_width(10, 4, 5);
  widget_wide_begin("mid-strip", width);
  if (!ImGui::BeginTable("mid", 10, flags, ImVec2(width, 0))) return widget_wide_end();
  ImGui::TableSetupColumn("i", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("W_up", ImGuiTableColumnFlags_WidthFixed, edit_w);
  ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, edit_w);
  ImGui::TableSetupColumn("u = W_up x", ImGuiTableColumnFlags_WidthFixed, value_w);
  ImGui::TableSetupColumn("W_gate", ImGuiTableColumnFlags_WidthFixed, edit_w);
  ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, edit_w);
  ImGui::TableSetupColumn("a = W_gate x", ImGuiTableColumnFlags_WidthFixed, value_w);
  ImGui::TableSetupColumn("sigmoid(a)", ImGuiTableColumnFlags_WidthFixed, value_w);
  ImGui::TableSetupColumn("g = silu(a)", ImGuiTableColumnFlags_WidthFixed, value_w);
  ImGui::TableSetupColumn("z = u ⊙ g", ImGuiTableColumnFlags_WidthFixed, value_w);
  ImGui::TableHeadersRow();
  for (int i = 0; i < HAND_MID; ++i) {
    ImGui::PushID(i);
    row_label(i);
    edit_cells("##wu", &s->w.up[i * HAND_IN], HAND_IN, cell_color(s->step, G_WUP));
    ImGui::TableNextColumn();
    value(s->step, G_U, &t.u[i]);
    edit_cells("##wg", &s->w.gate[i * HAND_IN], HAND_IN, cell_color(s->step, G_WGATE));
    ImGui::TableNextColumn();
    value(s->step, G_A, &t.a[i]);
    ImGui::TableNextColumn();
    value(s->step, G_SIG, &t.sigmoid[i]);
    ImGui::TableNextColumn();
    value(s->step, G_G, &t.g[i]);
    ImGui::TableNextColumn();
    value(s->step, G_Z, &t.z[i]);
    ImGui::PopID();
  }
  ImGui::EndTable();
  widget_wide_end();
}

static void draw_out_table(lab_state* s, const hand_trace& t) {
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit |
                                ImGuiTableFlags_NoHostExtendX;
  const float edit_w = ImGui::GetFontSize() * 3.4f, value_w = ImGui::GetFontSize() * 6.0f;
  const float width = table_width(6, 4, 1);
  widget_wide_begin("out-strip", width);
  if (!ImGui::BeginTable("out", 6, flags, ImVec2(width, 0))) return widget_wide_end();
  ImGui::TableSetupColumn("j", ImGuiTableColumnFlags_WidthFixed);
  for (int c = 0; c < HAND_MID; ++c)
    ImGui::TableSetupColumn(c == 0 ? "W_down" : "", ImGuiTableColumnFlags_WidthFixed, edit_w);
  ImGui::TableSetupColumn("y = W_down z", ImGuiTableColumnFlags_WidthFixed, value_w);
  ImGui::TableHeadersRow();
  for (int j = 0; j < HAND_OUT; ++j) {
    ImGui::PushID(j);
    row_label(j);
    edit_cells("##wd", &s->w.down[j * HAND_MID], HAND_MID, cell_color(s->step, G_WDOWN));
    ImGui::TableNextColumn();
    value(s->step, G_Y, &t.y[j]);
    ImGui::PopID();
  }
  ImGui::EndTable();
  widget_wide_end();
}

// What the two highlight colours mean, beside the input.
static void draw_legend(const lab_state* s) {
  if (s->step == HAND_STEP_NONE) return;
  float fs = ImGui::GetFontSize();
  for (int i = 0; i < 2; ++i) {
    const char* label = tr(i ? STR_HAND_LEGEND_WRITE : STR_HAND_LEGEND_READ);
    widget_same_line_if_fits(fs * 1.6f + ImGui::CalcTextSize(label).x + fs);
    ImVec2 p = ImGui::GetCursorScreenPos();
    float y = p.y + ImGui::GetStyle().FramePadding.y;
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + fs * 1.2f, y + fs), i ? COLOR_WRITE : COLOR_READ, 3);
    ImGui::Dummy(ImVec2(fs * 1.3f, ImGui::GetFrameHeight()));
    ImGui::SameLine(0, fs * 0.3f);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(label);
  }
}

static void draw_input(lab_state* s) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(STR_HAND_INPUT));
  ImGui::SameLine();
  if (ImGui::BeginTable("x", 2, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoHostExtendX)) {
    for (int c = 0; c < HAND_IN; ++c) {
      ImGui::TableSetupColumn(c ? "x2" : "x1", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 3.6f);
    }
    ImGui::TableNextRow();
    for (int c = 0; c < HAND_IN; ++c) {
      ImGui::TableNextColumn();
      ImGui::PushID(c);
      widget_edit_cell("##x", &s->x[c], cell_color(s->step, G_X));
      item_probe(c ? "x2" : "x1");  // the browser test types into x1
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
}

// [SECTION] the step's formula, with the numbers put in
static void draw_formula(const lab_state* s, const hand_trace& t) {
  // Wrapped, in a box as tall as its lines: on a phone a formula takes two lines, and its
  // result is never cut off.
  widget_fit_box_begin("formula", IM_COL32(250, 250, 252, 255), true);
  if (widget_present()) ImGui::SetWindowFontScale(WIDGET_PRESENT_FORMULA_SCALE);  // the step's formula, big on a projector
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.55f, 0.25f, 0.0f, 1));
  widget_text_wrapped(lab_step_title(s->step));
  ImGui::PopStyleColor();
  int n = 0;
  for (const std::string& line : hand_step_lines(s->step, s->x, s->w, t)) {
    widget_text_wrapped(line);
    item_probe(strf("formula-%d", ++n).c_str());
  }
  widget_fit_box_end();
}

// u and z on one ruler, as in the lesson: how the gate shrinks, flips or stretches each cell.
static void draw_gate_bars(const lab_state* s, const hand_trace& t) {
  if (s->step < HAND_STEP_MUL) return;
  double max_abs = 1e-9;
  for (int i = 0; i < HAND_MID; ++i) max_abs = std::fmax(max_abs, std::fmax(std::fabs(t.u[i]), std::fabs(t.z[i])));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  float fs = ImGui::GetFontSize();
  ImVec2 p = ImGui::GetCursorScreenPos();
  float width = std::fmin(fs * 22, widget_visible_width() - fs * 2.5f), half = width * 0.5f, row = fs * 1.5f;
  float cx = p.x + fs * 2 + half;
  ImGui::TextColored(ImColor(COLOR_UP), "u");
  ImGui::SameLine();
  ImGui::TextColored(ImColor(COLOR_Z), "z = u ⊙ g");
  p = ImGui::GetCursorScreenPos();
  for (int i = 0; i < HAND_MID; ++i) {
    float y = p.y + i * row;
    dl->AddText(ImVec2(p.x, y), IM_COL32(90, 90, 90, 255), std::to_string(i + 1).c_str());
    float wu = float(t.u[i] / max_abs) * half, wz = float(t.z[i] / max_abs) * half;
    dl->AddRectFilled(ImVec2(cx + std::fmin(0.f, wu), y + 1), ImVec2(cx + std::fmax(0.f, wu), y + row * 0.45f), COLOR_UP);
    dl->AddRectFilled(ImVec2(cx + std::fmin(0.f, wz), y + row * 0.5f), ImVec2(cx + std::fmax(0.f, wz), y + row * 0.95f), COLOR_Z);
  }
  dl->AddLine(ImVec2(cx, p.y - 2), ImVec2(cx, p.y + HAND_MID * row + 2), IM_COL32(60, 60, 60, 255), widget_line_scale());
  ImGui::Dummy(ImVec2(fs * 2 + width, HAND_MID * row + 4));
}

// [SECTION] follow-ups: AND, and the fixed gate
static void draw_and(void) {
  bool open = ImGui::CollapsingHeader(tr(STR_HAND_AND_TITLE));
  item_probe("and-header");
  if (!open) return;
  widget_text_wrapped(tr(STR_HAND_AND_TEXT));
  std::vector<widget_cell> cells;  // the mirror prints the same rows
  for (const view_row& r : lab_and_rows())
    for (const view_cell& c : r.cells) cells.push_back({c.value, c.tone == TONE_MARKED ? COLOR_WRITE : 0});
  widget_text_table("and", {"x₁", "x₂", "u = x₁", "silu(a), a = x₂", "u·silu(a) / silu(1)"}, cells);
}

static void draw_fixed_gate(const lab_state* s) {
  bool open = ImGui::CollapsingHeader(tr(STR_HAND_FIXED_TITLE));
  item_probe("fixed-header");
  if (!open) return;
  widget_text_wrapped(tr(STR_HAND_FIXED_TEXT));
  std::vector<std::string> lines = lab_fixed_gate_lines(*s);
  widget_text_wrapped(lines[0]);
  widget_text_wrapped(tr(STR_HAND_FIXED_SCALE));
  widget_text_wrapped(lines[1]);
}

// The first view is where a lesson begins: one button puts the lessons' reading order in the link
// as a path (core: lab_lesson_start), and the lesson bar's Next takes it from there.
static void draw_lesson_start(lab_state* s) {
  if (!s->path.empty()) return;  // a lesson path is already running (its bar is above)
  if (ImGui::Button(tr(STR_LESSON_START))) {
    lab_lesson_start(s);
    focus_move_to("next");  // the button goes: the keyboard lands on the step's Next, where the lesson begins
  }
  item_probe("lesson-start");
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  widget_text_wrapped(tr(STR_LESSON_START_NOTE));
  ImGui::PopStyleColor();
  ImGui::Spacing();
}

static void hand_draw(hand_panel* panel, lab_state* s, double now) {
  draw_lesson_start(s);
  widget_prose(tr(STR_HAND_INTRO));
  draw_controls(panel, s, now);
  ImGui::Spacing();
  hand_trace t = hand_forward(s->x, s->w);
  draw_input(s);
  draw_legend(s);
  draw_mid_table(s, t);
  draw_out_table(s, t);
  t = hand_forward(s->x, s->w);  // edits above take effect in the same frame below
  draw_formula(s, t);
  draw_gate_bars(s, t);
  if (s->step >= HAND_STEP_SILU) widget_prose(tr(STR_HAND_GATE_NOTE));
  ImGui::Spacing();
  draw_and();
  draw_fixed_gate(s);
}

// [SECTION] the panel's row (ui/panel.h)
void* hand_panel_init() { return new hand_panel(); }
void hand_panel_keys(void* self, panel_frame* f) { hand_keys((hand_panel*)self, f->state); }
void hand_panel_draw(void* self, panel_frame* f) { hand_draw((hand_panel*)self, f->state, f->now); }
bool hand_panel_animating(const void* self, double) { return ((const hand_panel*)self)->playing; }
std::string hand_panel_text(const void*, panel_frame*) { return ""; }
void hand_panel_free(void* self) { delete (hand_panel*)self; }
