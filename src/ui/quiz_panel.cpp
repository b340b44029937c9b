// The quiz view (see quiz_panel.h).
#include "ui/quiz_panel.h"
#include "ui/panel.h"

#include <cstdio>
#include <cstring>

#include "core/views/lab_text.h"
#include "core/views/live_view.h"
#include "core/views/model_view.h"
#include "core/base/strings.h"
#include "core/views/view_table.h"
#include "imgui.h"
#include "platform/platform.h"
#include "ui/item_probe.h"
#include "ui/widgets.h"

static const char* const STORAGE_QUIZ = "swiglu-lab.quiz";
#define COLOR_RIGHT IM_COL32(30, 130, 60, 255)
#define COLOR_WRONG IM_COL32(190, 50, 40, 255)
#define COLOR_RIGHT_BG IM_COL32(200, 235, 205, 255)
#define COLOR_WRONG_BG IM_COL32(250, 215, 210, 255)

static void quiz_reset(quiz_panel* p) {
  *p = quiz_panel{};
  std::memset(p->typed, 0, sizeof p->typed);
  for (quiz_verdict& v : p->shown) v = QUIZ_UNANSWERED;
  p->progress = quiz_progress_decode(platform_storage_get(STORAGE_QUIZ));
}

static quiz_id current(const lab_state* s) { return quiz_id(s->quiz < 0 || s->quiz >= QUIZ_COUNT ? 0 : s->quiz); }

static void record(quiz_panel* p, quiz_id q, quiz_verdict v) {
  p->shown[q] = v;
  if (v != QUIZ_RIGHT && v != QUIZ_WRONG) return;
  // Once right, a later slip does not take it back: the record says what the student has shown.
  if (p->progress.verdict[q] != QUIZ_RIGHT) p->progress.verdict[q] = v;
  platform_storage_set(STORAGE_QUIZ, quiz_progress_encode(p->progress));
}

static void wrapped_colored(ImU32 color, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  widget_text_wrapped(text);
  ImGui::PopStyleColor();
}

// The numbered buttons: one per question, coloured by this browser's record.
static void question_buttons(quiz_panel* p, lab_state* s) {
  for (int i = 0; i < QUIZ_COUNT; ++i) {
    char label[16];
    std::snprintf(label, sizeof label, "%d", i + 1);
    if (i) widget_same_line_if_fits(widget_button_width(label));
    const quiz_verdict v = p->progress.verdict[i];
    int colors = 0;
    if (i == s->quiz) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive)), ++colors;
    else if (v == QUIZ_RIGHT) ImGui::PushStyleColor(ImGuiCol_Button, COLOR_RIGHT_BG), ++colors;
    else if (v == QUIZ_WRONG) ImGui::PushStyleColor(ImGuiCol_Button, COLOR_WRONG_BG), ++colors;
    if (ImGui::Button(label)) s->quiz = i;
    item_probe((std::string("quiz-q-") + QUIZ_NAMES[i]).c_str());
    ImGui::PopStyleColor(colors);
  }
}

static str_id section_of(quiz_id q) {
  return q <= QUIZ_LARGEST ? STR_QUIZ_SECTION_LESSON : QUIZ[q].live ? STR_QUIZ_SECTION_LIVE : STR_QUIZ_SECTION_THINKING;
}

static void choice_options(quiz_panel* p, quiz_id q, const quiz_live_answers& live) {
  const quiz_question& question = QUIZ[q];
  const float fs = ImGui::GetFontSize();
  for (int i = 0; i < question.option_count; ++i) {
    const char letter[2] = {char('A' + i), 0};
    const bool picked = p->answers[q].chosen == i && p->shown[q] != QUIZ_UNANSWERED;
    int colors = 0;
    if (picked)
      ImGui::PushStyleColor(ImGuiCol_Button, p->shown[q] == QUIZ_RIGHT ? COLOR_RIGHT_BG : COLOR_WRONG_BG), ++colors;
    ImGui::PushID(i);
    if (ImGui::Button(letter, ImVec2(fs * 2.2f, 0))) {
      p->answers[q].chosen = i;
      record(p, q, quiz_check(q, p->answers[q], live));
    }
    ImGui::PopID();
    item_probe((std::string("quiz-option-") + letter).c_str());
    ImGui::PopStyleColor(colors);
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    widget_text_wrapped(tr(question.options[i]));
  }
}

static void typed_answer(quiz_panel* p, quiz_id q, const quiz_live_answers& live) {
  const float fs = ImGui::GetFontSize();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(tr(STR_QUIZ_ANSWER));
  widget_same_line_if_fits(fs * 10);
  ImGui::SetNextItemWidth(fs * 9);
  ImGui::PushID(q);
  const bool enter = ImGui::InputText("##answer", p->typed[q], QUIZ_TYPED_MAX, ImGuiInputTextFlags_EnterReturnsTrue);
  const bool edited = ImGui::IsItemEdited();
  ImGui::PopID();
  item_probe("quiz-answer");
  if (edited) p->shown[q] = QUIZ_UNANSWERED;  // a new answer: the old verdict no longer applies
  widget_same_line_if_fits(widget_button_width(tr(STR_QUIZ_CHECK)));
  const bool check = ImGui::Button(tr(STR_QUIZ_CHECK));
  item_probe("quiz-check");
  if (enter || check) {
    p->answers[q].typed = p->typed[q];
    record(p, q, quiz_check(q, p->answers[q], live));
  }
}

static void feedback(quiz_panel* p, lab_state* s, quiz_id q, const quiz_live_answers& live) {
  switch (p->shown[q]) {
    case QUIZ_UNANSWERED: return;
    case QUIZ_UNREADABLE:
      wrapped_colored(COLOR_WRONG, tr(QUIZ[q].kind == QUIZ_KIND_POSITIONS ? STR_QUIZ_UNREADABLE_POSITIONS : STR_QUIZ_UNREADABLE_NUMBER));
      return;
    case QUIZ_NOT_READY: {
      const char* view = tr(lab_view_get(QUIZ[q].source).label);
      wrapped_colored(COLOR_WRONG, strf(tr(STR_QUIZ_NOT_READY), view));
      ImGui::PushID("quiz-open-source");  // the same label as the view's own button
      if (ImGui::Button(view)) s->view = QUIZ[q].source;
      ImGui::PopID();
      item_probe("quiz-open-source");
      return;
    }
    case QUIZ_RIGHT:
    case QUIZ_WRONG:
      wrapped_colored(p->shown[q] == QUIZ_RIGHT ? COLOR_RIGHT : COLOR_WRONG,
                      tr(p->shown[q] == QUIZ_RIGHT ? STR_QUIZ_RIGHT : STR_QUIZ_WRONG));
      widget_prose(quiz_explanation(q, *s, live));
      return;
  }
}

static void quiz_draw(quiz_panel* p, lab_state* s, live_session* ls, const quiz_live_answers& live) {
  widget_text_wrapped(tr(STR_QUIZ_INTRO));
  ImGui::AlignTextToFramePadding();
  widget_text(quiz_progress_text(p->progress));
  widget_same_line_if_fits(widget_button_width(tr(STR_QUIZ_RESET)));
  if (ImGui::Button(tr(STR_QUIZ_RESET))) {
    platform_storage_set(STORAGE_QUIZ, "");
    quiz_reset(p);
  }
  item_probe("quiz-reset");
  question_buttons(p, s);
  ImGui::Separator();

  const quiz_id q = current(s);
  widget_text_disabled(tr(section_of(q)));
  widget_text_wrapped(lab_quiz_number_text(q) + tr(STR_MIRROR_COLON) + quiz_prompt(q, *s, live));
  const std::vector<std::string> model_lines = quiz_model_lines(*s, ls);
  for (const std::string& line : model_lines) widget_text_wrapped_disabled(line);
  lab_state asked;
  p->waiting = quiz_asks_whole_model(*s, &asked) && ls && model_view_waiting(ls->model, asked);
  ImGui::Spacing();
  if (QUIZ[q].kind == QUIZ_KIND_CHOICE) choice_options(p, q, live);
  else typed_answer(p, q, live);
  feedback(p, s, q, live);

  ImGui::Spacing();
  ImGui::BeginDisabled(q == 0);
  if (ImGui::Button(tr(STR_HAND_PREV))) s->quiz = q - 1;
  ImGui::EndDisabled();
  item_probe("quiz-prev");
  widget_same_line_if_fits(widget_button_width(tr(STR_HAND_NEXT)));
  ImGui::BeginDisabled(q == QUIZ_COUNT - 1);
  if (ImGui::Button(tr(STR_HAND_NEXT))) s->quiz = q + 1;
  ImGui::EndDisabled();
  item_probe("quiz-next");
}

std::string quiz_checked_text(const quiz_panel* p, const lab_state& s, const quiz_live_answers& live) {
  const quiz_id q = current(&s);
  const quiz_verdict v = p->shown[q];
  std::string out;  // (the score over the questions is quiz_panel_text's, before this)
  if (v == QUIZ_UNANSWERED) return out;
  std::string answer = QUIZ[q].kind == QUIZ_KIND_CHOICE ? std::string(1, char('A' + p->answers[q].chosen)) : p->answers[q].typed;
  out += std::string(tr(STR_QUIZ_ANSWER)) + tr(STR_MIRROR_COLON) + answer + "\n";
  switch (v) {
    case QUIZ_UNREADABLE:
      out += tr(QUIZ[q].kind == QUIZ_KIND_POSITIONS ? STR_QUIZ_UNREADABLE_POSITIONS : STR_QUIZ_UNREADABLE_NUMBER);
      break;
    case QUIZ_NOT_READY: out += strf(tr(STR_QUIZ_NOT_READY), tr(lab_view_get(QUIZ[q].source).label)); break;
    default:
      out += std::string(tr(v == QUIZ_RIGHT ? STR_QUIZ_RIGHT : STR_QUIZ_WRONG)) + "\n" + quiz_explanation(q, s, live);
      break;
  }
  return out + "\n";
}

// [SECTION] the panel's row (ui/panel.h)
void* quiz_panel_init() {
  quiz_panel* p = new quiz_panel();
  quiz_reset(p);  // this browser's record
  return p;
}
void quiz_panel_keys(void*, panel_frame*) {}
void quiz_panel_draw(void* self, panel_frame* f) {
  quiz_draw((quiz_panel*)self, f->state, f->live, quiz_live_from(*f->state, f->live));
}
bool quiz_panel_animating(const void* self, double) { return ((const quiz_panel*)self)->waiting; }
std::string quiz_panel_text(const void* self, panel_frame* f) {
  const quiz_panel* p = (const quiz_panel*)self;
  return lab_quiz_progress_text(p->progress) + quiz_checked_text(p, *f->state, quiz_live_from(*f->state, f->live));
}
void quiz_panel_free(void* self) { delete (quiz_panel*)self; }
