// The whole-model views' session (see model_session.h).
#include "core/experiments/model_session.h"

#include "core/views/gates_text.h"
#include "core/experiments/live_session.h"
#include "core/base/strings.h"

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

// The switched-off units the model has, each once, in the link's order.
static std::vector<int64_t> off_inside(const std::vector<int64_t>& off, const model_status& st) {
  std::vector<int64_t> out;
  for (size_t i = 0; i + 1 < off.size(); i += 2) {
    const int64_t l = off[i], u = off[i + 1];
    bool seen = false;
    for (size_t k = 0; k + 1 < out.size(); k += 2) seen |= out[k] == l && out[k + 1] == u;
    if (!seen && model_unit_inside(st, l, u)) out.push_back(l), out.push_back(u);
  }
  return out;
}

static std::string pairs_text(const std::vector<int64_t>& off) {
  std::string out;
  for (size_t i = 0; i + 1 < off.size(); i += 2) out += (out.empty() ? "" : ",") + std::to_string(off[i]) + ":" + std::to_string(off[i + 1]);
  return out;
}

bool model_unit_inside(const model_status& st, int64_t layer, int64_t unit) {
  return layer >= 0 && layer < st.layers && unit >= 0 && unit < st.intermediate;
}

std::vector<live_fallback> model_session_fallbacks(const model_session& ms, const lab_state& s) {
  std::vector<live_fallback> out;
  const model_status& st = ms.status;
  if (st.phase != MODEL_STATUS_READY || st.layers <= 0 || ms.location != model_session_location(s)) return out;
  for (int64_t id : s.ids)
    if (id < 0 || id >= st.vocab) {
      out.push_back({"ids", std::to_string(id), std::to_string(st.vocab - 1)});
      break;
    }
  const std::vector<int64_t> off = off_inside(s.off, st);
  if (off != s.off) out.push_back({"off", pairs_text(s.off), off.empty() ? tr(STR_VALUE_NO_UNIT_OFF) : pairs_text(off)});
  const bool picks = s.view == LAB_VIEW_RULES || s.view == LAB_VIEW_FLOW;
  if (picks && s.layer >= st.layers) out.push_back({"layer", std::to_string(s.layer), tr(STR_VALUE_NO_LAYER)});
  if (s.view == LAB_VIEW_RULES && s.layer >= 0 && s.layer < st.layers && (s.unit < 0 || s.unit >= st.intermediate))
    out.push_back({"unit", std::to_string(s.unit), tr(STR_VALUE_NO_LAYER)});
  // The prompt's length is known once it was run.
  if (picks && s.token >= 0 && ms.have_reply && !ms.reply.prompt.empty() && s.token >= (int64_t)ms.reply.prompt.size())
    out.push_back({"tok", std::to_string(s.token), tr(STR_VALUE_LAST_TOKEN)});
  return out;
}

void model_session_apply_fallbacks(lab_state* s, const std::vector<live_fallback>& fallbacks, const model_session& ms) {
  for (const live_fallback& f : fallbacks) {
    const std::string key = f.key;
    if (key == "ids") s->ids.clear(), s->text.clear(), s->pieces.clear();
    if (key == "off") s->off = off_inside(s->off, ms.status);
    if (key == "layer" || key == "unit") s->layer = -1;
    if (key == "tok") s->token = -1;
  }
}

bool model_status_chunk_failed(const model_status& st) {
  return st.phase == MODEL_STATUS_LOADING && st.error.failed() && st.error.fault != STREAM_CANCELLED;
}

bool model_status_stopped(const model_status& st) {
  return st.phase == MODEL_STATUS_LOADING && (st.paused || (model_status_chunk_failed(st) && !st.moving));
}

bool model_session_failed(const model_session& ms, const lab_state& s) {
  if (!ms.service || s.model.empty() || model_session_builtin(ms) || ms.location != model_session_location(s)) return false;
  return ms.status.phase == MODEL_STATUS_FAILED || model_status_chunk_failed(ms.status);
}

bool model_session_current(const model_session& ms, const lab_state& s) {
  // Before the model's status names its layers, a precomputed answer's question counts them as it did.
  const int layers = ms.status.layers > 0 || !ms.precomputed_shown ? ms.status.layers : ms.precomputed.layers;
  return ms.have_reply && ms.asked == model_session_question(s, layers);
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

// The link's ans=, read again when it changes (against the link's model=).
static void carried_read(model_session* ms, const lab_state& s) {
  carried_link& c = ms->carried;
  if (c.text == s.answers) return;
  c = carried_link();
  c.text = s.answers;
  if (s.answers.empty()) return;
  class_answers_context ctx;
  ctx.model = s.model;
  if (!class_answers_decode(s.answers, ctx, &c.answers, &c.refusal)) c.answers = class_answers();
}

// A student's page: the carried answer to the state's question, with the model's name and shape
// from the link; no worker, no weights.
static void carried_frame(model_session* ms, const lab_state& s) {
  const class_answers& a = ms->carried.answers;
  ms->carried.shown = true;
  ms->location = model_session_location(s);
  ms->status = class_answers_status(a);
  ms->status.location = ms->location;
  const model_question q = model_session_question(s, a.layers);
  const carried_answer* found = class_answers_find(a, q, class_answers_view_part(s.view));
  ms->asked = q;
  ms->pending = 0;
  ms->have_reply = found != nullptr;
  if (found) {
    ms->reply = found->reply;
    ms->reply.id = (uint32_t)(found - a.answers.data()) + 1;  // each carried answer its own (the fonts)
  }
}

// Once the model is ready, the carried answers are asked one by one and each compared, as the
// page prints it, with the model's.
static void check_step(model_session* ms) {
  carried_link& c = ms->carried;
  const std::vector<carried_answer>& all = c.answers.answers;
  if (!c.check) return;
  if (c.check_pending) {
    model_reply r;
    if (!ms->service->model_poll(c.check_pending, &r)) return;
    if (r.toward_pending) return;  // compared whole: the rest follows under the same id
    c.check_pending = 0;
    if (!reply_not_ready(r)) c.check_replies.push_back(r);  // not ready: asked again
  }
  if (c.check_replies.size() < all.size() && !ms->pending)
    c.check_pending = ms->service->model_ask(all[c.check_replies.size()].question);
}

bool model_session_show_carried(model_session* ms, const lab_state& s) {
  carried_read(ms, s);
  ms->carried.shown = false;
  if (!ms->carried.answers.answers.empty() && !ms->use_model) carried_frame(ms, s);
  return ms->carried.shown;
}

static void model_frame(model_session* ms, const lab_state& s, model_service* service, double now);

// A reply id of the precomputed answers: never one the service gives (it counts up from 1).
enum : uint32_t { PRECOMPUTED_REPLY_ID = 0x80000000u };

// The built-in model's precomputed answer to the state's question, while the model has none of its
// own: shown marked, never taken for the model's (the model is asked as if it were not there).
static void precomputed_frame(model_session* ms, const lab_state& s) {
  const bool was = ms->precomputed_shown;
  ms->precomputed_shown = false;
  if (was) ms->have_reply = false;  // it was no answer of the model
  const class_answers& a = ms->precomputed;
  const model_status& st = ms->status;
  if (a.answers.empty() || !model_session_builtin(*ms) || ms->have_reply) return;
  // Once the model is open, its answers are for it only when it is the one they were computed on.
  if (st.layers > 0 && (st.name != a.name || st.layers != a.layers || st.hidden != a.hidden || st.intermediate != a.intermediate ||
                        st.vocab != a.vocab))
    return;
  const model_question q = model_session_question(s, a.layers);
  if (ms->pending && !(ms->asked == q)) return;  // an earlier question's answer is on its way: it must find it as asked
  const carried_answer* found = class_answers_find(a, q, class_answers_view_part(s.view));
  if (!found) return;
  if (st.layers == 0) {  // the model's status has not named it yet: the answers' own model, its name and shape
    const model_status shape = class_answers_status(a);
    model_status& to = ms->status;
    to.name = shape.name, to.synthetic = shape.synthetic;
    to.layers = shape.layers, to.hidden = shape.hidden, to.intermediate = shape.intermediate, to.vocab = shape.vocab;
  }
  ms->reply = found->reply;
  ms->reply.id = PRECOMPUTED_REPLY_ID + (uint32_t)(found - a.answers.data());  // each its own (the fonts)
  ms->asked = q;
  ms->have_reply = true;
  ms->precomputed_shown = true;
}

void model_session_frame(model_session* ms, const lab_state& s, model_service* service, double now) {
  if (model_session_show_carried(ms, s)) return;
  if (!service) return;
  model_frame(ms, s, service, now);
  precomputed_frame(ms, s);
}

bool model_session_show_precomputed(model_session* ms, const lab_state& s) {
  ms->location = model_session_location(s);
  ms->status.location = ms->location;
  precomputed_frame(ms, s);
  return ms->precomputed_shown;
}

// The model itself: opened (again when the state names another), its status read, the state's
// question asked once it is ready, the answer kept.
static void model_frame(model_session* ms, const lab_state& s, model_service* service, double now) {
  if (ms->precomputed_shown) ms->have_reply = false, ms->precomputed_shown = false;  // not the model's
  ms->use_model = true;
  const std::string where = model_session_location(s);
  const uint32_t generation = service->model_open(where);
  if (ms->service != service || where != ms->location || generation != ms->generation) {
    // Another model: nothing of the last one's stays but what the link carries.
    model_session fresh;
    fresh.service = service;
    fresh.use_model = true;
    fresh.carried = ms->carried;
    fresh.precomputed = std::move(ms->precomputed);
    fresh.carried.check_pending = 0;
    fresh.carried.check_replies.clear();
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
      // A first answer without the units' lists is shown at once; the whole one follows under
      // the same id, so the question stays pending.
      if (!r.toward_pending) ms->pending = 0;
      if (reply_not_ready(r) && ms->not_ready_replies < MODEL_NOT_READY_ASKS) {
        ms->not_ready_replies++;
      } else {
        ms->reply = r;
        ms->have_reply = true;
      }
    }
  }
  if (ms->status.phase != MODEL_STATUS_READY) return;
  const model_question q = model_session_question(s, ms->status.layers);
  if (!ms->pending && !ms->carried.check_pending && !(ms->have_reply && ms->asked == q)) {
    ms->asked = q;
    ms->have_reply = false;
    ms->pending = service->model_ask(q);
  }
  check_step(ms);
}

bool model_session_active(const model_session& ms) { return ms.service || ms.carried.shown || ms.precomputed_shown; }

void model_session_use_model(model_session* ms) {
  ms->carried.check = ms->carried.shown;  // a student's page: what the link says is checked
  ms->use_model = true;
}

bool model_session_add_to_link(const model_session& ms, lab_state* s) {
  if (ms.carried.shown || ms.precomputed_shown || !ms.have_reply || ms.reply.toward_pending || ms.reply.error.failed()) return false;
  class_answers a = ms.carried.answers;
  if (a.answers.empty()) a = class_answers_for(ms.status, s->model);  // the first: the model as this page opened it
  carried_answer add;
  add.question = ms.asked;
  add.reply = ms.reply;
  bool replaced = false;
  for (carried_answer& c : a.answers)
    if (c.question == add.question) c = add, c.parts = 0, replaced = true;
  if (!replaced) a.answers.push_back(add);
  size_t carried = 0;
  const std::string text = class_answers_encode(a, &carried);
  if (text.empty() || carried < a.answers.size()) return false;
  s->answers = text;
  return true;
}

std::string model_session_fonts_text(model_session* ms) {
  const uint32_t reply = ms->have_reply ? ms->reply.id : 0;
  // (The whole answer that follows a first one has its id, and the units' lists' words besides.)
  const bool pending = ms->have_reply && ms->reply.toward_pending;
  if (ms->status.name == ms->fonts_name && reply == ms->fonts_reply && pending == ms->fonts_reply_pending) return "";
  ms->fonts_name = ms->status.name;
  ms->fonts_reply = reply;
  ms->fonts_reply_pending = pending;
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
