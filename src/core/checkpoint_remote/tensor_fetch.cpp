// Tensors by byte ranges, a chunk of rows at a time (see tensor_fetch.h).
#include "core/checkpoint_remote/tensor_fetch.h"

#include <algorithm>
#include <chrono>

#include "core/checkpoint/model_config.h"

double tensor_fetch_clock() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

tensor_fetch::tensor_fetch(fetch_client* client, tensor_converter* converter, tensor_fetch_options options)
    : client_(client), converter_(converter), options_(options) {
  if (options_.range_bytes < options_.chunk_bytes) options_.range_bytes = options_.chunk_bytes;
  if (options_.max_in_flight < 1) options_.max_in_flight = 1;
  if (options_.max_cache_reads < 1) options_.max_cache_reads = 1;
  for (fetch_queue* q : {&chunks_, &ranges_}) {
    q->client = client;
    q->sink = this;
    q->stall_seconds = options.stall_seconds;
  }
}

tensor_fetch::~tensor_fetch() {
  fetch_queue_close(&ranges_);
  client_->forget_sink(this);
}

// [SECTION] plans

// A tensor as rows of cols: its first dimension by the product of the others (one row for 1-D).
// Within the page's bounds, so every chunk stays a few MiB (at most 4 rows of at most
// MODEL_MAX_DIM values: 16 MiB of F32) whatever a header claims.
static bool tensor_as_rows(const st_tensor& t, int64_t* rows, int64_t* cols) {
  if (t.shape.empty()) return false;
  int64_t r = t.shape.size() == 1 ? 1 : t.shape[0], c = 1;
  for (size_t i = t.shape.size() == 1 ? 0 : 1; i < t.shape.size(); i++) {
    if (t.shape[i] <= 0 || t.shape[i] > MODEL_MAX_DIM || c > MODEL_MAX_DIM / t.shape[i]) return false;
    c *= t.shape[i];
  }
  if (r <= 0 || r > MODEL_MAX_DIM) return false;
  *rows = r;
  *cols = c;
  return true;
}

// Chunks of rows [row0, row0 + rows) of the tensor, numbered from its row 0.
static bool tensor_plan_make(const checkpoint_opened& opened, const tensor_rows& what, uint64_t chunk_bytes, tensor_plan* p) {
  const st_tensor* t = opened.ck.find(what.name);
  const int shard = opened.shard_of(what.name);
  const size_t eb = t ? st_dtype_bytes(t->dtype) : 0;
  int64_t rows = 0, cols = 0;
  if (!t || shard < 0 || eb == 0 || !tensor_as_rows(*t, &rows, &cols) || rows <= 0 || cols <= 0) return false;
  const int64_t n = what.rows < 0 ? rows - what.row0 : what.rows;
  if (what.row0 < 0 || n <= 0 || what.row0 > rows - n) return false;
  p->what = what;
  p->shard = shard;
  p->dtype = t->dtype;
  p->rows_total = rows;
  p->cols = cols;
  const uint64_t row_bytes = (uint64_t)cols * eb;
  p->chunks = tensor_chunk_plan(t->begin + (uint64_t)what.row0 * row_bytes, (int)n, (int)cols, eb, chunk_bytes);
  p->bytes = 0;
  for (tensor_chunk& c : p->chunks) c.row0 += (int)what.row0, p->bytes += c.bytes;
  return true;
}

int tensor_fetch::add(const checkpoint_opened& opened, const tensor_rows& what) {
  tensor_state s;
  if (!tensor_plan_make(opened, what, options_.chunk_bytes, &s.plan)) return -1;
  if (shards_.size() < opened.shards.size()) {
    shards_.resize(opened.shards.size());
    shard_held_.resize(opened.shards.size(), 0);
    ranges_only_.resize(opened.shards.size(), 0);
    shard_order_.resize(opened.shards.size());
    layout_.resize(opened.shards.size());
    never_read_.resize(opened.shards.size());
  }
  if (layout_[s.plan.shard].extents.empty()) take_shard(opened, s.plan.shard);
  mark_planned(opened, what.name);
  tensors_.push_back(std::move(s));
  add_items((int)tensors_.size() - 1);
  return (int)tensors_.size() - 1;
}

void tensor_fetch::take_shard(const checkpoint_opened& opened, int shard) {
  shards_[shard] = opened.shards[shard];
  shard_layout& l = layout_[shard];
  l.extents.clear();
  for (const st_tensor& t : opened.ck.files[shard].tensors) l.extents.push_back({t.begin, t.end});
  l.planned.assign(l.extents.size(), 0);
}

void tensor_fetch::mark_planned(const checkpoint_opened& opened, const std::string& name) {
  auto it = opened.ck.tensors.find(name);
  if (it != opened.ck.tensors.end() && it->second.second < layout_[it->second.first].planned.size())
    layout_[it->second.first].planned[it->second.second] = 1;
}

// Each shard's chunk items in file order, and the extents of its tensors nobody planned (a decoy
// such as model.visual.*, or a tensor this reader does not read), which a range never reads through.
void tensor_fetch::index_shards() {
  shards_indexed_ = true;
  for (std::vector<int>& order : shard_order_) order.clear();
  auto before = [&](uint64_t at, int item) { return at < chunks_.items[item].request.begin; };
  for (const tensor_state& s : tensors_)
    for (int i : s.items) {  // (mostly appended: tensors are planned in about their files' order)
      std::vector<int>& order = shard_order_[s.plan.shard];
      order.insert(std::upper_bound(order.begin(), order.end(), chunks_.items[i].request.begin, before), i);
    }
  for (size_t sh = 0; sh < shard_order_.size(); sh++) {
    never_read_[sh] = range_never_read();
    for (size_t k = 0; k < layout_[sh].extents.size(); k++)  // (in data order, as the header lists them)
      if (!layout_[sh].planned[k]) never_read_[sh].add(layout_[sh].extents[k].first, layout_[sh].extents[k].second);
  }
}

std::string tensor_fetch::cache_key(int t, const tensor_chunk& c) const {
  const tensor_plan& p = tensors_[t].plan;
  const file_identity& id = shards_[p.shard];
  return id.url + "|" + (id.etag.empty() ? "size " + std::to_string(id.size) : "etag " + id.etag) + "|" + p.what.name + "|" +
         p.what.form + " rows " + std::to_string(c.row0) + "+" + std::to_string(c.rows);
}

// What a chunk's record is of, as 64 bits (FNV-1a over its rows, the tensor's shape and dtype and
// the form): mixed into the record's checksum (checked_record).
static uint64_t chunk_bind(const tensor_plan& p, const tensor_chunk& c) {
  uint64_t h = 14695981039346656037ull;
  auto mix = [&](uint64_t v) {
    for (int i = 0; i < 8; i++) h = (h ^ ((v >> (8 * i)) & 0xff)) * 1099511628211ull;
  };
  for (uint64_t v : {(uint64_t)c.row0, (uint64_t)c.rows, (uint64_t)p.rows_total, (uint64_t)p.cols, (uint64_t)p.dtype}) mix(v);
  for (char ch : p.what.form) mix((unsigned char)ch);
  return h | 1;
}

std::string tensor_fetch::chunk_record(int t, const tensor_chunk& c, const void* data, size_t n) const {
  return checked_record(data, n, chunk_bind(tensors_[t].plan, c));
}

bool tensor_fetch::chunk_record_check(int t, const tensor_chunk& c, const void* payload, size_t n, const void* rest,
                                      size_t rest_n) const {
  return checked_record_check(payload, n, rest, rest_n, chunk_bind(tensors_[t].plan, c));
}

const unsigned char* tensor_fetch::chunk_record_open(int t, const tensor_chunk& c, const void* record, size_t size, size_t n) const {
  const unsigned char* data = nullptr;
  return checked_record_open(record, size, n, &data, chunk_bind(tensors_[t].plan, c)) ? data : nullptr;
}

uint64_t tensor_fetch::bytes_cached(int t) const {
  uint64_t b = 0;
  for (int i = t < 0 ? 0 : t; i < (t < 0 ? (int)tensors_.size() : t + 1); i++)
    for (const tensor_chunk& c : tensors_[i].plan.chunks)
      if (client_->cache_has(cache_key(i, c))) b += c.bytes;
  return b;
}

void tensor_fetch::add_items(int t) {
  shards_indexed_ = false;
  tensor_state& s = tensors_[t];
  s.items.clear();
  s.chunk_done.assign(s.plan.chunks.size(), 0);
  s.done = 0;
  for (size_t ci = 0; ci < s.plan.chunks.size(); ci++) {
    const tensor_chunk& c = s.plan.chunks[ci];
    fetch_item it;
    it.request.url = shards_[s.plan.shard].url;
    it.request.begin = c.begin;
    it.request.length = c.bytes;
    it.request.cache_key = cache_key(t, c);
    it.request.cache_first = true;
    it.request.max_bytes = range_max_bytes(c.bytes, options_.chunk_bytes);
    it.request.fresh = true;  // its identity is checked: the host's own ETag, never a cache's
    it.bytes = c.bytes;
    it.owner_tag = (int)item_chunk_.size();
    s.items.push_back((int)chunks_.items.size());
    chunks_.items.push_back(it);
    item_chunk_.push_back({t, (int)ci});
  }
}

bool tensor_fetch::replan_shard(const checkpoint_opened& opened, int shard) {
  if (shard < 0 || shard >= (int)shards_.size() || shard >= (int)opened.shards.size()) return false;
  take_shard(opened, shard);
  for (const tensor_state& s : tensors_)
    if (s.plan.shard == shard) mark_planned(opened, s.plan.what.name);
  bool ok = true;
  for (size_t t = 0; t < tensors_.size(); t++) {
    tensor_state& s = tensors_[t];
    if (s.plan.shard != shard) continue;
    tensor_plan p;
    // The same rows of the same shape, in the same file, or the caller must look again.
    if (!tensor_plan_make(opened, s.plan.what, options_.chunk_bytes, &p) || p.shard != shard || p.dtype != s.plan.dtype ||
        p.rows_total != s.plan.rows_total || p.cols != s.plan.cols) {
      ok = false;
      continue;
    }
    for (int i : s.items) {  // the old chunks' items are retired (their requests were cancelled)
      item_chunk_[chunks_.items[i].owner_tag] = {-1, -1};
      chunks_.items[i].needed = false;
      chunks_.items[i].state = FETCH_ITEM_DONE;
    }
    s.plan = std::move(p);
    add_items((int)t);
  }
  shard_held_[shard] = !ok;
  return ok;
}

// [SECTION] scheduling

void tensor_fetch::need(int t, bool needed, int priority) {
  tensors_[t].needed = needed;
  tensors_[t].priority = priority;
}

bool tensor_fetch::converting(int item) const {
  for (const convert_job& j : jobs_)
    if (j.item == item) return true;
  return false;
}

bool tensor_fetch::busy(int t) const {
  for (int i : tensors_[t].items)
    if (chunks_.items[i].state == FETCH_ITEM_LOADING || converting(i)) return true;
  return false;
}

// Its chunks go back to waiting: one in flight no longer belongs to its request (whose other
// chunks still come; a request left with none is cancelled), one waiting for conversion is dropped.
void tensor_fetch::forget(int t) {
  tensor_state& s = tensors_[t];
  for (int i : s.items)
    if (chunks_.items[i].state != FETCH_ITEM_FAILED) chunks_.items[i].state = FETCH_ITEM_IDLE;
  jobs_.erase(std::remove_if(jobs_.begin(), jobs_.end(), [&](const convert_job& j) { return item_chunk_[chunks_.items[j.item].owner_tag].first == t; }),
              jobs_.end());
  s.chunk_done.assign(s.plan.chunks.size(), 0);
  s.done = 0;
  end_ranges();
}

void tensor_fetch::pump(double now) {
  convert_some();
  for (size_t t = 0; t < tensors_.size(); t++) {
    const tensor_state& s = tensors_[t];
    for (size_t ci = 0; ci < s.items.size(); ci++) {
      fetch_item& it = chunks_.items[s.items[ci]];
      it.needed = s.needed && !s.chunk_done[ci] && !shard_held_[s.plan.shard];
      it.priority = s.priority;
    }
  }
  if (!shards_indexed_) index_shards();
  chunks_.now = now;  // a 429's wait is measured against it
  // Stalled requests fail their chunks; then the next requests start.
  fetch_queue_expire(&ranges_, now);
  end_ranges();
  int network = 0, cache = 0;  // requests loading, of each kind
  for (const fetch_item& r : ranges_.items)
    if (r.state == FETCH_ITEM_LOADING) (range_[r.owner_tag].cache_read ? cache : network)++;
  for (;;) {
    const size_t before = ranges_.items.size();
    if (!start_next(now, network < options_.max_in_flight, cache < options_.max_cache_reads)) break;
    (range_[ranges_.items[before].owner_tag].cache_read ? cache : network)++;
  }
}

void tensor_fetch::cancel() {
  fetch_queue_cancel(&ranges_);
  end_ranges();
  fetch_queue_cancel(&chunks_);  // (their requests are cancelled already) and nothing starts until retry
}

void tensor_fetch::retry() { fetch_queue_retry(&chunks_); }

bool tensor_fetch::moving() const {
  if (chunks_.paused) return false;
  for (const fetch_item& c : chunks_.items)
    if (c.needed && (c.state == FETCH_ITEM_IDLE || c.state == FETCH_ITEM_LOADING)) return true;
  return chunks_converting() > 0;
}

// [SECTION] a file that changed on the host

void tensor_fetch::shard_changed(int shard) {
  if (shard_held_[shard]) return;
  shard_held_[shard] = 1;
  changed_.push_back(shard);
  files_changed_++;
  for (size_t t = 0; t < tensors_.size(); t++)
    if (tensors_[t].plan.shard == shard) forget((int)t);
}

std::vector<int> tensor_fetch::changed_shards() {
  std::vector<int> out;
  out.swap(changed_);
  return out;
}

// [SECTION] conversion

void tensor_fetch::chunk_finished(int item) {
  const std::pair<int, int> tc = item_chunk_[chunks_.items[item].owner_tag];
  tensor_state& s = tensors_[tc.first];
  if (!s.chunk_done[tc.second]) s.chunk_done[tc.second] = 1, s.done++;
  if (complete(tc.first) && !converter_->tensor_complete(tc.first)) {
    read_error why = read_error_at(s.plan.what.name, STR_READ_CONVERTED_Q8);
    why.place = READ_AT_TENSOR;
    s.chunk_done[tc.second] = 0, s.done--;
    fetch_queue_fail(&chunks_, &chunks_.items[item], stream_error_of(STREAM_FORMAT, why));
  }
}

// Converts waiting chunks a slice of rows at a time until the time budget is spent (at least one
// slice; one slice only without a clock). A chunk converted whole goes to the cache and counts.
void tensor_fetch::convert_some() {
  if (jobs_.empty()) return;
  const double t0 = options_.clock ? options_.clock() : 0;
  while (!jobs_.empty()) {
    convert_job& j = jobs_.front();
    const int item = j.item;
    const std::pair<int, int> tc = item_chunk_[chunks_.items[item].owner_tag];
    const tensor_plan& p = tensors_[tc.first].plan;
    const tensor_chunk& c = p.chunks[tc.second];
    const int64_t n = std::min<int64_t>(c.rows - j.next, tensor_chunk_slice_rows((int)p.cols, options_.slice_elements));
    const size_t row_bytes = (size_t)p.cols * st_dtype_bytes(p.dtype);
    read_error why;
    if (!converter_->tensor_rows_convert(tc.first, c.row0 + j.next, n, (const unsigned char*)j.raw.data() + (size_t)j.next * row_bytes,
                                         &why)) {
      jobs_.pop_front();
      if (!why.set()) why = read_error_at(p.what.name, STR_READ_CHUNK_UNREADABLE);
      why.place = READ_AT_TENSOR;
      why.where = p.what.name;
      fetch_queue_fail(&chunks_, &chunks_.items[item], stream_error_of(STREAM_FORMAT, why));
    } else if ((j.next += n) == c.rows) {
      const std::string rec = converter_->tensor_chunk_record(tc.first, c, (const unsigned char*)j.raw.data());
      jobs_.pop_front();
      if (!rec.empty()) client_->cache_store(this, chunks_.items[item].request.cache_key, rec.data(), rec.size());
      chunk_finished(item);
    }
    if (!options_.clock || options_.clock() - t0 >= options_.convert_budget_seconds) break;
  }
  if (options_.clock) {
    const double spent = options_.clock() - t0;
    convert_seconds_ += spent;
    convert_max_seconds_ = std::max(convert_max_seconds_, spent);
  }
}

// [SECTION] what the caller reads

tensor_progress tensor_fetch::progress(int t) const {
  tensor_progress p;
  const tensor_state& s = tensors_[t];
  for (size_t ci = 0; ci < s.items.size(); ci++) {
    const fetch_item& it = chunks_.items[s.items[ci]];
    const uint64_t b = s.plan.chunks[ci].bytes;
    p.total += b;
    if (s.chunk_done[ci]) {
      p.loaded += b;
    } else if (converting(s.items[ci])) {  // its bytes are in; the page still works on it
      p.loaded += b;
      p.converting++;
    } else if (it.state == FETCH_ITEM_LOADING) {
      p.loaded += it.loaded;  // its share of its request's bytes so far
      p.loading++;
    } else if (it.state == FETCH_ITEM_FAILED && it.error.fault != STREAM_CANCELLED) {
      p.failed++;
    } else if (it.state == FETCH_ITEM_IDLE && it.not_before > 0) {
      p.waiting++;
    }
  }
  return p;
}

std::vector<tensor_failure> tensor_fetch::failures() const {
  std::vector<tensor_failure> out;
  for (size_t i = 0; i < chunks_.items.size(); i++) {
    const fetch_item& it = chunks_.items[i];
    const std::pair<int, int> tc = item_chunk_[it.owner_tag];
    if (it.state != FETCH_ITEM_FAILED || tc.first < 0) continue;
    out.push_back({tc.first, tensors_[tc.first].plan.shard, it.error});
  }
  return out;
}

uint64_t tensor_fetch::raw_bytes_waiting() const {
  uint64_t n = 0;
  for (const convert_job& j : jobs_) n += j.raw.size();
  return n;
}
