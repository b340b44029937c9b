// Opening a checkpoint where it is published: config.json and model.safetensors.index.json (a
// 404 there means one file, model.safetensors; a 404 there too asks for a byte of
// pytorch_model.bin, to say "only pytorch_model.bin" rather than "not found"), then every shard's
// header: its first 64 KiB (the 8-byte length and, for most checkpoints, all of it), then the rest
// when it is longer. The same core code as the converter reads them (core/checkpoint/checkpoint.h:
// naming, decoys, the index against the shards).
//
// Everything a host claims is checked against the page's limits (checkpoint_limits.h) before it
// costs memory or requests: each file is cut at its limit as it arrives, the shard and tensor
// counts are bounded, a header's length and its JSON values are bounded before the parse. The
// result is the parsed checkpoint, each shard's identity (URL, size and the ETag its host sent)
// and, when it fails, the file and the fault as data. Nothing here knows about views, probes or
// layers: the MLP views' source (core/source/checkpoint_source.h) and the whole model's loader
// both open through it, then fetch tensors with tensor_fetch.h.
//
// Requests go past the HTTP cache (fetch_request::fresh) and, for an offline visit, fall back on
// the verified cache: the config and index as they were, each header as a record of its bytes,
// size and ETag.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/checkpoint/checkpoint.h"
#include "core/checkpoint_remote/checkpoint_limits.h"
#include "core/checkpoint_remote/model_location.h"
#include "core/checkpoint_remote/range_check.h"
#include "core/stream/fetch_queue.h"

enum opener_state { OPENER_WORKING, OPENER_DONE, OPENER_FAILED };

// A file that failed, the URL it was asked at, and why (worded by the page).
struct opener_failure {
  std::string file, url;
  stream_error error;
};

// What opening learnt: ck.files[i] is the header of shards[i].
struct checkpoint_opened {
  checkpoint ck;
  std::vector<file_identity> shards;
  std::string config_text;   // config.json as it came (the whole model reads more of it than ck.config)
  // The commit the Hub served config.json from (X-Repo-Commit, lower case), where it said so and
  // the page could read it: the branch or tag of the link, resolved. "" otherwise.
  std::string repo_commit;
  bool single_file = false;  // no index: one model.safetensors
  int shard_of(const std::string& tensor) const;  // the shard that holds it, or -1
};

struct checkpoint_opener_options {
  double stall_seconds = FETCH_QUEUE_STALL_SECONDS;
  uint32_t header_prefetch = CKPT_HEADER_PREFETCH;  // the first request of a shard's header
  uint64_t chunk_bytes = 2ull << 20;  // what a host that ignores Range may send before it is stopped
};

struct checkpoint_opener final : fetch_sink {
  checkpoint_opener(fetch_client* client, const model_location& where, double now, checkpoint_opener_options options = {});
  ~checkpoint_opener() override;

  // Starts what is needed next and gives up stalled requests.
  void pump(double now);
  // Fails as cancelled (what is in flight is dropped).
  void cancel();
  // From config.json again (Retry after a failure).
  void restart(double now);
  // The shard's file changed on the host (its ETag or size is not its header's): its header is
  // read again from the network; state() is WORKING until it is in (the other shards stay).
  void reread_shard(int shard);

  opener_state state() const { return state_; }
  const checkpoint_opened& opened() const { return opened_; }  // meaningful when DONE
  const opener_failure& failure() const { return failure_; }   // when FAILED
  // Progress: files read of those known so far (config, index, headers).
  int files_done() const;
  int files_known() const { return (int)queue_.items.size(); }
  uint64_t bytes_network() const { return queue_.bytes_network; }
  uint64_t bytes_cache() const { return queue_.bytes_cache; }

  // [SECTION] fetch_sink
  void on_fetch_progress(uint32_t id, uint64_t loaded, double now) override;
  void on_fetch_response(uint32_t id, const fetch_response& r, double now) override;
  void on_store_failed(const std::string&) override {}  // small records: a full cache only costs the offline visit

 private:
  enum item_kind { ITEM_CONFIG, ITEM_INDEX, ITEM_HEAD, ITEM_HEAD_REST, ITEM_BIN };
  struct shard_state {
    file_identity id;
    std::string head;  // 8-byte length + JSON header, while it comes
    st_file parsed;     // until the checkpoint is put together
    size_t tensors = 0;  // in its header (the bound counts all shards')
    bool done = false;
  };

  void add_item(item_kind kind, int shard, const std::string& url, uint64_t begin, uint64_t length, uint64_t max_bytes,
                const std::string& cache_key);
  void fail(const std::string& file, const std::string& url, const stream_error& e);
  void on_config(const fetch_response& r, fetch_item* it);
  void on_index(const fetch_response& r, fetch_item* it);
  void on_head(const fetch_response& r, fetch_item* it, item_kind kind, int shard);
  bool add_shard(const std::string& file);
  bool parse_head(int shard, stream_error* e);
  void finish();

  fetch_client* client_;
  model_location where_;
  checkpoint_opener_options options_;
  opener_state state_ = OPENER_WORKING;
  opener_failure failure_;
  opener_failure waiting_failure_;  // another file failed while config.json was on its way
  bool failure_waits_ = false;
  fetch_queue queue_;
  std::vector<std::pair<item_kind, int>> info_;  // parallel to queue_.items: kind, shard
  model_config config_;
  bool config_done_ = false, index_done_ = false;
  std::map<std::string, std::string> weight_map_;
  std::vector<shard_state> shards_;
  checkpoint_opened opened_;
};
