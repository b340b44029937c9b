// The real model's offer and the cache's words (see model_offer.h).
#include "core/views/model_offer.h"

#include "core/base/number_format.h"
#include "core/base/strings.h"
#include "core/lesson/model_budget.h"

uint64_t checkpoint_view_bytes(int64_t hidden, int64_t intermediate, int gate_layers, int whole_layers, int tokens,
                               int bytes_per_value) {
  const uint64_t h = (uint64_t)hidden, f = (uint64_t)intermediate;
  const uint64_t matrices = (uint64_t)gate_layers + 2ull * (uint64_t)whole_layers;  // up and down beside the gate
  return (uint64_t)bytes_per_value * (matrices * h * f + (uint64_t)tokens * h + h);
}

bool model_offer_shown(const live_session& ls, const lab_state& s) {
  return !s.lock && ls.source && ls.location.rfind("pack ", 0) == 0 && ls.source->phase() == SOURCE_READY &&
         ls.source->model().synthetic;
}

uint64_t model_offer_bytes(const live_session& ls, const live_choice& c) {
  const source_model& m = ls.source->model();
  const bool whole = (ls.needs & (LIVE_TOKEN_EXPERIMENTS | LIVE_UNIT_RULE)) != 0;
  const int gates = (ls.needs & LIVE_GATE_HISTOGRAMS) ? (int)c.layers.size() : whole ? 1 : 0;
  return checkpoint_view_bytes(m.hidden, m.intermediate, gates, whole ? 1 : 0, c.tokens);
}

static std::string mb(uint64_t bytes) { return fmt_mib(bytes); }  // MiB, as the header counts downloads

std::string model_offer_button(uint64_t bytes, bool narrow) {
  return std::string(tr(narrow ? STR_OFFER_SHORT : STR_OFFER_BUTTON)) + " " + strf(tr(STR_OFFER_SIZE), mb(bytes).c_str());
}

std::string model_offer_detail(uint64_t bytes) {
  return strf(tr(STR_OFFER_DETAIL), mb(bytes).c_str(), MODEL_OFFER_LOCATION);
}

uint64_t model_offer_whole_bytes() { return 2 * (uint64_t)model_budget_count(budget_shape_qwen35_08b()).total; }

std::string model_offer_whole_button(bool narrow) {
  return std::string(tr(narrow ? STR_OFFER_SHORT : STR_OFFER_BUTTON)) + " " +
         strf(tr(STR_OFFER_WHOLE_SIZE), fmt_fixed((double)model_offer_whole_bytes() / 1e9, 1).c_str());
}

bool model_offer_whole_shown(const model_session& ms, const lab_state& s) {
  return ms.status.synthetic && model_session_builtin(ms) && !s.lock;
}

void model_offer_apply(lab_state* s) { s->model = MODEL_OFFER_LOCATION; }

std::string cache_clear_button(uint64_t bytes) { return strf(tr(STR_CACHE_CLEAR), mb(bytes).c_str()); }

std::string cache_cleared_text(uint64_t freed) { return strf(tr(STR_CACHE_CLEARED), mb(freed).c_str()); }
