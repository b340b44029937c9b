// The built-in model's precomputed answers (see precomputed_answers.h).
#include "core/experiments/precomputed_answers.h"

#include "core/views/view_table.h"

std::vector<std::string> precomputed_answer_links() { return {"#v=1&view=rules", "#v=1&view=gates&in=stream"}; }

bool precomputed_answers_read(const std::string& text, class_answers* out) {
  class_answers a;
  answers_refusal why;
  class_answers_context ctx;  // the built-in model: model= empty
  size_t end = text.size();
  while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r')) end--;  // the file's line end
  if (!class_answers_decode(text.substr(0, end), ctx, &a, &why) || a.answers.empty()) return false;
  *out = std::move(a);
  return true;
}

precomputed_fetch::~precomputed_fetch() {
  if (client_) client_->forget_sink(this);
}

void precomputed_fetch::frame(model_session* ms, const lab_state& s, fetch_client* client) {
  if (!client || !s.model.empty() || !s.answers.empty() || !lab_view_on_whole_model(s)) return;
  if (!id_ && !answered_) {
    client_ = client;
    fetch_request r;
    r.url = PRECOMPUTED_ANSWERS_URL;
    r.max_bytes = PRECOMPUTED_ANSWERS_MAX_BYTES;
    id_ = client->fetch_start(this, r);
  }
  if (answered_ && ms->precomputed.answers.empty() && !answers_.answers.empty()) ms->precomputed = answers_;
}

void precomputed_fetch::on_fetch_response(uint32_t id, const fetch_response& r, double) {
  if (id != id_) return;
  id_ = 0;
  answered_ = true;
  if (r.status == 200 && !r.cut && r.body) precomputed_answers_read(std::string((const char*)r.body, r.n), &answers_);
}
