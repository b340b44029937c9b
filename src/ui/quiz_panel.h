// The lesson's questions (view=quiz, core/lesson/quiz.h): one question at a time (quiz= in the link picks
// it), numbered buttons that show which were answered right, choices as buttons A/B/C, numbers and
// positions typed and checked, the explanation after every answer, right or wrong. The student's
// record stays in this browser (localStorage through platform.h), with a reset button; the link
// never holds an answer.
#pragma once

#include <string>

#include "core/link/lab_state.h"
#include "core/experiments/live_session.h"
#include "core/views/live_view.h"
#include "core/lesson/quiz.h"

#define QUIZ_TYPED_MAX 64

struct quiz_panel {
  quiz_answer answers[QUIZ_COUNT];
  char typed[QUIZ_COUNT][QUIZ_TYPED_MAX];
  quiz_verdict shown[QUIZ_COUNT];  // the verdict of the last check, until the answer changes
  quiz_progress progress;          // what this browser keeps
  bool waiting = false;            // the flow question's answer is on its way from the whole model
};

// The panel's row is in ui/panels.inc (ui/panel.h): it draws into the current window and edits
// state->quiz (which question) and state->view (the "open the view that computes it" button).
// For the text mirror: the score, and the current question's answer, verdict and explanation once
// checked (the live answers: quiz_live_from, core/views/live_view.h).
std::string quiz_checked_text(const quiz_panel* panel, const lab_state& state, const quiz_live_answers& live);
