// Default view state (see lab_state.h).
#include "core/lab_state.h"

#include <cstring>

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
  return s;
}

static bool same_doubles(const double* a, const double* b, int n) {
  for (int i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

bool lab_state_equal(const lab_state& a, const lab_state& b) {
  return a.view == b.view && a.lang == b.lang && same_doubles(a.x, b.x, HAND_IN) &&
         same_doubles(a.w.up, b.w.up, 8) && same_doubles(a.w.gate, b.w.gate, 8) &&
         same_doubles(a.w.down, b.w.down, 8) && a.step == b.step && a.probe_z == b.probe_z &&
         a.show_sigmoid == b.show_sigmoid && a.show_gelu == b.show_gelu &&
         a.hidden == b.hidden && a.intermediate == b.intermediate && a.layers == b.layers;
}
