// The whole-model views' session (see model_session.h).
#include "core/experiments/model_session.h"

#include "core/gates_text.h"
#include "core/experiments/live_session.h"

std::string model_session_location(const lab_state& s) { return s.model.empty() ? MODEL_DEFAULT_LOCATION : s.model; }

bool model_session_builtin(const model_session& ms) { return ms.location == MODEL_DEFAULT_LOCATION; }

std::vector<int> model_session_gate_layers(const lab_state& s, int layers) {
  std::vector<int> all;
  for (int l = 0; l < layers; l++) all.push_back(l);
  bool dropped = false;
  return gates_shown_layers(s.pack_layers, all, LIVE_MAX_HIST_LAYERS, &dropped);
}

model_question model_session_question(const lab_state& s, int layers) {
  model_question q;
  if (!s.ids.empty()) q.ids = s.ids;
  else q.text = s.text.empty() ? MODEL_LESSON_PROMPT : s.text;
  for (size_t i = 0; i + 1 < s.off.size(); i += 2) q.off.push_back({(int)s.off[i], (int)s.off[i + 1]});
  if (s.view == LAB_VIEW_FLOW || s.view == LAB_VIEW_RULES) q.position = (int)s.token;  // -1: the last
  if (s.view == LAB_VIEW_RULES && s.layer >= 0) q.unit = {(int)s.layer, (int)s.unit};  // the picked unit
  if (s.view == LAB_VIEW_GATES) {  // in=stream; the threshold and token matter to nothing else
    q.gate_layers = model_session_gate_layers(s, layers);
    q.threshold = s.threshold;
    q.gate_token = (int)s.hist_token;
  }
  return q;
}

bool model_session_failed(const model_session& ms, const lab_state& s) {
  if (!ms.service || s.model.empty() || model_session_builtin(ms) || ms.location != model_session_location(s)) return false;
  const model_status& st = ms.status;
  return st.phase == MODEL_STATUS_FAILED || (st.phase == MODEL_STATUS_LOADING && st.error.failed() && st.error.fault != STREAM_CANCELLED);
}

bool model_session_current(const model_session& ms, const lab_state& s) {
  return ms.have_reply && ms.asked == model_session_question(s, ms.status.layers);
}

// The two statuses differ at most in how far the download has come.
static bool only_progress_moved(const model_status& a, const model_status& b) {
  model_status x = a, y = b;
  x.bytes_network = y.bytes_network = 0;
  for (model_status_file& f : x.files) f.loaded = 0;
  for (model_status_file& f : y.files) f.loaded = 0;
  return model_status_json(x) == model_status_json(y);
}

// A reply that says the model was not ready (the worker answered a question asked on a status
// that was already out of date) is no answer: the question is asked again once the model is ready.
static bool reply_not_ready(const model_reply& r) { return r.error.fault == STREAM_CANCELLED; }
enum { MODEL_NOT_READY_ASKS = 3 };  // then the reply stands, and says "cancelled"

void model_session_frame(model_session* ms, const lab_state& s, model_service* service, double now) {
  if (!service) return;
  if (ms->service != service) *ms = model_session(), ms->service = service;
  const std::string where = model_session_location(s);
  const uint32_t generation = service->model_open(where);
  if (where != ms->location || generation != ms->generation) {  // another model: nothing of the last one's stays
    model_session fresh;
    fresh.service = service;
    fresh.location = where;
    fresh.generation = generation;
    fresh.status.location = where;
    fresh.status.generation = generation;
    fresh.status.phase = MODEL_STATUS_OPENING;
    *ms = std::move(fresh);
  }
  service->model_pump(now);
  const uint64_t changes = service->model_status_changes();
  if (changes != ms->status_seen) {
    model_status now_status = service->model_status_now();
    // A status of an earlier open is the previous model's: this one is still opening.
    if (now_status.generation == ms->generation) {
      // Anything but the progress shows at once; the progress moves at most every LAB_PROGRESS_EVERY_S.
      if (ms->status_pace.due(now, !only_progress_moved(ms->status, now_status))) {
        ms->status = std::move(now_status);
        ms->status_seen = changes;
      }
    } else {
      ms->status_seen = changes;
    }
  }
  if (ms->pending) {
    model_reply r;
    if (service->model_poll(ms->pending, &r)) {
      ms->pending = 0;
      if (reply_not_ready(r) && ms->not_ready_replies < MODEL_NOT_READY_ASKS) {
        ms->not_ready_replies++;
      } else {
        ms->reply = r;
        ms->have_reply = true;
      }
    }
  }
  const model_question q = model_session_question(s, ms->status.layers);
  if (ms->status.phase == MODEL_STATUS_READY && !ms->pending && !(ms->have_reply && ms->asked == q)) {
    ms->asked = q;
    ms->have_reply = false;
    ms->pending = service->model_ask(q);
  }
}

std::string model_session_fonts_text(model_session* ms) {
  const uint32_t reply = ms->have_reply ? ms->reply.id : 0;
  if (ms->status.name == ms->fonts_name && reply == ms->fonts_reply) return "";
  ms->fonts_name = ms->status.name;
  ms->fonts_reply = reply;
  std::string text = ms->status.name;
  if (ms->have_reply) {
    const model_reply& r = ms->reply;
    for (const token_text& t : r.prompt) text += t.piece;
    for (const auto* list : {&r.top, &r.before_top, &r.rising})
      for (const model_next_token& t : *list) text += t.token.piece;
    for (const model_unit_row& u : r.units)
      for (const token_text& t : u.toward) text += t.piece;
  }
  return text;
}
