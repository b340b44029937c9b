// Gate histograms (lessons 000/003): for each selected layer, the distribution of silu(gate)
// over every probe token and intermediate unit, with the shares above +thr and below -thr.
#pragma once

#include "core/live_view.h"

void gates_panel_draw(lab_state* s, pack_stream* st, const live_choice& c);
