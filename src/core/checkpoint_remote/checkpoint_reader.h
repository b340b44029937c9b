// One checkpoint read by byte ranges, the part both of its readers share: the MLP views' source
// (core/source/checkpoint_source.h) and the whole model's loader (core/model/model_loader.h).
//   open     checkpoint_opener: config.json, the index, every shard's header
//   plan     once it is open and the verified cache's list is known (so that chunks it holds are
//            read from it, not asked for in a range), the owner checks the checkpoint and adds
//            its tensors to a tensor_fetch; it may wait (a tokenizer) or fail
//   fetch    each pump the owner says what it needs, then the tensor_fetch runs
//   Cancel   while opening: fails as cancelled; while fetching: what is in flight stops
//   Retry    after a failure: from config.json; after Cancel: only what is missing
//   a file that changed on the host: the owner drops what it made of it, its header is read again,
//            the owner checks the checkpoint again and its tensors are planned anew from the new
//            header (nothing of two versions is mixed); a notice names the file
// and the failures, by file, as data (worded by the views). The owner is the tensor_fetch's
// converter too: what it makes of the rows and how it records them is its own.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/checkpoint_remote/checkpoint_opener.h"
#include "core/checkpoint_remote/tensor_fetch.h"

enum reader_phase { READER_OPENING, READER_FETCHING, READER_FAILED };
enum reader_plan_result { READER_PLAN_DONE, READER_PLAN_WAIT, READER_PLAN_FAILED };

struct checkpoint_reader_owner : tensor_converter {
  // The checkpoint is open: check it and add its tensors to `fetch` (DONE), wait and be asked
  // again next pump (WAIT), or fail with *f (FAILED).
  virtual reader_plan_result reader_plan(const checkpoint_opened& opened, tensor_fetch* fetch, opener_failure* f) = 0;
  // Before each pump of the fetch: what is needed now (tensor_fetch::need).
  virtual void reader_need(tensor_fetch* fetch) = 0;
  // `shard`'s file changed on the host: what was made of it is no longer true.
  virtual void reader_drop_shard(int shard) = 0;
  // The changed files' headers came again: false when the checkpoint no longer fits what was
  // planned (then the reader fails with *f, or names the changed file when *f is left empty; a
  // tensor gone or reshaped fails it too).
  virtual bool reader_reread(const checkpoint_opened& opened, opener_failure* f) = 0;
  // The reader failed, or starts again from config.json: let go of what was made of it (the
  // fetch is gone already).
  virtual void reader_reset() = 0;
};

struct checkpoint_reader_options {
  checkpoint_opener_options opener;
  tensor_fetch_options fetch;
};

struct checkpoint_reader {
  checkpoint_reader(fetch_client* client, const model_location& where, double now, checkpoint_reader_options options,
                    checkpoint_reader_owner* owner);
  ~checkpoint_reader();

  void pump(double now);
  void cancel();
  void retry(double now);
  // Fails the reader for the owner's own reason (a check that came later than the plan).
  void fail(const opener_failure& f);

  reader_phase phase() const { return phase_; }
  const opener_failure& failure() const { return failure_; }  // READER_FAILED
  const checkpoint_opened& opened() const { return opener_->opened(); }  // meaningful once planned
  bool open() const { return opener_->state() == OPENER_DONE; }
  tensor_fetch* fetch() const { return fetch_.get(); }  // READER_FETCHING
  const model_location& where() const { return where_; }
  std::string file_url(const std::string& file) const { return model_location_file_url(where_, file); }
  // Each file that failed in a chunk, once per fault (a cancel included: the owner decides).
  std::vector<opener_failure> chunk_failures() const;
  // Files that changed on the host while read (each once), until Retry starts over.
  const std::vector<opener_failure>& notices() const { return notices_; }
  uint64_t bytes_network() const;
  uint64_t bytes_cache() const;

 private:
  void follow_changed_files(double now);

  fetch_client* client_;
  model_location where_;
  checkpoint_reader_options options_;
  checkpoint_reader_owner* owner_;
  reader_phase phase_ = READER_OPENING;
  opener_failure failure_;
  std::unique_ptr<checkpoint_opener> opener_;
  std::unique_ptr<tensor_fetch> fetch_;  // once planned
  std::vector<int> rereading_;           // shards whose header is read again
  std::vector<opener_failure> notices_;
};
