// What the live views need of a source's layers, and which matrices stay in memory: one piece of
// code for pack_source and checkpoint_source, so both order their requests and keep their byte
// budget the same way.
//   layer_wants      the layers whose gate results a view shows (their gates) and one layer it
//                    needs whole (gate, up and down), as indices into source_model::layers, and
//                    how soon each matrix is needed.
//   layer_residency  the bytes each layer's matrices hold and a use clock: room within the budget,
//                    least recently used out, never what the wants need or what is still coming.
// What the wants need at once must fit the budget at all (a matrix alone, a layer wanted whole
// with its three): otherwise it is refused before anything is allocated, with the bytes it needs
// (STREAM_NO_ROOM), instead of loading past the budget and stalling.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/link/mlp_part.h"
#include "core/source/layer_source.h"

// The live views' weights in memory at once, whichever source: three Qwen3.5-0.8B layers whole
// (3 x 3 x 3.5 MiB) or one Llama-3-8B matrix (59 MB of int8), within a phone's heap.
#define SOURCE_RESIDENT_BYTES (64ull << 20)

// Request priorities (lower is sooner): the probes' inputs, a pack's precomputed results, then
// the matrices (layer_wants::priority).
enum { LAYER_PRIORITY_INPUTS = 0, LAYER_PRIORITY_PRECOMPUTED = 1 };

struct layer_wants {
  std::vector<int> results;  // layer indices whose gate results are shown, in the view's order
  int whole = -1;            // the layer index needed whole, or -1
  // From model layer numbers (those the model lacks are ignored, repeats once).
  void set(const source_model& m, const std::vector<int>& result_layers, int whole_layer);
  bool shown(int li) const;
  // How soon matrix (li, part) is needed: the whole layer's gate, up, down (2, 3, 4), then the
  // gates shown in order (5, 6, ...): the first layer shown completes first at full bandwidth.
  // -1: not needed.
  int priority(int li, int part) const;
};

struct layer_residency {
  uint64_t budget = SOURCE_RESIDENT_BYTES;
  struct layer {
    uint64_t bytes[MLP_PART_COUNT] = {0, 0, 0};  // resident, or reserved for what is coming
    uint64_t last_used = 0;
  };
  std::vector<layer> layers;
  uint64_t clock = 0;

  void reset(size_t layer_count, uint64_t budget_bytes);
  uint64_t resident() const;
  bool holds(int li) const;
  void touch(int li) { layers[li].last_used = ++clock; }
};

// Room for `bytes` more in layer li: frees least recently used layers (free(l) drops them and
// zeroes their bytes) that the wants do not need and that are not busy (something of them in
// flight), until the bytes fit. False: not yet (the request waits for what is coming to land).
bool layer_residency_make_room(layer_residency* r, int li, uint64_t bytes, const layer_wants& w,
                               const std::function<bool(int)>& busy, const std::function<void(int)>& free);

// A matrix (or a layer wanted whole) the wants need that cannot fit the budget at all.
struct layer_too_large {
  int layer_index = -1;
  int part = -1;        // -1: the layer whole
  uint64_t bytes = 0;   // what it needs at once
};
// Every such matrix or layer, given each matrix's size (part_bytes(li, part)).
std::vector<layer_too_large> layer_wants_too_large(const layer_wants& w, uint64_t budget,
                                                   const std::function<uint64_t(int, int)>& part_bytes);
// Whether (li, part) is refused by that list (the layer whole refuses all three of its matrices).
bool layer_refused(const std::vector<layer_too_large>& refused, int li, int part);
// The failure a refused matrix or layer shows: its name, and the bytes against the budget.
source_failure layer_too_large_failure(const layer_too_large& t, uint64_t budget, const std::string& name,
                                       const std::string& url);
