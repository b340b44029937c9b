// The whole model's views as rows, built once for the panel and the mirror
// (view_rows.h): the rule book (view=rules, lesson 003's figure) and what each layer's MLP adds
// (view=flow, lesson 001's exercise), and the model's own status line above them. One interface,
// three files: the status and the tokens as printed (model_status_text.cpp), each view's rows
// (model_rows.cpp), the mirror and the check of a link's answers (model_view.cpp).
#pragma once

#include <string>
#include <vector>

#include "core/experiments/live_session.h"
#include "core/experiments/model_session.h"
#include "core/views/view_rows.h"

// What the model is and how far it is, as lines (the panel draws them, the mirror prints them):
// its name and size, "synthetic" said plainly, the download's bytes to confirm, progress, a failure.
// Retry is offered: the model failed, a part of it failed, or the download was cancelled.
bool model_status_retry(const model_status& st);
// The way back to the built-in weights is offered: a model named by the link failed to open or to
// load, or it opened and cannot answer (its pass overflows f32, a prompt it has no room for).
bool model_session_way_back(const model_session& ms);
std::vector<std::string> model_status_lines(const model_session& ms);
// On a page that asked the model to check the link's answers (ans=): how far the check is, then
// whether every carried answer prints as the model's, or the first line that differs.
std::vector<std::string> carried_check_lines(const model_session& ms, const lab_state& s);
// The download the user must confirm first (0: none): the status asks for a go.
uint64_t model_download_to_confirm(const model_session& ms);
// "'中国' '的' '首都' '是'": the prompt's tokens as the model split them.
std::string model_prompt_text(const model_reply& r);
// A token as the page prints it: its text in quotes, or its id when the model has no tokenizer (or
// no text for it). Control characters are written as their bytes, "'<0a>'", as split bytes are.
std::string model_token_text(const token_text& t);
// The teacher's page with the model's own answer: "Add to the class link (1 of 8)", and its label.
bool carried_add_shown(const model_session& ms, const lab_state& s);
std::string carried_add_button(const model_session& ms);
// The labels of the panel's buttons that hold numbers (the class link's Add, the real model's
// offer and its note, the cache's Clear), as the mirror prints them under the status lines.
std::vector<std::string> model_control_lines(const live_session& ls, const lab_state& s);
// The reply answers the state as it is now, without an error: the views draw their rows.
bool model_view_ready(const model_session& ms, const lab_state& s);
// Not ready, and the model loads or runs (not failed, not waiting for a tap): frames keep coming
// until the answer is drawn.
bool model_view_waiting(const model_session& ms, const lab_state& s);

// [SECTION] the rule book
// The next-token rows: "'北京': id 3, P: 18.6 % → 1.7 %" (before → after when units are off), a
// token without text "id 464: P: 0.1 %"; the bar the probability itself (bar_before too when off).
std::vector<view_row> rules_next_rows(const model_reply& r, bool off);
// The caption of their bars: absolute probabilities, the track 100 % (before and after when off).
std::string rules_scale_text(bool off);
// With units off: the tokens whose probability rose most, the same way.
std::vector<view_row> rules_rising_rows(const model_reply& r);
// The most active units at the last token: "Layer 23, unit 75: 6.186947, writes toward: '北京' ...".
std::vector<view_row> rules_unit_rows(const model_reply& r, const lab_state& s);
// "Layer 23, unit 75": a unit as every view names it.
std::string rules_unit_text(const unit_ref& u);
// "Layer 23, unit 75, ..." for the units off= names.
std::string rules_off_text(const lab_state& s);
bool rules_unit_is_off(const lab_state& s, const unit_ref& u);
// Switches a unit off, or on again when it was off (the link's off= follows).
void rules_toggle_unit(lab_state* s, const unit_ref& u);
// The picked unit (layer=, unit=; layer -1: none), as the reply carries it.
bool rules_unit_is_picked(const lab_state& s, const unit_ref& u);
void rules_pick_unit(lab_state* s, const unit_ref& u);
// "Picked: Layer 23, unit 275 (switched off)".
std::string rules_picked_title(const model_reply& r, const lab_state& s);
// Switched off: the words that the model uses 0 in its place ("" when it is on).
std::string rules_picked_off_text(const model_reply& r, const lab_state& s);
// Its condition at each prompt token: "'是': silu(gate): 1.234567, up: 5.012345, silu(gate) × up:
// 6.186947" (switched off, then ", in the model: 0"), the bar |product| over the largest, the tone its sign.
std::vector<view_row> rules_picked_rows(const model_reply& r, const lab_state& s);
// What its down column writes toward: "'北京' '上海' ...", or "…" while the reply's lists are on
// their way (toward_pending).
std::string rules_toward_text(const model_reply& r, const std::vector<token_text>& toward);
// The weights view on the picked unit of the same model: model= the whole model's location (the
// built-in one too: it is a checkpoint the weights view reads), its layer and unit, W_gate.
void rules_open_weights(lab_state* s);

// [SECTION] what each MLP adds
// One row a layer: "Layer 23: |MLP| 16.609171, |layer out| 19.221457, ratio 86.4 %", its bar the
// ratio over the largest.
// The picked layer (layer=, -1: none) is marked.
std::vector<view_row> flow_rows(const model_reply& r, const lab_state& s);
// The lesson's exercise: the layer whose MLP adds the most (the largest ratio) and the one that
// adds the least while adding something (the smallest ratio above 0). -1: none.
struct flow_extremes {
  int largest = -1, smallest = -1;
  double largest_ratio = 0, smallest_ratio = 0;
};
flow_extremes flow_find_extremes(const model_reply& r);
// "Largest: layer 23, 86.4 %; smallest: layer 5, 1.2 %".
std::string flow_extremes_text(const model_reply& r);
// The chart's caption: its bars are ratios relative to the largest (named, with its ratio).
std::string flow_scale_text(const model_reply& r);
// The rows of the picked layer as a line above the bars ("" when none is picked).
std::string flow_picked_text(const model_reply& r, const lab_state& s);

// [SECTION] the gates view on the stream (in=stream)
// Each shown layer's histogram of silu(gate) on what the layer really reads (the counts are live).
std::vector<gate_row> gates_stream_rows(const model_reply& r);
// The same layers on the lessons' shortcut input, same model and prompt: one row each, the
// shares as gates_layer_row prints them under the label STR_GATES_SHORTCUT.
std::vector<view_row> gates_shortcut_rows(const model_reply& r, double thr);
// The one token shown ("" for all): "tokens: 3 '是'".
std::string gates_stream_token_line(const model_reply& r, const lab_state& s);
// The gates view's mirror on the stream: the status, the prompt, the input, then the rows as on the pack.
std::string gates_stream_view_text(const lab_state& s, live_session* ls);

// The views' mirror text (views.inc): the status, then the rows.
std::string rules_view_text(const lab_state& s, live_session* ls, const live_choice& c);
std::string flow_view_text(const lab_state& s, live_session* ls, const live_choice& c);
