// What the text mirror says the moment a link is opened, before any weights, pack or stored
// answer is in: the view's mirror (lab_text) and its common questions, all folded. The page's
// early text (src/early/, issue 16) prints exactly this; the app's first mirror write for a
// view without weights is the same string.
#pragma once

#include <string>

#include "core/lab_state.h"

std::string lab_text_at_open(const lab_state& state);
