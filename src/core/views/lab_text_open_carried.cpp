// The mirror at opening of a class link, and of a whole-model view on the built-in model with its
// precomputed answers (see lab_text_open.h): the early text's module for those links links this
// file, and with it the answers' decoder and the whole-model views' rows, which the other early
// modules do without.
#include "core/views/lab_text_open.h"

#include "core/experiments/live_session.h"
#include "core/experiments/precomputed_answers.h"
#include "core/lesson/faq.h"
#include "core/base/strings.h"
#include "core/views/lab_text.h"
#include "core/views/view_table.h"

std::string lab_text_at_open_carried(const lab_state& state) {
  if (!lab_view_on_whole_model(state)) return lab_text_at_open(state);
  live_session ls;
  lab_state s = state;
  if (!model_session_show_carried(&ls.model, s)) return lab_text_at_open(state);
  const std::vector<live_fallback> fallbacks = model_session_fallbacks(ls.model, s);
  if (!fallbacks.empty()) {
    model_session_apply_fallbacks(&s, fallbacks, ls.model);
    model_session_show_carried(&ls.model, s);
  }
  const strings_lang_scope words(s.lang);
  return lab_text(s, &ls) + faq_text(s.view, 0);
}

std::string lab_text_at_open_precomputed(const lab_state& s, const std::string& answers) {
  if (!lab_view_on_whole_model(s) || !s.model.empty() || !s.answers.empty()) return lab_text_at_open_carried(s);
  live_session ls;
  if (!precomputed_answers_read(answers, &ls.model.precomputed) || !model_session_show_precomputed(&ls.model, s))
    return lab_text_at_open_carried(s);
  const strings_lang_scope words(s.lang);
  return lab_text(s, &ls) + faq_text(s.view, 0);
}
