// A checkpoint read by byte ranges as a layer source (see checkpoint_source.h).
#include "core/checkpoint_remote/checkpoint_source.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <new>

#include "core/live_view.h"
#include "core/pack/pack_build.h"
#include "core/quant/q8_format.h"
#include "core/strings.h"

static const char kConfigFile[] = "config.json";
static const char kSingleFile[] = "model.safetensors";
static const char kBinFile[] = "pytorch_model.bin";
static const uint64_t kRangeSlack = 64u << 10;  // past a range's length by this: the host ignored Range

double checkpoint_clock_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

source_probe checkpoint_default_synthetic_probe() {
  return {"今天天气不错，我们去公园", {1, 2, 3, 4, 5, 6}, {"今天", "天气", "不错", "，", "我们", "去公园"}};
}

checkpoint_source::checkpoint_source(fetch_client* client, const model_location& where, double now,
                                     checkpoint_source_options options)
    : client_(client), where_(where), options_(options) {
  queue_.client = client;
  queue_.sink = this;
  queue_.stall_seconds = options.stall_seconds;
  queue_.one_per_url = options.one_request_per_file;
  open(now);
}

checkpoint_source::~checkpoint_source() {
  fetch_queue_close(&queue_);
  client_->forget_sink(this);
  for (layer_state& L : layers_)
    for (matrix_state& m : L.part) free_matrix(&m);
}

// [SECTION] opening: config, index, shard headers

int checkpoint_source::add_item(item_kind kind, const std::string& url, uint64_t begin, uint64_t length,
                                const std::string& cache_key, bool cache_first, item_info info) {
  fetch_item it;
  it.request.url = url;
  it.request.begin = begin;
  it.request.length = length;
  it.request.cache_key = cache_key;
  it.request.cache_first = cache_first;
  it.bytes = length;
  it.owner_tag = (int)info_.size();
  it.needed = true;
  it.priority = 0;
  info.kind = kind;
  queue_.items.push_back(it);
  info_.push_back(info);
  return (int)info_.size() - 1;
}

void checkpoint_source::open(double now) {
  (void)now;
  fetch_queue_close(&queue_);
  for (layer_state& L : layers_)
    for (matrix_state& m : L.part) free_matrix(&m);
  info_.clear();
  jobs_.clear();
  layers_.clear();
  shards_.clear();
  weight_map_.clear();
  embed_rows_.clear();
  norm_.clear();
  inputs_.clear();
  ck_ = checkpoint();
  model_ = source_model();
  config_done_ = index_done_ = single_file_ = model_checked_ = false;
  sentence_.reset();
  open_failure_ = source_failure();
  phase_ = SOURCE_OPENING;
  generation_++;
  // Network first (a checkpoint's revision may move); the cached copy only when offline.
  const std::string cfg = model_location_file_url(where_, kConfigFile), idx = model_location_file_url(where_, CKPT_INDEX_FILE);
  add_item(ITEM_CONFIG, cfg, 0, 0, cfg, false, {});
  add_item(ITEM_INDEX, idx, 0, 0, idx, false, {});
}

void checkpoint_source::fail_open(const std::string& file, const std::string& url, const stream_error& e) {
  if (phase_ != SOURCE_OPENING) return;
  open_failure_ = {file, url, e};
  phase_ = SOURCE_FAILED;
  fetch_queue_close(&queue_);
  info_.clear();
  jobs_.clear();
  generation_++;
}

// "W/\"x\"" and "\"x\"" name the same version of a file (a proxy may weaken a strong ETag).
static std::string etag_core(const std::string& e) { return e.rfind("W/", 0) == 0 ? e.substr(2) : e; }

static stream_error format_error(stream_fault f, const std::string& detail) {
  stream_error e;
  e.fault = f;
  e.detail = detail;
  return e;
}

// A reason in words is data (core/read_error.h): the page says it in its language.
static stream_error format_error(stream_fault f, read_error why) {
  stream_error e;
  e.fault = f;
  e.reason = std::move(why);
  return e;
}


void checkpoint_source::on_config(const fetch_response& r, fetch_item* it) {
  const std::string url = it->request.url;
  if (!r.from_cache && r.status != 200) return fail_open(kConfigFile, url, stream_error_from_status(r.status == 206 ? 0 : r.status, r.error));
  if (r.n > MODEL_CONFIG_MAX_BYTES) return fail_open(kConfigFile, url, format_error(STREAM_FORMAT, read_error_in(READ_AT_FILE, STR_READ_LARGER_THAN, {"4 MB"})));
  config_text_.assign((const char*)r.body, r.n);
  std::string err;
  read_error reason;
  model_config_problem problem = MODEL_CONFIG_OK;
  if (!model_config_parse(config_text_, kConfigFile, &ck_.config, &err, &problem, &reason)) {
    const stream_fault f = problem == MODEL_CONFIG_NOT_SWIGLU   ? STREAM_NOT_SWIGLU
                           : problem == MODEL_CONFIG_EXPERTS    ? STREAM_MIXTURE_OF_EXPERTS
                           : problem == MODEL_CONFIG_QUANTIZED  ? STREAM_UNREADABLE_DTYPE
                                                                : STREAM_FORMAT;
    // The page's sentence says the rest: keep what names the cause ("hidden_act 'gelu'", "fp8").
    const std::string named = reason.args.empty() ? "" : reason.args[0];
    if (f == STREAM_NOT_SWIGLU) return fail_open(kConfigFile, url, format_error(f, "hidden_act '" + named + "'"));
    if (f == STREAM_UNREADABLE_DTYPE) return fail_open(kConfigFile, url, format_error(f, named + " (quantization_config)"));
    return fail_open(kConfigFile, url, format_error(f, reason));
  }
  if (!r.from_cache) client_->cache_store(this, url, config_text_.data(), config_text_.size());
  fetch_queue_done(&queue_, it);
  config_done_ = true;
  maybe_finish_open();
}

void checkpoint_source::on_index(const fetch_response& r, fetch_item* it) {
  const std::string url = it->request.url;
  // No index: one model.safetensors. Remembered in the cache as an empty record, so an offline
  // visit knows it too.
  const bool none = (!r.from_cache && r.status == 404) || (r.from_cache && r.n == 0);
  if (!none && !r.from_cache && r.status != 200)
    return fail_open(CKPT_INDEX_FILE, url, stream_error_from_status(r.status == 206 ? 0 : r.status, r.error));
  fetch_queue_done(&queue_, it);
  index_done_ = true;
  if (none) {
    if (!r.from_cache) client_->cache_store(this, url, "", 0);
    single_file_ = true;
    add_shard(kSingleFile);
    return;
  }
  if (r.n > CKPT_INDEX_MAX_BYTES) return fail_open(CKPT_INDEX_FILE, url, format_error(STREAM_FORMAT, read_error_in(READ_AT_FILE, STR_READ_LARGER_THAN, {"64 MB"})));
  const std::string text((const char*)r.body, r.n);
  std::string err;
  read_error reason;
  if (!ckpt_parse_index(text, CKPT_INDEX_FILE, &weight_map_, &err, &reason))
    return fail_open(CKPT_INDEX_FILE, url, format_error(STREAM_FORMAT, reason));
  if (!r.from_cache) client_->cache_store(this, url, text.data(), text.size());
  for (const std::string& f : ckpt_index_shards(weight_map_)) add_shard(f);
}

void checkpoint_source::add_shard(const std::string& file) {
  shard_state s;
  s.file = file;
  s.url = model_location_file_url(where_, file);
  shards_.push_back(s);
  item_info in;
  in.shard = (int)shards_.size() - 1;
  // The header's cache record (size, ETag, header bytes) serves offline visits.
  add_item(ITEM_HEAD, s.url, 0, std::max<uint32_t>(8, options_.header_prefetch), s.url + "#safetensors-header", false, in);
}

// Header cache record: u64 size | u32 etag length | etag | header bytes, then an XXH3 (checked_record).
static std::string head_record(const std::string& etag, uint64_t size, const std::string& head) {
  std::string p;
  for (int i = 0; i < 8; i++) p.push_back((char)(size >> (8 * i)));
  for (int i = 0; i < 4; i++) p.push_back((char)((uint32_t)etag.size() >> (8 * i)));
  p += etag;
  p += head;
  return checked_record(p.data(), p.size());
}

static bool head_record_open(const void* rec, size_t n, std::string* etag, uint64_t* size, std::string* head) {
  const unsigned char* p;
  if (n < 8 + 12 || !checked_record_open(rec, n, n - 8, &p)) return false;
  uint64_t s = 0;
  uint32_t el = 0;
  for (int i = 7; i >= 0; i--) s = (s << 8) | p[i];
  for (int i = 3; i >= 0; i--) el = (el << 8) | p[8 + i];
  if (12 + (size_t)el > n - 8) return false;
  *size = s;
  etag->assign((const char*)p + 12, el);
  head->assign((const char*)p + 12 + el, n - 8 - 12 - el);
  return true;
}

bool checkpoint_source::parse_shard_head(int si, stream_error* e) {
  shard_state& s = shards_[si];
  uint64_t n = 0;
  std::string err;
  read_error reason;
  if (!st_header_length((const unsigned char*)s.head.data(), s.size, s.file, &n, &err, &reason) ||
      s.head.size() < 8 + n) {
    *e = format_error(STREAM_FORMAT, reason.set() ? reason : read_error_at("", STR_READ_ST_CUT_SHORT));
    return false;
  }
  st_file sf;
  if (!st_parse_header(s.head.data() + 8, (size_t)n, s.size, s.file, &sf, &err, &reason) ||
      !ckpt_add_file(&ck_, std::move(sf), &err, &reason)) {
    *e = format_error(STREAM_FORMAT, reason);
    return false;
  }
  s.parsed = true;
  return true;
}

void checkpoint_source::on_head(const fetch_response& r, fetch_item* it, const item_info& in) {
  shard_state& s = shards_[in.shard];
  const size_t idx = (size_t)(it - queue_.items.data());
  stream_error e;
  if (r.from_cache) {  // an offline visit: the record of a header verified before
    if (in.kind != ITEM_HEAD || !head_record_open(r.body, r.n, &s.etag, &s.size, &s.head)) return fetch_queue_refetch(it);
  } else if (r.status == 404 && single_file_ && in.kind == ITEM_HEAD) {
    // No model.safetensors either: a checkpoint that has only pytorch_model.bin, or nothing.
    fetch_queue_done(&queue_, it);
    add_item(ITEM_BIN, model_location_file_url(where_, kBinFile), 0, 1, "", false, {});
    return;
  } else if (r.status != 200 && r.status != 206) {
    return fail_open(s.file, s.url, stream_error_from_status(r.status, r.error));
  } else {
    const uint64_t begin = it->request.begin;
    const unsigned char* body = (const unsigned char*)r.body;
    size_t n = r.n;
    if (r.status == 206) {
      if (r.content_range_start != begin) return fail_open(s.file, s.url, format_error(STREAM_WRONG_RANGE, ""));
    } else {  // 200: the whole file, from a host that ignores Range (small files only get this far)
      if (n < begin) return fail_open(s.file, s.url, format_error(STREAM_TRUNCATED, ""));
      body += begin;
      n -= (size_t)begin;
      if (n > it->request.length) n = (size_t)it->request.length;
    }
    const uint64_t size = r.status == 200 ? r.n : r.total_size;
    if (size == 0)
      return fail_open(s.file, s.url, format_error(STREAM_FORMAT, read_error_at("", STR_READ_NO_CONTENT_RANGE)));
    if (in.kind == ITEM_HEAD) {
      s.size = size;
      s.etag = r.etag;
      s.head.assign((const char*)body, n);
    } else {
      if (size != s.size || (!r.etag.empty() && etag_core(r.etag) != etag_core(s.etag)))
        return fail_open(s.file, s.url, format_error(STREAM_CHECKSUM, "the file changed on the host while its header was read"));
      if (n < it->request.length) return fail_open(s.file, s.url, format_error(STREAM_TRUNCATED, ""));
      s.head.append((const char*)body, it->request.length);
    }
    if (s.head.size() < 8) return fail_open(s.file, s.url, format_error(STREAM_FORMAT, read_error_at("", STR_READ_ST_SHORTER_THAN_8)));
    uint64_t hn = 0;
    std::string err;
    read_error reason;
    if (!st_header_length((const unsigned char*)s.head.data(), s.size, s.file, &hn, &err, &reason))
      return fail_open(s.file, s.url, format_error(STREAM_FORMAT, reason));
    if (s.head.size() < 8 + hn) {
      if (in.kind == ITEM_HEAD_REST) return fail_open(s.file, s.url, format_error(STREAM_TRUNCATED, ""));
      fetch_queue_done(&queue_, it);
      item_info rest = in;
      const uint64_t have = s.head.size();
      add_item(ITEM_HEAD_REST, s.url, have, 8 + hn - have, "", false, rest);
      return;
    }
    s.head.resize((size_t)(8 + hn));
  }
  if (!parse_shard_head(in.shard, &e)) return fail_open(s.file, s.url, e);
  if (!r.from_cache) {
    const std::string key = s.url + "#safetensors-header";
    const std::string rec = head_record(s.etag, s.size, s.head);
    client_->cache_store(this, key, rec.data(), rec.size());
  }
  std::string().swap(s.head);  // parsed: up to 100 MB need not stay
  fetch_queue_done(&queue_, &queue_.items[idx]);
  maybe_finish_open();
}

void checkpoint_source::on_bin(const fetch_response& r) {
  const std::string url = model_location_file_url(where_, kSingleFile);
  if (r.status == 200 || r.status == 206)
    return fail_open(kBinFile, model_location_file_url(where_, kBinFile), format_error(STREAM_NO_SAFETENSORS, ""));
  stream_error e = stream_error_from_status(404, "");
  fail_open(kSingleFile, url, e);
}

// A layer's MLP needs all three matrices, readable and shaped as config.json says.
bool checkpoint_source::check_model(stream_error* e, std::string* file) {
  const model_config& c = ck_.config;
  std::string err;
  read_error reason;
  const st_tensor* t;
  auto check = [&](const std::string& name, const std::vector<int64_t>& shape) {
    if (ckpt_check_tensor(ck_, name, shape, &t, &err, &reason)) return true;
    *file = ckpt_file_of(ck_, name);
    const st_tensor* raw = ck_.find(name);
    if (raw && st_dtype_bytes(raw->dtype) == 0) *e = format_error(STREAM_UNREADABLE_DTYPE, raw->dtype_name);
    else *e = format_error(STREAM_FORMAT, reason);
    if (file->empty()) *file = kConfigFile;
    return false;
  };
  if (!check(ckpt_embed_name(ck_), {c.vocab, c.hidden}) || !check(ckpt_post_norm_name(ck_, 0), {c.hidden})) return false;
  for (int l = 0; l < c.layers; l++) {
    if (!ck_.find(ckpt_mlp_name(ck_, l, CKPT_GATE))) continue;
    if (!check(ckpt_mlp_name(ck_, l, CKPT_GATE), {c.intermediate, c.hidden}) ||
        !check(ckpt_mlp_name(ck_, l, CKPT_UP), {c.intermediate, c.hidden}) ||
        !check(ckpt_mlp_name(ck_, l, CKPT_DOWN), {c.hidden, c.intermediate}))
      return false;
    model_.layers.push_back(l);
  }
  if (model_.layers.empty()) {
    // Say what the checkpoint has instead: experts, int4 (GPTQ / AWQ) weights, or no SwiGLU at all.
    *file = shards_.empty() ? kConfigFile : shards_[0].file;
    for (const auto& n : ck_.tensors) {
      if (n.first.find(".mlp.experts.") != std::string::npos) return *e = format_error(STREAM_MIXTURE_OF_EXPERTS, ""), false;
      if (n.first.find("gate_proj.qweight") != std::string::npos)
        return *e = format_error(STREAM_UNREADABLE_DTYPE, "int4 (GPTQ/AWQ qweight)"), false;
    }
    *e = format_error(STREAM_NOT_SWIGLU, read_error_at("", STR_READ_NO_TENSOR, {ckpt_mlp_name(ck_, 0, CKPT_GATE)}));
    return false;
  }
  return true;
}

// No ids= for a real model: the lesson's sentence through the checkpoint's own tokenizer.json
// (fetched once the model is known to be readable). False while waiting, or with *e set.
bool checkpoint_source::lesson_probe(stream_error* e) {
  if (!sentence_) {
    sentence_.reset(new sentence_tokenizer(client_, options_.tokenizer, where_));
    sentence_->request(tr(STR_LESSON_SENTENCE), SENTENCE_MAX_TOKENS);
  }
  sentence_->pump();
  if (sentence_->state() == SENTENCE_FAILED) {
    *e = format_error(STREAM_NEEDS_IDS, sentence_failure_text(*sentence_));
    sentence_.reset();  // Retry asks again
    return false;
  }
  if (sentence_->state() != SENTENCE_DONE) return false;
  probes_.push_back({tr(STR_LESSON_SENTENCE), sentence_->answer().ids, sentence_->answer().pieces});
  return true;
}

void checkpoint_source::maybe_finish_open() {
  if (phase_ != SOURCE_OPENING || !config_done_ || !index_done_ || shards_.empty()) return;
  for (const shard_state& s : shards_)
    if (!s.parsed) return;
  std::string err;
  stream_error e;
  if (!model_checked_) {  // once: a wait for the tokenizer comes back here
    read_error reason;
    if (!ckpt_finish(&ck_, weight_map_, &err, &reason))
      return fail_open(single_file_ ? kSingleFile : CKPT_INDEX_FILE, model_location_file_url(where_, single_file_ ? kSingleFile : CKPT_INDEX_FILE),
                       format_error(STREAM_FORMAT, reason));
    std::string file;
    if (!check_model(&e, &file)) return fail_open(file, model_location_file_url(where_, file), e);
    model_checked_ = true;
  }
  const model_config& c = ck_.config;
  probes_ = options_.probes;
  // The link's ids= outside this model's vocabulary: the lesson's sentence instead (the page says
  // which id), never a failure that blames another file.
  model_.vocab = c.vocab;
  model_.refused_id = -1;
  for (const source_probe& p : probes_)
    for (int64_t id : p.tokens)
      if ((id < 0 || id >= c.vocab) && model_.refused_id < 0) model_.refused_id = id;
  if (model_.refused_id >= 0) probes_.clear();
  if (probes_.empty()) {
    if (c.synthetic) {
      probes_.push_back(checkpoint_default_synthetic_probe());
    } else if (!lesson_probe(&e)) {  // waiting for the tokenizer, or it has none
      if (e.failed()) fail_open(SENTENCE_TOKENIZER_FILE, model_location_file_url(where_, SENTENCE_TOKENIZER_FILE), e);
      return;
    }
  }
  for (const source_probe& p : probes_) {
    if (p.tokens.empty() || p.tokens.size() > PACK_MAX_TOKENS)
      return fail_open(kConfigFile, model_location_file_url(where_, kConfigFile),
                       format_error(STREAM_NEEDS_IDS, read_error_at("", STR_READ_PROBE_TOKENS, {std::to_string((int)PACK_MAX_TOKENS)})));
    for (int64_t id : p.tokens)  // now only the tokenizer's own ids: a tokenizer.json of another model
      if (id < 0 || id >= c.vocab)
        return fail_open(SENTENCE_TOKENIZER_FILE, model_location_file_url(where_, SENTENCE_TOKENIZER_FILE),
                         format_error(STREAM_NEEDS_IDS, read_error_at("", STR_READ_TOKENIZER_VOCAB,
                                                                      {std::to_string(id), std::to_string(c.vocab - 1)})));
  }
  model_.model_id = where_.hub ? where_.id() : !c.name_or_path.empty() ? c.name_or_path : where_.text;
  model_.revision = where_.hub ? where_.revision : "";
  model_.synthetic = c.synthetic;
  model_.hidden = c.hidden;
  model_.intermediate = c.intermediate;
  model_.num_layers = c.layers;
  model_.probes = probes_;
  build_items();
  phase_ = SOURCE_READY;
  generation_++;
}

// [SECTION] ready: the tensors' ranges

std::string checkpoint_source::tensor_key(int shard, const std::string& what) const {
  const shard_state& s = shards_[shard];
  return s.url + "|" + (s.etag.empty() ? "size " + std::to_string(s.size) : "etag " + etag_core(s.etag)) + "|" + what;
}

static int shard_of(const std::vector<std::string>& files, const std::string& file) {
  for (size_t i = 0; i < files.size(); i++)
    if (files[i] == file) return (int)i;
  return -1;
}

void checkpoint_source::build_items() {
  // The opening items are done; keep them (their counts) but they are never needed again.
  for (fetch_item& it : queue_.items) it.needed = false;
  std::vector<std::string> files;
  for (const shard_state& s : shards_) files.push_back(s.file);
  const model_config& c = ck_.config;
  const std::string embed = ckpt_embed_name(ck_);
  const st_tensor* et = ck_.find(embed);
  const int es = shard_of(files, ckpt_file_of(ck_, embed));
  const uint64_t row_bytes = (uint64_t)c.hidden * st_dtype_bytes(et->dtype);
  // Consecutive ids (the synthetic default's 1..6, a repeated word) share one range.
  std::vector<int64_t> ids;
  for (const source_probe& p : probes_) ids.insert(ids.end(), p.tokens.begin(), p.tokens.end());
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  for (size_t i = 0; i < ids.size();) {
    size_t j = i + 1;
    while (j < ids.size() && ids[j] == ids[j - 1] + 1) j++;
    item_info in;
    in.shard = es;
    in.token = ids[i];
    in.count = (int)(j - i);
    add_item(ITEM_EMBED, shards_[es].url, et->begin + (uint64_t)ids[i] * row_bytes, row_bytes * in.count,
             tensor_key(es, embed + "|rows " + std::to_string(ids[i]) + "+" + std::to_string(in.count)), true, in);
    i = j;
  }
  const std::string norm = ckpt_post_norm_name(ck_, 0);
  const st_tensor* nt = ck_.find(norm);
  item_info nin;
  nin.shard = shard_of(files, ckpt_file_of(ck_, norm));
  add_item(ITEM_NORM, shards_[nin.shard].url, nt->begin, nt->end - nt->begin, tensor_key(nin.shard, norm), true, nin);

  layers_.assign(model_.layers.size(), layer_state());
  for (size_t li = 0; li < model_.layers.size(); li++) {
    layers_[li].layer = model_.layers[li];
    for (int part = 0; part < MLP_PART_COUNT; part++) {
      matrix_state& m = layers_[li].part[part];
      m.tensor = ckpt_mlp_name(ck_, model_.layers[li], (ckpt_mlp_part)part);
      const st_tensor* t = ck_.find(m.tensor);
      m.shard = shard_of(files, ckpt_file_of(ck_, m.tensor));
      m.rows = (int)t->shape[0];
      m.cols = (int)t->shape[1];
      m.dtype = t->dtype;
      m.bytes = q8_matrix_blob_bytes(m.rows, m.cols);
      m.chunks = tensor_chunk_plan(t->begin, m.rows, m.cols, st_dtype_bytes(t->dtype), options_.chunk_bytes);
      m.chunk_done.assign(m.chunks.size(), false);
      for (size_t ci = 0; ci < m.chunks.size(); ci++) {
        const tensor_chunk& ch = m.chunks[ci];
        item_info in;
        in.shard = m.shard;
        in.layer_index = (int)li;
        in.part = part;
        in.chunk = (int)ci;
        add_item(ITEM_CHUNK, shards_[m.shard].url, ch.begin, ch.bytes,
                 tensor_key(m.shard, m.tensor + "|q8 rows " + std::to_string(ch.row0) + "+" + std::to_string(ch.rows)), true, in);
        queue_.items.back().needed = false;
      }
    }
  }
  inputs_.assign(probes_.size(), {});
}

void checkpoint_source::want(const std::vector<int>& result_layers, int whole_layer) {
  want_results_.clear();
  for (int l : result_layers) {
    const int i = model_.find_layer(l);
    if (i >= 0 && std::find(want_results_.begin(), want_results_.end(), i) == want_results_.end()) want_results_.push_back(i);
  }
  want_whole_ = whole_layer >= 0 ? model_.find_layer(whole_layer) : -1;
}

// Inputs first, then the whole layer's gate, up, down, then the other gates in the order the view
// lists them; a matrix's chunks in file order (items are listed that way).
void checkpoint_source::mark_needs() {
  for (size_t i = 0; i < queue_.items.size(); i++) {
    fetch_item& it = queue_.items[i];
    const item_info& in = info_[i];
    if (in.kind == ITEM_EMBED || in.kind == ITEM_NORM) {
      it.needed = it.state != FETCH_ITEM_DONE;
      it.priority = 0;
      continue;
    }
    if (in.kind != ITEM_CHUNK) continue;
    const matrix_state& m = layers_[in.layer_index].part[in.part];
    // Chunks of an evicted matrix are fetched again (from the cache) when needed; one whose bytes
    // wait for conversion is not.
    if (it.state == FETCH_ITEM_DONE && !m.chunk_done[in.chunk] && !converting((int)i)) it.state = FETCH_ITEM_IDLE;
    it.needed = false;
    if (m.complete || m.chunk_done[in.chunk]) continue;
    const auto wanted = std::find(want_results_.begin(), want_results_.end(), in.layer_index);
    if (in.layer_index == want_whole_) {
      it.needed = true;
      it.priority = 2 + in.part;
    } else if (in.part == MLP_GATE && wanted != want_results_.end()) {
      it.needed = true;
      it.priority = 5 + (int)(wanted - want_results_.begin());
    }
  }
}

bool checkpoint_source::layer_loading(int li) const {
  for (size_t i = 0; i < queue_.items.size(); i++)
    if (info_[i].kind == ITEM_CHUNK && info_[i].layer_index == li &&
        (queue_.items[i].state == FETCH_ITEM_LOADING || converting((int)i)))
      return true;
  return false;
}

bool checkpoint_source::converting(int item) const {
  for (const convert_job& j : jobs_)
    if (j.item == item) return true;
  return false;
}

void checkpoint_source::free_matrix(matrix_state* m) {
  if (m->blob) ::operator delete(m->blob, std::align_val_t(Q8_ALIGN));
  m->blob = nullptr;
  m->complete = false;
  m->done = 0;
  m->chunk_done.assign(m->chunks.size(), false);
  m->view = q8_matrix_view{};
}

// Room for the matrix this chunk fills (layer_room_make). A matrix being filled counts whole from
// its first chunk on. (Only that matrix: counting the layer's unwanted up / down too stalled a
// Llama-3-8B-sized gate after its first chunk.)
bool checkpoint_source::make_room(int for_layer, int part) {
  const matrix_state& filling = layers_[for_layer].part[part];
  layer_room r;
  r.budget = options_.resident_bytes;
  r.next = filling.blob ? 0 : filling.bytes;
  r.for_layer = for_layer, r.want_whole = want_whole_, r.want_results = &want_results_;
  r.occupied = [&]() { return resident_bytes(); };
  r.may_free = [&](int l) {
    const layer_state& L = layers_[l];
    return (L.part[0].blob || L.part[1].blob || L.part[2].blob) && !layer_loading(l);
  };
  r.last_used = [&](int l) { return layers_[l].last_used; };
  r.free = [&](int l) {
    for (matrix_state& m : layers_[l].part) free_matrix(&m);
    generation_++;
  };
  return layer_room_make((int)layers_.size(), r);
}

void checkpoint_source::pump(double now) {
  if (phase_ == SOURCE_FAILED || phase_ == SOURCE_EMPTY) return;
  if (phase_ == SOURCE_READY) convert_some();
  if (phase_ == SOURCE_READY) mark_needs();
  int loading = fetch_queue_expire(&queue_, now);
  if (phase_ == SOURCE_OPENING && sentence_) maybe_finish_open();  // the tokenizer's answer may be in
  if (phase_ == SOURCE_OPENING) {  // a stalled opening request fails the whole opening
    for (size_t i = 0; i < queue_.items.size(); i++)
      if (queue_.items[i].state == FETCH_ITEM_FAILED) {
        const fetch_item& it = queue_.items[i];
        const std::string file = info_[i].shard >= 0 ? shards_[info_[i].shard].file
                                 : info_[i].kind == ITEM_CONFIG ? kConfigFile : info_[i].kind == ITEM_INDEX ? CKPT_INDEX_FILE : kBinFile;
        return fail_open(file, it.request.url, it.error);
      }
  }
  while (loading < queue_.max_in_flight) {
    fetch_item* it = fetch_queue_next(&queue_);
    if (!it) break;
    const item_info& in = info_[it->owner_tag];
    if (in.kind == ITEM_CHUNK) {
      if ((int)jobs_.size() >= queue_.max_in_flight) break;  // their bytes wait for conversion first
      if (!make_room(in.layer_index, in.part)) break;
      matrix_state& m = layers_[in.layer_index].part[in.part];
      if (!m.blob) {
        m.blob = ::operator new(m.bytes, std::align_val_t(Q8_ALIGN));
        q8_matrix_begin(m.rows, m.cols, m.blob);
      }
      layers_[in.layer_index].last_used = ++use_clock_;
    }
    fetch_queue_start(&queue_, it, now);
    loading++;
  }
}

void checkpoint_source::on_fetch_progress(uint32_t id, uint64_t loaded, double now) {
  fetch_item* it = fetch_queue_find(&queue_, id);
  if (!it) return;
  // A host that ignores Range sends the whole file: stop after one chunk's worth.
  const uint64_t limit = std::max<uint64_t>(it->request.length, options_.chunk_bytes) + kRangeSlack;
  if (it->request.length > 0 && loaded > limit) {
    client_->fetch_cancel(id);
    const int idx = it->owner_tag;
    fetch_queue_fail(&queue_, it, format_error(STREAM_NO_RANGE, ""));
    if (phase_ == SOURCE_OPENING) {
      const item_info& in = info_[idx];
      fail_open(in.shard >= 0 ? shards_[in.shard].file : kBinFile, queue_.items[idx].request.url, format_error(STREAM_NO_RANGE, ""));
    }
    return;
  }
  fetch_queue_on_progress(&queue_, id, loaded, now);
}

// The requested range out of a network answer: the range itself (206), or a slice of a small
// whole file (200 from a host that ignores Range; a large one was stopped in on_fetch_progress).
// The file's size and ETag must be those its header came with.
const unsigned char* checkpoint_source::range_bytes(const fetch_item& it, const fetch_response& r, stream_error* e) const {
  const shard_state& s = shards_[info_[it.owner_tag].shard];
  const unsigned char* body = (const unsigned char*)r.body;
  const uint64_t begin = it.request.begin, want = it.request.length;
  if (r.status == 206) {
    if (r.content_range_start != begin) return *e = format_error(STREAM_WRONG_RANGE, ""), nullptr;
    if (r.n < want) return e->fault = STREAM_TRUNCATED, e->got = r.n, e->want = want, nullptr;
    if ((r.total_size && r.total_size != s.size) || (!r.etag.empty() && !s.etag.empty() && etag_core(r.etag) != etag_core(s.etag)))
      return *e = format_error(STREAM_CHECKSUM, "the file changed on the host since its header was read"), nullptr;
    return body;
  }
  if (r.status == 200) {
    if (r.n > want + std::max<uint64_t>(want, options_.chunk_bytes) + kRangeSlack) return *e = format_error(STREAM_NO_RANGE, ""), nullptr;
    if (r.n != s.size) return *e = format_error(STREAM_CHECKSUM, "the file changed on the host since its header was read"), nullptr;
    if (r.n < begin + want) return e->fault = STREAM_TRUNCATED, e->got = r.n, e->want = begin + want, nullptr;
    return body + begin;
  }
  *e = stream_error_from_status(r.status, r.error);
  return nullptr;
}

// An embedding row, the norm or a chunk of a matrix: verified, converted, kept, cached.
// False with *e when the answer is unusable (a bad cached record is refetched by the caller).
bool checkpoint_source::on_tensor_answer(fetch_item* it, const item_info& in, const fetch_response& r, stream_error* e) {
  const model_config& c = ck_.config;
  if (in.kind == ITEM_EMBED || in.kind == ITEM_NORM) {
    const st_tensor* t = ck_.find(in.kind == ITEM_EMBED ? ckpt_embed_name(ck_) : ckpt_post_norm_name(ck_, 0));
    const size_t n = (size_t)it->request.length;
    const unsigned char* raw;
    if (r.from_cache) {
      if (!checked_record_open(r.body, r.n, n, &raw)) return false;
    } else if (!(raw = range_bytes(*it, r, e))) {
      return false;
    }
    const int rows = in.kind == ITEM_EMBED ? in.count : 1;
    std::vector<float> v((size_t)c.hidden * rows);
    dtype_to_f32(t->dtype, raw, v.size(), v.data());
    for (float x : v)
      if (!std::isfinite(x)) return *e = format_error(STREAM_FORMAT, read_error_at(t->name, STR_READ_NOT_FINITE)), false;
    if (in.kind == ITEM_NORM) norm_ = std::move(v);
    for (int k = 0; k < rows && in.kind == ITEM_EMBED; k++)
      embed_rows_[in.token + k].assign(v.begin() + (size_t)k * c.hidden, v.begin() + (size_t)(k + 1) * c.hidden);
    if (!r.from_cache) {
      const std::string rec = checked_record(raw, n);
      client_->cache_store(this, it->request.cache_key, rec.data(), rec.size());
    }
    return true;
  }
  matrix_state& m = layers_[in.layer_index].part[in.part];
  const tensor_chunk& ch = m.chunks[in.chunk];
  if (!m.blob) return *e = format_error(STREAM_CANCELLED, ""), false;  // evicted while in flight
  if (!r.from_cache) {  // verified here, converted by pump a slice at a time (convert_some)
    const unsigned char* raw = range_bytes(*it, r, e);
    if (!raw) return false;
    convert_job j;
    j.item = it->owner_tag;
    j.raw.assign((const char*)raw, (size_t)ch.bytes);
    jobs_.push_back(std::move(j));
    return true;
  }
  if (!tensor_chunk_from_record(r.body, r.n, ch, m.rows, m.cols, m.blob)) return false;
  if (!finish_chunk(in)) return *e = format_error(STREAM_FORMAT, read_error_at(m.tensor, STR_READ_CONVERTED_Q8)), false;
  return true;
}

// The chunk's rows are all in the blob: counted, and the matrix usable once every chunk is.
bool checkpoint_source::finish_chunk(const item_info& in) {
  matrix_state& m = layers_[in.layer_index].part[in.part];
  if (!m.chunk_done[in.chunk]) {
    m.chunk_done[in.chunk] = true;
    m.done++;
  }
  if (m.done == (int)m.chunks.size()) {
    if (q8_matrix_parse(m.blob, m.bytes, &m.view) != Q8_OK) return false;
    m.complete = true;
  }
  layers_[in.layer_index].last_used = ++use_clock_;
  return true;
}

// Converts queued chunks a slice of rows at a time until the time budget is spent (at least one
// slice; one slice only without a clock). A finished chunk goes to the cache and counts.
void checkpoint_source::convert_some() {
  if (jobs_.empty()) return;
  const double t0 = options_.clock ? options_.clock() : 0;
  while (!jobs_.empty()) {
    convert_job& j = jobs_.front();
    fetch_item* it = &queue_.items[j.item];
    const item_info in = info_[j.item];
    matrix_state& m = layers_[in.layer_index].part[in.part];
    const tensor_chunk& ch = m.chunks[in.chunk];
    if (!m.blob) {  // evicted meanwhile (make_room spares a layer with a job; kept as a guard)
      it->state = FETCH_ITEM_IDLE;
      jobs_.pop_front();
      continue;
    }
    const int n = std::min(ch.rows - j.next, tensor_chunk_slice_rows(m.cols, options_.slice_elements));
    std::string err;
    if (!tensor_chunk_convert_rows(m.dtype, j.raw.data(), ch, j.next, n, m.rows, m.cols, m.blob, &scratch_, &err)) {
      fetch_queue_fail(&queue_, it, format_error(STREAM_FORMAT, read_error_at(m.tensor, STR_READ_CHUNK_UNREADABLE)));
      jobs_.pop_front();
      generation_++;
    } else if ((j.next += n) == ch.rows) {
      const std::string rec = tensor_chunk_record(m.blob, ch, m.rows, m.cols);
      client_->cache_store(this, it->request.cache_key, rec.data(), rec.size());
      jobs_.pop_front();
      if (!finish_chunk(in))
        fetch_queue_fail(&queue_, it, format_error(STREAM_FORMAT, read_error_at(m.tensor, STR_READ_CONVERTED_Q8)));
      generation_++;
    }
    if (!options_.clock || options_.clock() - t0 >= options_.convert_budget_seconds) break;
  }
  if (options_.clock) {
    const double spent = options_.clock() - t0;
    convert_seconds_ += spent;
    convert_max_seconds_ = std::max(convert_max_seconds_, spent);
  }
}

void checkpoint_source::compute_inputs() {
  if (norm_.empty()) return;
  const model_config& c = ck_.config;
  for (size_t p = 0; p < probes_.size(); p++) {
    if (!inputs_[p].empty()) continue;
    const std::vector<int64_t>& ids = probes_[p].tokens;
    std::vector<float> emb(ids.size() * (size_t)c.hidden);
    bool all = true;
    for (size_t t = 0; t < ids.size() && all; t++) {
      auto row = embed_rows_.find(ids[t]);
      if (row == embed_rows_.end()) all = false;
      else std::copy(row->second.begin(), row->second.end(), emb.begin() + t * (size_t)c.hidden);
    }
    if (!all) continue;
    inputs_[p].resize(emb.size());
    pack_probe_input(emb.data(), (int)ids.size(), (int)c.hidden, norm_.data(), c.norm, c.rms_norm_eps, inputs_[p].data());
  }
}

void checkpoint_source::on_fetch_response(uint32_t id, const fetch_response& r, double now) {
  (void)now;
  fetch_item* it = fetch_queue_find(&queue_, id);
  if (!it) return;  // cancelled, superseded, or another source's late answer
  fetch_queue_count(&queue_, r);
  const item_info in = info_[it->owner_tag];
  switch (in.kind) {
    case ITEM_CONFIG: return on_config(r, it);
    case ITEM_INDEX: return on_index(r, it);
    case ITEM_HEAD:
    case ITEM_HEAD_REST: return on_head(r, it, in);
    case ITEM_BIN: return on_bin(r);
    default: break;
  }
  stream_error e;
  if (!on_tensor_answer(it, in, r, &e)) {
    if (r.from_cache && !e.failed()) return fetch_queue_refetch(it);  // a bad cached copy: ask the network
    if (!e.failed()) e = format_error(STREAM_FORMAT, read_error_at("", STR_READ_UNREADABLE_ANSWER));
    return fetch_queue_fail(&queue_, it, e);
  }
  fetch_queue_done(&queue_, it);
  compute_inputs();
  generation_++;
}

void checkpoint_source::cancel() {
  if (phase_ == SOURCE_OPENING) {
    fetch_queue_cancel(&queue_);
    return fail_open(kConfigFile, model_location_file_url(where_, kConfigFile), format_error(STREAM_CANCELLED, ""));
  }
  fetch_queue_cancel(&queue_);
}

void checkpoint_source::retry(double now) {
  if (phase_ == SOURCE_FAILED) return open(now);
  fetch_queue_retry(&queue_);
  pump(now);
}

// [SECTION] what the lesson reads

const std::vector<float>* checkpoint_source::probe_input(int probe) const {
  if (phase_ != SOURCE_READY || probe < 0 || probe >= (int)inputs_.size() || inputs_[probe].empty()) return nullptr;
  return &inputs_[probe];
}

const q8_matrix_view* checkpoint_source::matrix(int layer, mlp_part part) {
  const int li = phase_ == SOURCE_READY ? model_.find_layer(layer) : -1;
  if (li < 0 || !layers_[li].part[part].complete) return nullptr;
  layers_[li].last_used = ++use_clock_;
  return &layers_[li].part[part].view;
}

source_progress checkpoint_source::progress(int layer) const {
  source_progress p;
  const int li = layer >= 0 ? model_.find_layer(layer) : -1;
  if (layer >= 0 && li < 0) return p;
  for (size_t i = 0; i < queue_.items.size(); i++) {
    const fetch_item& it = queue_.items[i];
    const item_info& in = info_[i];
    if (li >= 0 && in.layer_index != li) continue;
    bool done = it.state == FETCH_ITEM_DONE;
    if (in.kind == ITEM_CHUNK) {
      const matrix_state& m = layers_[in.layer_index].part[in.part];
      done = m.chunk_done[in.chunk];
      const bool wanted = in.layer_index == want_whole_ ||
                          (in.part == MLP_GATE && std::find(want_results_.begin(), want_results_.end(), in.layer_index) != want_results_.end());
      const bool converting_now = converting((int)i);
      if (!wanted && it.state != FETCH_ITEM_LOADING && it.state != FETCH_ITEM_FAILED && !converting_now) continue;
      if (converting_now) {  // its bytes are in; the page still works on it (frames go on)
        p.total += it.bytes;
        p.loaded += it.bytes;
        p.converting++;
        continue;
      }
    } else if (!done && !it.needed && it.state != FETCH_ITEM_LOADING && it.state != FETCH_ITEM_FAILED) {
      continue;
    }
    source_progress_add(&p, it, done);
  }
  p.paused = queue_.paused;
  return p;
}

std::vector<source_failure> checkpoint_source::failures() const {
  std::vector<source_failure> out;
  if (phase_ == SOURCE_FAILED) out.push_back(open_failure_);
  for (size_t i = 0; i < queue_.items.size(); i++) {
    const fetch_item& it = queue_.items[i];
    if (it.state != FETCH_ITEM_FAILED) continue;
    source_failure_add(&out, {shards_[info_[i].shard].file, it.request.url, it.error});
  }
  return out;
}

uint64_t checkpoint_source::resident_bytes() const {
  uint64_t b = 0;
  for (const layer_state& L : layers_)
    for (const matrix_state& m : L.part) b += m.blob ? m.bytes : 0;
  return b;
}

uint64_t checkpoint_source::tensor_bytes_wanted() const {
  uint64_t b = 0;
  for (size_t i = 0; i < queue_.items.size(); i++) {
    const item_info& in = info_[i];
    if (in.kind == ITEM_EMBED || in.kind == ITEM_NORM) b += queue_.items[i].bytes;
    if (in.kind != ITEM_CHUNK) continue;
    const bool wanted = in.layer_index == want_whole_ ||
                        (in.part == MLP_GATE && std::find(want_results_.begin(), want_results_.end(), in.layer_index) != want_results_.end());
    if (wanted) b += queue_.items[i].bytes;
  }
  return b;
}
