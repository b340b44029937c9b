// Per token (lessons 000/003): shuffle the probe's tokens and compare MLP(x[perm]) with
// MLP(x)[perm] (exactly 0), and change one token to see that no other output moves.
#pragma once

#include "core/live_view.h"

void perm_panel_draw(lab_state* s, pack_stream* st, const live_choice& c, live_perm_cache* cache, double now);
