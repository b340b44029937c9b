// Lesson 001's SiLU vs ReLU: both curves on z in [-6, 6], a probe z (drag on the plot or the
// slider, snapping to whole numbers and the minimum; or typed), SiLU's minimum (about -0.278 at z about -1.278), sigmoid and GELU as overlays.
#pragma once

#include "core/lab_state.h"

// Draws into the current window; edits state->probe_z, show_sigmoid, show_gelu.
void silu_panel_draw(lab_state* state);
// Keyboard: right/left arrow move the probe by 0.01 (with Shift 0.1), unless a text field has the keyboard.
void silu_panel_keys(lab_state* state);
