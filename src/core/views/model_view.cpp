// The whole-model views' mirror, and the check of a link's answers against the model (see
// model_view.h; the status lines are model_status_text.cpp's, the rows model_rows.cpp's).
#include "core/views/model_view.h"

#include <algorithm>
#include <cmath>

#include "core/views/gates_text.h"
#include "core/views/fault_text.h"
#include "core/views/model_offer.h"
#include "core/base/number_format.h"
#include "core/base/read_error.h"
#include "core/base/strings.h"

// [SECTION] the mirror
bool carried_add_shown(const model_session& ms, const lab_state& s) {
  // (Not before the whole answer: a link carries what the units write toward too.)
  return !ms.carried.shown && model_view_ready(ms, s) && !ms.precomputed_shown && !ms.reply.toward_pending && !s.lock;
}

std::string carried_add_button(const model_session& ms) {
  return strf(tr(STR_CARRIED_ADD), std::to_string(ms.carried.answers.answers.size()).c_str(),
              std::to_string((int)CLASS_ANSWERS_MAX).c_str());
}

std::vector<std::string> model_control_lines(const live_session& ls, const lab_state& s) {
  std::vector<std::string> out;
  const model_session& ms = ls.model;
  if (carried_add_shown(ms, s)) out.push_back(carried_add_button(ms));
  if (ms.carried.shown) return out;  // a student's page on the link's answers: Check them yourself only
  if (model_offer_whole_shown(ms, s)) {
    out.push_back(model_offer_whole_button());
    out.push_back(tr(STR_MODEL_OFFER_NOTE));
  }
  if (ls.cache_shown.shown > 0) out.push_back(cache_clear_button(ls.cache_shown.shown));
  if (!ls.cache_note.empty()) out.push_back(ls.cache_note);
  return out;
}

static std::string status_text(const live_session& ls, const lab_state& s) {
  std::string out;
  for (const std::string& line : model_status_lines(ls.model)) out += line + "\n";
  for (const std::string& line : carried_check_lines(ls.model, s)) out += line + "\n";
  for (const std::string& line : model_control_lines(ls, s)) out += line + "\n";
  return out;
}


// Each view's answer as printed, under its status lines: the mirror prints it, and the check of a
// link's answers compares the carried one with the model's line by line.
static std::string rules_answer_text(const lab_state& s, const model_reply& r) {
  std::string out;
  const bool off = !s.off.empty();
  out += std::string(tr(STR_MODEL_PROMPT)) + tr(STR_MIRROR_COLON) + model_prompt_text(r) + "\n";
  if (off) out += strf(tr(STR_RULES_OFF), rules_off_text(s).c_str()) + "\n";
  out += strf(tr(STR_RULES_NEXT), model_token_text(r.prompt.back()).c_str()) + tr(STR_MIRROR_COLON) + "\n";
  out += rules_scale_text(off) + "\n";
  for (const view_row& row : rules_next_rows(r, off)) out += view_row_line(row) + "\n";
  if (off) {
    out += std::string(tr(STR_RULES_RISE)) + tr(STR_MIRROR_COLON) + "\n";
    for (const view_row& row : rules_rising_rows(r)) out += view_row_line(row) + "\n";
  }
  out += strf(tr(STR_RULES_UNITS), model_token_text(r.prompt[(size_t)r.position]).c_str()) + tr(STR_MIRROR_COLON) + "\n";
  for (const view_row& row : rules_unit_rows(r, s)) out += view_row_line(row) + "\n";
  if (r.picked.unit.layer < 0) return out;
  out += rules_picked_title(r, s) + "\n";
  const std::string off_note = rules_picked_off_text(r, s);
  if (!off_note.empty()) out += off_note + "\n";
  out += std::string(tr(STR_RULES_FIRES)) + tr(STR_MIRROR_COLON) + model_prompt_text(r) + "\n";
  out += std::string(tr(STR_RULES_CONDITION)) + tr(STR_MIRROR_COLON) + "\n";
  for (const view_row& row : rules_picked_rows(r, s)) out += view_row_line(row) + "\n";
  out += std::string(tr(STR_RULES_CONCLUSION)) + tr(STR_MIRROR_COLON) + rules_toward_text(r, r.picked.toward) + "\n";
  return out;
}

static std::string flow_answer_text(const lab_state& s, const model_reply& r) {
  std::string out = std::string(tr(STR_MODEL_PROMPT)) + tr(STR_MIRROR_COLON) + model_prompt_text(r) + "\n";
  if (!s.off.empty()) out += strf(tr(STR_RULES_OFF), rules_off_text(s).c_str()) + "\n";
  out += strf(tr(STR_FLOW_AT), model_token_text(r.prompt[(size_t)r.position]).c_str()) + tr(STR_MIRROR_COLON) + "\n";
  for (const std::string& line : {flow_scale_text(r), flow_picked_text(r, s), flow_extremes_text(r)})
    if (!line.empty()) out += line + "\n";
  for (const view_row& row : flow_rows(r, s)) out += view_row_line(row) + "\n";
  return out;
}

static std::string gates_answer_text(const lab_state& s, const model_reply& r, bool synthetic) {
  std::string out = std::string(tr(STR_MODEL_PROMPT)) + tr(STR_MIRROR_COLON) + model_prompt_text(r) + "\n";
  out += gates_rows_text(s, gates_stream_rows(r), synthetic, gates_stream_token_line(r, s));
  for (const view_row& row : gates_shortcut_rows(r, s.threshold)) out += view_row_line(row) + "\n";
  return out;
}

// [SECTION] the link's answers, checked against the model
// The state that asks a carried answer's question on the view it serves first.
static lab_state answer_state(const lab_state& base, const carried_answer& a) {
  lab_state s = base;
  const model_question& q = a.question;
  s.view = a.parts & CLASS_PART_RULES ? LAB_VIEW_RULES : a.parts & CLASS_PART_FLOW ? LAB_VIEW_FLOW : LAB_VIEW_GATES;
  s.off.clear();
  for (const unit_ref& u : q.off) s.off.push_back(u.layer), s.off.push_back(u.unit);
  s.token = q.position;
  s.layer = q.unit.layer, s.unit = q.unit.unit;
  s.threshold = q.threshold;
  s.hist_token = q.gate_token;
  return s;
}

static std::string answer_text(const lab_state& s, const model_reply& r, bool synthetic) {
  if (r.error.failed() || r.prompt.empty()) return live_fault_text(r.error);
  return s.view == LAB_VIEW_RULES ? rules_answer_text(s, r) : s.view == LAB_VIEW_FLOW ? flow_answer_text(s, r) : gates_answer_text(s, r, synthetic);
}

// The first line where the two differ, or "" when they print the same.
static std::string first_difference(const std::string& link, const std::string& here) {
  size_t a = 0, b = 0;
  while (a < link.size() || b < here.size()) {
    const size_t ea = std::min(link.find('\n', a), link.size()), eb = std::min(here.find('\n', b), here.size());
    const std::string la = link.substr(a, ea - a), lb = here.substr(b, eb - b);
    if (la != lb) return strf(tr(STR_CARRIED_DIFFERS_LINE), la.c_str(), lb.c_str());
    a = ea + 1, b = eb + 1;
  }
  return "";
}

std::vector<std::string> carried_check_lines(const model_session& ms, const lab_state& s) {
  std::vector<std::string> out;
  const carried_link& c = ms.carried;
  if (c.full) out.push_back(strf(tr(STR_CARRIED_FULL), std::to_string((int)CLASS_ANSWERS_MAX).c_str()));
  if (!c.check && !c.shown && !c.answers.answers.empty()) {  // the teacher's page: what the link carries now
    out.push_back(strf(tr(STR_CARRIED_ADDED), std::to_string(c.answers.answers.size()).c_str(), fmt_count((int64_t)s.answers.size()).c_str()));
    return out;
  }
  if (!c.check || ms.status.phase != MODEL_STATUS_READY) return out;
  const size_t n = c.answers.answers.size(), done = c.check_replies.size();
  if (done < n) {
    out.push_back(strf(tr(STR_CARRIED_CHECKING), std::to_string(done).c_str(), std::to_string(n).c_str()));
    return out;
  }
  // The host's files changed since the teacher's page read them (another ETag, another commit).
  if (class_answers_other_revision(c.answers, ms.status))
    out.push_back(strf(tr(STR_CARRIED_OTHER_REVISION), c.answers.revision.c_str(), ms.status.revision.c_str()));
  for (size_t i = 0; i < n; i++) {
    const carried_answer& a = c.answers.answers[i];
    const lab_state as = answer_state(s, a);
    const std::string differs = first_difference(answer_text(as, a.reply, c.answers.synthetic), answer_text(as, c.check_replies[i], ms.status.synthetic));
    if (!differs.empty()) {
      out.push_back(strf(tr(STR_CARRIED_DIFFERS), std::to_string(i + 1).c_str(), std::to_string(n).c_str(), differs.c_str()));
      return out;
    }
  }
  out.push_back(strf(tr(STR_CARRIED_AGREE), std::to_string(n).c_str()));
  return out;
}

std::string rules_view_text(const lab_state& s, live_session* ls, const live_choice&) {
  if (!ls || !model_session_active(ls->model)) return "";
  const model_session& ms = ls->model;
  std::string out = std::string(tr(STR_RULES_INTRO)) + "\n" + status_text(*ls, s);
  if (!model_view_ready(ms, s)) return out;
  return out + rules_answer_text(s, ms.reply);
}

std::string flow_view_text(const lab_state& s, live_session* ls, const live_choice&) {
  if (!ls || !model_session_active(ls->model)) return "";
  const model_session& ms = ls->model;
  std::string out = std::string(tr(STR_FLOW_INTRO)) + "\n" + status_text(*ls, s);
  if (!model_view_ready(ms, s)) return out;
  return out + flow_answer_text(s, ms.reply);
}

std::string gates_stream_view_text(const lab_state& s, live_session* ls) {
  if (!ls || !model_session_active(ls->model)) return "";
  const model_session& ms = ls->model;
  std::string out = std::string(tr(STR_GATES_STREAM_NOTE)) + "\n" + status_text(*ls, s);
  if (!model_view_ready(ms, s)) return out;
  return out + gates_answer_text(s, ms.reply, ms.status.synthetic);
}
