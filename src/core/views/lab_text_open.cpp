// The mirror at opening (see lab_text_open.h).
#include "core/views/lab_text_open.h"

#include "core/lesson/faq.h"
#include "core/views/gates_text.h"
#include "core/views/lab_text.h"
#include "core/experiments/live_session.h"
#include "core/pack/pack_format.h"
#include "core/lesson/quiz.h"
#include "core/base/strings.h"

static std::string g_quiz_record;
void lab_text_open_set_quiz_record(const std::string& stored) { g_quiz_record = stored; }

// What the panels add to a view without weights at opening: the quiz's record.
static std::string panel_text_at_open(const lab_state& s) {
  return s.view == LAB_VIEW_QUIZ ? lab_quiz_progress_text(quiz_progress_decode(g_quiz_record)) : "";
}

std::string lab_text_at_open(const lab_state& s) {
  const strings_lang_scope words(s.lang);
  return lab_text(s) + faq_text(s.view, 0) + panel_text_at_open(s);  // no weights yet; every question folded
}

std::string lab_text_at_open(const lab_state& s, const pack_manifest& m, std::string* svg) {
  svg->clear();
  std::vector<gate_row> rows;
  // On the stream (in=stream) the pack's precomputed shares are not what the view shows.
  if (s.view != LAB_VIEW_GATES || s.gates_input != LAB_GATES_EMBED || !gates_rows_from_manifest(s, m, LIVE_MAX_HIST_LAYERS, &rows)) return lab_text_at_open(s);
  const strings_lang_scope words(s.lang);
  *svg = gates_histogram_svg(rows, s.threshold);
  return lab_text(s) + gates_rows_text(s, rows, m.synthetic, "") + faq_text(s.view, 0);
}
