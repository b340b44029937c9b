// The whole model as its worker runs it (see model_host.h).
#include "core/model/model_host.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/base/hash.h"
#include "core/base/parallel_rows.h"
#include "core/base/strings.h"
#include "core/kernels/kernels.h"
#include "core/base/number_format.h"
#include "core/checkpoint_remote/sentence_tokenizer.h"

model_host::model_host(fetch_client* client, model_loader_options options) : client_(client), options_(options) {}

model_host::~model_host() {
  if (tokenizer_pending_) client_->fetch_cancel(tokenizer_request_);
  client_->forget_sink(this);
}

void model_host::open(const std::string& location, double now) {
  if (location == location_ && (loader_ || open_error_.failed())) return;
  if (tokenizer_pending_) client_->fetch_cancel(tokenizer_request_);
  loader_.reset();
  tokenizer_.reset();
  tokenizer_error_ = stream_error();
  tokenizer_pending_ = false;
  tokenizer_request_ = 0;  // the new model's own tokenizer.json is asked for (a model opened again too)
  has_base_ = false;
  toward_.clear();
  shortcut_ids_.clear();
  shortcut_silu_.clear();
  open_error_ = stream_error();
  location_ = location;
  std::string why;
  if (!model_location_parse(location, &where_, &why)) {
    open_error_ = stream_error_detail(STREAM_HTTP, why);
    return;
  }
  loader_.reset(new model_loader(client_, where_, now, options_));
}

void model_host::go() {
  if (loader_) loader_->go();
}
void model_host::cancel() {
  if (loader_) loader_->cancel();
}
void model_host::retry(double now) {
  if (!tokenizer_ && !tokenizer_pending_) tokenizer_request_ = 0;  // a tokenizer.json that failed is asked again
  if (loader_) loader_->retry(now);
}

void model_host::pump(double now) {
  if (!loader_) return;
  loader_->pump(now);
  // The tokenizer once the weights are on their way (a model without one still runs on ids).
  if (!tokenizer_ && !tokenizer_pending_ && tokenizer_request_ == 0 && loader_->phase() >= MODEL_ASKING &&
      loader_->phase() != MODEL_FAILED) {
    fetch_request q;
    q.url = model_location_file_url(where_, MODEL_TOKENIZER_FILE);
    q.max_bytes = MODEL_TOKENIZER_MAX_BYTES;
    tokenizer_pending_ = true;
    tokenizer_request_ = client_->fetch_start(this, q);
  }
}

void model_host::on_fetch_response(uint32_t id, const fetch_response& r, double now) {
  (void)now;
  if (!tokenizer_pending_ || id != tokenizer_request_) return;
  tokenizer_pending_ = false;
  // A tokenizer that cannot be read leaves the model on ids alone: the views say so, and why.
  stream_error got;
  sentence_failure f = tokenizer_file_answer(r, MODEL_TOKENIZER_MAX_BYTES, &got);
  if (f == SENTENCE_OK) {
    std::unique_ptr<bpe_tokenizer> t(new bpe_tokenizer());
    if (bpe_tokenizer_load((const char*)r.body, r.n, t.get(), &got.detail)) {  // from the fetch's buffer: no copy
      tokenizer_ = std::move(t);
      tokenizer_error_ = stream_error();
      return;
    }
    f = SENTENCE_FILE_UNREADABLE;
  }
  tokenizer_error_ = sentence_failure_error_of(f, got);
}

// The shards' ETags as one short digest ("" when a shard has none).
static std::string files_revision(const checkpoint_opened* opened) {
  if (!opened || opened->shards.empty()) return "";
  std::string etags;
  for (const file_identity& id : opened->shards) {
    if (id.etag.empty()) return "";
    etags += id.etag + "\n";
  }
  return strf("%012llx", (unsigned long long)(hash64(etags.data(), etags.size()) >> 16));
}

// Which weights these are, as far as the host says, for a class link to carry (class_answers.h):
// on the Hub, the commit (the link's @COMMIT, else the one the Hub says it served the files from,
// else the link's branch or tag by name); elsewhere, or when the Hub's header cannot be read on
// `main`, the shards' ETags as one short digest (a file replaced on the host gives another);
// else "" (a host that sends no ETag). A commit is shown by its first 12 digits, as git does.
// `files`: files_revision(opened).
static std::string weights_revision(const model_location& where, const checkpoint_opened* opened, const std::string& files) {
  if (where.hub && model_commit_ok(where.revision)) return where.revision.substr(0, 12);
  if (where.hub && opened && !opened->repo_commit.empty()) return opened->repo_commit.substr(0, 12);
  if (where.hub && where.revision != "main") return where.revision;
  return files;
}

model_status model_host::status() const {
  model_status s;
  s.location = location_;
  if (open_error_.failed() || !loader_) {
    s.phase = open_error_.failed() ? MODEL_STATUS_FAILED : MODEL_STATUS_IDLE;
    s.error = open_error_;
    return s;
  }
  const model_loader& L = *loader_;
  switch (L.phase()) {
    case MODEL_OPENING: s.phase = MODEL_STATUS_OPENING; break;
    case MODEL_ASKING: s.phase = MODEL_STATUS_ASKING; break;
    case MODEL_LOADING: s.phase = MODEL_STATUS_LOADING; break;
    case MODEL_READY: s.phase = tokenizer_pending_ ? MODEL_STATUS_LOADING : MODEL_STATUS_READY; break;
    case MODEL_FAILED: s.phase = MODEL_STATUS_FAILED; break;
  }
  if (L.phase() != MODEL_OPENING && L.phase() != MODEL_FAILED) {
    const model_spec& sp = L.spec();
    s.name = where_.hub ? where_.id() : !sp.base.name_or_path.empty() ? sp.base.name_or_path : location_;
    s.revision_files = files_revision(L.opened());
    s.revision = weights_revision(where_, L.opened(), s.revision_files);
    s.synthetic = sp.base.synthetic;
    s.layers = (int)sp.base.layers;
    for (model_mixer m : sp.mixers) s.linear_layers += m == MIXER_LINEAR_ATTENTION;
    s.hidden = (int)sp.base.hidden, s.intermediate = (int)sp.base.intermediate, s.vocab = (int)sp.base.vocab;
    s.download_bytes = L.download_bytes(), s.cached_bytes = L.cached_bytes(), s.memory_bytes = L.memory_bytes();
    for (const model_file_progress& f : L.progress()) s.files.push_back({f.file, f.loaded, f.total, f.failed > 0});
  }
  s.tokenizer = tokenizer_ != nullptr;
  s.bytes_network = L.bytes_network();
  s.paused = L.paused();
  s.moving = L.phase() == MODEL_LOADING && L.moving();
  if (L.phase() == MODEL_FAILED) {
    s.failed_file = L.failure().file;
    s.error = L.failure().error;
  } else {
    for (const opener_failure& f : L.chunk_failures())
      if (f.error.fault != STREAM_CANCELLED) s.failed_file = f.file, s.error = f.error;
  }
  s.storage_notice = L.storage_notice();
  for (const opener_failure& n : L.notices())
    if (n.error.fault == STREAM_FILE_CHANGED) s.changed_files.push_back(n.file);
  s.threads = parallel_rows_threads();
  return s;
}

// [SECTION] answers

token_text model_host::token(int64_t id) const {
  token_text t;
  t.id = id;
  if (tokenizer_) t.piece = bpe_decode_piece(*tokenizer_, (int)id);  // a split character as its bytes, "<e5 85>"
  return t;
}

std::vector<token_text> model_host::tokens(const std::vector<token_score>& v) const {
  std::vector<token_text> out;
  for (const token_score& s : v) out.push_back(token(s.id));
  return out;
}

const std::vector<token_text>& model_host::toward(const unit_ref& u) {
  auto it = toward_.find(u);
  if (it == toward_.end())
    it = toward_.emplace(u, tokens(unit_writes_toward(loader_->weights(), u.layer, u.unit, MODEL_TOWARD_TOKENS))).first;
  return it->second;
}

bool model_host::prompt_ids(const model_question& q, std::vector<int64_t>* ids, std::vector<std::string>* pieces,
                            stream_error* e) {
  const model_weights& w = loader_->weights();
  if (!q.ids.empty()) {
    for (int64_t id : q.ids)
      if (!model_has_token(w.spec, id)) {
        *e = stream_error_of(STREAM_NEEDS_IDS, read_error_at("", STR_READ_TOKEN_OUTSIDE, {std::to_string(id), std::to_string(w.spec.base.vocab - 1)}));
        return false;
      }
    *ids = q.ids;
  } else if (tokenizer_ && !q.text.empty()) {
    const bpe_encoding enc = bpe_encode(tokenizer_.get(), q.text);
    ids->assign(enc.ids.begin(), enc.ids.end());
    *pieces = enc.pieces;
  } else {
    *e = tokenizer_error_.failed() ? tokenizer_error_ : stream_error_of(STREAM_NEEDS_IDS, read_error_at("", STR_TOK_FILE_MISSING));
    return false;
  }
  if (ids->empty() || ids->size() > MODEL_MAX_TOKENS) {
    *e = stream_error_of(STREAM_NEEDS_IDS, read_error_at("", STR_READ_PROBE_TOKENS, {std::to_string((int)MODEL_MAX_TOKENS)}));
    return false;
  }
  for (int64_t id : *ids)
    if (!model_has_token(w.spec, id)) {
      *e = stream_error_of(STREAM_NEEDS_IDS, read_error_at("", STR_READ_TOKEN_OUTSIDE, {std::to_string(id), std::to_string(w.spec.base.vocab - 1)}));
      return false;
    }
  return true;
}

// The histograms of the layers asked for: silu(gate) on what each layer really reads (the stream
// through the post-attention norm), and on the lessons' shortcut input (layer 0's post-attention
// norm of the embedding, fed to every layer) for the same model, so the view can set them side by side.
void model_host::gate_counts(const model_question& q, const forward_trace& run, model_reply* r) {
  const model_weights& w = loader_->weights();
  const int T = run.T, H = (int)w.spec.base.hidden, F = (int)w.spec.base.intermediate;
  if (shortcut_ids_ != run.ids) {
    shortcut_ids_ = run.ids;
    shortcut_silu_.assign(w.layers.size(), {});
  }
  for (int l : q.gate_layers) {
    if (l < 0 || l >= (int)w.layers.size()) continue;
    if (shortcut_silu_[l].empty()) {
      std::vector<float> x((size_t)T * H), g((size_t)T * F), emb((size_t)H);
      for (int t = 0; t < T; t++) {
        w.embed.row_f32(run.ids[t], emb.data());
        double ss = 0;
        for (float e : emb) ss += (double)e * e;
        const float inv = (float)(1.0 / std::sqrt(ss / H + w.spec.base.rms_norm_eps));
        for (int k = 0; k < H; k++) x[(size_t)t * H + k] = emb[k] * inv * w.layers[0].post_norm[k];
      }
      const wmat_view gv = w.layers[l].gate.view();
      wgemm_default(gv.format)(&gv, x.data(), T, g.data());
      shortcut_silu_[l].resize(g.size());
      f32_vsilu_default()(g.size(), g.data(), shortcut_silu_[l].data());
    }
    mlp_gate_counts stream, shortcut;
    const bool one = q.gate_token >= 0 && q.gate_token < T;
    const size_t at = one ? (size_t)q.gate_token * F : 0, n = one ? (size_t)F : (size_t)T * F;
    mlp_gate_count(run.silu_gate[l].data() + at, n, q.threshold, &stream);
    mlp_gate_count(shortcut_silu_[l].data() + at, n, q.threshold, &shortcut);
    r->gate_layers.push_back(l);
    r->gates_stream.push_back(stream);
    r->gates_shortcut.push_back(shortcut);
  }
}

// [SECTION] what an answer may not do: take more memory than the page holds beside the weights,
// or show numbers made of NaN or infinity (huge finite weights overflow f32 on the way)
static_assert(MODEL_TOP_UNITS + 1 <= MODEL_ANSWER_UNITS, "model_answer_bytes counts the units scored in one answer");

// A prompt whose pass does not fit beside the weights is refused before it runs, naming the sizes
// and the longest prompt that fits.
static bool answer_fits(const model_loader& L, uint64_t budget, int T, stream_error* e) {
  const uint64_t weights = L.memory_bytes(), need = model_answer_bytes(L.spec(), T);
  if (weights + need <= budget) return true;
  int fit = T;
  while (fit > 0 && weights + model_answer_bytes(L.spec(), fit) > budget) fit--;
  *e = stream_error_of(STREAM_UNSUPPORTED, read_error_at("", STR_MODEL_PROMPT_NO_ROOM, {std::to_string(T), fmt_mib(need),
                                                                                        fmt_mib(weights), fmt_mib(budget), std::to_string(fit)}));
  return false;
}

// The run's outputs checked: the first layer after which the stream went non-finite, or the logits.
static bool answer_finite(const forward_trace& run, stream_error* e) {
  if (run.finite()) return true;
  *e = stream_error_of(STREAM_UNSUPPORTED, run.nonfinite_layer >= 0
                                               ? read_error_at("", STR_MODEL_NOT_FINITE, {std::to_string(run.nonfinite_layer)})
                                               : read_error_at("", STR_MODEL_NOT_FINITE_LOGITS));
  return false;
}

// steady_clock: performance.now() in the worker.
static double clock_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

model_reply model_host::answer(const model_question& q, uint64_t split_above_macs) {
  model_reply r;
  r.id = q.id;
  if (!ready()) {
    r.error = stream_error_of(STREAM_CANCELLED);
    return r;
  }
  const model_weights& w = loader_->weights();
  std::vector<int64_t> ids;
  std::vector<std::string> pieces;
  if (!prompt_ids(q, &ids, &pieces, &r.error)) return r;
  for (size_t t = 0; t < ids.size(); t++) {
    token_text tt = token(ids[t]);
    if (t < pieces.size()) tt.piece = pieces[t];
    r.prompt.push_back(tt);
  }
  if (!answer_fits(*loader_, options_.memory_budget, (int)ids.size(), &r.error)) return r;
  if (!has_base_ || base_.ids != ids) {
    const double t0 = clock_ms();
    model_forward(w, ids, {}, &base_);
    r.forward_ms = clock_ms() - t0;
    has_base_ = true;
    off_run_ = forward_trace();
  }
  const std::vector<unit_ref> off = model_units_inside(w.spec, q.off);
  if (!off.empty() && (off_run_.ids != ids || off_run_.off != off)) {
    const double t0 = clock_ms();
    model_forward_switch_off(w, base_, off, &off_run_);
    r.switch_off_ms = clock_ms() - t0;
  }
  const forward_trace& run = off.empty() ? base_ : off_run_;
  if (!answer_finite(base_, &r.error) || !answer_finite(run, &r.error)) return r;
  const int T = (int)ids.size();
  r.position = q.position >= 0 && q.position < T ? q.position : T - 1;

  const std::vector<double> p_run = forward_probabilities(run);
  const std::vector<double> p_base = off.empty() ? p_run : forward_probabilities(base_);
  for (const token_prob& t : forward_top_tokens(run, MODEL_TOP_TOKENS)) r.top.push_back({token(t.id), t.p, p_base[t.id]});
  if (!off.empty()) {
    for (const token_prob& t : forward_top_tokens(base_, MODEL_TOP_TOKENS)) r.before_top.push_back({token(t.id), p_run[t.id], t.p});
    std::vector<int64_t> order(p_run.size());
    for (size_t i = 0; i < order.size(); i++) order[i] = (int64_t)i;
    const size_t k = std::min<size_t>(MODEL_RISING_TOKENS, order.size());
    std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int64_t a, int64_t b) {
      const double da = p_run[a] - p_base[a], db = p_run[b] - p_base[b];
      return da != db ? da > db : a < b;
    });
    for (size_t i = 0; i < k; i++)
      if (p_run[order[i]] > p_base[order[i]]) r.rising.push_back({token(order[i]), p_run[order[i]], p_base[order[i]]});
  }
  const std::vector<unit_activation> top_units = forward_top_units(base_, r.position, MODEL_TOP_UNITS);
  {  // what the units shown write toward, the ones not known yet in one pass over the unembedding
    std::vector<unit_ref> missing;
    for (const unit_activation& u : top_units)
      if (!toward_.count(u.unit)) missing.push_back(u.unit);
    if (model_has_unit(w.spec, q.unit) && !toward_.count(q.unit)) missing.push_back(q.unit);
    const uint64_t macs = (uint64_t)missing.size() * (uint64_t)w.spec.base.vocab * (uint64_t)w.spec.base.hidden;
    r.toward_pending = !missing.empty() && macs > split_above_macs;
    if (!r.toward_pending) {
      const std::vector<std::vector<token_score>> found = units_write_toward(w, missing, MODEL_TOWARD_TOKENS);
      for (size_t i = 0; i < missing.size(); i++)
        if (!found[i].empty()) toward_.emplace(missing[i], tokens(found[i]));
    }
  }
  // (Pending: the lists known so far, the others empty.)
  auto toward_known = [&](const unit_ref& u) { return r.toward_pending && !toward_.count(u) ? std::vector<token_text>() : toward(u); };
  for (const unit_activation& u : top_units) r.units.push_back({u.unit, u.value, toward_known(u.unit)});
  if (model_has_unit(w.spec, q.unit)) {
    const size_t F = (size_t)w.spec.base.intermediate;
    // What the unit computes, silu(gate) * up: the run's activation, or for a unit switched off
    // (the model uses 0 in its place) the product of its two factors.
    const bool off = std::find(q.off.begin(), q.off.end(), q.unit) != q.off.end();
    r.picked.unit = q.unit;
    r.picked.toward = toward_known(q.unit);
    const model_layer_weights& L = w.layers[(size_t)q.unit.layer];
    std::vector<float> up_row((size_t)L.up.cols);
    L.up.row_f32(q.unit.unit, up_row.data());
    const size_t H = up_row.size();
    for (int t = 0; t < T; t++) {
      const float gate = run.silu_gate[q.unit.layer][(size_t)t * F + q.unit.unit];
      double up = 0;  // W_up's row on what the layer read (the trace keeps silu(gate) and the product, not up)
      for (size_t k = 0; k < H; k++) up += (double)up_row[k] * run.mlp_in[q.unit.layer][(size_t)t * H + k];
      r.picked_gate.push_back(gate);
      r.picked_up.push_back((float)up);
      r.picked_per_token.push_back(off ? gate * (float)up : run.act[q.unit.layer][(size_t)t * F + q.unit.unit]);
    }
    r.picked.value = r.picked_per_token[(size_t)r.position];
  } else {
    r.picked.unit = {-1, -1};
  }
  for (size_t l = 0; l < run.mlp_l2.size(); l++) r.flow.push_back({run.mlp_l2[l][r.position], run.out_l2[l][r.position]});
  gate_counts(q, run, &r);  // the run as answered (units outside the model are not "off")
  return r;
}
