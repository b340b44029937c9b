// A converted weight pack as a layer source (layer_source.h; format: docs/pack.md): the manifest,
// then the probes' inputs, the precomputed silu(gate) of the layers shown, the gate matrices of
// those layers, and up and down only for a layer a view needs whole. Scheduling (order, two in
// flight, stalls) is fetch_queue's; this file answers: it checks each answer's bytes against the
// manifest's xxh3 once, converts them, keeps them resident within a byte budget (least recently
// used go first) and stores verified blobs in the cache, never unverified ones.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/pack/pack_format.h"
#include "core/pack/pack_read.h"
#include "core/source/layer_residency.h"
#include "core/source/layer_source.h"
#include "core/stream/fetch_queue.h"

struct pack_source_options {
  double stall_seconds = FETCH_QUEUE_STALL_SECONDS;
  uint64_t resident_bytes = SOURCE_RESIDENT_BYTES;  // layer_residency.h: the same budget as a checkpoint's
};

struct pack_source final : layer_source, fetch_sink {
  pack_source(fetch_client* client, const std::string& base_url, double now, pack_source_options options = {});
  ~pack_source() override;

  // [SECTION] layer_source
  source_phase phase() const override { return phase_; }
  source_kind kind() const override { return SOURCE_PACK; }
  const std::string& location() const override { return base_; }
  const source_model& model() const override { return model_; }
  void want(const std::vector<int>& result_layers, int whole_layer) override;
  void pump(double now) override;
  void cancel() override;
  void retry(double now) override;
  uint64_t generation() const override { return generation_; }
  const std::vector<float>* probe_input(int probe) const override;
  const q8_matrix_view* matrix(int layer, mlp_part part) override;
  const std::vector<float>* precomputed_silu(int probe, int layer) const override;
  bool summary_counts(int layer, mlp_gate_counts* out) const override;
  source_progress progress(int layer) const override;
  std::vector<source_failure> failures() const override;
  std::string storage_notice() const override { return storage_notice_; }
  uint64_t bytes_from_network() const override { return queue_.bytes_network; }
  uint64_t bytes_from_cache() const override { return queue_.bytes_cache; }
  uint64_t resident_bytes() const override;

  // [SECTION] fetch_sink
  void on_fetch_progress(uint32_t id, uint64_t loaded, double now) override;
  void on_fetch_response(uint32_t id, const fetch_response& r, double now) override;
  void on_store_failed(const std::string& why) override { storage_notice_ = why; }

  const pack_manifest& manifest() const { return manifest_; }
  bool manifest_from_cache() const { return manifest_from_cache_; }
  int resident_layers() const;

 private:
  enum item_kind { ITEM_INPUT, ITEM_PRECOMPUTED, ITEM_WEIGHT };
  struct item_info { item_kind kind; int probe, layer_index, part; pack_blob blob; };
  struct resident_layer {
    pack_matrix part[MLP_PART_COUNT];
    bool has[MLP_PART_COUNT] = {false, false, false};
    bool any() const { return has[0] || has[1] || has[2]; }
  };

  void open_manifest(double now);
  void fail_manifest(const stream_error& e);
  void on_manifest(const fetch_response& r);
  void build_items();
  void mark_needs();
  bool make_room(int layer_index, int part);
  bool layer_loading(int layer_index) const;
  uint64_t part_bytes(int layer_index, int part) const { return manifest_.layers[layer_index].part[part].bytes; }
  std::string cache_key(const pack_blob& b) const;

  fetch_client* client_;
  std::string base_;
  pack_source_options options_;
  source_phase phase_ = SOURCE_OPENING;
  fetch_queue manifest_queue_;  // the manifest alone, while opening
  source_failure manifest_failure_;
  bool manifest_from_cache_ = false;
  pack_manifest manifest_;
  source_model model_;
  fetch_queue queue_;
  std::vector<item_info> info_;                              // parallel to queue_.items
  std::vector<resident_layer> layers_;                       // one per manifest layer
  std::vector<std::vector<float>> inputs_;                   // [probe] (T, hidden)
  std::vector<std::vector<std::vector<float>>> precomputed_; // [probe][layer index] (T, inter)
  layer_wants wants_;
  std::vector<layer_too_large> refused_;  // what the wants need that cannot fit the budget
  layer_residency residency_;             // a matrix counts from its request on
  uint64_t generation_ = 1;
  std::string storage_notice_;
};
