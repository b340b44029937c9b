// The whole model read where it is published, by byte ranges (issue 23): a Hub-like checkpoint
// (model=) or the page's default whole model beside it. Put together from the reader's pieces:
//   checkpoint_opener  config.json, the index, every shard's header, within the page's limits
//   model_spec         the architecture, refusals by name, the tensor plan checked against the
//                      headers (every language-model tensor, never model.visual.* or mtp.*)
//   model_weights      sized from the config and checked against the memory budget before any
//                      weight byte is asked for; every allocation checked
//   tensor_fetch       each planned tensor's rows, verified, converted into model_weights (this
//                      object is its converter), cached as verified raw records
// It waits before the weights when they are more than `ask_above_bytes` to download: the page
// asks the user with the size named (go()). A cached model downloads nothing and does not ask.
// Pure core: the page runs it in its model worker, the tests and the benchmark in-process.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/checkpoint_remote/checkpoint_opener.h"
#include "core/checkpoint_remote/tensor_fetch.h"
#include "core/model/model_weights.h"

// The worker's heap is at most 2 GiB; the weights and an answer beside them (forward.h's
// model_answer_bytes: the pass's records, scratch and readings) may take this much of it together
// (Qwen3.5-0.8B in BF16: 1436 MiB, and 170 MiB for a 64-token prompt); the rest is the tokenizer
// and the transport.
#define MODEL_MEMORY_BUDGET (1792ull << 20)
// A download larger than this waits for a tap that names its size (issue 23: 50 MB).
#define MODEL_ASK_ABOVE_BYTES (50000000ull)

// The weights of `plan` in `formats`, and the answer on a one-token prompt beside them
// (model_answer_bytes), against `budget`: false with *e (STREAM_NO_ROOM: the weights alone;
// STREAM_UNSUPPORTED: the pass, naming both sizes) when they do not fit. Nothing is allocated.
bool model_memory_check(const model_spec& spec, const std::vector<model_tensor>& plan, model_formats formats,
                        uint64_t budget, stream_error* e, uint64_t* weights_bytes);

enum model_loader_phase {
  MODEL_OPENING,   // config, index, headers
  MODEL_ASKING,    // the weights are sized: waiting for go() (a large download not in the cache)
  MODEL_LOADING,   // the weights are coming
  MODEL_READY,
  MODEL_FAILED,
};

struct model_loader_options {
  uint64_t memory_budget = MODEL_MEMORY_BUDGET;
  uint64_t ask_above_bytes = MODEL_ASK_ABOVE_BYTES;
  model_formats formats;
  checkpoint_opener_options opener;
  tensor_fetch_options fetch;
};

// One file's share of the weights: what the progress lists per file.
struct model_file_progress {
  std::string file;
  uint64_t loaded = 0, total = 0;
  int failed = 0;
};

struct model_loader final : tensor_converter {
  model_loader(fetch_client* client, const model_location& where, double now, model_loader_options options = {});
  ~model_loader() override;

  void pump(double now);
  void go();                 // MODEL_ASKING -> MODEL_LOADING
  void cancel();             // what is in flight stops; retry() resumes with only what is missing
  void retry(double now);    // after a failure: from the start; after cancel: the missing chunks

  model_loader_phase phase() const { return phase_; }
  // The failure (MODEL_FAILED), or a chunk's (while loading: Retry resumes).
  const opener_failure& failure() const { return failure_; }
  std::vector<opener_failure> chunk_failures() const;
  bool paused() const { return fetch_ && fetch_->paused(); }
  const std::string& location() const { return where_.text; }
  const model_spec& spec() const { return weights_.spec; }
  const model_weights& weights() const { return weights_; }  // complete when READY
  // The language model's tensors in the files (what the download costs at most), the part of it
  // already in this browser's cache, and what the weights take in memory.
  uint64_t download_bytes() const { return download_bytes_; }
  uint64_t cached_bytes() const { return cached_bytes_; }
  uint64_t memory_bytes() const { return memory_bytes_; }
  // What the chunks' raw rows hold for their cache records beyond the weights (0 once every
  // converted chunk is recorded).
  uint64_t raw_bytes_held() const;
  std::vector<model_file_progress> progress() const;
  uint64_t bytes_network() const;
  uint64_t bytes_cache() const;
  std::string storage_notice() const { return fetch_ ? fetch_->storage_notice() : std::string(); }
  const checkpoint_opened* opened() const { return opener_ && opener_->state() == OPENER_DONE ? &opener_->opened() : nullptr; }
  double convert_seconds(bool longest) const { return fetch_ ? fetch_->convert_seconds(longest) : 0; }
  bool converting() const { return fetch_ && fetch_->chunks_converting() > 0; }

  // [SECTION] tensor_converter
  bool tensor_chunk_begin(int t, const tensor_chunk& c) override;
  bool tensor_rows_convert(int t, int64_t row, int64_t count, const unsigned char* raw, read_error* why) override;
  std::string tensor_chunk_record(int t, const tensor_chunk& c) override;
  bool tensor_chunk_from_record(int t, const tensor_chunk& c, const void* record, size_t n) override;
  bool tensor_complete(int t) override;

 private:
  void fail(const std::string& file, const stream_error& e);
  bool plan_weights();
  void follow_changed_files(double now);

  fetch_client* client_;
  model_location where_;
  model_loader_options options_;
  model_loader_phase phase_ = MODEL_OPENING;
  opener_failure failure_;
  std::unique_ptr<checkpoint_opener> opener_;
  std::unique_ptr<tensor_fetch> fetch_;
  std::vector<model_tensor> plan_;   // per tensor_fetch id
  std::vector<std::string> raw_;     // per tensor_fetch id, while a chunk converts: its raw bytes for the record
  model_weights weights_;
  uint64_t download_bytes_ = 0, cached_bytes_ = 0, memory_bytes_ = 0;
  std::vector<int> rereading_;       // shards whose header is read again (their file changed)
};
