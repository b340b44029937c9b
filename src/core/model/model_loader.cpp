// The whole model by byte ranges (see model_loader.h).
#include "core/model/model_loader.h"

#include "core/checkpoint_remote/tensor_chunks.h"
#include "core/model/forward.h"
#include "core/number_format.h"

static const char kConfigFile[] = "config.json";

bool model_memory_check(const model_spec& spec, const std::vector<model_tensor>& plan, model_formats formats,
                        uint64_t budget, stream_error* e, uint64_t* weights_bytes) {
  const uint64_t weights = model_weights_bytes(plan, formats);
  if (weights_bytes) *weights_bytes = weights;
  if (weights > budget) {
    *e = stream_error_sizes(STREAM_NO_ROOM, budget, weights);
    return false;
  }
  const uint64_t pass = model_answer_bytes(spec, 1);
  if (weights + pass > budget) {
    *e = stream_error_of(STREAM_UNSUPPORTED, read_error_at("", STR_MODEL_PASS_TOO_BIG, {fmt_mib(weights), "1", fmt_mib(pass),
                                                                                          fmt_mib(weights + pass), fmt_mib(budget)}));
    return false;
  }
  return true;
}

model_loader::model_loader(fetch_client* client, const model_location& where, double now, model_loader_options options)
    : client_(client), where_(where), options_(options) {
  opener_.reset(new checkpoint_opener(client, where, now, options.opener));
}

model_loader::~model_loader() { fetch_.reset(); }

void model_loader::fail(const std::string& file, const stream_error& e) {
  failure_ = {file, model_location_file_url(where_, file), e};
  phase_ = MODEL_FAILED;
  fetch_.reset();
  weights_ = model_weights();
}

// The architecture, the plan against the headers, the memory it needs against the budget: all
// before a weight byte is asked for or a matrix allocated.
bool model_loader::plan_weights() {
  const checkpoint_opened& opened = opener_->opened();
  model_spec spec;
  model_spec_problem problem;
  read_error why;
  if (!model_spec_parse(opened.config_text, &spec, &problem, &why)) {
    // (config.json's own refusals, experts or quantization, were the opener's.)
    fail(kConfigFile, stream_error_of(problem == MODEL_SPEC_MIXER ? STREAM_UNSUPPORTED : STREAM_FORMAT, why));
    return false;
  }
  std::vector<model_tensor> plan;
  if (!model_tensor_plan(opened.ck, &spec, &plan, &problem, &why)) {
    // The tensor the plan stopped at names its shard; a missing one, the file that lists the
    // tensors (the index, or the one model.safetensors).
    std::string file = opened.single_file && !opened.shards.empty() ? opened.shards[0].file : CKPT_INDEX_FILE;
    for (const auto& kv : opened.ck.tensors)
      if (why.args.size() && kv.first == why.args[0]) file = opened.ck.files[kv.second.first].file;
    fail(file, stream_error_of(STREAM_FORMAT, why));
    return false;
  }
  stream_error room;
  if (!model_memory_check(spec, plan, options_.formats, options_.memory_budget, &room, &memory_bytes_)) {
    fail(kConfigFile, room);
    return false;
  }
  if (!model_weights_prepare(&weights_, spec, plan, options_.formats, &why)) {
    fail(kConfigFile, stream_error_of(STREAM_UNSUPPORTED, why));  // the browser would not give the memory
    return false;
  }
  fetch_.reset(new tensor_fetch(client_, this, options_.fetch));
  plan_.clear();
  download_bytes_ = 0;
  for (const model_tensor& t : plan) {
    tensor_rows rows;
    rows.name = t.name;
    rows.form = "raw";
    const int id = fetch_->add(opened, rows);
    if (id != (int)plan_.size()) {  // the plan checked it: only a broken invariant lands here
      fail(kConfigFile, stream_error_of(STREAM_FORMAT, read_error_at("", STR_READ_CKPT_MISSING, {t.name})));
      return false;
    }
    plan_.push_back(t);
    download_bytes_ += fetch_->plan(id).bytes;
  }
  raw_.assign(plan_.size(), std::string());
  cached_bytes_ = fetch_->bytes_cached();
  return true;
}

// A file that changed on the host: what came from it was dropped by tensor_fetch; its header is
// read again and its tensors planned anew from it (the same shapes, or the model fails).
void model_loader::follow_changed_files(double now) {
  for (int shard : fetch_->changed_shards()) {
    opener_->reread_shard(shard);
    rereading_.push_back(shard);
  }
  if (rereading_.empty()) return;
  opener_->pump(now);
  if (opener_->state() == OPENER_FAILED) return fail(opener_->failure().file, opener_->failure().error);
  if (opener_->state() != OPENER_DONE) return;
  const checkpoint_opened& opened = opener_->opened();
  for (int s : rereading_)
    if (!fetch_->replan_shard(opened, s)) return fail(opened.shards[s].file, stream_error_of(STREAM_FILE_CHANGED));
  rereading_.clear();
}

void model_loader::pump(double now) {
  if (phase_ == MODEL_FAILED || phase_ == MODEL_READY) return;
  if (phase_ == MODEL_OPENING) {
    opener_->pump(now);
    if (opener_->state() == OPENER_FAILED) {
      failure_ = opener_->failure();
      phase_ = MODEL_FAILED;
      return;
    }
    // The cached bytes decide whether to ask: counted once the cache knows what it holds.
    if (opener_->state() != OPENER_DONE || !client_->cache_known() || !plan_weights()) return;
    phase_ = download_bytes_ - cached_bytes_ > options_.ask_above_bytes ? MODEL_ASKING : MODEL_LOADING;
  }
  if (phase_ != MODEL_LOADING) return;
  int complete = 0;
  for (int t = 0; t < (int)plan_.size(); t++) {
    fetch_->need(t, !fetch_->complete(t), t);  // in the order the forward pass reads them
    complete += fetch_->complete(t);
  }
  if (complete == (int)plan_.size()) {
    phase_ = MODEL_READY;
    return;
  }
  fetch_->pump(now);
  follow_changed_files(now);
}

void model_loader::go() {
  if (phase_ == MODEL_ASKING) phase_ = MODEL_LOADING;
}

void model_loader::cancel() {
  if (phase_ == MODEL_OPENING) {
    opener_->cancel();
    failure_ = opener_->failure();
    phase_ = MODEL_FAILED;
    return;
  }
  if (fetch_) fetch_->cancel();
}

void model_loader::retry(double now) {
  if (phase_ == MODEL_FAILED) {
    fetch_.reset();
    weights_ = model_weights();
    failure_ = opener_failure();
    phase_ = MODEL_OPENING;
    opener_->restart(now);
    return;
  }
  if (fetch_) fetch_->retry();
}

std::vector<opener_failure> model_loader::chunk_failures() const {
  std::vector<opener_failure> out;
  if (!fetch_ || !opener_) return out;
  for (const tensor_failure& f : fetch_->failures()) {
    const file_identity& id = opener_->opened().shards[f.shard];
    bool seen = false;
    for (const opener_failure& o : out) seen |= o.file == id.file && o.error.fault == f.error.fault;
    if (!seen) out.push_back({id.file, id.url, f.error});
  }
  return out;
}

std::vector<model_file_progress> model_loader::progress() const {
  std::vector<model_file_progress> out;
  if (!fetch_) return out;
  const checkpoint_opened& opened = opener_->opened();
  for (const file_identity& id : opened.shards) out.push_back({id.file, 0, 0, 0});
  for (int t = 0; t < fetch_->count(); t++) {
    const tensor_progress p = fetch_->progress(t);
    model_file_progress& f = out[fetch_->plan(t).shard];
    f.loaded += p.loaded, f.total += p.total, f.failed += p.failed;
  }
  return out;
}

uint64_t model_loader::bytes_network() const { return opener_->bytes_network() + (fetch_ ? fetch_->bytes_network() : 0); }
uint64_t model_loader::bytes_cache() const { return opener_->bytes_cache() + (fetch_ ? fetch_->bytes_cache() : 0); }

// [SECTION] the converter: rows into the weights, the raw rows as the cache's record

bool model_loader::tensor_chunk_begin(int t, const tensor_chunk& c) {
  // The weights were allocated whole when the model was sized. (raw_[t] is not touched: the
  // tensor's previous chunk may still be converting into it.)
  (void)t, (void)c;
  return true;
}

bool model_loader::tensor_rows_convert(int t, int64_t row, int64_t count, const unsigned char* raw, read_error* why) {
  const tensor_plan& p = fetch_->plan(t);
  const size_t bytes = (size_t)(count * p.cols) * st_dtype_bytes(p.dtype);
  // A chunk's raw rows wait here for its cache record (a tensor's chunks convert one after
  // another), in one allocation of the chunk's size made at its first row; what a failed chunk
  // left is dropped there.
  for (const tensor_chunk& c : p.chunks)
    if (row == c.row0) {
      raw_[t].clear();
      raw_[t].reserve((size_t)(c.rows * p.cols) * st_dtype_bytes(p.dtype));
    }
  raw_[t].append((const char*)raw, bytes);
  return model_weights_put(&weights_, plan_[t], row, count, p.dtype, raw, why);
}

uint64_t model_loader::raw_bytes_held() const {
  uint64_t n = 0;
  const size_t inline_room = std::string().capacity();  // a short string's own room is no allocation
  for (const std::string& r : raw_) n += r.capacity() > inline_room ? r.capacity() : 0;
  return n;
}

// The record binds its rows and the tensor's shape, so a record of other rows is never taken.
static uint64_t record_bind(const tensor_plan& p, const tensor_chunk& c) {
  return ((uint64_t)c.row0 << 32) ^ ((uint64_t)c.rows << 16) ^ (uint64_t)p.cols ^ ((uint64_t)p.dtype << 60);
}

std::string model_loader::tensor_chunk_record(int t, const tensor_chunk& c) {
  std::string rec = checked_record(raw_[t].data(), raw_[t].size(), record_bind(fetch_->plan(t), c));
  // Freed, not only emptied: a kept capacity per tensor held 2 MiB of each large tensor's last
  // chunk for good (about 300 MiB of the worker's heap for Qwen3.5-0.8B).
  std::string().swap(raw_[t]);
  return rec;
}

bool model_loader::tensor_chunk_from_record(int t, const tensor_chunk& c, const void* record, size_t n) {
  const tensor_plan& p = fetch_->plan(t);
  const size_t payload = (size_t)(c.rows * p.cols) * st_dtype_bytes(p.dtype);
  const unsigned char* raw;
  if (!checked_record_open(record, n, payload, &raw, record_bind(p, c))) return false;
  read_error why;
  return model_weights_put(&weights_, plan_[t], c.row0, c.rows, p.dtype, raw, &why);
}

bool model_loader::tensor_complete(int t) {
  (void)t;
  return true;
}
