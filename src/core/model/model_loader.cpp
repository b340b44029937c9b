// The whole model by byte ranges (see model_loader.h).
#include "core/model/model_loader.h"

#include "core/model/forward.h"
#include "core/base/number_format.h"

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

static checkpoint_reader_options reader_options(const model_loader_options& o) { return {o.opener, o.fetch}; }

model_loader::model_loader(fetch_client* client, const model_location& where, double now, model_loader_options options)
    : where_(where), options_(options), reader_(client, where, now, reader_options(options), this) {}

model_loader::~model_loader() = default;

void model_loader::reader_reset() {
  phase_ = MODEL_FAILED;
  plan_.clear();
  weights_ = model_weights();
}

// The architecture, the plan against the headers, the memory it needs against the budget: all
// before a weight byte is asked for or a matrix allocated.
bool model_loader::plan_weights(const checkpoint_opened& opened, tensor_fetch* fetch, opener_failure* f) {
  auto fail = [&](const std::string& file, const stream_error& e) {
    *f = {file, model_location_file_url(where_, file), e};
    return false;
  };
  model_spec spec;
  model_spec_problem problem;
  read_error why;
  if (!model_spec_parse(opened.config_text, &spec, &problem, &why))  // (config.json's own refusals were the opener's)
    return fail(kConfigFile, stream_error_of(problem == MODEL_SPEC_MIXER ? STREAM_UNSUPPORTED : STREAM_FORMAT, why));
  std::vector<model_tensor> plan;
  if (!model_tensor_plan(opened.ck, &spec, &plan, &problem, &why)) {
    // The tensor the plan stopped at names its shard; a missing one, the file that lists the
    // tensors (the index, or the one model.safetensors).
    std::string file = opened.single_file && !opened.shards.empty() ? opened.shards[0].file : CKPT_INDEX_FILE;
    for (const auto& kv : opened.ck.tensors)
      if (why.args.size() && kv.first == why.args[0]) file = opened.ck.files[kv.second.first].file;
    return fail(file, stream_error_of(STREAM_FORMAT, why));
  }
  stream_error room;
  if (!model_memory_check(spec, plan, options_.formats, options_.memory_budget, &room, &memory_bytes_)) return fail(kConfigFile, room);
  if (!model_weights_prepare(&weights_, spec, plan, options_.formats, &why))
    return fail(kConfigFile, stream_error_of(STREAM_UNSUPPORTED, why));  // the browser would not give the memory
  plan_.clear();
  download_bytes_ = 0;
  for (const model_tensor& t : plan) {
    tensor_rows rows;
    rows.name = t.name;
    rows.form = "raw";
    const int id = fetch->add(opened, rows);
    if (id != (int)plan_.size())  // the plan checked it: only a broken invariant lands here
      return fail(kConfigFile, stream_error_of(STREAM_FORMAT, read_error_at("", STR_READ_CKPT_MISSING, {t.name})));
    plan_.push_back(t);
    download_bytes_ += fetch->plan(id).bytes;
  }
  cached_bytes_ = fetch->bytes_cached();
  return true;
}

// (Called once the checkpoint is open and the cache's list is known: the cached bytes decide
// whether to ask.)
reader_plan_result model_loader::reader_plan(const checkpoint_opened& opened, tensor_fetch* fetch, opener_failure* f) {
  if (!plan_weights(opened, fetch, f)) return READER_PLAN_FAILED;
  phase_ = download_bytes_ - cached_bytes_ > options_.ask_above_bytes ? MODEL_ASKING : MODEL_LOADING;
  return READER_PLAN_DONE;
}

// Every tensor, in the order the forward pass reads them; nothing before the go.
void model_loader::reader_need(tensor_fetch* fetch) {
  for (int t = 0; t < (int)plan_.size(); t++) fetch->need(t, phase_ == MODEL_LOADING && !fetch->complete(t), t);
}

void model_loader::pump(double now) {
  if (phase_ == MODEL_FAILED || phase_ == MODEL_READY) return;
  reader_.pump(now);
  if (phase_ != MODEL_LOADING) return;
  for (int t = 0; t < (int)plan_.size(); t++)
    if (!fetch()->complete(t)) return;
  phase_ = MODEL_READY;
}

void model_loader::go() {
  if (phase_ == MODEL_ASKING) phase_ = MODEL_LOADING;
}

void model_loader::cancel() { reader_.cancel(); }

void model_loader::retry(double now) {
  const bool failed = phase_ == MODEL_FAILED;
  reader_.retry(now);  // after a failure: from config.json; after Cancel: the missing chunks
  if (failed) phase_ = MODEL_OPENING;
}

std::vector<model_file_progress> model_loader::progress() const {
  std::vector<model_file_progress> out;
  if (!fetch()) return out;
  for (const file_identity& id : reader_.opened().shards) out.push_back({id.file, 0, 0, 0});
  for (int t = 0; t < fetch()->count(); t++) {
    const tensor_progress p = fetch()->progress(t);
    model_file_progress& f = out[fetch()->plan(t).shard];
    f.loaded += p.loaded, f.total += p.total, f.failed += p.failed;
  }
  return out;
}

// [SECTION] the converter: rows into the weights, the raw rows as the cache's record

bool model_loader::tensor_rows_convert(int t, int64_t row, int64_t count, const unsigned char* raw, read_error* why) {
  return model_weights_put(&weights_, plan_[t], row, count, fetch()->plan(t).dtype, raw, why);
}

std::string model_loader::tensor_chunk_record(int t, const tensor_chunk& c, const unsigned char* raw) {
  return fetch()->chunk_record(t, c, raw, (size_t)c.bytes);
}

bool model_loader::tensor_chunk_from_record(int t, const tensor_chunk& c, const void* record, size_t n) {
  const unsigned char* raw = fetch()->chunk_record_open(t, c, record, n, (size_t)c.bytes);
  read_error why;
  return raw && model_weights_put(&weights_, plan_[t], c.row0, c.rows, fetch()->plan(t).dtype, raw, &why);
}

// A BF16 matrix's chunk is its record's payload, byte for byte: a warm start reads it straight into
// the weights (1.4 GB of Qwen3.5-0.8B's 1.5) and copies nothing.
void* model_loader::tensor_chunk_into(int t, const tensor_chunk& c, size_t* n) {
  size_t bytes = 0;
  void* at = model_weights_rows_at(&weights_, plan_[t], c.row0, c.rows, fetch()->plan(t).dtype, &bytes);
  if (!at || bytes != (size_t)c.bytes) return nullptr;
  *n = bytes;
  return at;
}

// Its check is the record's own: the record was written only once these rows had passed the
// conversion's (finite values), and its checksum says these are its bytes.
bool model_loader::tensor_chunk_in_place(int t, const tensor_chunk& c, const void* rest, size_t n) {
  size_t bytes = 0;
  const void* at = model_weights_rows_at(&weights_, plan_[t], c.row0, c.rows, fetch()->plan(t).dtype, &bytes);
  return at && bytes == (size_t)c.bytes && fetch()->chunk_record_check(t, c, at, bytes, rest, n);
}
