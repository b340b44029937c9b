// tensor_fetch's requests (see tensor_fetch.h): which chunks go out together and how, and what
// their answers become. A chunk whose record the verified cache holds is read from there alone; the
// others go in ranges of neighbouring chunks (chunk_ranges.h), each chunk's slice of the answer
// checked on its own.
#include <algorithm>

#include "core/checkpoint_remote/tensor_fetch.h"

// [SECTION] starting requests

bool tensor_fetch::record_cached(const fetch_item& it) const {
  return !it.bypass_cache && !it.request.cache_key.empty() && client_->cache_has(it.request.cache_key);
}

uint64_t tensor_fetch::raw_bytes_in_flight() const {
  uint64_t n = 0;
  for (const fetch_item& r : ranges_.items)
    if (r.state == FETCH_ITEM_LOADING && !range_[r.owner_tag].cache_read) n += r.bytes;
  return n;
}

// A chunk in a request's list that still belongs to it (forget and a changed file take chunks back).
std::vector<int> tensor_fetch::range_members(const fetch_item& range) const {
  std::vector<int> out;
  for (int i : range_[range.owner_tag].items)
    if (chunks_.items[i].state == FETCH_ITEM_LOADING && chunks_.items[i].id == range.id) out.push_back(i);
  return out;
}

void tensor_fetch::start_request(int shard, bool cache_read, const std::vector<int>& items, const fetch_request& q, double now) {
  fetch_item r;
  r.request = q;
  r.bytes = q.length ? q.length : shards_[shard].size;  // (length 0: the whole file)
  r.needed = true;
  r.owner_tag = (int)range_.size();
  ranges_.items.push_back(r);
  range_.push_back({shard, cache_read, items});
  fetch_item& started = ranges_.items.back();
  fetch_queue_start(&ranges_, &started, now);
  for (int i : items) {
    fetch_item& c = chunks_.items[i];
    c.state = FETCH_ITEM_LOADING;
    c.id = started.id;
    c.loaded = c.received = 0;
    c.not_before = 0;
    c.error = stream_error();
  }
}

// A small file (at most whole_file_bytes, and no more than one range) at least half of which is
// wanted now is asked for whole, without Range: a host may then send it compressed (a checkpoint's
// BF16 values go in about 70 % of their bytes as brotli), which it never does for a range, whose
// offsets must hold. The rest of the file is read through, whatever it holds: a few bytes, as the
// file is small.
bool tensor_fetch::whole_file_wanted(int shard, uint64_t wanted, uint64_t held, uint64_t room) const {
  const uint64_t file_size = shards_[shard].size;
  if (ranges_only_[shard] || file_size == 0 || file_size > std::min(options_.whole_file_bytes, options_.range_bytes) ||
      wanted * 2 < file_size)
    return false;
  return held == 0 || file_size <= room;
}

// The most urgent chunk wanted now whose kind of request may start (a cached record while the
// network's requests are all out, and the other way round), and the request that brings it: its
// cached record alone, or a range of its file with the neighbours that are wanted too. False when
// nothing can start (none is wanted, the raw bytes are at their budget, or the converter has no
// room yet).
bool tensor_fetch::start_next(double now, bool network, bool cache) {
  fetch_item* seed = fetch_queue_next(&chunks_, [&](const fetch_item& it) { return record_cached(it) ? cache : network; });
  if (!seed) return false;
  const int seed_item = (int)(seed - chunks_.items.data());
  const std::pair<int, int> tc = item_chunk_[seed->owner_tag];
  const int shard = tensors_[tc.first].plan.shard;
  if (record_cached(*seed)) {
    const tensor_chunk& c = tensors_[tc.first].plan.chunks[tc.second];
    if (!converter_->tensor_chunk_begin(tc.first, c)) return false;  // no room yet
    fetch_request q = seed->request;
    q.cache_into = converter_->tensor_chunk_into(tc.first, c, &q.cache_into_bytes);
    start_request(shard, true, {seed_item}, q, now);
    return true;
  }
  // Raw bytes stay within their budget; the first request always goes (a chunk is within it).
  const uint64_t held = raw_bytes_in_flight() + raw_bytes_waiting();
  const uint64_t room = held < options_.raw_budget ? options_.raw_budget - held : 0;
  if (held > 0 && seed->bytes > room) return false;
  // Its file's chunks that could come with it, in file order.
  std::vector<int> items;
  std::vector<range_candidate> candidates;
  size_t at = 0;
  for (int i : shard_order_[shard]) {
    const fetch_item& c = chunks_.items[i];
    if (i != seed_item && (c.state != FETCH_ITEM_IDLE || !c.needed || c.not_before > now || record_cached(c))) continue;
    if (i == seed_item) at = items.size();
    items.push_back(i);
    candidates.push_back({c.request.begin, c.request.length});
  }
  // Room in the converter: the seed's first, then outwards; a refusal ends the range there.
  auto begin = [&](size_t k) {
    const std::pair<int, int> m = item_chunk_[chunks_.items[items[k]].owner_tag];
    return converter_->tensor_chunk_begin(m.first, tensors_[m.first].plan.chunks[m.second]);
  };
  if (!begin(at)) return false;
  fetch_request q = seed->request;
  q.cache_key.clear();  // the network's: records are per chunk, stored once each is converted
  q.cache_first = false;
  uint64_t wanted = 0;
  for (const range_candidate& c : candidates) wanted += c.bytes;
  if (whole_file_wanted(shard, wanted, held, room)) {
    // No Range: the host may compress it. Every chunk it brings that the converter has room for
    // comes with it (a chunk left out is asked for again by a range).
    std::vector<int> members;
    for (size_t k = 0; k < items.size(); k++)
      if (k == at || begin(k)) members.push_back(items[k]);
    q.begin = q.length = 0;
    q.max_bytes = range_max_bytes(shards_[shard].size, options_.chunk_bytes);
    start_request(shard, false, members, q, now);
    return true;
  }
  const range_span span = range_grow(candidates, at, std::max<uint64_t>(std::min(options_.range_bytes, room), seed->bytes),
                                     options_.gap_bytes, never_read_[shard]);
  size_t first = at, last = at;
  while (last < span.last && begin(last + 1)) last++;
  while (first > span.first && begin(first - 1)) first--;
  q.begin = candidates[first].begin;
  q.length = candidates[last].begin + candidates[last].bytes - q.begin;
  q.max_bytes = range_max_bytes(q.length, options_.chunk_bytes);
  start_request(shard, false, std::vector<int>(items.begin() + (long)first, items.begin() + (long)last + 1), q, now);
  return true;
}

// Requests that are over (answered, failed, or left with none of their chunks) leave the table;
// a failed one (stalled, cancelled) fails the chunks it still brought, and one still in flight
// with none left is cancelled.
void tensor_fetch::end_ranges() {
  size_t keep = 0;
  for (size_t i = 0; i < ranges_.items.size(); i++) {
    fetch_item& r = ranges_.items[i];
    const std::vector<int> members = range_members(r);
    if (r.state == FETCH_ITEM_LOADING && members.empty()) {
      client_->fetch_cancel(r.id);
      r.state = FETCH_ITEM_DONE;
    }
    if (r.state == FETCH_ITEM_FAILED)
      for (int m : members) fetch_queue_fail(&chunks_, &chunks_.items[m], r.error);
    if (r.state != FETCH_ITEM_LOADING) continue;
    if (keep != i) {
      range_[keep] = std::move(range_[i]);
      r.owner_tag = (int)keep;
      ranges_.items[keep] = r;
    }
    keep++;
  }
  ranges_.items.resize(keep);
  range_.resize(keep);
}

// [SECTION] answers

void tensor_fetch::on_fetch_progress(uint32_t id, uint64_t loaded, double now) {
  fetch_queue_on_progress(&ranges_, id, loaded, now);
  const fetch_item* r = fetch_queue_find(&ranges_, id);
  if (!r) return;
  for (int m : range_members(*r)) {  // each chunk's share of what came so far
    fetch_item& c = chunks_.items[m];
    const uint64_t at = c.request.begin - r->request.begin;
    c.loaded = loaded <= at ? 0 : std::min<uint64_t>(loaded - at, c.bytes);
  }
}

void tensor_fetch::on_fetch_response(uint32_t id, const fetch_response& r, double now) {
  fetch_item* range = fetch_queue_find(&ranges_, id);
  if (!range) return;  // cancelled, superseded, or a late answer
  fetch_queue_count(&ranges_, r);
  range->state = FETCH_ITEM_DONE;  // (leaves the table at the next pump)
  chunks_.now = now;
  if (r.from_cache) {  // one chunk's converted record: in at once, or the network is asked
    for (int m : range_members(*range)) {
      const std::pair<int, int> tc = item_chunk_[chunks_.items[m].owner_tag];
      const tensor_chunk& c = tensors_[tc.first].plan.chunks[tc.second];
      if (r.in_place ? !converter_->tensor_chunk_in_place(tc.first, c, r.body, r.n)
                     : !converter_->tensor_chunk_from_record(tc.first, c, r.body, r.n)) {
        fetch_queue_refetch(&chunks_.items[m]);
        continue;
      }
      fetch_queue_done(&chunks_, &chunks_.items[m]);
      chunk_finished(m);
    }
    return;
  }
  on_range_bytes(range, r, now);
}

// A network answer: each chunk's slice checked on its own, kept for its conversion (pump) or failed
// alone; a 429 with a Retry-After makes them wait once; a changed file stops all of that file.
void tensor_fetch::on_range_bytes(fetch_item* range, const fetch_response& r, double now) {
  (void)now;
  const int shard = range_[range->owner_tag].shard;
  // A whole answer that is not the file as its header came (another ETag or size, a 206, cut at
  // its limit, short) is not used, and that file is read by ranges from then on, whose answers
  // tell what happened (a file that changed is then caught by its ranges' identity). Some hosts
  // name a compressed answer otherwise than the file, so another ETag proves nothing here.
  stream_error whole_error;
  if (range->request.length == 0 && (r.status == 200 || r.status == 206) &&
      !range_answer_bytes(range->request, shards_[shard], r, &whole_error)) {
    ranges_only_[shard] = 1;
    for (int m : range_members(*range)) fetch_queue_refetch(&chunks_.items[m]);
    return;
  }
  for (int m : range_members(*range)) {
    fetch_item& c = chunks_.items[m];
    if (r.status == 429) {
      if (!fetch_queue_retry_later(&chunks_, &c, r)) fetch_queue_fail(&chunks_, &c, fetch_queue_answer_error(&c, r));
      continue;
    }
    stream_error e;
    const unsigned char* raw = range_answer_slice(range->request, shards_[shard], r, c.request.begin, c.request.length, &e);
    if (!raw) {
      if (e.fault == STREAM_FILE_CHANGED) return shard_changed(shard);
      fetch_queue_fail(&chunks_, &c, e);
      continue;
    }
    convert_job j;  // verified here, converted by pump a slice at a time
    j.item = m;
    j.raw.assign((const char*)raw, (size_t)c.request.length);
    jobs_.push_back(std::move(j));
    fetch_queue_done(&chunks_, &c);
  }
}
