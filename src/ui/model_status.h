// The whole model's status above its views (view=rules, view=flow, the gates view's in=stream): what the model is, the
// download to confirm (its size named; a phone warned), progress with Cancel, a failure with
// Retry. The lines are the core's (model_view.h), as the mirror prints them.
#pragma once

#include "core/link/lab_state.h"
#include "core/views/view_rows.h"

struct live_session;
struct model_session;
struct model_reply;

// The page's one whole-model session (the platform's model_service behind it), given to `ls` and
// brought up to date for the state: once a frame while a whole-model view is shown.
void model_views_frame(live_session* ls, const lab_state& s, double now);

// With Clear cache (both caches) and, on the built-in model, the real Qwen3.5-0.8B offered
// (unless the link is locked): its headers first, then the exact download to confirm. Without
// `controls` (a projector before "Explore freely") the offer and Clear are left out; what the
// model needs to go on (the download to confirm, Cancel, Retry, the way back) stays.
void model_status_draw(live_session* ls, lab_state* s, double now, bool controls);
// The offer or Clear would be drawn: something a projector leaves under "Explore freely".
bool model_status_extras_shown(const live_session& ls, const lab_state& s);
// One of the views' rows: its label and note, its cells, and its bar under them.
void model_row_draw(const view_row& row);
// One radio button a prompt token, after `label` (tok= in the link; none picked: the view's own,
// the reply's position); probes named PREFIX-N.
void model_token_picker(lab_state* s, const model_reply& r, const char* label, const char* probe_prefix);
