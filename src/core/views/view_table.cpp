// The view table (see view_table.h), expanded from views.inc.
#include "core/views/view_table.h"

#include "core/views/lab_text.h"
#include "core/views/live_view.h"

const lab_view_info LAB_VIEWS[LAB_VIEW_COUNT] = {
#define VIEW(id, name, label, needs, text) {id, name, label, needs, text},
#include "core/link/views.inc"
#undef VIEW
};

const lab_view_info& lab_view_get(lab_view v) { return LAB_VIEWS[v < 0 || v >= LAB_VIEW_COUNT ? 0 : v]; }

bool lab_view_on_whole_model(const lab_state& s) {
  return (lab_view_get(s.view).needs & LIVE_WHOLE_MODEL) || (s.view == LAB_VIEW_GATES && s.gates_input == LAB_GATES_STREAM);
}

int lab_view_find(const std::string& name) {
  for (const lab_view_info& v : LAB_VIEWS)
    if (name == v.name) return v.view;
  return -1;
}
