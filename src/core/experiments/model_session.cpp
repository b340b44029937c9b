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

void model_session_frame(model_session* ms, const lab_state& s, model_service* service, double now) {
  if (!service) return;
  if (ms->service != service) *ms = model_session(), ms->service = service;
  const std::string where = model_session_location(s);
  if (where != ms->location) {  // another model: nothing of the last one's answers stays
    ms->location = where;
    ms->pending = 0;
    ms->have_reply = false;
    ms->reply = model_reply();
    service->model_open(where);
  }
  service->model_pump(now);
  model_status now_status = service->model_status_now();
  // Anything but the progress shows at once; the progress moves at most every LAB_PROGRESS_EVERY_S.
  if (ms->status_pace.due(now, !only_progress_moved(ms->status, now_status))) ms->status = std::move(now_status);
  if (ms->pending) {
    model_reply r;
    if (service->model_poll(ms->pending, &r)) {
      ms->pending = 0;
      ms->reply = r;
      ms->have_reply = true;
    }
  }
  const model_question q = model_session_question(s, ms->status.layers);
  if (ms->status.phase == MODEL_STATUS_READY && !ms->pending && !(ms->have_reply && ms->asked == q)) {
    ms->asked = q;
    ms->have_reply = false;
    ms->pending = service->model_ask(q);
  }
}
