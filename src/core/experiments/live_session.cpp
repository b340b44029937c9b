// The live views' frame (see live_session.h).
#include "core/experiments/live_session.h"

#include <algorithm>

#include "core/source/source_choice.h"
#include "core/views/gates_text.h"
#include "core/base/number_format.h"

// model= (a checkpoint read by byte ranges) wins over pack=; the key also changes with ids=.
std::string live_location(const lab_state& s) { return source_choice_for(s, LIVE_DEFAULT_PACK).key; }

static std::string list_text(const std::vector<int64_t>& v) {
  std::string out;
  for (int64_t i : v) out += (out.empty() ? "" : ",") + std::to_string(i);
  return out;
}

live_choice live_resolve(const lab_state& s, const layer_source* src) {
  live_choice c;
  // The link's ids= this model cannot read (said as soon as the source knows, ready or not).
  if (src && !s.ids.empty() && src->model().refused_id >= 0)
    c.fallbacks.push_back({"ids", std::to_string(src->model().refused_id), std::to_string(src->model().vocab - 1)});
  if (!src || src->phase() != SOURCE_READY) return c;
  const source_model& m = src->model();
  if (m.layers.empty() || m.probes.empty()) return c;
  c.ready = true;
  bool dropped = false;
  c.layers = gates_shown_layers(s.pack_layers, m.layers, LIVE_MAX_HIST_LAYERS, &dropped);
  if (dropped) {
    std::vector<int64_t> shown(c.layers.begin(), c.layers.end());
    c.fallbacks.push_back({"pl", list_text(s.pack_layers), list_text(shown)});
  }
  const bool layer_ok = s.layer >= 0 && s.layer <= INT32_MAX && m.find_layer((int)s.layer) >= 0;
  c.layer = layer_ok ? (int)s.layer : c.layers[0];
  if (s.layer >= 0 && !layer_ok) c.fallbacks.push_back({"layer", std::to_string(s.layer), std::to_string(c.layer)});
  const bool probe_ok = s.probe >= 0 && s.probe < (int64_t)m.probes.size();
  c.probe = probe_ok ? (int)s.probe : 0;
  if (!probe_ok) c.fallbacks.push_back({"probe", std::to_string(s.probe), "0"});
  c.tokens = (int)m.probes[c.probe].tokens.size();
  c.perm = mlp_default_perm(c.tokens);
  if (!s.perm.empty()) {
    std::vector<int> p(s.perm.begin(), s.perm.end());
    std::vector<int> sorted = p;
    std::sort(sorted.begin(), sorted.end());
    bool ok = (int)p.size() == c.tokens;
    for (int i = 0; ok && i < c.tokens; i++) ok = sorted[i] == i;
    if (ok) {
      c.perm = p;
    } else {
      std::vector<int64_t> shown(c.perm.begin(), c.perm.end());
      c.fallbacks.push_back({"perm", list_text(s.perm), list_text(shown)});
    }
  }
  const int64_t token = lab_changed_token(s);
  c.token = (int)std::min<int64_t>(std::max<int64_t>(token, 0), c.tokens - 1);
  if (c.token != token) c.fallbacks.push_back({"tok", std::to_string(s.token), std::to_string(c.token)});
  c.hist_token = s.hist_token >= 0 && s.hist_token < c.tokens ? (int)s.hist_token : -1;
  if (c.hist_token != s.hist_token && s.hist_token >= 0) c.fallbacks.push_back({"htok", std::to_string(s.hist_token), "-1"});
  c.unit = (int)std::min<int64_t>(std::max<int64_t>(s.unit, 0), m.intermediate - 1);
  if (c.unit != s.unit) c.fallbacks.push_back({"unit", std::to_string(s.unit), std::to_string(c.unit)});
  return c;
}

void live_session_close(live_session* ls) {
  ls->source.reset();
  ls->location.clear();
  ls->gates = gate_activity();
  ls->tokens = token_experiments();
  ls->unit = unit_weights();
  ls->fonts_asked = false;
  ls->cache_note.clear();
  ls->shown_loaded = ls->shown_fetched = progress_pace();
}

live_choice live_session_frame(live_session* ls, const lab_state& s, int needs, fetch_client* client, double now,
                               double stall_seconds) {
  const std::string location = live_location(s);
  if (!ls->source || ls->location != location) {
    live_session_close(ls);
    ls->location = location;
    ls->source.reset(source_choice_open(source_choice_for(s, LIVE_DEFAULT_PACK), client, now, stall_seconds, ls->tokenizer));
  }
  ls->needs = needs;
  layer_source* src = ls->source.get();
  live_choice c = live_resolve(s, src);
  if (c.ready) {
    // Results first, so that what arrived since the last frame is used before anything is evicted.
    std::vector<int> gate_layers;
    if (needs & LIVE_GATE_HISTOGRAMS) gate_layers = c.layers;
    if ((needs & LIVE_UNIT_RULE) && std::find(gate_layers.begin(), gate_layers.end(), c.layer) == gate_layers.end())
      gate_layers.push_back(c.layer);
    const std::vector<int> missing = gate_activity_update(&ls->gates, src, gate_layers);
    const bool whole = needs & (LIVE_TOKEN_EXPERIMENTS | LIVE_UNIT_RULE);
    src->want(missing, whole ? c.layer : -1);
    if (needs & LIVE_TOKEN_EXPERIMENTS) token_experiments_update(&ls->tokens, src, c.layer, c.probe, c.perm, c.token, s.delta);
    if (needs & LIVE_UNIT_RULE) unit_weights_update(&ls->unit, src, c.layer, c.unit);
  }
  src->pump(now);
  // The end of the loading, or a stop, shows at once.
  const source_progress p = src->progress(-1);
  const bool moving = source_progress_moving(p);
  ls->shown_loaded.take(p.loaded, now, !moving);
  ls->shown_fetched.take(src->bytes_from_network(), now, !moving);
  return c;
}

void live_apply_fallbacks(lab_state* s, const live_choice& c) {
  for (const live_fallback& f : c.fallbacks) {
    const std::string key = f.key;
    if (key == "pl") s->pack_layers.assign(c.layers.begin(), c.layers.end());
    if (key == "layer") s->layer = c.layer;
    if (key == "probe") s->probe = c.probe;
    if (key == "perm") s->perm.clear();  // empty: the lesson's order, which is what is shown
    if (key == "tok") s->token = c.token;
    if (key == "htok") s->hist_token = -1;
    if (key == "unit") s->unit = c.unit;
    if (key == "ids") s->ids.clear(), s->text.clear(), s->pieces.clear();  // the lesson's sentence, as shown
  }
}

void live_use_builtin(lab_state* s) {
  s->model.clear();
  s->pack.clear();
  s->ids.clear();
  s->text.clear();
  s->pieces.clear();
}

bool live_source_failed(const live_session& ls, const lab_state& s) {
  return ls.source && ls.location == live_location(s) && ls.source->phase() == SOURCE_FAILED;
}

bool live_fit_sentence(lab_state* s, int tokens) {
  s->perm.clear();
  s->hist_token = -1;
  if (tokens < 1 || lab_changed_token(*s) < tokens) return false;
  s->token = tokens - 1;
  return true;
}
