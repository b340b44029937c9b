// The page's views as data, expanded from views.inc: the name a link uses, the button's label,
// which of the lesson's live results it shows (so what the source must stream), and the
// function that writes its text mirror. Adding a view is one row in views.inc, one in
// ui/panels.inc, its own files and its strings.
#pragma once

#include <string>

#include "core/link/lab_state.h"
#include "core/experiments/live_session.h"
#include "core/base/strings.h"

// A view's mirror text. `c` is not ready for views that need no weights; `ls` is the page's session
// (or null), which only the quiz among those reads.
typedef std::string (*lab_view_text_fn)(const lab_state& s, live_session* ls, const live_choice& c);

struct lab_view_info {
  lab_view view;
  const char* name;   // in links: view=NAME (public: never renamed)
  str_id label;
  int needs;          // live_needs flags; LIVE_NEEDS_NOTHING for the views without weights
  lab_view_text_fn text;
  bool live() const { return needs != LIVE_NEEDS_NOTHING; }
};

extern const lab_view_info LAB_VIEWS[LAB_VIEW_COUNT];
const lab_view_info& lab_view_get(lab_view v);
// The state's view runs on the whole model (its forward pass, model_session.h), not on the MLP
// source: the rule book, the flow, and the gates view on the stream (in=stream).
bool lab_view_on_whole_model(const lab_state& s);
// The view a link names, or -1.
int lab_view_find(const std::string& name);
