// The text mirror of the current view: what #lab-text holds for screen readers (and what the
// browser tests read). Built from the same core values and strings as the panels, in the state's
// language.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/lab_state.h"
#include "core/url_state.h"

struct live_session;
struct live_choice;
// The live views (view_table.h) also read the session's source and results; the others ignore them.
std::string lab_text(const lab_state& state, live_session* live = nullptr, const live_choice* choice = nullptr);
// The mirror texts of the views without weights (the view table names them).
std::string hand_view_text(const lab_state& s, live_session*, const live_choice&);
std::string silu_view_text(const lab_state& s, live_session*, const live_choice&);
std::string budget_view_text(const lab_state& s, live_session*, const live_choice&);

// "Step 3 of 5" (in the current language): the hand calculation's counter, panel and mirror alike.
std::string lab_step_of_text(int step);
// "SiLU's minimum: SiLU(-1.278465) = -0.278465" (in the current language), panel and mirror alike.
std::string lab_silu_minimum_text();

struct budget_counts;
// "10.50 h², 131.2% of the classic budget" (in the current language): the budget's bottom line.
std::string lab_budget_ratio_text(const budget_counts& counts);

// "all 24 layers", "the 1 layer" (in the current language): the budget's whole-model column.
std::string lab_budget_all_layers_text(int64_t layers);

// Lesson 002's exercise, as the page and the mirror print it: y(x) and y(2x) with g fixed to
// ones, then with the real gate.
std::vector<std::string> lab_fixed_gate_lines(const lab_state& state);

// One sentence for a link problem, e.g. "Link key 'x' has an unreadable value 'abc': ...".
std::string lab_notice_text(const url_notice& notice);
