// A Hugging Face checkpoint as the live views' layer source (layer_source.h), read straight from
// its host by byte ranges and converted in the page: no converter run, no pack. Put together from
// the reader's pieces, each with one job:
//   checkpoint_reader (core/checkpoint_remote)  opening, Cancel / Retry, a file that changed on
//                                               the host, the failures by file; over the opener
//                                               (config, index, headers) and tensor_fetch (a
//                                               tensor's rows in ranges, verified, converted a
//                                               slice at a time by the converter below)
//   checkpoint_probe                            the probe sentence and its input (the lessons' recipe)
//   layer_wants, layer_residency                what the view needs, the resident byte budget
//                                               (the same code as pack_source's)
// This file is the MLP views' checks and bookkeeping: what the model must hold, what fits the
// budget, what each view needs; checkpoint_source_convert.cpp is its converter: the embedding rows
// of the probe's ids and layer 0's post_attention_layernorm become f32 (the probe input, bit for
// bit the converter's), each shown layer's gate_proj, and up_proj / down_proj for a layer a view
// needs whole, become the kernels' q8 (byte for byte what `swiglu convert` writes).
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

#include "core/checkpoint_remote/checkpoint_reader.h"
#include "core/source/checkpoint_probe.h"
#include "core/source/layer_residency.h"
#include "core/source/layer_source.h"

// The fetch's own options (chunk and range sizes, requests in flight, conversion budget, clock,
// stall) are tensor_fetch's, inherited so that a new one reaches this source without being copied here.
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

struct checkpoint_source final : layer_source, checkpoint_reader_owner {
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
  std::vector<source_failure> notices() const override;
  std::string storage_notice() const override { return fetch() ? fetch()->storage_notice() : std::string(); }
  uint64_t bytes_from_network() const override;
  uint64_t bytes_from_cache() const override;
  uint64_t resident_bytes() const override;
  double convert_seconds(bool longest) const override { return fetch() ? fetch()->convert_seconds(longest) : 0; }

  // [SECTION] checkpoint_reader_owner (checkpoint_reader.h)
  reader_plan_result reader_plan(const checkpoint_opened& opened, tensor_fetch* fetch, opener_failure* f) override;
  void reader_need(tensor_fetch* fetch) override;
  void reader_drop_shard(int shard) override;
  bool reader_reread(const checkpoint_opened& opened, opener_failure* f) override;
  void reader_reset() override;

  // [SECTION] tensor_converter (tensor_fetch.h), in checkpoint_source_convert.cpp
  bool tensor_chunk_begin(int t, const tensor_chunk& c) override;
  bool tensor_rows_convert(int t, int64_t row, int64_t count, const unsigned char* raw, read_error* why) override;
  std::string tensor_chunk_record(int t, const tensor_chunk& c, const unsigned char* raw) override;
  bool tensor_chunk_from_record(int t, const tensor_chunk& c, const void* record, size_t n) override;
  bool tensor_complete(int t) override;

  // For the header, the tests and the benchmark.
  const checkpoint& checkpoint_read() const { return reader_.opened().ck; }  // config, headers, naming (when READY)
  // File bytes of the tensors the current wants need (embedding rows, norm, matrices).
  uint64_t tensor_bytes_wanted() const;
  // Chunks whose bytes are in, waiting for (or in) their conversion; requests in flight.
  int chunks_converting() const { return fetch() ? fetch()->chunks_converting() : 0; }
  int requests_in_flight() const { return fetch() ? fetch()->requests_in_flight() : 0; }
  // How often converted data was let go (a layer evicted, a changed file dropped): the only times
  // progress may go back while the wants stay the same (the fuzz target checks it).
  uint64_t data_dropped() const { return dropped_; }

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

  tensor_fetch* fetch() const { return reader_.fetch(); }
  bool check_model(const checkpoint& ck, source_failure* f);
  bool check_fits(const checkpoint& ck, source_failure* f);
  bool build_tensors(const checkpoint_opened& opened, tensor_fetch* fetch, source_failure* f);
  bool make_room(int layer_index, int part);
  void free_matrix(matrix_state* m);
  bool layer_busy(int layer_index) const;
  std::string file_url(const std::string& file) const { return model_location_file_url(where_, file); }

  fetch_client* client_;
  model_location where_;
  checkpoint_source_options options_;
  source_phase phase_ = SOURCE_OPENING;
  source_model model_;
  checkpoint_reader reader_;
  bool model_checked_ = false;
  checkpoint_probe probe_;
  std::vector<role> roles_;                 // per tensor_fetch id
  std::vector<std::vector<matrix_state>> layers_;  // [layer index][part]
  layer_wants wants_;                       // as layer indices, once open
  std::vector<int> want_layers_;            // as the view asked (model layer numbers)
  int want_whole_ = -1;
  std::vector<layer_too_large> refused_;    // what the wants need that cannot fit the budget
  layer_residency residency_;
  std::vector<float> scratch_;
  uint64_t generation_ = 1;
  uint64_t dropped_ = 0;
};
