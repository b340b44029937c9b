// One checkpoint read by byte ranges, shared by its two readers (see checkpoint_reader.h).
#include "core/checkpoint_remote/checkpoint_reader.h"

static const char kConfigFile[] = "config.json";

checkpoint_reader::checkpoint_reader(fetch_client* client, const model_location& where, double now,
                                     checkpoint_reader_options options, checkpoint_reader_owner* owner)
    : client_(client), where_(where), options_(options), owner_(owner) {
  opener_.reset(new checkpoint_opener(client, where, now, options.opener));
}

checkpoint_reader::~checkpoint_reader() { fetch_.reset(); }  // its requests go before the owner's data

void checkpoint_reader::fail(const opener_failure& f) {
  failure_ = f;
  phase_ = READER_FAILED;
  rereading_.clear();
  fetch_.reset();
  owner_->reader_reset();
}

void checkpoint_reader::pump(double now) {
  if (phase_ == READER_OPENING) {
    opener_->pump(now);
    if (opener_->state() == OPENER_FAILED) return fail(opener_->failure());
    // The cache's list first: a chunk it holds is read from it, never asked for in a range.
    if (opener_->state() != OPENER_DONE || !client_->cache_known()) return;
    fetch_.reset(new tensor_fetch(client_, owner_, options_.fetch));
    opener_failure f;
    const reader_plan_result r = owner_->reader_plan(opener_->opened(), fetch_.get(), &f);
    if (r == READER_PLAN_FAILED) return fail(f);
    if (r == READER_PLAN_WAIT) return fetch_.reset();  // planned anew when asked again
    phase_ = READER_FETCHING;
  }
  if (phase_ != READER_FETCHING) return;
  follow_changed_files(now);
  if (phase_ != READER_FETCHING) return;
  owner_->reader_need(fetch_.get());
  fetch_->pump(now);
}

void checkpoint_reader::cancel() {
  if (phase_ == READER_FETCHING) return fetch_->cancel();
  if (phase_ != READER_OPENING) return;
  opener_->cancel();
  // Open already and waiting (for the cache's list, or the owner's tokenizer): cancelled all the same.
  if (opener_->state() == OPENER_FAILED) return fail(opener_->failure());
  fail({kConfigFile, file_url(kConfigFile), stream_error_of(STREAM_CANCELLED)});
}

void checkpoint_reader::retry(double now) {
  if (phase_ != READER_FAILED) {
    if (fetch_) fetch_->retry();
    return;
  }
  failure_ = opener_failure();
  notices_.clear();
  phase_ = READER_OPENING;
  opener_->restart(now);
}

// What was made of a changed file is dropped at once (tensor_fetch forgot its chunks, the owner
// its data); its header is read again; once it is in, the owner checks the checkpoint again and
// the file's tensors are planned anew from the new header and come from the start.
void checkpoint_reader::follow_changed_files(double now) {
  for (int s : fetch_->changed_shards()) {
    owner_->reader_drop_shard(s);
    const file_identity& id = opener_->opened().shards[s];
    bool said = false;
    for (const opener_failure& n : notices_) said |= n.file == id.file;
    if (!said) notices_.push_back({id.file, id.url, stream_error_of(STREAM_FILE_CHANGED)});
    opener_->reread_shard(s);
    rereading_.push_back(s);
  }
  if (rereading_.empty()) return;
  opener_->pump(now);
  if (opener_->state() == OPENER_FAILED) return fail(opener_->failure());
  if (opener_->state() != OPENER_DONE) return;
  opener_failure f;
  if (!owner_->reader_reread(opener_->opened(), &f)) {
    const file_identity& id = opener_->opened().shards[rereading_[0]];
    return fail(f.file.empty() ? opener_failure{id.file, id.url, stream_error_of(STREAM_FILE_CHANGED)} : f);
  }
  for (int s : rereading_)
    if (!fetch_->replan_shard(opener_->opened(), s)) {
      const file_identity& id = opener_->opened().shards[s];
      return fail({id.file, id.url, stream_error_of(STREAM_FILE_CHANGED)});
    }
  rereading_.clear();
}

std::vector<opener_failure> checkpoint_reader::chunk_failures() const {
  std::vector<opener_failure> out;
  if (!fetch_) return out;
  for (const tensor_failure& f : fetch_->failures()) {
    const file_identity& id = opener_->opened().shards[f.shard];
    bool seen = false;
    for (const opener_failure& o : out) seen |= o.file == id.file && o.error.fault == f.error.fault;
    if (!seen) out.push_back({id.file, id.url, f.error});
  }
  return out;
}

uint64_t checkpoint_reader::bytes_network() const { return opener_->bytes_network() + (fetch_ ? fetch_->bytes_network() : 0); }
uint64_t checkpoint_reader::bytes_cache() const { return opener_->bytes_cache() + (fetch_ ? fetch_->bytes_cache() : 0); }
