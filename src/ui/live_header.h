// The top of every live view: the pack (model, dims, synthetic or real), the probe sentence,
// the layer picker, and the streaming status with Cancel and Retry. Shared so that the three
// live views present their pack the same way.
#pragma once

#include "core/lab_state.h"
#include "core/live_view.h"

// pick_layers: the gate view picks several layers (pl=), the others one (layer=).
void live_header_draw(lab_state* s, pack_stream* st, const live_choice& c, bool pick_layers, double now);
