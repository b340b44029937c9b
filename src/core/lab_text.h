// The text mirror of the current view: what #lab-text holds for screen readers (and what the
// browser tests read). Built from the same core values and strings as the panels, in the state's
// language.
#pragma once

#include <string>
#include <vector>

#include "core/lab_state.h"
#include "core/url_state.h"

struct pack_stream;
struct live_perm_cache;
// The live views (view_table.h) also read the streamed pack and the per-token results.
std::string lab_text(const lab_state& state, const pack_stream* stream = nullptr, const live_perm_cache* perm = nullptr);

struct budget_counts;
// "10.50 h², 131.2% of the classic budget" (in the current language): the budget's bottom line.
std::string lab_budget_ratio_text(const budget_counts& counts);

// One sentence for a link problem, e.g. "Link key 'x' has an unreadable value 'abc': ...".
std::string lab_notice_text(const url_notice& notice);
