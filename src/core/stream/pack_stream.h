// Streaming a weight pack into the page, layer by layer, through the fetch seam (fetch_seam.h).
// Pure core: no Emscripten, no clock of its own (callers pass `now` in seconds), so the whole
// state machine runs natively in the tests against a twin that injects every failure.
//
// Order: manifest.json; the probes' inputs; the precomputed silu(gate) of the wanted layers (the
// histograms show at once, marked "precomputed"); the gate matrices of the wanted layers (each
// recomputed live as it arrives); the up and down matrices only for a layer a view needs whole.
// At most PACK_STREAM_MAX_IN_FLIGHT requests at a time and PACK_STREAM_MAX_RESIDENT layers of
// weights in memory (least recently used go first; their live results stay). Every blob is
// verified against its xxh3 before use; verified blobs go to the cache keyed by pack and
// checksum, unverified ones never do. A failure is kept per file with a message naming it, and
// pack_stream_retry starts the failed ones again; everything already verified stays usable.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/pack/mlp_experiments.h"
#include "core/pack/pack_format.h"
#include "core/pack/pack_read.h"
#include "core/stream/fetch_seam.h"

enum { PACK_STREAM_MAX_IN_FLIGHT = 2, PACK_STREAM_MAX_RESIDENT = 4 };
#define PACK_STREAM_STALL_SECONDS 20.0  // no byte for this long: the request is given up

enum pack_item_kind { PACK_ITEM_INPUT, PACK_ITEM_PRECOMPUTED, PACK_ITEM_WEIGHT };
enum pack_item_state { PACK_ITEM_IDLE, PACK_ITEM_LOADING, PACK_ITEM_DONE, PACK_ITEM_FAILED };

struct pack_item {
  pack_item_kind kind = PACK_ITEM_INPUT;
  int probe = -1, layer = -1, part = -1;  // layer: index into manifest.layers
  pack_blob blob;
  pack_item_state state = PACK_ITEM_IDLE;
  uint32_t request = 0;
  uint64_t loaded = 0;
  double last_progress = 0;
  bool bypass_cache = false;  // the cached copy failed its checksum: ask the network
  std::string error;
};

struct pack_stream_layer {
  pack_layer_data weights;  // the resident matrices, if any
  uint64_t last_used = 0;
  bool live = false;                      // silu computed from this pack's int8 gate
  std::vector<std::vector<float>> silu;   // [probe] (T, inter), kept after the weights go
};

enum pack_stream_phase { PACK_STREAM_EMPTY, PACK_STREAM_MANIFEST, PACK_STREAM_READY, PACK_STREAM_FAILED };

struct pack_stream {
  fetch_client* client = nullptr;
  std::string base;  // the pack directory's URL, ending in '/'
  pack_stream_phase phase = PACK_STREAM_EMPTY;
  uint32_t manifest_request = 0;
  double manifest_progress_at = 0;
  std::string manifest_error;
  bool manifest_from_cache = false;
  pack_manifest manifest;
  std::vector<pack_item> items;
  std::vector<pack_stream_layer> layers;                     // one per manifest layer
  std::vector<std::vector<float>> inputs;                    // [probe] (T, hidden)
  std::vector<std::vector<std::vector<float>>> precomputed;  // [probe][layer] (T, inter)
  std::vector<int> want_results;  // layer indices whose gate results the view shows
  int want_whole = -1;            // layer index the view needs whole (gate, up, down), or -1
  bool paused = false;            // after cancel, until retry
  uint32_t next_request = 1;
  uint64_t use_clock = 0;
  uint64_t bytes_network = 0, bytes_cache = 0;  // bodies received, for the benchmark
  std::string storage_notice;  // the cache refused a blob ("quota", or why not): works, but not offline
};

// Starts over with the pack at base_url ("packs/default/" or "https://host/pack").
void pack_stream_open(pack_stream* s, fetch_client* client, const std::string& base_url, double now);
// What the current view needs, as model layer numbers (layers not in the pack are ignored).
void pack_stream_want(pack_stream* s, const std::vector<int>& result_layers, int whole_layer);
// Starts what is needed next, gives up stalled requests, computes results whose inputs are in.
void pack_stream_pump(pack_stream* s, double now);
void pack_stream_on_progress(pack_stream* s, uint32_t request, uint64_t loaded, double now);
void pack_stream_on_response(pack_stream* s, uint32_t request, const fetch_response& r, double now);
void pack_stream_on_store_failed(pack_stream* s, const std::string& why);
void pack_stream_cancel(pack_stream* s);
void pack_stream_retry(pack_stream* s, double now);

// [SECTION] queries for the views, the mirror and the tests
int pack_stream_layer_index(const pack_stream* s, int model_layer);  // -1 if not in the pack
struct pack_stream_progress { uint64_t loaded = 0, total = 0; int failed = 0, loading = 0; };
// What the current wants need: per layer (layer index) or everything (-1), bytes known up front.
pack_stream_progress pack_stream_progress_of(const pack_stream* s, int layer_index);
// Counts of silu(gate) for a layer: live when computed, else precomputed (*live says which):
// from the precomputed blobs, or straight from the manifest (threshold 0.1, all tokens) before
// those arrive. token -1: all probes' tokens, else that token of `probe`. False when none is in.
bool pack_stream_gate_counts(const pack_stream* s, int layer_index, double thr, int probe, int token, mlp_gate_counts* out,
                             bool* live);
// The whole layer's matrices when all three are resident (and marks it used), else null.
const pack_layer_data* pack_stream_whole_layer(pack_stream* s, int layer_index);
int pack_stream_resident_layers(const pack_stream* s);
uint64_t pack_stream_resident_bytes(const pack_stream* s);
// "file: message" for each failed request (and the manifest's).
std::vector<std::string> pack_stream_errors(const pack_stream* s);
std::string pack_stream_cache_key(const pack_stream* s, const pack_blob& b);
