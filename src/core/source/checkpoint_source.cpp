// A checkpoint read by byte ranges as the live views' layer source (see checkpoint_source.h).
#include "core/source/checkpoint_source.h"

#include <new>

#include "core/quant/q8_format.h"

static const char kConfigFile[] = "config.json";

static checkpoint_reader_options reader_options(const checkpoint_source_options& o) {
  checkpoint_reader_options r;
  r.opener.stall_seconds = o.stall_seconds;
  r.opener.header_prefetch = o.header_prefetch;
  r.opener.chunk_bytes = o.chunk_bytes;
  r.fetch = o;
  return r;
}

checkpoint_source::checkpoint_source(fetch_client* client, const model_location& where, double now,
                                     checkpoint_source_options options)
    : client_(client), where_(where), options_(options), reader_(client, where, now, reader_options(options), this) {}

checkpoint_source::~checkpoint_source() {
  // (The reader's requests go with it, after this: nothing is delivered meanwhile.)
  for (std::vector<matrix_state>& L : layers_)
    for (matrix_state& m : L) free_matrix(&m);
}

static source_failure as_source_failure(const opener_failure& f) { return {f.file, f.url, f.error}; }
static opener_failure as_opener_failure(const source_failure& f) { return {f.file, f.url, f.error}; }

// [SECTION] opening: the opened checkpoint, checked for the MLP views and against the budget

// The reader failed, or starts again: nothing of the model is kept.
void checkpoint_source::reader_reset() {
  phase_ = SOURCE_FAILED;
  model_ = source_model();
  model_checked_ = false;
  wants_ = layer_wants();
  refused_.clear();
  for (std::vector<matrix_state>& L : layers_)
    for (matrix_state& m : L) free_matrix(&m);
  layers_.clear();
  roles_.clear();
  probe_ = checkpoint_probe();
  generation_++;
}

// A layer's MLP needs all three matrices, readable and shaped as config.json says.
bool checkpoint_source::check_model(const checkpoint& ck, source_failure* f) {
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
    if (!ck.find(ckpt_mlp_name(ck, l, MLP_GATE))) continue;
    if (!check(ckpt_mlp_name(ck, l, MLP_GATE), {c.intermediate, c.hidden}) ||
        !check(ckpt_mlp_name(ck, l, MLP_UP), {c.intermediate, c.hidden}) ||
        !check(ckpt_mlp_name(ck, l, MLP_DOWN), {c.hidden, c.intermediate}))
      return false;
    model_.layers.push_back(l);
  }
  if (!model_.layers.empty()) return true;
  // Say what the checkpoint has instead: experts, int4 (GPTQ / AWQ) weights, or no SwiGLU at all.
  const std::string file = ck.files.empty() ? kConfigFile : ck.files[0].file;
  *f = {file, file_url(file), stream_error_of(STREAM_NOT_SWIGLU, read_error_at("", STR_READ_NO_TENSOR, {ckpt_mlp_name(ck, 0, MLP_GATE)}))};
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
bool checkpoint_source::check_fits(const checkpoint& ck, source_failure* f) {
  const model_config& c = ck.config;
  const uint64_t need = q8_matrix_blob_bytes((int)c.intermediate, (int)c.hidden) + probe_.bytes(c.hidden);
  if (need <= options_.resident_bytes) return true;
  const std::string gate = ckpt_mlp_name(ck, model_.layers[0], MLP_GATE);
  *f = {gate, file_url(ckpt_file_of(ck, gate)), stream_error_sizes(STREAM_NO_ROOM, options_.resident_bytes, need)};
  return false;
}

bool checkpoint_source::build_tensors(const checkpoint_opened& opened, tensor_fetch* fetch, source_failure* f) {
  const checkpoint& ck = opened.ck;
  roles_.clear();
  auto add = [&](const tensor_rows& what, role r) {
    const int t = fetch->add(opened, what);
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
      const std::string name = ckpt_mlp_name(ck, model_.layers[li], (mlp_part)part);
      const st_tensor* t = ck.find(name);
      m.rows = (int)t->shape[0];
      m.cols = (int)t->shape[1];
      m.bytes = q8_matrix_blob_bytes(m.rows, m.cols);
      if ((m.tensor = add({name, "q8"}, {ROLE_MATRIX, (int)li, part})) < 0) return false;
    }
  residency_.reset(model_.layers.size(), options_.resident_bytes);
  return true;
}

reader_plan_result checkpoint_source::reader_plan(const checkpoint_opened& opened, tensor_fetch* fetch, opener_failure* f) {
  source_failure sf;
  if (!model_checked_) {  // once: a wait for the tokenizer comes back here
    if (!check_model(opened.ck, &sf)) return *f = as_opener_failure(sf), READER_PLAN_FAILED;
    model_checked_ = true;
  }
  const model_config& c = opened.ck.config;
  const probe_state ps = probe_.choose(client_, options_.tokenizer, where_, options_.probes, options_.lesson_sentence, c, &sf);
  if (ps == PROBE_WAITING) return READER_PLAN_WAIT;
  if (ps == PROBE_FAILED || !check_fits(opened.ck, &sf) || !build_tensors(opened, fetch, &sf))
    return *f = as_opener_failure(sf), READER_PLAN_FAILED;
  model_.model_id = where_.hub ? where_.id() : !c.name_or_path.empty() ? c.name_or_path : where_.text;
  model_.revision = where_.hub ? where_.revision : "";
  model_.checkpoint = true;
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
  return READER_PLAN_DONE;
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
void checkpoint_source::reader_need(tensor_fetch* fetch) {
  for (int t = 0; t < (int)roles_.size(); t++) {
    const role& r = roles_[t];
    if (r.kind != ROLE_MATRIX) {
      fetch->need(t, !fetch->complete(t), LAYER_PRIORITY_INPUTS);
      continue;
    }
    const matrix_state& m = layers_[r.layer_index][r.part];
    const int priority = wants_.priority(r.layer_index, r.part);
    fetch->need(t, !m.complete && !m.no_memory && priority >= 0 && !layer_refused(refused_, r.layer_index, r.part), priority);
  }
}

bool checkpoint_source::layer_busy(int li) const {
  for (const matrix_state& m : layers_[li])
    if (fetch()->busy(m.tensor)) return true;
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
                                     for (matrix_state& m : layers_[l]) free_matrix(&m), fetch()->forget(m.tensor);
                                     generation_++;
                                     dropped_++;
                                   });
}

// [SECTION] a file that changed on the host

// What was made of it is dropped at once (the reader reads its header again and plans its
// tensors anew from it once reader_reread agrees).
void checkpoint_source::reader_drop_shard(int shard) {
  for (int t = 0; t < (int)roles_.size(); t++) {
    if (fetch()->plan(t).shard != shard) continue;
    const role& r = roles_[t];
    if (r.kind == ROLE_MATRIX) {
      free_matrix(&layers_[r.layer_index][r.part]);
      residency_.layers[r.layer_index].bytes[r.part] = 0;
    } else {
      probe_.drop_rows();
    }
  }
  generation_++;
  dropped_++;
}

bool checkpoint_source::reader_reread(const checkpoint_opened& opened, opener_failure* f) {
  source_failure sf;
  const std::vector<int> layers = model_.layers;
  if (!check_model(opened.ck, &sf)) return *f = as_opener_failure(sf), false;
  return model_.layers == layers;  // other layers: nothing planned fits the new file (the reader names it)
}

// [SECTION] the frame

void checkpoint_source::pump(double now) {
  if (phase_ == SOURCE_EMPTY) return;
  reader_.pump(now);
}

void checkpoint_source::cancel() { reader_.cancel(); }

void checkpoint_source::retry(double now) {
  if (phase_ == SOURCE_FAILED) {
    reader_.retry(now);
    phase_ = SOURCE_OPENING;
    generation_++;
    return;
  }
  reader_.retry(now);
  pump(now);
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
    const tensor_progress tp = fetch()->progress(t);
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
  p.paused = fetch()->paused();
  return p;
}

std::vector<source_failure> checkpoint_source::failures() const {
  std::vector<source_failure> out;
  if (phase_ == SOURCE_FAILED) out.push_back(as_source_failure(reader_.failure()));
  if (phase_ != SOURCE_READY) return out;
  const checkpoint& ck = reader_.opened().ck;
  for (const layer_too_large& t : refused_) {
    // A matrix by its tensor's name; a layer wanted whole by its MLP's ("model.layers.3.mlp").
    const std::string gate = ckpt_mlp_name(ck, model_.layers[t.layer_index], t.part < 0 ? MLP_GATE : (mlp_part)t.part);
    const std::string name = t.part >= 0 ? gate : gate.substr(0, gate.rfind(".gate_proj"));
    source_failure_add(&out, layer_too_large_failure(t, options_.resident_bytes, name, file_url(ckpt_file_of(ck, gate))));
  }
  for (size_t li = 0; li < layers_.size(); li++)
    for (int part = 0; part < MLP_PART_COUNT; part++)
      if (layers_[li][part].no_memory) {
        const std::string name = ckpt_mlp_name(ck, model_.layers[li], (mlp_part)part);
        source_failure_add(&out, {name, file_url(ckpt_file_of(ck, name)), stream_error_sizes(STREAM_NO_ROOM, options_.resident_bytes, layers_[li][part].bytes)});
      }
  for (const opener_failure& f : reader_.chunk_failures()) source_failure_add(&out, as_source_failure(f));
  return out;
}

std::vector<source_failure> checkpoint_source::notices() const {
  std::vector<source_failure> out;
  for (const opener_failure& f : reader_.notices()) out.push_back(as_source_failure(f));
  return out;
}

uint64_t checkpoint_source::bytes_from_network() const { return reader_.bytes_network(); }
uint64_t checkpoint_source::bytes_from_cache() const { return reader_.bytes_cache(); }

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
    if (r.kind != ROLE_MATRIX || wants_.priority(r.layer_index, r.part) >= 0) b += fetch()->plan(t).bytes;
  }
  return b;
}
