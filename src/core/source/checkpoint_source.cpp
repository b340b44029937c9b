// A checkpoint read by byte ranges as the live views' layer source (see checkpoint_source.h).
#include "core/source/checkpoint_source.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>

#include "core/quant/q8_format.h"

static const char kConfigFile[] = "config.json";

static checkpoint_opener_options opener_options(const checkpoint_source_options& o) {
  checkpoint_opener_options oo;
  oo.stall_seconds = o.stall_seconds;
  oo.header_prefetch = o.header_prefetch;
  oo.chunk_bytes = o.chunk_bytes;
  return oo;
}

checkpoint_source::checkpoint_source(fetch_client* client, const model_location& where, double now,
                                     checkpoint_source_options options)
    : client_(client), where_(where), options_(options) {
  opener_.reset(new checkpoint_opener(client, where, now, opener_options(options)));
}

checkpoint_source::~checkpoint_source() {
  fetch_.reset();  // its requests are cancelled before the blobs go
  for (std::vector<matrix_state>& L : layers_)
    for (matrix_state& m : L) free_matrix(&m);
}

std::string checkpoint_source::file_url(const std::string& file) const { return model_location_file_url(where_, file); }

// [SECTION] opening: the opener's checkpoint, checked for the MLP views and against the budget

void checkpoint_source::fail_open(const source_failure& f) {
  open_failure_ = f;
  phase_ = SOURCE_FAILED;
  model_ = source_model();
  wants_ = layer_wants();
  refused_.clear();
  fetch_.reset();
  for (std::vector<matrix_state>& L : layers_)
    for (matrix_state& m : L) free_matrix(&m);
  layers_.clear();
  roles_.clear();
  probe_ = checkpoint_probe();
  rereading_.clear();
  generation_++;
}

// A layer's MLP needs all three matrices, readable and shaped as config.json says.
bool checkpoint_source::check_model(source_failure* f) {
  const checkpoint& ck = opener_->opened().ck;
  const model_config& c = ck.config;
  std::string err;
  read_error reason;
  const st_tensor* t;
  model_.layers.clear();
  auto check = [&](const std::string& name, const std::vector<int64_t>& shape) {
    if (ckpt_check_tensor(ck, name, shape, &t, &err, &reason)) return true;
    std::string file = ckpt_file_of(ck, name);
    if (file.empty()) file = kConfigFile;
    const st_tensor* raw = ck.find(name);
    *f = {file, file_url(file),
          raw && st_dtype_bytes(raw->dtype) == 0 ? stream_error_detail(STREAM_UNREADABLE_DTYPE, raw->dtype_name)
                                                 : stream_error_of(STREAM_FORMAT, reason)};
    return false;
  };
  if (!check(ckpt_embed_name(ck), {c.vocab, c.hidden}) || !check(ckpt_post_norm_name(ck, 0), {c.hidden})) return false;
  for (int l = 0; l < c.layers; l++) {
    if (!ck.find(ckpt_mlp_name(ck, l, CKPT_GATE))) continue;
    if (!check(ckpt_mlp_name(ck, l, CKPT_GATE), {c.intermediate, c.hidden}) ||
        !check(ckpt_mlp_name(ck, l, CKPT_UP), {c.intermediate, c.hidden}) ||
        !check(ckpt_mlp_name(ck, l, CKPT_DOWN), {c.hidden, c.intermediate}))
      return false;
    model_.layers.push_back(l);
  }
  if (!model_.layers.empty()) return true;
  // Say what the checkpoint has instead: experts, int4 (GPTQ / AWQ) weights, or no SwiGLU at all.
  const std::string file = ck.files.empty() ? kConfigFile : ck.files[0].file;
  *f = {file, file_url(file), stream_error_of(STREAM_NOT_SWIGLU, read_error_at("", STR_READ_NO_TENSOR, {ckpt_mlp_name(ck, 0, CKPT_GATE)}))};
  for (const auto& n : ck.tensors) {
    if (n.first.find(".mlp.experts.") != std::string::npos) return f->error = stream_error_of(STREAM_MIXTURE_OF_EXPERTS), false;
    if (n.first.find("gate_proj.qweight") != std::string::npos)
      return f->error = stream_error_detail(STREAM_UNREADABLE_DTYPE, "int4 (GPTQ/AWQ qweight)"), false;
  }
  return false;
}

// What every view needs at the least, a gate matrix in q8 and the probe's rows and inputs, must fit
// the page's budget: else the model fails now, saying how much it needs, before any of it is
// fetched or allocated (a host may claim 65536 x 65536: 4 GiB of q8).
bool checkpoint_source::check_fits(source_failure* f) {
  const checkpoint& ck = opener_->opened().ck;
  const model_config& c = ck.config;
  const uint64_t need = q8_matrix_blob_bytes((int)c.intermediate, (int)c.hidden) + probe_.bytes(c.hidden);
  if (need <= options_.resident_bytes) return true;
  const std::string gate = ckpt_mlp_name(ck, model_.layers[0], CKPT_GATE);
  *f = {gate, file_url(ckpt_file_of(ck, gate)), stream_error_sizes(STREAM_NO_ROOM, options_.resident_bytes, need)};
  return false;
}

bool checkpoint_source::build_tensors(source_failure* f) {
  const checkpoint_opened& opened = opener_->opened();
  const checkpoint& ck = opened.ck;
  fetch_.reset(new tensor_fetch(client_, this, static_cast<const tensor_fetch_options&>(options_)));
  roles_.clear();
  auto add = [&](const tensor_rows& what, role r) {
    const int t = fetch_->add(opened, what);
    if (t < 0) {
      *f = {what.name, file_url(ckpt_file_of(ck, what.name)), stream_error_of(STREAM_FORMAT, read_error_at("", STR_READ_NO_TENSOR, {what.name}))};
      return -1;
    }
    roles_.push_back(r);
    return t;
  };
  for (const auto& run : probe_.id_runs())
    if (add({ckpt_embed_name(ck), "f32", run.first, run.second}, {ROLE_EMBED}) < 0) return false;
  if (add({ckpt_post_norm_name(ck, 0), "f32"}, {ROLE_NORM}) < 0) return false;
  layers_.assign(model_.layers.size(), std::vector<matrix_state>(MLP_PART_COUNT));
  for (size_t li = 0; li < model_.layers.size(); li++)
    for (int part = 0; part < MLP_PART_COUNT; part++) {
      matrix_state& m = layers_[li][part];
      const std::string name = ckpt_mlp_name(ck, model_.layers[li], (ckpt_mlp_part)part);
      const st_tensor* t = ck.find(name);
      m.rows = (int)t->shape[0];
      m.cols = (int)t->shape[1];
      m.bytes = q8_matrix_blob_bytes(m.rows, m.cols);
      if ((m.tensor = add({name, "q8"}, {ROLE_MATRIX, (int)li, part})) < 0) return false;
    }
  residency_.reset(model_.layers.size(), options_.resident_bytes);
  return true;
}

// Pumps the opener: true once it is done; its failure fails the source.
bool checkpoint_source::opener_done(double now) {
  opener_->pump(now);
  if (opener_->state() == OPENER_FAILED) {
    const opener_failure& of = opener_->failure();
    fail_open({of.file, of.url, of.error});
  }
  return opener_->state() == OPENER_DONE;
}

void checkpoint_source::open_step(double now) {
  if (!opener_done(now)) return;
  source_failure f;
  if (!model_checked_) {  // once: a wait for the tokenizer comes back here
    if (!check_model(&f)) return fail_open(f);
    model_checked_ = true;
  }
  const model_config& c = opener_->opened().ck.config;
  const probe_state ps = probe_.choose(client_, options_.tokenizer, where_, options_.probes, options_.lesson_sentence, c, &f);
  if (ps == PROBE_WAITING) return;
  if (ps == PROBE_FAILED || !check_fits(&f) || !build_tensors(&f)) return fail_open(f);
  model_.model_id = where_.hub ? where_.id() : !c.name_or_path.empty() ? c.name_or_path : where_.text;
  model_.revision = where_.hub ? where_.revision : "";
  model_.synthetic = c.synthetic;
  model_.hidden = c.hidden;
  model_.intermediate = c.intermediate;
  model_.num_layers = c.layers;
  model_.probes = probe_.probes;
  model_.vocab = c.vocab;
  model_.refused_id = probe_.refused_id;
  phase_ = SOURCE_READY;
  want(want_layers_, want_whole_);
  generation_++;
}

// [SECTION] what the view needs, and room for it

void checkpoint_source::want(const std::vector<int>& result_layers, int whole_layer) {
  want_layers_ = result_layers, want_whole_ = whole_layer;  // kept for when it opens
  if (phase_ != SOURCE_READY) return;
  wants_.set(model_, result_layers, whole_layer);
  refused_ = layer_wants_too_large(wants_, options_.resident_bytes, [&](int li, int part) { return layers_[li][part].bytes; });
}

// The probe's rows first, then the matrices in layer_wants' order; nothing of a matrix or a layer
// that cannot fit, or whose memory was refused.
void checkpoint_source::mark_needs() {
  for (int t = 0; t < (int)roles_.size(); t++) {
    const role& r = roles_[t];
    if (r.kind != ROLE_MATRIX) {
      fetch_->need(t, !fetch_->complete(t), LAYER_PRIORITY_INPUTS);
      continue;
    }
    const matrix_state& m = layers_[r.layer_index][r.part];
    const int priority = wants_.priority(r.layer_index, r.part);
    fetch_->need(t, !m.complete && !m.no_memory && priority >= 0 && !layer_refused(refused_, r.layer_index, r.part), priority);
  }
}

bool checkpoint_source::layer_busy(int li) const {
  for (const matrix_state& m : layers_[li])
    if (fetch_->busy(m.tensor)) return true;
  return false;
}

void checkpoint_source::free_matrix(matrix_state* m) {
  if (m->blob) ::operator delete(m->blob, std::align_val_t(Q8_ALIGN));
  m->blob = nullptr;
  m->complete = false;
  m->view = q8_matrix_view{};
}

// Room for the matrix a chunk fills: it counts whole from its first chunk on. (Only that matrix:
// counting the layer's unwanted up / down too stalled a Llama-3-8B-sized gate after its first chunk.)
bool checkpoint_source::make_room(int li, int part) {
  return layer_residency_make_room(&residency_, li, layers_[li][part].bytes, wants_, [&](int l) { return layer_busy(l); },
                                   [&](int l) {
                                     for (matrix_state& m : layers_[l]) free_matrix(&m), fetch_->forget(m.tensor);
                                     generation_++;
                                     dropped_++;
                                   });
}

// [SECTION] a file that changed on the host

// What was made of a changed file is dropped at once; its header is read again; its tensors are
// planned anew from the new header (their shapes checked again) and come from the start.
void checkpoint_source::follow_changed_files(double now) {
  for (int s : fetch_->changed_shards()) {
    const file_identity& id = opener_->opened().shards[s];
    for (int t = 0; t < (int)roles_.size(); t++) {
      if (fetch_->plan(t).shard != s) continue;
      const role& r = roles_[t];
      if (r.kind == ROLE_MATRIX) {
        matrix_state& m = layers_[r.layer_index][r.part];
        free_matrix(&m);
        residency_.layers[r.layer_index].bytes[r.part] = 0;
      } else {
        probe_.drop_rows();
      }
    }
    source_failure_add(&notices_, {id.file, id.url, stream_error_of(STREAM_FILE_CHANGED)});
    opener_->reread_shard(s);
    rereading_.push_back(s);
    generation_++;
  }
  if (rereading_.empty() || !opener_done(now)) return;
  source_failure f;
  const std::vector<int> layers = model_.layers;
  if (!check_model(&f)) return fail_open(f);
  if (model_.layers != layers) {  // the new file holds other layers: nothing planned fits it
    const file_identity& id = opener_->opened().shards[rereading_[0]];
    return fail_open({id.file, id.url, stream_error_sizes(STREAM_FILE_CHANGED, 1, 0)});
  }
  for (int s : rereading_)
    if (!fetch_->replan_shard(opener_->opened(), s)) {
      const file_identity& id = opener_->opened().shards[s];
      return fail_open({id.file, id.url, stream_error_sizes(STREAM_FILE_CHANGED, 1, 0)});
    }
  rereading_.clear();
}

// [SECTION] the frame

void checkpoint_source::pump(double now) {
  if (phase_ == SOURCE_FAILED || phase_ == SOURCE_EMPTY) return;
  if (phase_ == SOURCE_OPENING) open_step(now);
  if (phase_ != SOURCE_READY) return;
  follow_changed_files(now);
  if (phase_ != SOURCE_READY) return;
  mark_needs();
  fetch_->pump(now);
}

void checkpoint_source::cancel() {
  if (phase_ == SOURCE_OPENING) {
    opener_->cancel();
    if (opener_->state() == OPENER_FAILED) {
      const opener_failure& of = opener_->failure();
      return fail_open({of.file, of.url, of.error});
    }
    return fail_open({kConfigFile, file_url(kConfigFile), stream_error_of(STREAM_CANCELLED)});  // waiting for the tokenizer
  }
  if (fetch_) fetch_->cancel();
}

void checkpoint_source::retry(double now) {
  if (phase_ == SOURCE_FAILED) {
    opener_->restart(now);
    model_checked_ = false;
    notices_.clear();
    phase_ = SOURCE_OPENING;
    generation_++;
    return;
  }
  if (fetch_) fetch_->retry();
  pump(now);
}

// [SECTION] conversion (tensor_converter): q8 matrices, f32 rows

bool checkpoint_source::tensor_chunk_begin(int t, const tensor_chunk& c) {
  (void)c;
  const role& r = roles_[t];
  if (r.kind != ROLE_MATRIX) return true;  // the probe's rows: within the budget checked on opening
  matrix_state& m = layers_[r.layer_index][r.part];
  if (!m.blob) {
    if (!make_room(r.layer_index, r.part)) return false;
    // want() refused what exceeds the budget; a browser may still refuse the memory: said, not retried.
    m.blob = m.bytes <= (uint64_t)SIZE_MAX ? ::operator new((size_t)m.bytes, std::align_val_t(Q8_ALIGN), std::nothrow) : nullptr;
    if (!m.blob || q8_matrix_begin(m.rows, m.cols, m.blob) != Q8_OK) {
      free_matrix(&m);
      m.no_memory = true;
      generation_++;
      return false;
    }
    residency_.layers[r.layer_index].bytes[r.part] = m.bytes;
  }
  residency_.touch(r.layer_index);
  return true;
}

// f32 rows of the embedding (row = token id) or the norm (one row), checked finite.
static bool f32_rows(const tensor_plan& p, const unsigned char* raw, int64_t count, std::vector<float>* out, read_error* why) {
  out->resize((size_t)(count * p.cols));
  dtype_to_f32(p.dtype, raw, out->size(), out->data());
  for (float x : *out)
    if (!std::isfinite(x)) return *why = read_error_at(p.what.name, STR_READ_NOT_FINITE), false;
  return true;
}

bool checkpoint_source::tensor_rows_convert(int t, int64_t row, int64_t count, const unsigned char* raw, read_error* why) {
  const role& r = roles_[t];
  const tensor_plan& p = fetch_->plan(t);
  if (r.kind == ROLE_MATRIX) {
    matrix_state& m = layers_[r.layer_index][r.part];
    std::string err;
    return m.blob && tensor_rows_to_q8(p.dtype, raw, (int)row, (int)count, m.rows, m.cols, m.blob, &scratch_, &err);
  }
  if (!f32_rows(p, raw, count, &scratch_, why)) return false;
  if (r.kind == ROLE_NORM) {
    probe_.norm = scratch_;
    return true;
  }
  for (int64_t k = 0; k < count; k++)
    probe_.embed_rows[row + k].assign(scratch_.begin() + (size_t)(k * p.cols), scratch_.begin() + (size_t)((k + 1) * p.cols));
  return true;
}

// An f32 record binds its rows, so a record of other rows of the same size is refused.
static uint64_t rows_bind(const tensor_chunk& c) { return ((uint64_t)c.row0 << 24) ^ (uint64_t)c.rows ^ 0x5f3759df; }

std::string checkpoint_source::tensor_chunk_record(int t, const tensor_chunk& c) {
  const role& r = roles_[t];
  const tensor_plan& p = fetch_->plan(t);
  if (r.kind == ROLE_MATRIX) {
    const matrix_state& m = layers_[r.layer_index][r.part];
    return ::tensor_chunk_record(m.blob, c, m.rows, m.cols);
  }
  std::vector<float> v;
  if (r.kind == ROLE_NORM) v = probe_.norm;
  for (int k = 0; k < c.rows && r.kind == ROLE_EMBED; k++) {
    const std::vector<float>& row = probe_.embed_rows[c.row0 + k];
    v.insert(v.end(), row.begin(), row.end());
  }
  if (v.size() != (size_t)(c.rows * p.cols)) return "";
  return checked_record(v.data(), v.size() * 4, rows_bind(c));
}

bool checkpoint_source::tensor_chunk_from_record(int t, const tensor_chunk& c, const void* record, size_t n) {
  const role& r = roles_[t];
  const tensor_plan& p = fetch_->plan(t);
  if (r.kind == ROLE_MATRIX) {
    const matrix_state& m = layers_[r.layer_index][r.part];
    return m.blob && ::tensor_chunk_from_record(record, n, c, m.rows, m.cols, m.blob);
  }
  const unsigned char* data;
  if (!checked_record_open(record, n, (size_t)(c.rows * p.cols) * 4, &data, rows_bind(c))) return false;
  std::vector<float> v((size_t)(c.rows * p.cols));
  std::memcpy(v.data(), data, v.size() * 4);
  for (float x : v)
    if (!std::isfinite(x)) return false;
  if (r.kind == ROLE_NORM) probe_.norm = std::move(v);
  for (int k = 0; k < c.rows && r.kind == ROLE_EMBED; k++)
    probe_.embed_rows[c.row0 + k].assign(v.begin() + (size_t)(k * p.cols), v.begin() + (size_t)((k + 1) * p.cols));
  return true;
}

bool checkpoint_source::tensor_complete(int t) {
  const role& r = roles_[t];
  generation_++;
  if (r.kind != ROLE_MATRIX) {
    probe_.compute_inputs(opener_->opened().ck.config);
    return true;
  }
  matrix_state& m = layers_[r.layer_index][r.part];
  if (!m.blob || q8_matrix_parse(m.blob, (size_t)m.bytes, &m.view) != Q8_OK) return false;
  m.complete = true;
  residency_.touch(r.layer_index);
  return true;
}

// [SECTION] what the lesson reads

const std::vector<float>* checkpoint_source::probe_input(int probe) const {
  if (phase_ != SOURCE_READY || probe < 0 || probe >= (int)probe_.inputs.size() || probe_.inputs[probe].empty()) return nullptr;
  return &probe_.inputs[probe];
}

const q8_matrix_view* checkpoint_source::matrix(int layer, mlp_part part) {
  const int li = phase_ == SOURCE_READY ? model_.find_layer(layer) : -1;
  if (li < 0 || !layers_[li][part].complete) return nullptr;
  residency_.touch(li);
  return &layers_[li][part].view;
}

source_progress checkpoint_source::progress(int layer) const {
  source_progress p;
  if (phase_ != SOURCE_READY) return p;
  const int li = layer >= 0 ? model_.find_layer(layer) : -1;
  if (layer >= 0 && li < 0) return p;
  for (int t = 0; t < (int)roles_.size(); t++) {
    const role& r = roles_[t];
    if (li >= 0 && r.layer_index != li) continue;
    const tensor_progress tp = fetch_->progress(t);
    if (r.kind == ROLE_MATRIX) {
      const bool wanted = wants_.priority(r.layer_index, r.part) >= 0 && !layer_refused(refused_, r.layer_index, r.part) &&
                          !layers_[r.layer_index][r.part].no_memory;
      if (!wanted && tp.loading == 0 && tp.failed == 0 && tp.converting == 0) continue;
    }
    p.total += tp.total;
    p.loaded += tp.loaded;
    p.loading += tp.loading;
    p.converting += tp.converting;
    p.failed += tp.failed;
    p.waiting += tp.waiting;
  }
  p.paused = fetch_->paused();
  return p;
}

std::vector<source_failure> checkpoint_source::failures() const {
  std::vector<source_failure> out;
  if (phase_ == SOURCE_FAILED) out.push_back(open_failure_);
  if (phase_ != SOURCE_READY) return out;
  const checkpoint& ck = opener_->opened().ck;
  for (const layer_too_large& t : refused_) {
    // A matrix by its tensor's name; a layer wanted whole by its MLP's ("model.layers.3.mlp").
    const std::string gate = ckpt_mlp_name(ck, model_.layers[t.layer_index], t.part < 0 ? CKPT_GATE : (ckpt_mlp_part)t.part);
    const std::string name = t.part >= 0 ? gate : gate.substr(0, gate.rfind(".gate_proj"));
    source_failure_add(&out, layer_too_large_failure(t, options_.resident_bytes, name, file_url(ckpt_file_of(ck, gate))));
  }
  for (size_t li = 0; li < layers_.size(); li++)
    for (int part = 0; part < MLP_PART_COUNT; part++)
      if (layers_[li][part].no_memory) {
        const std::string name = ckpt_mlp_name(ck, model_.layers[li], (ckpt_mlp_part)part);
        source_failure_add(&out, {name, file_url(ckpt_file_of(ck, name)), stream_error_sizes(STREAM_NO_ROOM, options_.resident_bytes, layers_[li][part].bytes)});
      }
  for (const tensor_failure& f : fetch_->failures()) {
    const file_identity& id = opener_->opened().shards[f.shard];
    source_failure_add(&out, {id.file, id.url, f.error});
  }
  return out;
}

uint64_t checkpoint_source::bytes_from_network() const { return opener_->bytes_network() + (fetch_ ? fetch_->bytes_network() : 0); }
uint64_t checkpoint_source::bytes_from_cache() const { return opener_->bytes_cache() + (fetch_ ? fetch_->bytes_cache() : 0); }

uint64_t checkpoint_source::resident_bytes() const {
  uint64_t b = 0;
  for (const std::vector<matrix_state>& L : layers_)
    for (const matrix_state& m : L) b += m.blob ? m.bytes : 0;
  return b;
}

uint64_t checkpoint_source::tensor_bytes_wanted() const {
  uint64_t b = 0;
  for (int t = 0; t < (int)roles_.size(); t++) {
    const role& r = roles_[t];
    if (r.kind != ROLE_MATRIX || wants_.priority(r.layer_index, r.part) >= 0) b += fetch_->plan(t).bytes;
  }
  return b;
}
