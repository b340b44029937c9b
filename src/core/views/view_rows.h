// A view's numbers as rows of data, built once: the panel draws them and the text
// mirror (#lab-text) prints them, so the page and the mirror cannot disagree. The rows of the SiLU
// readout, the AND table, the gate shares, the per-token changes and a unit's silu(gate) are
// view_rows; the budget's table keeps its own row type (lab_budget_row) in the same spirit.
//
// Adding a view that shows numbers (e.g. a rule book of next-token probabilities, a flow of L2
// ratios per layer):
//   1. One core function builds its rows from the state and the session's results, e.g.
//        std::vector<view_row> rules_rows(const lab_state&, live_session*, const live_choice&);
//      every value printed there by one function of number_format.h: a probability
//      fmt_percent1(0.186) "18.6 %", a change fmt_before_after(before, after) "18.6 % → 1.7 %",
//      a token fmt_token_id(68990) "id 68990", a layer strf(tr(STR_LIVE_LAYER_N), ...) "Layer 23".
//   2. Its mirror text (the view table's text function, views.inc) prints each row with
//      view_row_line: "北京: id 68990, P: 18.6 % → 1.7 %".
//   3. Its panel (src/ui/NAME_panel.cpp) draws the same rows: labels, view_cell_text for each
//      cell, widget_tone_color(tone) for colours, `bar` for a bar; it formats no number itself.
//   4. ui_tests' check_mirror_has_every_number then holds it to that: every number on screen,
//      integers included, on one line of the mirror in the same order.
#pragma once

#include <string>
#include <vector>

// What a row or cell stands for, so the panel colours it as the lesson does (ui/widgets.h:
// widget_tone_color); the mirror ignores it.
enum view_tone {
  TONE_PLAIN,
  TONE_MUTED,        // secondary: near 0, a caption
  TONE_MARKED,       // what the lesson points at: the token changed, an AND that is on
  TONE_SILU,         // the curves of the SiLU view
  TONE_RELU,         // ReLU, and below -thr (the gate shut)
  TONE_SIGMOID,
  TONE_GELU,
  TONE_OPEN,         // above +thr: the gate open
  TONE_LIVE,         // computed here from the weights
  TONE_PRECOMPUTED,  // from the pack's manifest
};

struct view_cell {
  std::string label;  // "> 0.1", "P"; "" for a bare value
  std::string value;  // printed by number_format: "50.73 %", "-0.268941", "id 68990"
  view_tone tone = TONE_PLAIN;
};

struct view_row {
  std::string label;  // "Layer 0", "SiLU(z)", "3 Paris"
  std::string note;   // said beside the label: "live"; "" for none
  std::vector<view_cell> cells;
  view_tone tone = TONE_PLAIN;  // the label's colour (and the note's, through note_tone)
  view_tone note_tone = TONE_PLAIN;
  double bar = -1;              // 0..1: the length of the bar the panel draws for it; -1: none
  double bar_before = -1;       // 0..1: a second bar beside it, `bar` before a change (units off); -1: none
};

// "> 0.1: 50.73 %" (the language's colon), or the bare value: the panel and the mirror alike.
std::string view_cell_text(const view_cell& c);
// The mirror's line for a row: "Layer 0: (live) > 0.1: 50.73 %, < -0.1: 3.20 %, near 0: 46.07 %".
std::string view_row_line(const view_row& r);
// "(live)": the note as the row's title and the mirror print it; "" for none.
std::string view_row_note(const view_row& r);
