// A weight pack as a layer source (see pack_source.h).
#include "core/source/pack_source.h"

#include <algorithm>
#include <cstring>

#include "core/pack/pack_summary.h"

pack_source::pack_source(fetch_client* client, const std::string& base_url, double now, pack_source_options options)
    : client_(client), base_(base_url), options_(options) {
  if (base_.empty() || base_.back() != '/') base_ += '/';
  queue_.client = client;
  queue_.sink = this;
  queue_.stall_seconds = options.stall_seconds;
  manifest_queue_.client = client;
  manifest_queue_.sink = this;
  manifest_queue_.stall_seconds = options.stall_seconds;
  open_manifest(now);
}

pack_source::~pack_source() {
  fetch_queue_close(&queue_);
  fetch_queue_close(&manifest_queue_);
  client_->forget_sink(this);
}

// The manifest is a queue of one (the same stall rule as every request), asked for at once: for a
// live link on the default pack, index.html's own request for it answers this one.
void pack_source::open_manifest(double now) {
  phase_ = SOURCE_OPENING;
  manifest_failure_ = source_failure();
  fetch_queue_close(&manifest_queue_);
  fetch_item it;
  it.request.url = base_ + PACK_MANIFEST_FILE;
  // Network first (a teacher may have re-converted the pack); the cached copy only when offline.
  it.request.cache_key = it.request.url;
  it.request.cache_first = false;
  it.request.max_bytes = PACK_MANIFEST_MAX_BYTES;  // cut as it arrives: a host's endless "manifest" takes no memory
  it.needed = true;
  manifest_queue_.items.push_back(it);
  manifest_queue_.now = now;
  fetch_queue_start(&manifest_queue_, &manifest_queue_.items[0], now);
}

void pack_source::fail_manifest(const stream_error& e) {
  fetch_queue_close(&manifest_queue_);
  phase_ = SOURCE_FAILED;
  manifest_failure_ = {PACK_MANIFEST_FILE, base_ + PACK_MANIFEST_FILE, e};
}

// A host that ignores Range sends the whole file (probes.bin holds many blobs): allowed, but not an
// endless one.
static uint64_t pack_blob_max_bytes(const pack_blob& b) { return b.offset + b.bytes + (64ull << 20); }

std::string pack_source::cache_key(const pack_blob& b) const {
  return base_ + b.file + "@" + std::to_string(b.offset) + "#" + hash64_hex(b.xxh3);
}

void pack_source::build_items() {
  const pack_manifest& m = manifest_;
  fetch_queue_close(&queue_);
  info_.clear();
  auto add = [&](item_kind kind, int probe, int layer, int part, const pack_blob& b) {
    fetch_item it;
    it.request.url = base_ + b.file;
    it.request.begin = b.offset;
    it.request.length = b.bytes;
    it.request.cache_key = cache_key(b);
    it.request.cache_first = true;
    it.request.max_bytes = pack_blob_max_bytes(b);
    it.bytes = b.bytes;
    it.owner_tag = (int)info_.size();
    queue_.items.push_back(it);
    info_.push_back({kind, probe, layer, part, b});
  };
  for (size_t p = 0; p < m.probes.size(); p++) {
    add(ITEM_INPUT, (int)p, -1, -1, m.probes[p].input);
    for (size_t l = 0; l < m.layers.size(); l++) add(ITEM_PRECOMPUTED, (int)p, (int)l, -1, m.probes[p].layers[l].silu_gate);
  }
  for (size_t l = 0; l < m.layers.size(); l++)
    for (int part = 0; part < MLP_PART_COUNT; part++) add(ITEM_WEIGHT, -1, (int)l, part, m.layers[l].part[part]);
  layers_.assign(m.layers.size(), resident_layer());
  residency_.reset(m.layers.size(), options_.resident_bytes);
  inputs_.assign(m.probes.size(), {});
  precomputed_.assign(m.probes.size(), std::vector<std::vector<float>>(m.layers.size()));
}

void pack_source::want(const std::vector<int>& result_layers, int whole_layer) {
  wants_.set(model_, result_layers, whole_layer);
  refused_ = layer_wants_too_large(wants_, options_.resident_bytes, [&](int li, int part) { return part_bytes(li, part); });
}

// Which items the current wants need, and how soon (layer_wants::priority): inputs, precomputed
// results, then the matrices; nothing of a matrix or layer that cannot fit the budget.
void pack_source::mark_needs() {
  for (size_t i = 0; i < queue_.items.size(); i++) {
    fetch_item& it = queue_.items[i];
    const item_info& in = info_[i];
    it.needed = false;
    switch (in.kind) {
      case ITEM_INPUT: it.needed = it.state != FETCH_ITEM_DONE, it.priority = LAYER_PRIORITY_INPUTS; break;
      case ITEM_PRECOMPUTED:
        it.needed = it.state != FETCH_ITEM_DONE && wants_.shown(in.layer_index), it.priority = LAYER_PRIORITY_PRECOMPUTED;
        break;
      case ITEM_WEIGHT: {
        const int priority = wants_.priority(in.layer_index, in.part);
        if (layers_[in.layer_index].has[in.part] || priority < 0 || layer_refused(refused_, in.layer_index, in.part)) break;
        it.needed = true;
        it.priority = priority;
        break;
      }
    }
    // A reservation whose request ended without its matrix (failed, cancelled) is given back.
    if (in.kind == ITEM_WEIGHT && it.state != FETCH_ITEM_LOADING && !layers_[in.layer_index].has[in.part])
      residency_.layers[in.layer_index].bytes[in.part] = 0;
    // Done weights that were evicted are fetched again (from the cache) when needed.
    if (in.kind == ITEM_WEIGHT && it.state == FETCH_ITEM_DONE && !layers_[in.layer_index].has[in.part]) it.state = FETCH_ITEM_IDLE;
  }
}

bool pack_source::layer_loading(int li) const {
  for (size_t i = 0; i < queue_.items.size(); i++)
    if (info_[i].kind == ITEM_WEIGHT && info_[i].layer_index == li && queue_.items[i].state == FETCH_ITEM_LOADING) return true;
  return false;
}

// Room for one matrix of this layer (layer_residency.h); it counts as resident from its request on.
bool pack_source::make_room(int li, int part) {
  if (!layer_residency_make_room(&residency_, li, part_bytes(li, part), wants_, [&](int l) { return layer_loading(l); },
                                 [&](int l) { layers_[l] = resident_layer(), generation_++; }))
    return false;
  residency_.layers[li].bytes[part] = part_bytes(li, part);
  return true;
}

void pack_source::pump(double now) {
  if (phase_ == SOURCE_OPENING) {
    fetch_queue_expire(&manifest_queue_, now);
    fetch_item& m = manifest_queue_.items[0];
    if (m.state == FETCH_ITEM_FAILED) fail_manifest(m.error);  // stalled
    else if (m.state == FETCH_ITEM_IDLE && fetch_queue_next(&manifest_queue_)) fetch_queue_start(&manifest_queue_, &m, now);  // after a 429's wait
  }
  if (phase_ != SOURCE_READY) return;
  mark_needs();
  int loading = fetch_queue_expire(&queue_, now);
  // One weight matrix at a time: on a slow link the first layer shown arrives at full bandwidth
  // (and goes live) before the next starts, instead of all arriving together at the end.
  int weights_loading = 0;
  for (size_t i = 0; i < queue_.items.size(); i++)
    weights_loading += info_[i].kind == ITEM_WEIGHT && queue_.items[i].state == FETCH_ITEM_LOADING;
  while (loading < queue_.max_in_flight) {
    fetch_item* it = fetch_queue_next(&queue_);
    if (!it) break;
    const item_info& in = info_[it->owner_tag];
    if (in.kind == ITEM_WEIGHT && (weights_loading > 0 || !make_room(in.layer_index, in.part))) break;
    weights_loading += in.kind == ITEM_WEIGHT;
    fetch_queue_start(&queue_, it, now);
    loading++;
  }
}

void pack_source::on_fetch_progress(uint32_t id, uint64_t loaded, double now) {
  fetch_queue_on_progress(phase_ == SOURCE_OPENING ? &manifest_queue_ : &queue_, id, loaded, now);
}

// The blob's bytes out of an answer: the range itself (206, or the cache), or a slice of the
// whole file (200 from a server that ignores Range). Null and *e set when they are not all there.
static const unsigned char* pack_answer_bytes(const pack_blob& b, const fetch_response& r, stream_error* e) {
  const unsigned char* body = (const unsigned char*)r.body;
  if (r.from_cache) {
    if (r.n != b.bytes) return e->fault = STREAM_TRUNCATED, e->got = r.n, e->want = b.bytes, nullptr;
    return body;
  }
  if (r.cut && (r.status == 200 || r.status == 206)) return *e = stream_error_sizes(STREAM_TOO_LARGE, r.n, pack_blob_max_bytes(b)), nullptr;
  if (r.status == 206) {
    if (r.content_range_start != b.offset) return e->fault = STREAM_WRONG_RANGE, nullptr;
    if (r.n < b.bytes) return e->fault = STREAM_TRUNCATED, e->got = r.n, e->want = b.bytes, nullptr;
    return body;
  }
  if (r.status == 200) {
    if (r.n < b.offset + b.bytes) return e->fault = STREAM_TRUNCATED, e->got = r.n, e->want = b.offset + b.bytes, nullptr;
    return body + b.offset;
  }
  *e = fetch_answer_error(r);
  return nullptr;
}

void pack_source::on_manifest(const fetch_response& r) {
  if (!r.from_cache && r.status == 429 && fetch_queue_retry_later(&manifest_queue_, &manifest_queue_.items[0], r)) return;
  if (r.status != 200 && !r.from_cache) return fail_manifest(fetch_queue_answer_error(&manifest_queue_.items[0], r));
  if (r.cut || r.n > PACK_MANIFEST_MAX_BYTES) return fail_manifest(stream_error_sizes(STREAM_TOO_LARGE, r.n, PACK_MANIFEST_MAX_BYTES));
  const std::string text((const char*)r.body, r.n);
  read_error why;
  if (!pack_manifest_parse(text, &manifest_, &why)) return fail_manifest(stream_error_of(STREAM_FORMAT, why));  // worded by the page
  fetch_queue_close(&manifest_queue_);
  manifest_from_cache_ = r.from_cache;
  if (!r.from_cache) client_->cache_store(this, base_ + PACK_MANIFEST_FILE, text.data(), text.size());
  model_ = source_model();
  model_.model_id = manifest_.model_id;
  model_.synthetic = manifest_.synthetic;
  model_.hidden = manifest_.hidden;
  model_.intermediate = manifest_.intermediate;
  model_.num_layers = manifest_.num_layers;
  for (const pack_layer& l : manifest_.layers) model_.layers.push_back(l.layer);
  for (const pack_probe& p : manifest_.probes) model_.probes.push_back({p.label, p.tokens, p.pieces});
  build_items();
  phase_ = SOURCE_READY;
  generation_++;
}

void pack_source::on_fetch_response(uint32_t id, const fetch_response& r, double now) {
  (void)now;
  if (phase_ == SOURCE_OPENING) {
    if (!fetch_queue_find(&manifest_queue_, id)) return;
    fetch_queue_count(&queue_, r);
    on_manifest(r);
    return;
  }
  fetch_item* it = fetch_queue_find(&queue_, id);
  if (!it) return;  // cancelled, superseded, or another pack's late answer
  fetch_queue_count(&queue_, r);
  const item_info& in = info_[it->owner_tag];
  stream_error e;
  const unsigned char* bytes = pack_answer_bytes(in.blob, r, &e);
  const size_t n = (size_t)in.blob.bytes;
  std::string err;
  // Each blob is hashed once: matrices while they are adopted, the rest here.
  if (bytes && in.kind != ITEM_WEIGHT && !pack_verify_blob(in.blob, bytes, n, &err)) bytes = nullptr, e.fault = STREAM_CHECKSUM;
  if (bytes && in.kind == ITEM_WEIGHT) {
    resident_layer& L = layers_[in.layer_index];
    if (!pack_matrix_from_bytes(in.blob, bytes, n, &L.part[in.part], &err)) {
      bytes = nullptr;
      e.fault = err.find("checksum") != std::string::npos ? STREAM_CHECKSUM : STREAM_FORMAT;
      e.reason = read_error_in(READ_AT_FILE, STR_READ_Q8_MATRIX);  // (err: the CLI's English, with q8's detail)
    } else {
      L.has[in.part] = true;
      residency_.touch(in.layer_index);
    }
  }
  if (!bytes) {
    if (r.from_cache) return fetch_queue_refetch(it);  // a bad cached copy: ask the network
    return fetch_queue_fail(&queue_, it, e);
  }
  if (in.kind == ITEM_INPUT) {
    inputs_[in.probe].resize(n / 4);
    std::memcpy(inputs_[in.probe].data(), bytes, n);
  } else if (in.kind == ITEM_PRECOMPUTED) {
    pack_values_to_f32(in.blob, bytes, &precomputed_[in.probe][in.layer_index]);
  }
  fetch_queue_done(&queue_, it);
  generation_++;
  if (!r.from_cache) client_->cache_store(this, cache_key(in.blob), bytes, n);
}

void pack_source::cancel() {
  if (phase_ == SOURCE_OPENING) {
    fetch_queue_cancel(&manifest_queue_);
    fail_manifest(stream_error_of(STREAM_CANCELLED));
  }
  fetch_queue_cancel(&queue_);
}

void pack_source::retry(double now) {
  if (phase_ == SOURCE_FAILED) return open_manifest(now);
  fetch_queue_retry(&queue_);
  pump(now);
}

const std::vector<float>* pack_source::probe_input(int probe) const {
  if (phase_ != SOURCE_READY || probe < 0 || probe >= (int)inputs_.size() || inputs_[probe].empty()) return nullptr;
  return &inputs_[probe];
}

const q8_matrix_view* pack_source::matrix(int layer, mlp_part part) {
  const int li = phase_ == SOURCE_READY ? manifest_.find_layer(layer) : -1;
  if (li < 0 || !layers_[li].has[part]) return nullptr;
  residency_.touch(li);
  return &layers_[li].part[part].view;
}

const std::vector<float>* pack_source::precomputed_silu(int probe, int layer) const {
  const int li = phase_ == SOURCE_READY ? manifest_.find_layer(layer) : -1;
  if (li < 0 || probe < 0 || probe >= (int)precomputed_.size() || precomputed_[probe][li].empty()) return nullptr;
  return &precomputed_[probe][li];
}

// The manifest's own counts (at the lessons' threshold, all tokens of all probes): a histogram
// the moment the manifest is in, before any other byte.
bool pack_source::summary_counts(int layer, mlp_gate_counts* out) const {
  return phase_ == SOURCE_READY && pack_summary_counts(manifest_, layer, out);
}

source_progress pack_source::progress(int layer) const {
  source_progress p;
  const int li = layer >= 0 ? manifest_.find_layer(layer) : -1;
  if (layer >= 0 && li < 0) return p;
  for (size_t i = 0; i < queue_.items.size(); i++) {
    const fetch_item& it = queue_.items[i];
    const item_info& in = info_[i];
    if (li >= 0 && in.layer_index != li) continue;
    const bool done = it.state == FETCH_ITEM_DONE;
    const bool counts = done ? (in.kind != ITEM_PRECOMPUTED || wants_.shown(in.layer_index)) : it.needed || it.state == FETCH_ITEM_LOADING;
    if (counts) source_progress_add(&p, it, done);
  }
  p.paused = queue_.paused;
  return p;
}

std::vector<source_failure> pack_source::failures() const {
  std::vector<source_failure> out;
  if (phase_ == SOURCE_FAILED) out.push_back(manifest_failure_);
  for (const layer_too_large& t : refused_) {
    const pack_blob& b = manifest_.layers[t.layer_index].part[t.part < 0 ? MLP_GATE : t.part];
    source_failure_add(&out, layer_too_large_failure(t, options_.resident_bytes, b.file, base_ + b.file));
  }
  for (size_t i = 0; i < queue_.items.size(); i++) {
    const fetch_item& it = queue_.items[i];
    if (it.state != FETCH_ITEM_FAILED) continue;
    source_failure_add(&out, {info_[i].blob.file, it.request.url, it.error});
  }
  return out;
}

uint64_t pack_source::resident_bytes() const {
  uint64_t b = 0;
  for (size_t l = 0; l < layers_.size(); l++)
    for (int p = 0; p < MLP_PART_COUNT; p++)
      if (layers_[l].has[p]) b += manifest_.layers[l].part[p].bytes;
  return b;
}

int pack_source::resident_layers() const {
  int n = 0;
  for (const resident_layer& L : layers_) n += L.any();
  return n;
}
