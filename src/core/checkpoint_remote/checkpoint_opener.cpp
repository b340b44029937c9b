// Opening a checkpoint by byte ranges (see checkpoint_opener.h).
#include "core/checkpoint_remote/checkpoint_opener.h"

#include <algorithm>
#include <cctype>

#include "core/checkpoint_remote/tensor_chunks.h"
#include "core/base/json_read.h"

static const char kConfigFile[] = "config.json";
static const char kSingleFile[] = "model.safetensors";
static const char kBinFile[] = "pytorch_model.bin";
// config.json has about a hundred values, an index two a tensor: the parse's tree stays small (and
// an index of too many tensors is still told by its count, CKPT_MAX_TENSORS).
static const size_t kConfigMaxValues = 1u << 16;
static const size_t kIndexMaxValues = 4u * CKPT_MAX_TENSORS;
// A header that changes again each time it is read again: the host keeps replacing the file.
static const int kMaxRereads = 3;

int checkpoint_opened::shard_of(const std::string& tensor) const {
  auto it = ck.tensors.find(tensor);
  return it == ck.tensors.end() ? -1 : (int)it->second.first;
}

checkpoint_opener::checkpoint_opener(fetch_client* client, const model_location& where, double now,
                                     checkpoint_opener_options options)
    : client_(client), where_(where), options_(options) {
  queue_.client = client;
  queue_.sink = this;
  queue_.stall_seconds = options.stall_seconds;
  restart(now);
}

checkpoint_opener::~checkpoint_opener() {
  fetch_queue_close(&queue_);
  client_->forget_sink(this);
}

void checkpoint_opener::add_item(item_kind kind, int shard, const std::string& url, uint64_t begin, uint64_t length,
                                 uint64_t max_bytes, const std::string& cache_key) {
  fetch_item it;
  it.request.url = url;
  it.request.begin = begin;
  it.request.length = length;
  it.request.cache_key = cache_key;  // network first; the verified copy only when offline
  it.request.max_bytes = max_bytes;
  it.request.fresh = true;
  it.bytes = length;
  it.owner_tag = (int)info_.size();
  it.needed = true;
  queue_.items.push_back(it);
  info_.push_back({kind, shard});
}

void checkpoint_opener::restart(double now) {
  (void)now;
  fetch_queue_close(&queue_);
  info_.clear();
  shards_.clear();
  weight_map_.clear();
  config_ = model_config();
  opened_ = checkpoint_opened();
  config_done_ = index_done_ = false;
  failure_ = waiting_failure_ = opener_failure();
  failure_waits_ = false;
  state_ = OPENER_WORKING;
  const std::string cfg = model_location_file_url(where_, kConfigFile), idx = model_location_file_url(where_, CKPT_INDEX_FILE);
  add_item(ITEM_CONFIG, -1, cfg, 0, 0, CKPT_CONFIG_MAX_BYTES, cfg);
  add_item(ITEM_INDEX, -1, idx, 0, 0, CKPT_INDEX_PAGE_MAX_BYTES, idx);
}

void checkpoint_opener::fail(const std::string& file, const std::string& url, const stream_error& e) {
  if (state_ == OPENER_FAILED) return;
  // config.json says what the checkpoint is: another file's failure waits for its answer, so that a
  // config that cannot be read is the failure named, whichever answer came first.
  if (!config_done_ && file != kConfigFile && e.fault != STREAM_CANCELLED) {
    if (!failure_waits_) waiting_failure_ = {file, url, e}, failure_waits_ = true;
    return;
  }
  failure_ = {file, url, e};
  state_ = OPENER_FAILED;
  fetch_queue_close(&queue_);
  info_.clear();
}

void checkpoint_opener::cancel() {
  if (state_ != OPENER_WORKING) return;
  fetch_queue_cancel(&queue_);
  fail(kConfigFile, model_location_file_url(where_, kConfigFile), stream_error_of(STREAM_CANCELLED));
}

int checkpoint_opener::files_done() const {
  int n = 0;
  for (const fetch_item& it : queue_.items) n += it.state == FETCH_ITEM_DONE;
  return n;
}

void checkpoint_opener::pump(double now) {
  if (state_ != OPENER_WORKING) return;
  int loading = fetch_queue_expire(&queue_, now);
  for (size_t i = 0; i < queue_.items.size(); i++) {
    const fetch_item& it = queue_.items[i];
    if (it.state != FETCH_ITEM_FAILED) continue;
    const item_kind k = info_[i].first;
    if (failure_waits_ && k != ITEM_CONFIG) continue;  // a failure already waits for config.json's answer
    const std::string file = info_[i].second >= 0 ? shards_[info_[i].second].id.file
                             : k == ITEM_CONFIG   ? kConfigFile
                             : k == ITEM_INDEX    ? CKPT_INDEX_FILE
                                                  : kBinFile;
    return fail(file, it.request.url, it.error);  // a stalled request fails the whole opening
  }
  while (loading < queue_.max_in_flight) {
    fetch_item* it = fetch_queue_next(&queue_);
    if (!it) break;
    fetch_queue_start(&queue_, it, now);
    loading++;
  }
}

void checkpoint_opener::on_fetch_progress(uint32_t id, uint64_t loaded, double now) {
  fetch_queue_on_progress(&queue_, id, loaded, now);
}

void checkpoint_opener::on_fetch_response(uint32_t id, const fetch_response& r, double now) {
  (void)now;
  fetch_item* it = fetch_queue_find(&queue_, id);
  if (!it) return;  // cancelled or superseded
  fetch_queue_count(&queue_, r);
  const auto in = info_[it->owner_tag];
  // A 429 with a Retry-After: asked again once it has passed.
  if (!r.from_cache && r.status == 429 && fetch_queue_retry_later(&queue_, it, r)) return;
  switch (in.first) {
    case ITEM_CONFIG: return on_config(r, it);
    case ITEM_INDEX: return on_index(r, it);
    case ITEM_HEAD:
    case ITEM_HEAD_REST: return on_head(r, it, in.first, in.second);
    case ITEM_BIN:
      if (r.status == 200 || r.status == 206)
        return fail(kBinFile, it->request.url, stream_error_of(STREAM_NO_SAFETENSORS));
      return fail(kSingleFile, model_location_file_url(where_, kSingleFile), stream_error_from_status(404, ""));
  }
}

// [SECTION] config.json and the index

void checkpoint_opener::on_config(const fetch_response& r, fetch_item* it) {
  const std::string url = it->request.url;
  if (!r.from_cache && r.status != 200) return fail(kConfigFile, url, fetch_queue_answer_error(it, r));
  if (r.cut || r.n > CKPT_CONFIG_MAX_BYTES) return fail(kConfigFile, url, stream_error_sizes(STREAM_TOO_LARGE, r.n, CKPT_CONFIG_MAX_BYTES));
  const std::string text((const char*)r.body, r.n);
  if (json_values_at_most(text.data(), text.size(), kConfigMaxValues) > kConfigMaxValues)
    return fail(kConfigFile, url,
                stream_error_of(STREAM_FORMAT, read_error_at("", STR_READ_LIMIT_VALUES, {std::to_string(kConfigMaxValues)})));
  std::string err;
  read_error reason;
  model_config_problem problem = MODEL_CONFIG_OK;
  if (!model_config_parse(text, kConfigFile, &config_, &err, &problem, &reason)) {
    // The page's sentence says the rest: keep what names the cause ("hidden_act 'gelu'", "fp8").
    const std::string named = reason.args.empty() ? "" : reason.args[0];
    if (problem == MODEL_CONFIG_NOT_SWIGLU) return fail(kConfigFile, url, stream_error_detail(STREAM_NOT_SWIGLU, "hidden_act '" + named + "'"));
    if (problem == MODEL_CONFIG_EXPERTS) return fail(kConfigFile, url, stream_error_of(STREAM_MIXTURE_OF_EXPERTS));
    if (problem == MODEL_CONFIG_QUANTIZED)
      return fail(kConfigFile, url, stream_error_detail(STREAM_UNREADABLE_DTYPE, named + " (quantization_config)"));
    return fail(kConfigFile, url, stream_error_of(STREAM_FORMAT, reason));
  }
  if (!r.from_cache) client_->cache_store(this, url, text.data(), text.size());
  fetch_queue_done(&queue_, it);
  opened_.config_text = text;
  opened_.repo_commit.clear();
  if (!r.from_cache && model_commit_ok(r.repo_commit))
    for (char c : r.repo_commit) opened_.repo_commit += (char)std::tolower((unsigned char)c);
  config_done_ = true;
  if (failure_waits_) return fail(waiting_failure_.file, waiting_failure_.url, waiting_failure_.error);
  finish();
}

void checkpoint_opener::on_index(const fetch_response& r, fetch_item* it) {
  const std::string url = it->request.url;
  // No index: one model.safetensors. Remembered in the cache as an empty record, so an offline
  // visit knows it too.
  const bool none = (!r.from_cache && r.status == 404) || (r.from_cache && r.n == 0);
  if (!none && !r.from_cache && r.status != 200) return fail(CKPT_INDEX_FILE, url, fetch_queue_answer_error(it, r));
  if (!none && (r.cut || r.n > CKPT_INDEX_PAGE_MAX_BYTES))
    return fail(CKPT_INDEX_FILE, url, stream_error_sizes(STREAM_TOO_LARGE, r.n, CKPT_INDEX_PAGE_MAX_BYTES));
  fetch_queue_done(&queue_, it);
  index_done_ = true;
  if (none) {
    if (!r.from_cache) client_->cache_store(this, url, "", 0);
    opened_.single_file = true;
    add_shard(kSingleFile);
    return;
  }
  const std::string text((const char*)r.body, r.n);
  if (json_values_at_most(text.data(), text.size(), kIndexMaxValues) > kIndexMaxValues)
    return fail(CKPT_INDEX_FILE, url,
                stream_error_of(STREAM_FORMAT, read_error_at("", STR_READ_LIMIT_VALUES, {std::to_string(kIndexMaxValues)})));
  std::string err;
  read_error reason;
  if (!ckpt_parse_index(text, CKPT_INDEX_FILE, &weight_map_, &err, &reason))
    return fail(CKPT_INDEX_FILE, url, stream_error_of(STREAM_FORMAT, reason));
  if (weight_map_.size() > CKPT_MAX_TENSORS)
    return fail(CKPT_INDEX_FILE, url,
                stream_error_of(STREAM_FORMAT, read_error_at("", STR_READ_LIMIT_TENSORS,
                                                             {std::to_string(weight_map_.size()), std::to_string(CKPT_MAX_TENSORS)})));
  const std::vector<std::string> shards = ckpt_index_shards(weight_map_);
  if (shards.size() > CKPT_MAX_SHARDS)  // before a single header request
    return fail(CKPT_INDEX_FILE, url,
                stream_error_of(STREAM_FORMAT, read_error_at("", STR_READ_LIMIT_SHARDS,
                                                             {std::to_string(shards.size()), std::to_string(CKPT_MAX_SHARDS)})));
  if (!r.from_cache) client_->cache_store(this, url, text.data(), text.size());
  for (const std::string& f : shards) add_shard(f);
}

// [SECTION] shard headers

bool checkpoint_opener::add_shard(const std::string& file) {
  shard_state s;
  s.id.file = file;
  s.id.url = model_location_file_url(where_, file);
  shards_.push_back(s);
  const uint64_t length = std::max<uint32_t>(8, options_.header_prefetch);
  // The header's cache record (size, ETag, header bytes) serves offline visits.
  add_item(ITEM_HEAD, (int)shards_.size() - 1, s.id.url, 0, length, range_max_bytes(length, options_.chunk_bytes),
           s.id.url + "#safetensors-header");
  return true;
}

void checkpoint_opener::reread_shard(int shard) {
  if (state_ == OPENER_FAILED || shard < 0 || shard >= (int)shards_.size()) return;
  shard_state& s = shards_[shard];
  // The host keeps replacing the file: say so instead of reading it again and again.
  int rereads = 0;
  for (const auto& in : info_) rereads += in.first == ITEM_HEAD && in.second == shard;
  if (rereads > kMaxRereads) return fail(s.id.file, s.id.url, stream_error_sizes(STREAM_FILE_CHANGED, (uint64_t)rereads, 0));
  s.done = false;
  s.head.clear();
  const uint64_t length = std::max<uint32_t>(8, options_.header_prefetch);
  add_item(ITEM_HEAD, shard, s.id.url, 0, length, range_max_bytes(length, options_.chunk_bytes), "");  // the network's only
  state_ = OPENER_WORKING;
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
  if (el > n - 8 - 12) return false;
  *size = s;
  etag->assign((const char*)p + 12, el);
  head->assign((const char*)p + 12 + el, n - 8 - 12 - el);
  return true;
}

bool checkpoint_opener::parse_head(int si, stream_error* e) {
  shard_state& s = shards_[si];
  uint64_t n = 0;
  std::string err;
  read_error reason;
  if (s.head.size() < 8) return *e = stream_error_of(STREAM_FORMAT, read_error_at("", STR_READ_ST_SHORTER_THAN_8)), false;
  if (!st_header_length((const unsigned char*)s.head.data(), s.id.size, s.id.file, &n, &err, &reason))
    return *e = stream_error_of(STREAM_FORMAT, reason), false;
  if (n > CKPT_HEADER_PAGE_MAX_BYTES || s.head.size() < 8 + n)
    return *e = stream_error_of(STREAM_FORMAT, read_error_at("", STR_READ_ST_CUT_SHORT)), false;
  // Bound the parse, not only the bytes: count the values before cJSON builds a tree of them.
  if (json_values_at_most(s.head.data() + 8, (size_t)n, CKPT_HEADER_MAX_VALUES) > CKPT_HEADER_MAX_VALUES)
    return *e = stream_error_of(STREAM_FORMAT, read_error_at("", STR_READ_LIMIT_VALUES, {std::to_string(CKPT_HEADER_MAX_VALUES)})), false;
  if (!st_parse_header(s.head.data() + 8, (size_t)n, s.id.size, s.id.file, &s.parsed, &err, &reason))
    return *e = stream_error_of(STREAM_FORMAT, reason), false;
  s.tensors = s.parsed.tensors.size();
  size_t tensors = 0;
  for (size_t i = 0; i < shards_.size(); i++) tensors += (int)i == si || shards_[i].done ? shards_[i].tensors : 0;
  if (tensors > CKPT_MAX_TENSORS)
    return *e = stream_error_of(STREAM_FORMAT, read_error_at("", STR_READ_LIMIT_TENSORS, {std::to_string(tensors), std::to_string(CKPT_MAX_TENSORS)})), false;
  s.done = true;
  return true;
}

void checkpoint_opener::on_head(const fetch_response& r, fetch_item* it, item_kind kind, int si) {
  shard_state& s = shards_[si];
  const std::string url = s.id.url, file = s.id.file;
  if (r.from_cache) {  // an offline visit: the record of a header verified before
    if (kind != ITEM_HEAD || !head_record_open(r.body, r.n, &s.id.etag, &s.id.size, &s.head)) return fetch_queue_refetch(it);
  } else if (r.status == 404 && opened_.single_file && kind == ITEM_HEAD && s.id.file == kSingleFile) {
    // No model.safetensors either: a checkpoint that has only pytorch_model.bin, or nothing.
    fetch_queue_done(&queue_, it);
    add_item(ITEM_BIN, -1, model_location_file_url(where_, kBinFile), 0, 1, range_max_bytes(1, options_.chunk_bytes), "");
    return;
  } else if (r.status != 200 && r.status != 206) {
    return fail(file, url, fetch_queue_answer_error(it, r));
  } else if (r.cut) {  // a host that ignores Range, sending a large file whole
    return fail(file, url, stream_error_of(STREAM_NO_RANGE));
  } else {
    const uint64_t begin = it->request.begin, length = it->request.length;
    const unsigned char* body = (const unsigned char*)r.body;
    uint64_t n = r.n;
    if (r.status == 206) {
      if (r.content_range_start != begin) return fail(file, url, stream_error_of(STREAM_WRONG_RANGE));
    } else {  // 200: the whole file, from a host that ignores Range (small files only get this far)
      if (n < begin) return fail(file, url, stream_error_sizes(STREAM_TRUNCATED, n, begin));
      body += begin;
      n -= begin;
    }
    if (n > length) n = length;
    const uint64_t size = r.status == 200 ? r.n : r.total_size;
    if (size == 0) return fail(file, url, stream_error_of(STREAM_FORMAT, read_error_at("", STR_READ_NO_CONTENT_RANGE)));
    if (kind == ITEM_HEAD) {
      s.id.size = size;
      s.id.etag = r.etag;
      s.head.assign((const char*)body, (size_t)n);
    } else {
      // The file changed between the two requests: its header from the start again (unless the
      // host gives the same version another size: then it only contradicts itself).
      const stream_error other = range_file_mismatch(s.id, size, r.etag);
      if (other.fault == STREAM_SIZE_CONFLICT) return fail(file, url, other);
      if (other.failed()) {
        fetch_queue_done(&queue_, it);
        return reread_shard(si);
      }
      if (n < length) return fail(file, url, stream_error_sizes(STREAM_TRUNCATED, n, length));
      s.head.append((const char*)body, (size_t)length);
    }
    if (s.head.size() < 8) return fail(file, url, stream_error_of(STREAM_FORMAT, read_error_at("", STR_READ_ST_SHORTER_THAN_8)));
    uint64_t hn = 0;
    std::string err;
    read_error reason;
    if (!st_header_length((const unsigned char*)s.head.data(), s.id.size, file, &hn, &err, &reason))
      return fail(file, url, stream_error_of(STREAM_FORMAT, reason));
    // The page reads headers up to its own bound (the safetensors library's is 100 MB): checked
    // before the rest is asked for.
    if (hn > CKPT_HEADER_PAGE_MAX_BYTES)
      return fail(file, url, stream_error_of(STREAM_FORMAT, read_error_at("", STR_READ_LIMIT_HEADER,
                                                                          {std::to_string(hn), std::to_string(CKPT_HEADER_PAGE_MAX_BYTES)})));
    if (s.head.size() < 8 + hn) {
      if (kind == ITEM_HEAD_REST) return fail(file, url, stream_error_sizes(STREAM_TRUNCATED, s.head.size(), 8 + hn));
      fetch_queue_done(&queue_, it);
      const uint64_t have = s.head.size(), rest = 8 + hn - have;
      add_item(ITEM_HEAD_REST, si, url, have, rest, range_max_bytes(rest, options_.chunk_bytes), "");
      return;
    }
    s.head.resize((size_t)(8 + hn));
  }
  const size_t idx = (size_t)(it - queue_.items.data());
  stream_error e;
  if (!parse_head(si, &e)) return fail(file, url, e);
  if (!r.from_cache) {
    const std::string rec = head_record(s.id.etag, s.id.size, s.head);
    client_->cache_store(this, url + "#safetensors-header", rec.data(), rec.size());
  }
  std::string().swap(s.head);  // parsed: its bytes need not stay
  fetch_queue_done(&queue_, &queue_.items[idx]);
  finish();
}

// [SECTION] the checkpoint, once every header is in

void checkpoint_opener::finish() {
  if (state_ != OPENER_WORKING || !config_done_ || !index_done_ || shards_.empty()) return;
  for (const shard_state& s : shards_)
    if (!s.done) return;
  // ck.files[i] is shard i's header: freshly parsed ones, and those of a first opening that a
  // re-read left as they were.
  std::vector<st_file> files(shards_.size());
  for (size_t i = 0; i < shards_.size(); i++) {
    if (!shards_[i].parsed.file.empty()) files[i] = std::move(shards_[i].parsed);
    else files[i] = std::move(opened_.ck.files[i]);
    shards_[i].parsed = st_file();
  }
  checkpoint ck;
  ck.config = config_;
  std::string err;
  read_error reason;
  for (st_file& f : files)
    if (!ckpt_add_file(&ck, std::move(f), &err, &reason))
      return fail(shards_[0].id.file, shards_[0].id.url, stream_error_of(STREAM_FORMAT, reason));
  if (!ckpt_finish(&ck, weight_map_, &err, &reason)) {
    const std::string file = opened_.single_file ? kSingleFile : CKPT_INDEX_FILE;
    return fail(file, model_location_file_url(where_, file), stream_error_of(STREAM_FORMAT, reason));
  }
  opened_.ck = std::move(ck);
  opened_.shards.clear();
  for (const shard_state& s : shards_) opened_.shards.push_back(s.id);
  state_ = OPENER_DONE;
}
