// The quiz's live questions' answers, from the session's results and the whole model (see live_view.h).
#include "core/views/live_view.h"

#include "core/views/model_view.h"
#include "core/base/number_format.h"
#include "core/base/strings.h"

std::vector<std::string> quiz_model_lines(const lab_state& s, const live_session* ls) {
  lab_state asked;
  if (!quiz_asks_whole_model(s, &asked)) return {};
  if (!ls) return {tr(STR_MODEL_OPENING)};
  if (model_view_ready(ls->model, asked)) return {};
  return model_status_lines(ls->model);
}

// The flow question reads the whole model's answer to the link's question (the quiz view asks it:
// quiz_asks_whole_model), named in the question with its prompt, token and switched-off units.
static void quiz_flow_from(const model_session* ms, const lab_state& s, quiz_live_answers* live) {
  lab_state asked;
  if (!ms || !quiz_asks_whole_model(s, &asked) || !model_view_ready(*ms, asked) || ms->reply.flow.empty()) return;
  const model_reply& r = ms->reply;
  const flow_extremes e = flow_find_extremes(r);
  if (e.largest < 0 || e.smallest < 0) return;
  live->flow_ready = true;
  live->flow_prompt = model_prompt_text(r);
  live->flow_token = model_token_text(r.prompt[(size_t)r.position]);
  if (!asked.off.empty()) live->flow_off = rules_off_text(asked);
  live->flow_largest = e.largest, live->flow_largest_ratio = e.largest_ratio;
  live->flow_smallest = e.smallest, live->flow_smallest_ratio = e.smallest_ratio;
}

quiz_live_answers quiz_live_from(const lab_state& s, live_session* ls) {
  quiz_live_answers live;
  if (ls) quiz_flow_from(&ls->model, s, &live);
  if (!ls || !ls->source || ls->source->phase() != SOURCE_READY) return live;
  const live_choice c = live_resolve(s, ls->source.get());
  if (!c.ready) return live;
  for (const gate_row& r : live_gate_rows(ls, s, c)) {
    if (!r.available) continue;
    live.open_layer = r.layer;
    live.open_ready = true;
    live.open_percent = 100.0 * r.counts.open_share();
    break;
  }
  const token_experiments& k = ls->tokens;
  if (k.valid && k.layer == c.layer && k.probe == c.probe && k.token == c.token) {
    live.shuffle_ready = true;
    live.shuffle_max_diff = k.shuffle.max_abs_diff;
    live.change_ready = true;
    for (int t : token_experiments_moved(k)) live.changed.push_back(int64_t(t));
  }
  return live;
}
