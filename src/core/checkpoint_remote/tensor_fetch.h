// Fetching an opened checkpoint's tensors by byte ranges, a chunk of rows at a time, and handing
// the verified bytes to a converter the caller supplies: the MLP views' source makes q8 matrices
// of them (core/source/checkpoint_source.h), the whole model's loader makes its own rows.
//
// A tensor is planned as chunks of at most chunk_bytes of the file, in whole rows (q8 panels: a
// multiple of 4 but the last), so Cancel / Retry resume at the chunk and the cache keeps a record
// per chunk. Requests are not per chunk: neighbouring chunks of one file that are wanted now go
// into one range of up to range_bytes (chunk_ranges.h: the norms and biases between two matrices
// ride along; a small gap of bytes nobody asked for is read through, a tensor nobody planned never),
// at most max_in_flight requests at once, several to one file (the page's range requests go past
// the browser's HTTP cache, which raced itself on two ranges of one URL). A small file most of
// which is wanted goes whole, without Range, so that a host may send it compressed. A chunk whose
// record the verified cache holds is read from there alone, never from the network.
//
// Each chunk's slice of an answer is checked on its own against the request and its file's
// identity (range_check.h), so a body cut short still gives the chunks that came whole, and a chunk
// that cannot be used (a NaN) fails alone while its neighbours are converted. pump hands the raw
// rows to the converter a slice at a time (slice_elements values) until its time budget is spent,
// so neither an answer nor a frame holds the thread for a whole chunk. Raw bytes in flight and
// waiting for conversion stay within raw_budget: new requests wait for them. Stalls (by rate) and a
// 429's Retry-After (once) are fetch_queue's rules, applied to each request.
//
// A chunk converted whole goes to the verified cache as the converter's record, keyed by the
// file's identity (URL and ETag, or size), the tensor, the form and the rows; a cached record
// comes back to the converter instead of the network (a reload converts nothing).
//
// A file changed on the host (its ETag or size is not its header's): every chunk of it stops and
// is forgotten, and changed_shards() names it. The caller drops what it made of that file, has
// its header read again (checkpoint_opener::reread_shard) and calls replan_shard with the new
// header; nothing of the old file and the new is ever mixed in one tensor.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "core/checkpoint_remote/checkpoint_opener.h"
#include "core/checkpoint_remote/chunk_ranges.h"
#include "core/checkpoint_remote/range_check.h"
#include "core/checkpoint_remote/tensor_chunks.h"
#include "core/stream/fetch_queue.h"

// A monotonic clock in seconds (std::chrono::steady_clock: performance.now() in the page).
double tensor_fetch_clock();

// Requests at once: with a 100 ms round trip, 4 ranges of 4 MiB keep a 100 MB/s link busy.
#define CKPT_RANGES_IN_FLIGHT 4
// Cached records read at once, beside them: each read waits for the storage to open its file (a
// few ms in OPFS), so a warm start of a thousand records keeps several waiting to fill that time.
#define CKPT_CACHE_READS_IN_FLIGHT 16
// A file no larger than this, most of which is wanted now, is asked for whole (no Range), so a host
// may send it compressed: the built-in model's 2.4 MB shard goes as 1.7 MB of brotli.
#define CKPT_WHOLE_FILE_BYTES (4ull << 20)
// Raw bytes in flight and waiting for their conversion: what the thread's heap holds of them at
// once (plus the answer being copied in), as two 2 MiB chunks each way did before ranges.
#define CKPT_RAW_BUDGET (8ull << 20)

struct tensor_fetch_options {
  uint64_t chunk_bytes = CKPT_CHUNK_BYTES;
  uint64_t range_bytes = CKPT_RANGE_BYTES;        // the most one request asks for (at least a chunk)
  uint64_t gap_bytes = CKPT_RANGE_GAP_BYTES;      // bytes nobody asked for a range may read through
  uint64_t whole_file_bytes = CKPT_WHOLE_FILE_BYTES;  // a file this small (and within a range) may go whole (0: never)
  int max_in_flight = CKPT_RANGES_IN_FLIGHT;
  int max_cache_reads = CKPT_CACHE_READS_IN_FLIGHT;
  uint64_t raw_budget = CKPT_RAW_BUDGET;
  uint64_t slice_elements = CKPT_SLICE_ELEMENTS;  // values per conversion slice
  double convert_budget_seconds = 0.008;          // conversion per pump: slices until this much time has gone
  double (*clock)() = tensor_fetch_clock;         // null: one slice per pump (tests: the same steps everywhere)
  double stall_seconds = FETCH_QUEUE_STALL_SECONDS;
};

// Which rows of which tensor, and what the converter makes of them (part of the cache key).
struct tensor_rows {
  std::string name;
  std::string form = "raw";     // "q8", "f32": records of another form are never taken for these
  int64_t row0 = 0, rows = -1;  // the rows wanted; -1: to the end. A 1-D tensor is one row.
};

// A planned tensor: where its rows are and in which chunks.
struct tensor_plan {
  tensor_rows what;
  int shard = -1;
  st_dtype dtype = ST_DTYPE_UNKNOWN;
  int64_t rows_total = 0, cols = 0;  // the whole tensor's shape as rows of cols (1-D: one row)
  std::vector<tensor_chunk> chunks;   // row0 counts from the tensor's row 0
  uint64_t bytes = 0;                 // of the file, all chunks
};

// The caller's side: room for what a chunk fills, the rows themselves, and cache records.
struct tensor_converter {
  virtual ~tensor_converter() = default;
  // Chunk c of tensor t is about to be asked for: false makes it wait (no room yet; asked again
  // next pump). Allocating for the tensor here, after the caller's own checks, is the intent.
  virtual bool tensor_chunk_begin(int t, const tensor_chunk& c) = 0;
  // Rows [row, row + count) of tensor t as raw little-endian values of its dtype, verified against
  // the request and the file's identity. False with *why when they cannot be used (a NaN).
  virtual bool tensor_rows_convert(int t, int64_t row, int64_t count, const unsigned char* raw, read_error* why) = 0;
  // Chunk c is converted whole from `raw` (its verified bytes, as tensor_rows_convert had them):
  // its record for the verified cache ("" keeps none).
  virtual std::string tensor_chunk_record(int t, const tensor_chunk& c, const unsigned char* raw) = 0;
  // A cached record of chunk c: false when it is not one (the network is asked instead).
  virtual bool tensor_chunk_from_record(int t, const tensor_chunk& c, const void* record, size_t n) = 0;
  // Where chunk c's record may be read straight in (its payload's bytes at *n), when the result
  // holds the chunk exactly as the record's payload lays it out; null otherwise.
  virtual void* tensor_chunk_into(int t, const tensor_chunk& c, size_t* n) {
    (void)t, (void)c, (void)n;
    return nullptr;
  }
  // A record whose payload was read straight into tensor_chunk_into's place, `rest` the rest of
  // it (its check): false when the check fails (the place is filled again from the network
  // before anything reads it).
  virtual bool tensor_chunk_in_place(int t, const tensor_chunk& c, const void* rest, size_t n) {
    (void)t, (void)c, (void)rest, (void)n;
    return false;
  }
  // Every chunk of t is in: false when the result is unusable (the last chunk fails as FORMAT).
  virtual bool tensor_complete(int t) = 0;
};

// Bytes of the tensors asked for: in (converted or converting), in flight, failed.
struct tensor_progress {
  uint64_t loaded = 0, total = 0;
  int loading = 0, converting = 0, failed = 0;
  int waiting = 0;  // told to wait by a 429
};

// A failed chunk: its file and why.
struct tensor_failure {
  int tensor = -1, shard = -1;
  stream_error error;
};

struct tensor_fetch final : fetch_sink {
  tensor_fetch(fetch_client* client, tensor_converter* converter, tensor_fetch_options options = {});
  ~tensor_fetch() override;

  // Plans rows of a tensor of the opened checkpoint (the caller checked its dtype and shape):
  // returns its id, or -1 when the checkpoint has no such tensor or rows.
  int add(const checkpoint_opened& opened, const tensor_rows& what);
  // Whether tensor t is wanted now, and how soon (lower is sooner). A tensor not needed starts
  // nothing new; what is in flight finishes.
  void need(int t, bool needed, int priority);
  // Converts what came (within the time budget), gives up stalled requests, starts the next.
  void pump(double now);
  void cancel();  // what is in flight fails as cancelled; nothing starts until retry
  void retry();
  // The caller dropped what it made of t: its chunks come again (from the cache, usually).
  void forget(int t);
  // A cache record of n bytes made of chunk c of t (checked_record), bound to what it is: its
  // rows, the tensor's shape and dtype and the converter's form, so that a record of anything
  // else, of the same size, is refused. And its payload back (exactly n bytes), or null.
  std::string chunk_record(int t, const tensor_chunk& c, const void* data, size_t n) const;
  const unsigned char* chunk_record_open(int t, const tensor_chunk& c, const void* record, size_t size, size_t n) const;
  // A record read in two parts (fetch_response::in_place): its payload where it was read in, and the rest.
  bool chunk_record_check(int t, const tensor_chunk& c, const void* payload, size_t n, const void* rest, size_t rest_n) const;

  // Shards whose file changed since the last call (each once), and how often one did in all.
  std::vector<int> changed_shards();
  uint64_t files_changed() const { return files_changed_; }
  // The header of `shard` came again: its tensors are planned anew from it. False when one of them
  // is gone or no longer the rows it was (the caller checks shapes before and fails).
  bool replan_shard(const checkpoint_opened& opened, int shard);

  int count() const { return (int)tensors_.size(); }
  const tensor_plan& plan(int t) const { return tensors_[t].plan; }
  bool complete(int t) const { return tensors_[t].done == (int)tensors_[t].plan.chunks.size(); }
  bool busy(int t) const;  // a chunk of it in flight or waiting for conversion
  tensor_progress progress(int t) const;
  std::vector<tensor_failure> failures() const;
  bool paused() const { return chunks_.paused; }
  // Chunks are still coming, waiting their turn or being converted: false when paused, done, or
  // when every chunk left has failed (then only Retry moves it).
  bool moving() const;
  int chunks_converting() const { return (int)jobs_.size(); }
  int requests_in_flight() const { return fetch_queue_loading(&ranges_); }
  // Raw bytes held now: answers waiting for their conversion, and requests in flight.
  uint64_t raw_bytes_waiting() const;
  uint64_t raw_bytes_in_flight() const;
  // File bytes of the chunks of t (-1: of every tensor) whose records the verified cache holds.
  uint64_t bytes_cached(int t = -1) const;
  uint64_t bytes_network() const { return ranges_.bytes_network; }
  uint64_t bytes_cache() const { return ranges_.bytes_cache; }
  double convert_seconds(bool longest) const { return longest ? convert_max_seconds_ : convert_seconds_; }
  const std::string& storage_notice() const { return storage_notice_; }

  // [SECTION] fetch_sink
  void on_fetch_progress(uint32_t id, uint64_t loaded, double now) override;
  void on_fetch_response(uint32_t id, const fetch_response& r, double now) override;
  void on_store_failed(const std::string& why) override { storage_notice_ = why; }

 private:
  struct tensor_state {
    tensor_plan plan;
    std::vector<int> items;       // the chunk item of each chunk
    std::vector<char> chunk_done;
    int done = 0;
    bool needed = false;
    int priority = 0;
  };
  // A chunk's verified bytes, converted a slice at a time by pump.
  struct convert_job {
    int item = -1;
    std::string raw;
    int64_t next = 0;  // rows converted so far
  };
  // A request in flight: a read of the verified cache for one chunk, or a range of one file
  // over the chunk items it brings (file order).
  struct range_state {
    int shard = -1;
    bool cache_read = false;
    std::vector<int> items;
  };

  void add_items(int t);
  void take_shard(const checkpoint_opened& opened, int shard);
  void mark_planned(const checkpoint_opened& opened, const std::string& name);
  void index_shards();
  std::string cache_key(int t, const tensor_chunk& c) const;
  bool record_cached(const fetch_item& it) const;
  bool converting(int item) const;
  bool whole_file_wanted(int shard, uint64_t wanted, uint64_t held, uint64_t room) const;
  // `network`, `cache`: whether a request of each kind may start now.
  bool start_next(double now, bool network, bool cache);
  void start_request(int shard, bool cache_read, const std::vector<int>& items, const fetch_request& q, double now);
  std::vector<int> range_members(const fetch_item& range) const;
  void end_ranges();
  void on_range_bytes(fetch_item* range, const fetch_response& r, double now);
  void convert_some();
  void chunk_finished(int item);
  void shard_changed(int shard);

  fetch_client* client_;
  tensor_converter* converter_;
  tensor_fetch_options options_;
  // One item per chunk: its own range and cache key, whether it is wanted, its state and error.
  // A chunk in flight is LOADING with the id of the request that brings it.
  fetch_queue chunks_;
  std::vector<std::pair<int, int>> item_chunk_;  // per chunk item: tensor, chunk (-1, -1: retired)
  // One item per request in flight (its stall window, progress, a 429's wait), range_ beside it.
  fetch_queue ranges_;
  std::vector<range_state> range_;
  std::vector<tensor_state> tensors_;
  std::vector<file_identity> shards_;   // the identity each shard's tensors were planned with
  std::vector<char> shard_held_;        // changed: nothing of it starts until replan_shard
  std::vector<char> ranges_only_;       // its whole answer was not the file: never asked for whole again
  std::vector<std::vector<int>> shard_order_;  // each shard's chunk items by file offset
  // Each shard's tensors as its header lists them (file bytes, and whether one is planned), and
  // from them the extents of those never planned: a range stops at them.
  struct shard_layout {
    std::vector<std::pair<uint64_t, uint64_t>> extents;
    std::vector<char> planned;
  };
  std::vector<shard_layout> layout_;
  std::vector<range_never_read> never_read_;
  bool shards_indexed_ = false;
  std::vector<int> changed_;
  uint64_t files_changed_ = 0;
  std::deque<convert_job> jobs_;        // in arrival order
  double convert_seconds_ = 0, convert_max_seconds_ = 0;
  std::string storage_notice_;
};
