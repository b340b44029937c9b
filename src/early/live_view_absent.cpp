// The tiny modules have no weights: lab_text() calls the live views' rows only with a session
// whose source is open, which a module never has. The view table still names these
// functions, so they are defined here as unreachable instead of linking the whole streamer.
#include "core/views/live_view.h"

std::string live_header_text(live_session*, const live_choice&, const lab_state&) { __builtin_trap(); }
std::string perm_view_text(const lab_state&, live_session*, const live_choice&) { __builtin_trap(); }
std::string weights_view_text(const lab_state&, live_session*, const live_choice&) { __builtin_trap(); }
quiz_live_answers quiz_live_from(const lab_state&, live_session*) { __builtin_trap(); }  // the quiz's mirror asks only with a session
std::vector<std::string> quiz_model_lines(const lab_state& s, const live_session* ls) {
  if (ls) __builtin_trap();  // as quiz_live_from: a module's mirror has no session
  lab_state asked;
  if (!quiz_asks_whole_model(s, &asked)) return {};
  return {tr(STR_MODEL_OPENING)};  // what the page says at its first frame (core/views/live_view.cpp)
}
