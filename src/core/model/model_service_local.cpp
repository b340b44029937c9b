// The whole model in-process (see model_service.h): the host behind the same JSON messages the
// page's worker exchanges, so the UI tests and the CLI exercise the page's protocol. It keeps the
// worker's timing too: a message is handled at the next pump, and the status the frame reads is
// the one published before that pump handled this frame's messages. So a test sees what the page
// sees in the frame a model changes: the previous model's status, one frame late.
#include <deque>
#include <map>

#include "core/model/model_host.h"
#include "core/model/model_service.h"

namespace {
struct local_service final : model_service {
  explicit local_service(fetch_client* c) : client(c), host(c) {}
  fetch_client* client;
  model_host host;
  double now = 0;
  uint32_t next_id = 1;
  std::deque<std::string> questions;         // as JSON, answered on the next pump
  std::map<uint32_t, std::string> answers;   // as JSON

  // Opening and Retry start requests: they run at the next pump, on its clock (the stall window
  // counts from there), as the worker runs them on its own when their message comes.
  std::string location, to_open;
  uint32_t generation = 0, host_generation = 0;
  bool open_pending = false, retry_pending = false;
  std::string published;  // the status as the page last received it
  uint64_t changes = 0;

  uint32_t model_open(const std::string& where) override {
    if (where == location && generation > 0) return generation;
    location = to_open = where;
    open_pending = true;
    return ++generation;
  }
  void model_go() override { host.go(); }
  void model_cancel() override { host.cancel(); }
  void model_retry() override { retry_pending = true; }
  // In-process, the host caches in its caller's client: the caller's Clear empties it and counts it.
  uint64_t model_clear_cache() override { return 0; }
  uint64_t model_cache_bytes() const override { return 0; }
  uint32_t model_ask(const model_question& q) override {
    model_question asked = q;
    asked.id = next_id++;
    questions.push_back(model_question_json(asked));
    return asked.id;
  }
  model_status model_status_now() override {
    model_status s;
    model_status_parse(published, &s);
    return s;
  }
  uint64_t model_status_changes() const override { return changes; }
  bool model_poll(uint32_t id, model_reply* out) override {
    auto it = answers.find(id);
    if (it == answers.end()) return false;
    const bool ok = model_reply_parse(it->second, out);
    answers.erase(it);
    return ok;
  }
  void publish() {
    model_status s = host.status();
    s.generation = host_generation;
    s.isolated = true;  // in-process: threads need no headers here
    std::string json = model_status_json(s);
    if (json != published) published = std::move(json), changes++;
  }
  void model_pump(double t) override {
    now = t;
    publish();  // what the worker had sent before this frame's messages reached it
    if (open_pending) host.open(to_open, now), host_generation = generation, open_pending = false;
    if (retry_pending) host.retry(now), retry_pending = false;
    host.pump(now);
    while (!questions.empty()) {  // the worker answers every question, ready or not
      model_question q;
      if (model_question_parse(questions.front(), &q)) answers[q.id] = model_reply_json(host.answer(q));
      questions.pop_front();
    }
  }
};
}  // namespace

model_service* model_service_local(fetch_client* client) { return new local_service(client); }
