// What the live views (gate histograms, per token, weights) show, built once from the view
// state and the streamed pack, for the panels and the text mirror alike: which layers, probe,
// permutation and token a link's values resolve to for this pack, the rows of numbers, and the
// per-token experiments (cached: they run the whole layer).
#pragma once

#include <string>
#include <vector>

#include "core/lab_state.h"
#include "core/pack/mlp_experiments.h"
#include "core/stream/pack_stream.h"

#define LIVE_DEFAULT_PACK "packs/default/"  // the embedded default, beside the page
enum { LIVE_MAX_HIST_LAYERS = 6 };          // side by side; more would be unreadable on a phone

// The state's choices made concrete for this pack (a link may name layers it does not have).
struct live_choice {
  bool ready = false;         // the manifest is in
  std::vector<int> layers;    // model layer numbers the histograms show
  int layer = -1;             // the per-token / weights views' layer (model number)
  int probe = 0, tokens = 0;  // probe index and its token count
  std::vector<int> perm;      // a valid permutation of the probe's tokens
  bool perm_from_link = true; // false: the link's perm did not fit this probe
  int token = 0;              // the changed token
  int unit = 0;               // the weights view's unit
};
std::string live_pack_location(const lab_state& s);  // the URL the stream opens
live_choice live_resolve(const lab_state& s, const pack_stream* st);

// One histogram column of the gates view.
struct live_gate_row {
  int layer = 0, layer_index = -1;
  bool available = false, live = false;
  mlp_gate_counts counts;
};
std::vector<live_gate_row> live_gate_rows(const lab_state& s, const pack_stream* st, const live_choice& c);

// The per-token experiments on the current layer, recomputed only when their inputs change.
struct live_perm_cache {
  bool valid = false;
  int layer = -1, probe = -1, token = -1;
  std::vector<int> perm;
  double delta = 0;
  mlp_perm_result perm_result;
  std::vector<double> change;  // max |change| at each position
};
// Updates the cache when the layer is resident whole; returns whether it holds this choice.
bool live_perm_update(live_perm_cache* cache, pack_stream* st, const lab_state& s, const live_choice& c);

// The text mirror of a live view (lab_text.cpp calls this).
std::string live_text(const lab_state& s, const pack_stream* st, const live_perm_cache* perm);
// "32.34 %": shares as the live views print them (two decimals).
std::string live_percent(double share);
// A token's text for chips and the mirror: its piece when the pack has one, else "#id".
std::string live_token_text(const pack_manifest& m, int probe, int token);
// "pack: Qwen/Qwen3.5-0.8B, real weights, hidden 1024, intermediate 3584, layers 0, 11, 23 of 24"
std::string live_pack_info(const pack_stream* st);
// Loading and error lines, as shown under the layer picker.
std::vector<std::string> live_status_lines(const pack_stream* st);
