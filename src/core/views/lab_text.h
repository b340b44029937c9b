// The text mirror of the current view: what #lab-text holds for screen readers (and what the
// browser tests read). Built from the same core values and strings as the panels, in the state's
// language.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/link/lab_state.h"
#include "core/link/url_state.h"
#include "core/views/view_rows.h"

struct live_session;
struct live_choice;
// The live views (view_table.h) read the session's source and results; of the others only the
// quiz does (its live questions' answers), the rest ignore it.
std::string lab_text(const lab_state& state, live_session* live = nullptr, const live_choice* choice = nullptr);
// The mirror texts of the views without weights (the view table names them).
std::string hand_view_text(const lab_state& s, live_session*, const live_choice&);
std::string silu_view_text(const lab_state& s, live_session*, const live_choice&);
std::string budget_view_text(const lab_state& s, live_session*, const live_choice&);
std::string quiz_view_text(const lab_state& s, live_session*, const live_choice&);
std::string glossary_view_text(const lab_state& s, live_session*, const live_choice&);

// "Step 3 of 5" (in the current language): the hand calculation's counter, panel and mirror alike.
std::string lab_step_of_text(int step);
// The step's title, "activation: g = silu(a) = a·sigmoid(a)", panel and mirror alike.
const char* lab_step_title(int step);
// Lesson 002's AND follow-up, a row per (x₁, x₂): x₁, x₂, u = x₁, silu(a) with a = x₂, and
// u·silu(a) / silu(1), marked where it is on.
std::vector<view_row> lab_and_rows();

// The SiLU view's readout: z, SiLU(z), ReLU(z), their difference, and the overlays shown.
std::vector<view_row> lab_silu_rows(const lab_state& s);
// The sentence under it: "At z = -1 (negative), ReLU gives exactly 0 while SiLU still lets -0.268941 through."
std::string lab_silu_probe_text(const lab_state& s);
// "SiLU's minimum: SiLU(-1.278465) = -0.278465. At the minimum, silu(z) = z + 1." (in the current
// language), panel and mirror alike.
std::string lab_silu_minimum_text();

// The budget table's rows, as the panel and the mirror both print them.
struct lab_budget_row {
  std::string name, f, note;  // "Classic FFN (4h)", "4096", " (8 h²)"
  std::string per_layer, per_layer_short;  // "8,388,608", "8.39M"
  std::string all_layers;     // "201,326,592"
};
std::vector<lab_budget_row> lab_budget_rows(const lab_state& s);

struct budget_counts;
// "10.50 h², 131.2% of the classic budget" (in the current language): the budget's bottom line.
std::string lab_budget_ratio_text(const budget_counts& counts);

// "all 24 layers", "the 1 layer" (in the current language): the budget's whole-model column.
std::string lab_budget_all_layers_text(int64_t layers);

// Lesson 002's exercise, as the page and the mirror print it: y(x) and y(2x) with g fixed to
// ones, then with the real gate.
std::vector<std::string> lab_fixed_gate_lines(const lab_state& state);

// [SECTION] the lesson's views, shared by the panels and the mirror
#include "core/base/strings.h"
// The whole model (model_budget.h) as the budget view's bar and table rows, and its sentence.
struct lab_model_row { str_id name; int64_t count; };
std::vector<lab_model_row> lab_model_rows();   // embedding, MLP, attention, norms, total
std::string lab_model_share_text();
std::string lab_model_percent(int64_t count);  // of the whole model: "35.1 %"
            // "The MLP holds 264,241,152 of 752,393,024 parameters (35.1 %)..."
// Decode traffic from the budget fields: rows {label, bf16 "22.02 MB", int8 "11.04 MB"}.
std::vector<std::vector<std::string>> lab_decode_rows(const lab_state& s);
// Both, as the mirror prints them under the budget view.
std::string lab_model_text(const lab_state& s);
// The lesson path's line, bar and mirror alike: "3 of 6", or off the path where Previous and Next
// return to; "" without a path.
std::string lab_path_text(const lab_state& s);
// This browser's quiz record as the quiz view shows it: "8 of 11 answered right in this browser",
// then which questions are right and which answered but not right yet (their numbers).
struct quiz_progress;
std::string lab_quiz_progress_text(const quiz_progress& progress);
// "Question 3 / 11"
std::string lab_quiz_number_text(int quiz);

// One sentence for a link problem, e.g. "Link key 'x' has an unreadable value 'abc': ...".
std::string lab_notice_text(const url_notice& notice);
// A pack= on a view that runs the whole model (the rule book, the flow, the gates view on the
// stream): not used there, kept in the link for the views that read packs (quoted as notices are).
std::string lab_pack_unused_text(const std::string& pack);
// A key's value as a notice says it: the -1 of htok, layer and at in words ("all tokens").
std::string lab_link_value_text(const std::string& key, const std::string& value);
