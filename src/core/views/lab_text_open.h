// What the text mirror says the moment a link is opened, before any weights, pack or stored
// answer is in: the view's mirror (lab_text) and its common questions, all folded. The page's
// early text (src/early/) prints exactly this; the app's first mirror write for a
// view without weights is the same string.
#pragma once

#include <string>

#include "core/link/lab_state.h"

std::string lab_text_at_open(const lab_state& state);
// The quiz view's record of this browser (localStorage "swiglu-lab.quiz", quiz_progress_encode),
// which the quiz's mirror prints after its question: the page hands it to the early text; "" none.
void lab_text_open_set_quiz_record(const std::string& stored);

// The same once the default pack's manifest is in (the page preloads it for a live view): for
// the gates view at the lessons' threshold over every token, the title, then the rows the app's
// mirror prints from the manifest's own counts (gates_rows_text), then the questions; `svg` gets
// those histograms (gates_histogram_svg). Anything the manifest cannot answer: lab_text_at_open,
// and `svg` empty.
struct pack_manifest;
std::string lab_text_at_open(const lab_state& state, const pack_manifest& default_manifest, std::string* svg);

// The same for a link that carries the whole model's answers (ans=) on a view that shows them (the
// rule book, the flow, the gates view on the stream): what the app's mirror prints from the carried
// answers alone, with no model (model_session_show_carried), the link's values the carried model
// lacks replaced as the app replaces them. Anything else: lab_text_at_open(state).
std::string lab_text_at_open_carried(const lab_state& state);

// The same for a whole-model view on the built-in model (no model=, no ans=) once the site's
// precomputed answers (precomputed_answers.h, the file's text) are in: the view's words, "Opening
// the whole model…", the precomputed mark and the answer's rows, as the app's first frames print
// them until the model has loaded. Anything else, or a text that does not read: lab_text_at_open_carried(state).
std::string lab_text_at_open_precomputed(const lab_state& state, const std::string& answers);
