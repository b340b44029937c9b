// Lessons 001/003's parameter budget: a classic FFN at 4h (8 h^2), SwiGLU at 8/3 h (also 8 h^2),
// and SwiGLU at the chosen f (Qwen3.5-0.8B: 3584, about 10.5 h^2), as bars on one scale.
#pragma once

#include "core/lab_state.h"

// Draws into the current window; edits state->hidden, intermediate, layers.
void budget_panel_draw(lab_state* state);
