// Lesson 002 step by step: x = [1, 2] -> u, a, g = silu(a), z = u * g -> y ~ [1.924234, -1.761594].
// Every weight and x is editable; each step highlights what it reads (blue) and writes (orange).
#pragma once

#include "core/lab_state.h"

struct hand_panel {
  bool playing;
  double next_step_at;  // seconds, while playing
};

void hand_panel_init(hand_panel* panel);
// Draws into the current window; edits state->x, state->w and state->step.
void hand_panel_draw(hand_panel* panel, lab_state* state, double now_seconds);
// Keyboard: right/left arrow step, unless a text field has the keyboard.
void hand_panel_keys(hand_panel* panel, lab_state* state);
