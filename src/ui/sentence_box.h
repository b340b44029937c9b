// The live header's text box for a checkpoint (model=): a teacher types a sentence, the
// checkpoint's own tokenizer.json splits it (core/checkpoint_remote/sentence_tokenizer.h, the
// tokenizer module loaded on the first Enter), and the link gets ids=, text= and pieces=.
#pragma once

#include "core/link/lab_state.h"
#include "core/experiments/live_session.h"

// shown false (ui=present): no box, but an answer asked for still goes into the link.
void sentence_box_draw(lab_state* s, live_session* ls, bool shown = true);
// What the box holds now (tests: it starts from the sentence the page computes).
const char* sentence_box_typed();
