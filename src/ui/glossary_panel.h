// The glossary view (view=glossary, core/lesson/glossary.h): every term with its definition, in the
// page's language. And the common questions (core/lesson/faq.h), folded under the views they belong to.
#pragma once

#include "core/lesson/faq.h"
#include "core/link/lab_state.h"


// The common questions of `view` as folded sections ("faq-NAME"); `open` keeps which are
// unfolded, for the text mirror (faq_text). Draws nothing for a view without any.
void faq_panel_draw(lab_view view, faq_open_set* open);
