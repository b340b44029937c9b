// Default view state (see lab_state.h).
#include "core/link/lab_state.h"

const char* const LAB_VIEW_NAMES[LAB_VIEW_COUNT] = {
#define VIEW(id, name, label, needs, text) name,
#include "core/link/views.inc"
#undef VIEW
};

int64_t lab_changed_token(const lab_state& s) { return s.token < 0 ? LAB_CHANGED_TOKEN : s.token; }

static bool path_place_ok(const lab_state& s, int at) { return at >= 0 && at < int(s.path.size()); }

int lab_path_index(const lab_state& s) {
  if (path_place_ok(s, s.path_at) && s.path[size_t(s.path_at)] == s.view) return s.path_at;
  for (size_t i = 0; i < s.path.size(); ++i)
    if (s.path[i] == s.view) return int(i);
  return -1;
}

bool lab_path_step(lab_state* s, int direction) {
  const int at = lab_path_index(*s), n = int(s->path.size());
  int to = at + direction;
  if (at < 0) to = path_place_ok(*s, s->path_at) ? s->path_at : direction > 0 && n > 0 ? 0 : -1;
  if (to < 0 || to >= n || s->path[size_t(to)] < 0 || s->path[size_t(to)] >= LAB_VIEW_COUNT) return false;
  s->view = lab_view(s->path[size_t(to)]);
  s->path_at = to;
  return true;
}

void lab_path_follow(lab_state* s) {
  const int at = lab_path_index(*s);
  if (at >= 0) s->path_at = at;
  else if (!path_place_ok(*s, s->path_at)) s->path_at = -1;  // no place on this path: the link says so
}

const lab_view LAB_LESSON_ORDER[] = {LAB_VIEW_HAND, LAB_VIEW_SILU,  LAB_VIEW_BUDGET,  LAB_VIEW_FLOW, LAB_VIEW_GATES,
                                     LAB_VIEW_PERM, LAB_VIEW_WEIGHTS, LAB_VIEW_RULES, LAB_VIEW_QUIZ};
const int LAB_LESSON_ORDER_COUNT = int(sizeof LAB_LESSON_ORDER / sizeof LAB_LESSON_ORDER[0]);

void lab_lesson_start(lab_state* s) {
  s->path.assign(LAB_LESSON_ORDER, LAB_LESSON_ORDER + LAB_LESSON_ORDER_COUNT);
  s->view = LAB_LESSON_ORDER[0];
  s->path_at = 0;
  s->step = 0;  // the lesson starts before anything is computed, not at the answer
}
