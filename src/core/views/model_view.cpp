// The whole model's views as rows (see model_view.h).
#include "core/views/model_view.h"

#include <algorithm>
#include <cmath>

#include "core/views/gates_text.h"
#include "core/views/fault_text.h"
#include "core/base/number_format.h"
#include "core/base/read_error.h"
#include "core/base/strings.h"

// [SECTION] the model's status
uint64_t model_download_to_confirm(const model_session& ms) {
  return ms.status.phase == MODEL_STATUS_ASKING ? ms.status.download_bytes : 0;
}

bool model_status_chunk_failed(const model_status& st) {
  return st.phase == MODEL_STATUS_LOADING && st.error.failed() && st.error.fault != STREAM_CANCELLED;
}

bool model_status_retry(const model_status& st) {
  return st.phase == MODEL_STATUS_FAILED || st.paused || model_status_chunk_failed(st);
}

// "model-00001-of-00002.safetensors: the bytes are not the ones listed"
static std::string failure_text(const model_status& st) {
  const std::string why = live_fault_text(st.error);
  return st.failed_file.empty() ? why : st.failed_file + tr(STR_MIRROR_COLON) + why;
}

std::vector<std::string> model_status_lines(const model_session& ms) {
  const model_status& st = ms.status;
  std::vector<std::string> out;
  if (st.layers > 0)
    out.push_back(strf(tr(STR_MODEL_NAME), st.name.c_str(), std::to_string(st.layers).c_str(), std::to_string(st.hidden).c_str(),
                       fmt_count(st.vocab).c_str()));
  // The built-in model is described; another checkpoint that says it is synthetic is only said so.
  if (st.synthetic) out.push_back(tr(model_session_builtin(ms) ? STR_MODEL_SYNTHETIC : STR_MODEL_SYNTHETIC_OTHER));
  if (ms.carried.shown) {  // a student's page: where the numbers come from, and what checking them costs
    const class_answers& a = ms.carried.answers;
    const std::string rev = a.revision.empty() ? "" : strf(tr(STR_CARRIED_REVISION), a.revision.c_str());
    out.push_back(strf(tr(STR_CARRIED_FROM), st.name.c_str(), rev.c_str()));
    out.push_back(tr(ms.have_reply ? STR_CARRIED_CHECK_NOTE : STR_CARRIED_MISSING));
    return out;
  }
  switch (st.phase) {
    case MODEL_STATUS_IDLE:
    case MODEL_STATUS_OPENING: out.push_back(tr(STR_MODEL_OPENING)); break;
    case MODEL_STATUS_ASKING:
      out.push_back(strf(tr(STR_MODEL_ASK), fmt_mb((int64_t)st.download_bytes).c_str()));
      out.push_back(tr(STR_MODEL_PHONE));
      break;
    case MODEL_STATUS_LOADING: {
      uint64_t loaded = 0, total = 0;
      for (const model_status_file& f : st.files) loaded += f.loaded, total += f.total;
      out.push_back(strf(tr(STR_MODEL_LOADING), fmt_mib(loaded).c_str(), fmt_mib(total).c_str()));
      if (model_status_chunk_failed(st)) out.push_back(strf(tr(STR_MODEL_CHUNK_FAILED), failure_text(st).c_str()));
      else if (st.paused) out.push_back(tr(STR_MODEL_PAUSED));
      break;
    }
    case MODEL_STATUS_FAILED:  // named by where it is (the gates view's source line does the same)
      if (st.error.fault == STREAM_WORKER_STOPPED) out.push_back(strf(tr(STR_MODEL_FAILED), failure_text(st).c_str()));
      else out.push_back(strf(tr(STR_MODEL_FAILED_AT), ms.location.c_str(), failure_text(st).c_str()));
      break;
    case MODEL_STATUS_READY:
      if (ms.pending || !ms.have_reply || ms.precomputed_shown) out.push_back(tr(STR_MODEL_RUNNING));  // a new question runs
      // How many cores answer (a class's laptops differ by the host's headers, not only by cores).
      if (st.threads > 1) out.push_back(strf(tr(STR_MODEL_THREADS), std::to_string(st.threads).c_str()));
      else if (!st.isolated) out.push_back(tr(STR_MODEL_ONE_THREAD));
      break;
  }
  // The built-in model's answer computed when the site was built, until the model gives its own.
  if (ms.precomputed_shown) out.push_back(tr(STR_MODEL_PRECOMPUTED));
  if (ms.have_reply && ms.reply.error.fault != STREAM_OK) {
    const stream_error& e = ms.reply.error;
    out.push_back(e.reason.set() ? read_error_text(e.reason) : live_fault_text(e));
  }
  return out;
}

// A control character (a bell, a newline; C1's too, as UTF-8) is not drawn, and a newline would
// split the row it is in on screen and in the mirror: its bytes are written in hex, "<0a>", as
// the tokenizer writes the bytes of a character split across tokens ("<e5 85>").
static size_t control_at(const std::string& s, size_t i) {
  const unsigned char c = (unsigned char)s[i];
  if (c < 0x20 || c == 0x7f) return 1;
  if (c == 0xc2 && i + 1 < s.size() && (unsigned char)s[i + 1] >= 0x80 && (unsigned char)s[i + 1] <= 0x9f) return 2;
  return 0;
}

static std::string piece_shown(const std::string& piece) {
  static const char HEX[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < piece.size();) {
    if (!control_at(piece, i)) {
      out += piece[i++];
      continue;
    }
    out += '<';
    for (size_t n, first = i; i < piece.size() && (n = control_at(piece, i)) > 0;)
      for (size_t end = i + n; i < end; i++) {
        const unsigned char c = (unsigned char)piece[i];
        out += std::string(i > first ? " " : "") + HEX[c >> 4] + HEX[c & 15];
      }
    out += '>';
  }
  return out;
}

std::string model_token_text(const token_text& t) { return t.piece.empty() ? fmt_token_id(t.id) : "'" + piece_shown(t.piece) + "'"; }

std::string model_prompt_text(const model_reply& r) {
  std::string out;
  for (const token_text& t : r.prompt) out += (out.empty() ? "" : " ") + model_token_text(t);
  return out;
}

bool model_view_ready(const model_session& ms, const lab_state& s) {
  return model_session_current(ms, s) && ms.reply.error.fault == STREAM_OK && !ms.reply.prompt.empty();
}

bool model_view_waiting(const model_session& ms, const lab_state& s) {
  if (ms.status.phase == MODEL_STATUS_FAILED || ms.status.phase == MODEL_STATUS_ASKING) return false;
  // A class link's check still asking its questions: the count moves, then the verdict shows.
  const carried_link& c = ms.carried;
  const bool checking = c.check && ms.status.phase == MODEL_STATUS_READY && c.check_replies.size() < c.answers.answers.size();
  return !model_view_ready(ms, s) || checking || ms.precomputed_shown;  // precomputed: the model's own is on its way
}

// [SECTION] the rule book
static view_row next_row(const model_next_token& t, bool off) {
  view_row row;
  row.label = model_token_text(t.token);
  if (!t.token.piece.empty()) row.cells.push_back({"", fmt_token_id(t.token.id), TONE_MUTED});  // (else the label is the id)
  const std::string p = off ? fmt_before_after(fmt_percent1(t.p_before), fmt_percent1(t.p)) : fmt_percent1(t.p);
  row.cells.push_back({"P", p, off && t.p < t.p_before ? TONE_RELU : off && t.p > t.p_before ? TONE_OPEN : TONE_PLAIN});
  // Absolute probabilities, the track 100 %: before and after side by side when units are off.
  row.bar = std::max(0.0, std::min(1.0, t.p));
  if (off) row.bar_before = std::max(0.0, std::min(1.0, t.p_before));
  return row;
}

std::vector<view_row> rules_next_rows(const model_reply& r, bool off) {
  std::vector<view_row> rows;
  // With units off the list is the run as it was (the lesson's "P(北京) 18.6 % → 1.7 %").
  for (const model_next_token& t : off && !r.before_top.empty() ? r.before_top : r.top) rows.push_back(next_row(t, off));
  return rows;
}

std::vector<view_row> rules_rising_rows(const model_reply& r) {
  std::vector<view_row> rows;
  for (const model_next_token& t : r.rising) rows.push_back(next_row(t, true));
  return rows;
}

bool rules_unit_is_off(const lab_state& s, const unit_ref& u) {
  for (size_t i = 0; i + 1 < s.off.size(); i += 2)
    if (s.off[i] == u.layer && s.off[i + 1] == u.unit) return true;
  return false;
}

void rules_toggle_unit(lab_state* s, const unit_ref& u) {
  for (size_t i = 0; i + 1 < s->off.size(); i += 2)
    if (s->off[i] == u.layer && s->off[i + 1] == u.unit) {
      s->off.erase(s->off.begin() + (long)i, s->off.begin() + (long)i + 2);
      return;
    }
  if (s->off.size() / 2 >= 16) return;  // the link's bound (url_state.cpp)
  s->off.push_back(u.layer);
  s->off.push_back(u.unit);
}

std::string rules_off_text(const lab_state& s) {
  std::string out;
  for (size_t i = 0; i + 1 < s.off.size(); i += 2)
    out += (out.empty() ? "" : tr(STR_MIRROR_SEP)) +
           strf(tr(STR_RULES_UNIT), std::to_string(s.off[i]).c_str(), std::to_string(s.off[i + 1]).c_str());
  return out;
}

bool rules_unit_is_picked(const lab_state& s, const unit_ref& u) { return s.layer == u.layer && s.unit == u.unit; }

void rules_pick_unit(lab_state* s, const unit_ref& u) {
  s->layer = u.layer;
  s->unit = u.unit;
}

std::string rules_picked_title(const model_reply& r, const lab_state& s) {
  std::string unit = strf(tr(STR_RULES_UNIT), std::to_string(r.picked.unit.layer).c_str(), std::to_string(r.picked.unit.unit).c_str());
  if (rules_unit_is_off(s, r.picked.unit)) unit += " (" + std::string(tr(STR_RULES_IS_OFF)) + ")";
  return strf(tr(STR_RULES_PICKED), unit.c_str());
}

std::string rules_picked_off_text(const model_reply& r, const lab_state& s) {
  return rules_unit_is_off(s, r.picked.unit) ? tr(STR_RULES_PICKED_OFF) : "";
}

std::vector<view_row> rules_picked_rows(const model_reply& r, const lab_state& s) {
  std::vector<view_row> rows;
  const std::vector<float>& values = r.picked_per_token;  // what it computes, switched off too
  const bool off = rules_unit_is_off(s, r.picked.unit);
  float top = 0;
  for (float a : values) top = std::max(top, std::fabs(a));
  for (size_t t = 0; t < r.prompt.size() && t < values.size(); t++) {
    const float a = values[t];
    view_row row;
    row.label = model_token_text(r.prompt[t]);
    if (t < r.picked_gate.size() && t < r.picked_up.size()) {
      row.cells.push_back({"silu(gate)", fmt6(r.picked_gate[t]), TONE_MUTED});
      row.cells.push_back({"up", fmt6(r.picked_up[t]), TONE_MUTED});
    }
    row.cells.push_back({tr(STR_RULES_PRODUCT), fmt6(a), a > 0 ? TONE_OPEN : a < 0 ? TONE_RELU : TONE_PLAIN});
    if (off) row.cells.push_back({tr(STR_RULES_IN_MODEL), "0", TONE_RELU});
    row.bar = top > 0 ? std::fabs(a) / top : 0;
    rows.push_back(row);
  }
  return rows;
}

std::string rules_toward_text(const std::vector<token_text>& toward) {
  std::string out;
  for (const token_text& t : toward) out += (out.empty() ? "" : " ") + model_token_text(t);
  return out;
}

void rules_open_weights(lab_state* s) {
  s->model = model_session_location(*s);
  s->view = LAB_VIEW_WEIGHTS;
  s->matrix = MLP_GATE;
}

std::vector<view_row> rules_unit_rows(const model_reply& r, const lab_state& s) {
  std::vector<view_row> rows;
  float top = 0;
  for (const model_unit_row& u : r.units) top = std::max(top, std::fabs(u.value));
  for (const model_unit_row& u : r.units) {
    view_row row;
    row.label = strf(tr(STR_RULES_UNIT), std::to_string(u.unit.layer).c_str(), std::to_string(u.unit.unit).c_str());
    const bool off = rules_unit_is_off(s, u.unit);
    if (off) row.note = tr(STR_RULES_IS_OFF), row.note_tone = TONE_RELU;
    if (rules_unit_is_picked(s, u.unit))
      row.note = off ? row.note + tr(STR_MIRROR_SEP) + tr(STR_PICKED) : std::string(tr(STR_PICKED)), row.note_tone = off ? TONE_RELU : TONE_LIVE;
    row.cells.push_back({"", fmt6(u.value), TONE_OPEN});
    row.cells.push_back({tr(STR_RULES_TOWARD), rules_toward_text(u.toward), TONE_PLAIN});
    row.bar = top > 0 ? std::fabs(u.value) / top : 0;
    rows.push_back(row);
  }
  return rows;
}

// [SECTION] what each MLP adds
static double flow_ratio(const model_layer_flow& f) { return f.out_l2 > 0 ? (double)f.mlp_l2 / f.out_l2 : 0.0; }

std::vector<view_row> flow_rows(const model_reply& r, const lab_state& s) {
  std::vector<view_row> rows;
  double top = 0;
  for (const model_layer_flow& f : r.flow) top = std::max(top, flow_ratio(f));
  for (size_t l = 0; l < r.flow.size(); l++) {
    const model_layer_flow& f = r.flow[l];
    const double ratio = flow_ratio(f);
    view_row row;
    row.label = strf(tr(STR_LIVE_LAYER_N), std::to_string(l).c_str());
    if (s.layer == (int64_t)l) row.note = tr(STR_PICKED), row.note_tone = TONE_LIVE;
    row.cells.push_back({tr(STR_FLOW_MLP), fmt6(f.mlp_l2), TONE_PLAIN});
    row.cells.push_back({tr(STR_FLOW_OUT), fmt6(f.out_l2), TONE_MUTED});
    row.cells.push_back({tr(STR_FLOW_RATIO), fmt_percent1(ratio), TONE_OPEN});
    row.bar = top > 0 ? ratio / top : 0;
    rows.push_back(row);
  }
  return rows;
}

flow_extremes flow_find_extremes(const model_reply& r) {
  flow_extremes e;
  for (size_t l = 0; l < r.flow.size(); l++) {
    const double ratio = flow_ratio(r.flow[l]);
    if (e.largest < 0 || ratio > e.largest_ratio) e.largest = (int)l, e.largest_ratio = ratio;
    if (ratio > 0 && (e.smallest < 0 || ratio < e.smallest_ratio)) e.smallest = (int)l, e.smallest_ratio = ratio;
  }
  return e;
}

std::string flow_extremes_text(const model_reply& r) {
  const flow_extremes e = flow_find_extremes(r);
  if (e.largest < 0 || e.smallest < 0) return "";
  return strf(tr(STR_FLOW_EXTREMES), std::to_string(e.largest).c_str(), fmt_percent1(e.largest_ratio).c_str(),
              std::to_string(e.smallest).c_str(), fmt_percent1(e.smallest_ratio).c_str());
}

std::string flow_scale_text(const model_reply& r) {
  const flow_extremes e = flow_find_extremes(r);
  if (e.largest < 0) return "";
  return strf(tr(STR_FLOW_SCALE), std::to_string(e.largest).c_str(), fmt_percent1(e.largest_ratio).c_str());
}

std::string rules_scale_text(bool off) { return tr(off ? STR_RULES_SCALE_OFF : STR_RULES_SCALE); }

std::string flow_picked_text(const model_reply& r, const lab_state& s) {
  if (s.layer < 0 || s.layer >= (int64_t)r.flow.size()) return "";
  view_row row = flow_rows(r, s)[(size_t)s.layer];
  row.note.clear();  // "Picked: Layer 5: |MLP| ...", not "(picked)" again
  return strf(tr(STR_FLOW_PICKED), view_row_line(row).c_str());
}

// [SECTION] the gates view on the stream
// The reply's counts of one input (stream or shortcut) as the gates view's rows: live, computed here.
static std::vector<gate_row> counted_rows(const model_reply& r, const std::vector<mlp_gate_counts>& counts) {
  std::vector<gate_row> rows;
  for (size_t i = 0; i < r.gate_layers.size() && i < counts.size(); i++) {
    gate_row row;
    row.layer = r.gate_layers[i];
    row.available = row.live = true;
    row.counts = counts[i];
    rows.push_back(row);
  }
  return rows;
}

std::vector<gate_row> gates_stream_rows(const model_reply& r) { return counted_rows(r, r.gates_stream); }

std::vector<view_row> gates_shortcut_rows(const model_reply& r, double thr) {
  std::vector<view_row> rows;
  for (const gate_row& g : counted_rows(r, r.gates_shortcut)) {
    view_row row = gates_layer_row(g, thr);
    row.note = tr(STR_GATES_SHORTCUT);
    row.note_tone = TONE_MUTED;
    rows.push_back(row);
  }
  return rows;
}

std::string gates_stream_token_line(const model_reply& r, const lab_state& s) {
  if (s.hist_token < 0 || s.hist_token >= (int64_t)r.prompt.size()) return "";
  return std::string(tr(STR_GATES_TOKEN)) + tr(STR_MIRROR_COLON) + std::to_string(s.hist_token) + " " +
         model_token_text(r.prompt[(size_t)s.hist_token]) + "\n";
}

// [SECTION] the mirror
static std::string status_text(const model_session& ms, const lab_state& s) {
  std::string out;
  for (const std::string& line : model_status_lines(ms)) out += line + "\n";
  for (const std::string& line : carried_check_lines(ms, s)) out += line + "\n";
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
  out += std::string(tr(STR_RULES_CONCLUSION)) + tr(STR_MIRROR_COLON) + rules_toward_text(r.picked.toward) + "\n";
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
  std::string out = std::string(tr(STR_RULES_INTRO)) + "\n" + status_text(ms, s);
  if (!model_view_ready(ms, s)) return out;
  return out + rules_answer_text(s, ms.reply);
}

std::string flow_view_text(const lab_state& s, live_session* ls, const live_choice&) {
  if (!ls || !model_session_active(ls->model)) return "";
  const model_session& ms = ls->model;
  std::string out = std::string(tr(STR_FLOW_INTRO)) + "\n" + status_text(ms, s);
  if (!model_view_ready(ms, s)) return out;
  return out + flow_answer_text(s, ms.reply);
}

std::string gates_stream_view_text(const lab_state& s, live_session* ls) {
  if (!ls || !model_session_active(ls->model)) return "";
  const model_session& ms = ls->model;
  std::string out = std::string(tr(STR_GATES_STREAM_NOTE)) + "\n" + status_text(ms, s);
  if (!model_view_ready(ms, s)) return out;
  return out + gates_answer_text(s, ms.reply, ms.status.synthetic);
}
