// A Hugging Face checkpoint as a layer source (layer_source.h), read straight from its host by
// byte ranges and converted in the page: no converter run, no pack.
//
// Opening: config.json and model.safetensors.index.json (a 404 there means one file,
// model.safetensors), then each shard's header: its first 64 KiB (the 8-byte length and, for
// most checkpoints, the whole JSON header), then the rest when the header is longer (over
// 100 MB is refused). The same core code as the converter reads them (checkpoint.h: naming,
// decoys, norm rule). Then only these ranges: the embedding rows of the probe's token ids and
// layer 0's post_attention_layernorm (the probe input, computed as the converter computes it),
// each shown layer's gate_proj, and up_proj / down_proj only for a layer a view needs whole.
// Matrices come in chunks of rows (CKPT_CHUNK_BYTES of the file each), so memory stays bounded,
// progress moves and Cancel / Retry resumes at the chunk. An answer only verifies and keeps the
// chunk's bytes; pump converts them to q8 a slice of rows at a time (CKPT_SLICE_ELEMENTS) within
// a time budget, so no answer or frame holds the page's thread for a whole chunk. At most
// max_in_flight chunks wait for conversion: new requests wait for them (bounded memory). One range
// of a file is in flight at a time (two files: two): Chromium's HTTP cache, given two ranges of
// one URL at once, sometimes had the host send one of them twice.
//
// Verification: every range is checked against the request (start, length), the file's size
// and ETag against those its header came with (a file changed on the host fails as
// STREAM_CHECKSUM), values must be finite. Converted chunks go to the verified cache keyed by
// URL + ETag (or size) + tensor + rows, with an XXH3 of their own; a cached copy that fails it
// is fetched again. A host that ignores Range is stopped after one chunk's worth (STREAM_NO_RANGE).
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/checkpoint/checkpoint.h"
#include "core/checkpoint_remote/model_location.h"
#include "core/checkpoint_remote/sentence_tokenizer.h"
#include "core/checkpoint_remote/tensor_chunks.h"
#include "core/source/layer_source.h"
#include "core/stream/fetch_queue.h"

// Weights resident at once. 64 MiB holds three Qwen3.5-0.8B layers whole or one Llama-3-8B
// matrix (59 MB of int8), within a phone's heap.
#define CHECKPOINT_SOURCE_RESIDENT_BYTES (64ull << 20)
#define CKPT_HEADER_PREFETCH (64u << 10)
// Conversion per pump: slices until this much time has gone (then the slice in hand finishes).
#define CKPT_CONVERT_BUDGET_SECONDS 0.008

// A monotonic clock in seconds (std::chrono::steady_clock: performance.now() in the page).
double checkpoint_clock_seconds();

struct checkpoint_source_options {
  double stall_seconds = FETCH_QUEUE_STALL_SECONDS;
  uint64_t resident_bytes = CHECKPOINT_SOURCE_RESIDENT_BYTES;
  uint64_t chunk_bytes = CKPT_CHUNK_BYTES;
  uint32_t header_prefetch = CKPT_HEADER_PREFETCH;  // first request of a shard's header
  uint64_t slice_elements = CKPT_SLICE_ELEMENTS;     // values converted per slice
  double convert_budget_seconds = CKPT_CONVERT_BUDGET_SECONDS;
  double (*clock)() = checkpoint_clock_seconds;     // for the budget; null: one slice per pump
  // One range of a file in flight at a time (fetch_queue::one_per_url): Chromium's HTTP cache sent
  // a range twice when two of one file were in flight (the browser tests, under load).
  bool one_request_per_file = true;
  // A teacher's sentence (the link's ids= and text=). Empty: the lesson's sentence, which this
  // page knows as ids only for the synthetic checkpoint; a real model's comes from its own
  // tokenizer.json through `tokenizer` (STREAM_NEEDS_IDS when there is none or it cannot be read).
  std::vector<source_probe> probes;
  tokenizer_service* tokenizer = nullptr;
};

// The probe a synthetic checkpoint gets by default: the default pack's (ids 1..6).
source_probe checkpoint_default_synthetic_probe();

struct checkpoint_source final : layer_source, fetch_sink {
  checkpoint_source(fetch_client* client, const model_location& where, double now, checkpoint_source_options options = {});
  ~checkpoint_source() override;

  // [SECTION] layer_source
  source_phase phase() const override { return phase_; }
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
  std::string storage_notice() const override { return storage_notice_; }
  uint64_t bytes_from_network() const override { return queue_.bytes_network; }
  uint64_t bytes_from_cache() const override { return queue_.bytes_cache; }
  uint64_t resident_bytes() const override;
  double convert_seconds(bool longest) const override { return longest ? convert_max_seconds_ : convert_seconds_; }

  // [SECTION] fetch_sink
  void on_fetch_progress(uint32_t id, uint64_t loaded, double now) override;
  void on_fetch_response(uint32_t id, const fetch_response& r, double now) override;
  void on_store_failed(const std::string& why) override { storage_notice_ = why; }

  // For the header, the tests and the benchmark.
  const checkpoint& checkpoint_read() const { return ck_; }  // config, headers, naming (when READY)
  // File bytes of the tensors the current wants need (embedding rows, norm, matrices).
  uint64_t tensor_bytes_wanted() const;
  // Chunks whose bytes are in, waiting for (or in) their conversion.
  int chunks_converting() const { return (int)jobs_.size(); }

 private:
  enum item_kind { ITEM_CONFIG, ITEM_INDEX, ITEM_HEAD, ITEM_HEAD_REST, ITEM_BIN, ITEM_EMBED, ITEM_NORM, ITEM_CHUNK };
  struct item_info {
    item_kind kind;
    int shard = -1;        // ITEM_HEAD*, and the shard a tensor range is in
    int64_t token = -1;    // ITEM_EMBED: the first of `count` consecutive token ids (one range)
    int count = 0;
    int layer_index = -1, part = -1, chunk = -1;  // ITEM_CHUNK
  };
  struct shard_state {
    std::string file, url, etag;
    uint64_t size = 0;
    std::string head;   // the file's first bytes: 8-byte length + JSON header, once complete
    bool parsed = false;
  };
  struct matrix_state {
    std::string tensor;
    int shard = -1, rows = 0, cols = 0;
    st_dtype dtype = ST_DTYPE_UNKNOWN;
    std::vector<tensor_chunk> chunks;
    std::vector<bool> chunk_done;
    int done = 0;
    void* blob = nullptr;  // q8 blob being filled (allocated when its first chunk starts)
    size_t bytes = 0;      // its size
    bool complete = false;
    q8_matrix_view view{};
  };
  // A chunk's verified bytes, converted a slice at a time by pump.
  struct convert_job {
    int item = -1;    // its queue_.items index
    std::string raw;  // the chunk's file bytes
    int next = 0;     // rows converted so far
  };
  struct layer_state {
    int layer = -1;
    matrix_state part[MLP_PART_COUNT];
    uint64_t last_used = 0;
  };

  void open(double now);
  int add_item(item_kind kind, const std::string& url, uint64_t begin, uint64_t length, const std::string& cache_key,
               bool cache_first, item_info info);
  void fail_open(const std::string& file, const std::string& url, const stream_error& e);
  void on_config(const fetch_response& r, fetch_item* it);
  void on_index(const fetch_response& r, fetch_item* it);
  void on_head(const fetch_response& r, fetch_item* it, const item_info& in);
  void on_bin(const fetch_response& r);
  void add_shard(const std::string& file);
  bool parse_shard_head(int shard, stream_error* e);
  void maybe_finish_open();
  bool check_model(stream_error* e, std::string* file);
  bool lesson_probe(stream_error* e);
  void build_items();
  void compute_inputs();
  bool on_tensor_answer(fetch_item* it, const item_info& in, const fetch_response& r, stream_error* e);
  void mark_needs();
  bool make_room(int layer_index, int part);
  void free_matrix(matrix_state* m);
  bool layer_loading(int layer_index) const;
  bool converting(int item) const;
  void convert_some();
  bool finish_chunk(const item_info& in);  // false: the finished matrix is not valid q8
  std::string tensor_key(int shard, const std::string& what) const;
  const unsigned char* range_bytes(const fetch_item& it, const fetch_response& r, stream_error* e) const;

  fetch_client* client_;
  model_location where_;
  checkpoint_source_options options_;
  source_phase phase_ = SOURCE_OPENING;
  source_failure open_failure_;
  source_model model_;
  fetch_queue queue_;
  std::vector<item_info> info_;  // parallel to queue_.items
  // [SECTION] what opening has learnt
  bool config_done_ = false, index_done_ = false;
  bool single_file_ = false;  // no index: one model.safetensors
  bool model_checked_ = false;  // ckpt_finish and check_model passed (then maybe the tokenizer's wait)
  std::string config_text_;
  std::map<std::string, std::string> weight_map_;
  std::vector<shard_state> shards_;
  checkpoint ck_;
  // [SECTION] what the lesson gets
  std::vector<source_probe> probes_;
  std::unique_ptr<sentence_tokenizer> sentence_;      // the lesson's sentence, when no ids= came
  std::map<int64_t, std::vector<float>> embed_rows_;  // token id -> (hidden) f32
  std::vector<float> norm_;                           // layer 0's post_attention_layernorm
  std::vector<std::vector<float>> inputs_;            // [probe] (T, hidden)
  std::vector<layer_state> layers_;                   // one per model_.layers
  std::vector<int> want_results_;                     // layer indices
  int want_whole_ = -1;
  uint64_t use_clock_ = 0, generation_ = 1;
  std::vector<float> scratch_;
  std::deque<convert_job> jobs_;  // in arrival order
  double convert_seconds_ = 0, convert_max_seconds_ = 0;
  std::string storage_notice_;
};
