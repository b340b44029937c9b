// The whole model read where it is published, by byte ranges: a Hub-like checkpoint
// (model=) or the page's default whole model beside it. Put together from the reader's pieces:
//   checkpoint_reader  opening (config.json, the index, every shard's header, within the page's
//                      limits), Cancel / Retry, a file that changed on the host, failures by file;
//                      its tensor_fetch brings each planned tensor's rows in ranges, verified
//   model_spec         the architecture, refusals by name, the tensor plan checked against the
//                      headers (every language-model tensor, never model.visual.* or mtp.*)
//   model_weights      sized from the config and checked against the memory budget before any
//                      weight byte is asked for; every allocation checked
// This object is the reader's owner: it plans the weights and converts the rows into them, and
// each chunk's verified raw rows are its cache record.
// It waits before the weights when they are more than `ask_above_bytes` to download: the page
// asks the user with the size named (go()). A cached model downloads nothing and does not ask.
// Pure core: the page runs it in its model worker, the tests and the benchmark in-process.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/checkpoint_remote/checkpoint_reader.h"
#include "core/model/model_weights.h"

// The worker's heap is at most 2 GiB; the weights and an answer beside them (forward.h's
// model_answer_bytes: the pass's records, scratch and readings) may take this much of it together
// (Qwen3.5-0.8B in BF16: 1436 MiB, and 170 MiB for a 64-token prompt); the rest is the tokenizer
// and the transport.
#define MODEL_MEMORY_BUDGET (1792ull << 20)
// A download larger than this waits for a tap that names its size.
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

struct model_loader final : checkpoint_reader_owner {
  model_loader(fetch_client* client, const model_location& where, double now, model_loader_options options = {});
  ~model_loader() override;

  void pump(double now);
  void go();                 // MODEL_ASKING -> MODEL_LOADING
  void cancel();             // what is in flight stops; retry() resumes with only what is missing
  void retry(double now);    // after a failure: from the start; after cancel: the missing chunks

  model_loader_phase phase() const { return phase_; }
  // The failure (MODEL_FAILED), or a chunk's (while loading: Retry resumes).
  const opener_failure& failure() const { return reader_.failure(); }
  std::vector<opener_failure> chunk_failures() const { return reader_.chunk_failures(); }
  // Files replaced on the host while they loaded (STREAM_FILE_CHANGED, each named once): their
  // bytes so far were dropped and they are read again. Kept until the model is opened again.
  const std::vector<opener_failure>& notices() const { return reader_.notices(); }
  bool paused() const { return fetch() && fetch()->paused(); }
  bool moving() const { return fetch() && fetch()->moving(); }
  const std::string& location() const { return where_.text; }
  const model_spec& spec() const { return weights_.spec; }
  const model_weights& weights() const { return weights_; }  // complete when READY
  // The language model's tensors in the files (what the download costs at most), the part of it
  // already in this browser's cache, and what the weights take in memory.
  uint64_t download_bytes() const { return download_bytes_; }
  uint64_t cached_bytes() const { return cached_bytes_; }
  uint64_t memory_bytes() const { return memory_bytes_; }
  // Raw bytes of the weights held beside them: answers waiting for their conversion (0 once
  // every chunk is in).
  uint64_t raw_bytes_held() const { return fetch() ? fetch()->raw_bytes_waiting() : 0; }
  std::vector<model_file_progress> progress() const;
  uint64_t bytes_network() const { return reader_.bytes_network(); }
  uint64_t bytes_cache() const { return reader_.bytes_cache(); }
  std::string storage_notice() const { return fetch() ? fetch()->storage_notice() : std::string(); }
  const checkpoint_opened* opened() const { return reader_.open() ? &reader_.opened() : nullptr; }
  double convert_seconds(bool longest) const { return fetch() ? fetch()->convert_seconds(longest) : 0; }
  bool converting() const { return fetch() && fetch()->chunks_converting() > 0; }
  int requests_in_flight() const { return fetch() ? fetch()->requests_in_flight() : 0; }

  // [SECTION] checkpoint_reader_owner
  reader_plan_result reader_plan(const checkpoint_opened& opened, tensor_fetch* fetch, opener_failure* f) override;
  void reader_need(tensor_fetch* fetch) override;
  void reader_drop_shard(int) override {}  // the new file's rows overwrite the old before the model is ready
  bool reader_reread(const checkpoint_opened&, opener_failure*) override { return true; }  // (replanning checks the shapes)
  void reader_reset() override;
  bool tensor_chunk_begin(int, const tensor_chunk&) override { return true; }  // the weights were allocated whole when sized
  bool tensor_rows_convert(int t, int64_t row, int64_t count, const unsigned char* raw, read_error* why) override;
  std::string tensor_chunk_record(int t, const tensor_chunk& c, const unsigned char* raw) override;
  bool tensor_chunk_from_record(int t, const tensor_chunk& c, const void* record, size_t n) override;
  void* tensor_chunk_into(int t, const tensor_chunk& c, size_t* n) override;
  bool tensor_chunk_in_place(int t, const tensor_chunk& c, const void* rest, size_t n) override;
  bool tensor_complete(int) override { return true; }

 private:
  tensor_fetch* fetch() const { return reader_.fetch(); }
  bool plan_weights(const checkpoint_opened& opened, tensor_fetch* fetch, opener_failure* f);

  model_location where_;
  model_loader_options options_;
  model_loader_phase phase_ = MODEL_OPENING;
  checkpoint_reader reader_;
  std::vector<model_tensor> plan_;   // per tensor_fetch id
  model_weights weights_;
  uint64_t download_bytes_ = 0, cached_bytes_ = 0, memory_bytes_ = 0;
};
