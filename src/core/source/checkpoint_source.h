// A Hugging Face checkpoint as the live views' layer source (layer_source.h), read straight from
// its host by byte ranges and converted in the page: no converter run, no pack. Put together from
// the reader's pieces, each with one job:
//   checkpoint_opener (core/checkpoint_remote)  config.json, the index, every shard's header, within
//                                               the page's limits; each shard's identity
//   tensor_fetch      (core/checkpoint_remote)  a tensor's rows by ranges, verified against the
//                                               request and the file's identity, converted a slice
//                                               at a time by the converter below
//   checkpoint_probe                            the probe sentence and its input (the lessons' recipe)
//   layer_wants, layer_residency                what the view needs, the resident byte budget
//                                               (the same code as pack_source's)
// This file is the MLP views' converter and bookkeeping: the embedding rows of the probe's ids
// and layer 0's post_attention_layernorm become f32 (the probe input, bit for bit the converter's),
// each shown layer's gate_proj, and up_proj / down_proj for a layer a view needs whole, become the
// kernels' q8 (byte for byte what `swiglu convert` writes).
//
// Nothing a host claims is allocated before it is checked: the model's dims against the page's
// budget once it is open (a gate matrix and the probe's rows must fit, else it fails at once
// saying how much it needs), each matrix or layer a view wants against the budget before its
// first chunk (STREAM_NO_ROOM, no stall), every allocation checked. A file that changed on the
// host drops what was converted from it, its header is read again, and a notice says so.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/checkpoint_remote/checkpoint_opener.h"
#include "core/checkpoint_remote/tensor_fetch.h"
#include "core/source/checkpoint_probe.h"
#include "core/source/layer_residency.h"
#include "core/source/layer_source.h"

// The fetch's own options (chunk size, conversion budget, clock, stall, one request per file) are
// tensor_fetch's, inherited so that a new one reaches this source without being copied here.
struct checkpoint_source_options : tensor_fetch_options {
  uint64_t resident_bytes = SOURCE_RESIDENT_BYTES;
  uint32_t header_prefetch = CKPT_HEADER_PREFETCH;  // first request of a shard's header
  // A teacher's sentence (the link's ids= and text=). Empty: the synthetic checkpoint's default,
  // or for a real model `lesson_sentence` (the caller's words) through its own tokenizer.json via
  // `tokenizer` (STREAM_NEEDS_IDS when there is none or it cannot be read).
  std::vector<source_probe> probes;
  std::string lesson_sentence;
  tokenizer_service* tokenizer = nullptr;
};

struct checkpoint_source final : layer_source, tensor_converter {
  checkpoint_source(fetch_client* client, const model_location& where, double now, checkpoint_source_options options = {});
  ~checkpoint_source() override;

  // [SECTION] layer_source
  source_phase phase() const override { return phase_; }
  source_kind kind() const override { return SOURCE_CHECKPOINT; }
  const std::string& location() const override { return where_.text; }
  const source_model& model() const override { return model_; }
  void want(const std::vector<int>& result_layers, int whole_layer) override;
  void pump(double now) override;
  void cancel() override;
  void retry(double now) override;
  uint64_t generation() const override { return generation_; }
  const std::vector<float>* probe_input(int probe) const override;
  const q8_matrix_view* matrix(int layer, mlp_part part) override;
  source_progress progress(int layer) const override;
  std::vector<source_failure> failures() const override;
  std::vector<source_failure> notices() const override { return notices_; }
  std::string storage_notice() const override { return fetch_ ? fetch_->storage_notice() : std::string(); }
  uint64_t bytes_from_network() const override;
  uint64_t bytes_from_cache() const override;
  uint64_t resident_bytes() const override;
  double convert_seconds(bool longest) const override { return fetch_ ? fetch_->convert_seconds(longest) : 0; }

  // [SECTION] tensor_converter (tensor_fetch.h)
  bool tensor_chunk_begin(int t, const tensor_chunk& c) override;
  bool tensor_rows_convert(int t, int64_t row, int64_t count, const unsigned char* raw, read_error* why) override;
  std::string tensor_chunk_record(int t, const tensor_chunk& c) override;
  bool tensor_chunk_from_record(int t, const tensor_chunk& c, const void* record, size_t n) override;
  bool tensor_complete(int t) override;

  // For the header, the tests and the benchmark.
  const checkpoint& checkpoint_read() const { return opener_->opened().ck; }  // config, headers, naming (when READY)
  // File bytes of the tensors the current wants need (embedding rows, norm, matrices).
  uint64_t tensor_bytes_wanted() const;
  // Chunks whose bytes are in, waiting for (or in) their conversion; requests in flight.
  int chunks_converting() const { return fetch_ ? fetch_->chunks_converting() : 0; }
  int requests_in_flight() const { return fetch_ ? fetch_->requests_in_flight() : 0; }
  // How often converted data was let go (a layer evicted, a changed file dropped): the only times
  // progress may go back while the wants stay the same (the fuzz target checks it).
  uint64_t data_dropped() const { return dropped_ + (fetch_ ? fetch_->files_changed() : 0); }

 private:
  enum role_kind { ROLE_EMBED, ROLE_NORM, ROLE_MATRIX };
  struct role {
    role_kind kind;
    int layer_index = -1, part = -1;
  };
  struct matrix_state {
    int tensor = -1;  // its tensor_fetch id
    int rows = 0, cols = 0;
    uint64_t bytes = 0;     // its q8 blob, in 64 bits (a claimed 65536 x 65536 is 4 GiB)
    void* blob = nullptr;   // allocated when its first chunk starts, after the budget's checks
    bool complete = false;
    bool no_memory = false;  // the allocation failed: said, never retried behind the user's back
    q8_matrix_view view{};
  };

  bool opener_done(double now);
  void open_step(double now);
  void fail_open(const source_failure& f);
  bool check_model(source_failure* f);
  bool check_fits(source_failure* f);
  bool build_tensors(source_failure* f);
  void mark_needs();
  void follow_changed_files(double now);
  bool make_room(int layer_index, int part);
  void free_matrix(matrix_state* m);
  bool layer_busy(int layer_index) const;
  std::string file_url(const std::string& file) const;

  fetch_client* client_;
  model_location where_;
  checkpoint_source_options options_;
  source_phase phase_ = SOURCE_OPENING;
  source_failure open_failure_;
  source_model model_;
  std::unique_ptr<checkpoint_opener> opener_;
  std::unique_ptr<tensor_fetch> fetch_;  // once open
  bool model_checked_ = false;
  checkpoint_probe probe_;
  std::vector<role> roles_;                 // per tensor_fetch id
  std::vector<std::vector<matrix_state>> layers_;  // [layer index][part]
  layer_wants wants_;                       // as layer indices, once open
  std::vector<int> want_layers_;            // as the view asked (model layer numbers)
  int want_whole_ = -1;
  std::vector<layer_too_large> refused_;    // what the wants need that cannot fit the budget
  layer_residency residency_;
  std::vector<int> rereading_;              // shards whose header is read again
  std::vector<source_failure> notices_;     // files that changed on the host
  std::vector<float> scratch_;
  uint64_t generation_ = 1;
  uint64_t dropped_ = 0;
};
