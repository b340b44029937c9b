// What the views need of a source's layers, and the resident byte budget (see layer_residency.h).
#include "core/source/layer_residency.h"

#include <algorithm>

void layer_wants::set(const source_model& m, const std::vector<int>& result_layers, int whole_layer) {
  results.clear();
  for (int l : result_layers) {
    const int i = m.find_layer(l);
    if (i >= 0 && std::find(results.begin(), results.end(), i) == results.end()) results.push_back(i);
  }
  whole = whole_layer >= 0 ? m.find_layer(whole_layer) : -1;
}

bool layer_wants::shown(int li) const { return std::find(results.begin(), results.end(), li) != results.end(); }

int layer_wants::priority(int li, int part) const {
  if (li == whole) return 2 + part;
  const auto at = std::find(results.begin(), results.end(), li);
  if (part == MLP_GATE && at != results.end()) return 5 + (int)(at - results.begin());
  return -1;
}

void layer_residency::reset(size_t layer_count, uint64_t budget_bytes) {
  layers.assign(layer_count, layer());
  budget = budget_bytes;
  clock = 0;
}

uint64_t layer_residency::resident() const {
  uint64_t b = 0;
  for (const layer& L : layers)
    for (uint64_t x : L.bytes) b += x;
  return b;
}

bool layer_residency::holds(int li) const {
  const layer& L = layers[li];
  return L.bytes[0] || L.bytes[1] || L.bytes[2];
}

bool layer_residency_make_room(layer_residency* r, int li, uint64_t bytes, const layer_wants& w,
                               const std::function<bool(int)>& busy, const std::function<void(int)>& free) {
  while (r->resident() + bytes > r->budget) {
    int victim = -1;
    for (int l = 0; l < (int)r->layers.size(); l++) {
      if (l == li || l == w.whole || w.shown(l) || !r->holds(l) || busy(l)) continue;
      if (victim < 0 || r->layers[l].last_used < r->layers[victim].last_used) victim = l;
    }
    // Nothing may go: wait while something resident is still coming or wanted. With nothing
    // resident at all it fits (layer_wants_too_large refused what cannot).
    if (victim < 0) return r->resident() == 0;
    free(victim);
    for (uint64_t& x : r->layers[victim].bytes) x = 0;
  }
  return true;
}

std::vector<layer_too_large> layer_wants_too_large(const layer_wants& w, uint64_t budget,
                                                   const std::function<uint64_t(int, int)>& part_bytes) {
  std::vector<layer_too_large> out;
  if (w.whole >= 0) {  // its three matrices at once (the per-token experiments run the whole layer)
    uint64_t all = 0;
    for (int p = 0; p < MLP_PART_COUNT; p++) all += part_bytes(w.whole, p);
    if (all > budget) out.push_back({w.whole, -1, all});
  }
  for (int li : w.results)
    if (li != w.whole && part_bytes(li, MLP_GATE) > budget) out.push_back({li, MLP_GATE, part_bytes(li, MLP_GATE)});
  return out;
}

bool layer_refused(const std::vector<layer_too_large>& refused, int li, int part) {
  for (const layer_too_large& t : refused)
    if (t.layer_index == li && (t.part < 0 || t.part == part)) return true;
  return false;
}

source_failure layer_too_large_failure(const layer_too_large& t, uint64_t budget, const std::string& name,
                                       const std::string& url) {
  return {name, url, stream_error_sizes(STREAM_NO_ROOM, budget, t.bytes)};  // got: the budget, want: the need
}
