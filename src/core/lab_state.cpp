// Default view state (see lab_state.h).
#include "core/lab_state.h"

#include "core/url_state.h"

// One source of the defaults: each URL key's row carries its own (url_state.cpp).
lab_state lab_state_default() { return url_state_defaults(); }

// Two states are equal when their links are: one definition of what a view is (url_keys.cpp).
bool lab_state_equal(const lab_state& a, const lab_state& b) { return url_encode(a) == url_encode(b); }

int lab_path_index(const lab_state& s) {
  for (size_t i = 0; i < s.path.size(); ++i)
    if (s.path[i] == s.view) return int(i);
  return -1;
}

bool lab_path_step(lab_state* s, int direction) {
  const int at = lab_path_index(*s), n = int(s->path.size());
  const int to = at < 0 ? (direction > 0 && n > 0 ? 0 : -1) : at + direction;
  if (to < 0 || to >= n || s->path[to] < 0 || s->path[to] >= LAB_VIEW_COUNT) return false;
  s->view = lab_view(s->path[to]);
  return true;
}

const lab_view LAB_LESSON_ORDER[] = {LAB_VIEW_HAND, LAB_VIEW_SILU, LAB_VIEW_BUDGET, LAB_VIEW_GATES,
                                     LAB_VIEW_PERM, LAB_VIEW_WEIGHTS, LAB_VIEW_QUIZ};
const int LAB_LESSON_ORDER_COUNT = int(sizeof LAB_LESSON_ORDER / sizeof LAB_LESSON_ORDER[0]);

void lab_lesson_start(lab_state* s) {
  s->path.assign(LAB_LESSON_ORDER, LAB_LESSON_ORDER + LAB_LESSON_ORDER_COUNT);
  s->view = LAB_LESSON_ORDER[0];
}
