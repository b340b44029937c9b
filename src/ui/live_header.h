// The top of every live view: the source (model, dims, synthetic or real), the probe sentence,
// the layer picker, and the streaming state with Cancel, Retry / Load it, and a way back to the
// built-in pack when the named one cannot be opened. Shared so that the live views present
// their weights the same way.
#pragma once

#include "core/link/lab_state.h"
#include "core/experiments/live_session.h"

// pick_layers: the gate view picks several layers (pl=), the others one (layer=).
// controls false (ui=present on a projector, before "Explore freely"): only what a class reads,
// the model, the probe and layers shown, the status and progress; no buttons, no sentence box.
void live_header_draw(lab_state* s, live_session* ls, const live_choice& c, bool pick_layers, double now,
                      bool controls = true);
