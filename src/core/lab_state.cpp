// Default view state (see lab_state.h).
#include "core/lab_state.h"

#include "core/url_state.h"

lab_state lab_state_default() {
  lab_state s{};
  s.view = LAB_VIEW_HAND;
  s.lang = LAB_LANG_EN;
  hand_lesson_input(s.x);
  s.w = hand_lesson_weights();
  s.step = HAND_STEP_DOWN;
  s.probe_z = -1.0;
  s.show_sigmoid = false;
  s.show_gelu = false;
  s.hidden = 1024;
  s.intermediate = 3584;
  s.layers = 24;
  s.layer = -1;
  s.probe = 0;
  s.threshold = LAB_THRESHOLD_DEFAULT;
  s.hist_token = -1;
  s.token = 2;  // lesson 000: "change token 2"
  s.delta = 1.0;
  s.unit = 0;
  s.matrix = LAB_MATRIX_GATE;
  s.heat_zoom = 1;
  s.heat_cx = s.heat_cy = 0.5;
  s.quiz = 0;
  s.lock = 0;
  s.ui = LAB_UI_NORMAL;
  return s;
}

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
