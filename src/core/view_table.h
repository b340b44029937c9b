// The page's views as data: the name a link uses, the button's label, whether the view shows a
// weight pack. The URL, the mirror and the app walk this table; adding a view is one row here,
// one panel row in ui/app.cpp, and its strings.
#pragma once

#include "core/lab_state.h"
#include "core/strings.h"

struct lab_view_info {
  lab_view view;
  const char* name;  // in links: view=NAME (public: never renamed)
  str_id label;
  bool live;         // runs on a weight pack's real weights
};

extern const char* const LAB_VIEW_NAMES[LAB_VIEW_COUNT];
extern const lab_view_info LAB_VIEWS[LAB_VIEW_COUNT];
const lab_view_info& lab_view_get(lab_view v);
