// The lessons' common questions (lessons 000/003), each shown folded under the view it belongs
// to: SwiGLU's gate vs attention's output gate (SiLU view), why widen to 3584 and narrow back
// (budget view), why mixtures of experts replace the MLP and not attention (per-token view).
#pragma once

#include <string>

#include "core/link/lab_state.h"
#include "core/base/strings.h"

enum faq_id { FAQ_GATE_VS_OUTPUT_GATE, FAQ_WIDEN, FAQ_MOE, FAQ_COUNT };

struct faq_entry {
  faq_id id;
  const char* name;  // stable key (the page's item names)
  lab_view view;     // the view it is shown under
  str_id question, answer;
};

extern const faq_entry FAQ[FAQ_COUNT];

// Which questions were unfolded (the mirror carries those): one bit per faq_id.
typedef unsigned faq_open_set;

// The mirror's text for the common questions of `view` that are open: a heading, then each open
// question with its answer, in the current language. "" when none of that view's is open.
std::string faq_text(lab_view view, faq_open_set open);
