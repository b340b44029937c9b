// libFuzzer target for the whole model's config.json -> architecture -> tensor plan -> memory
// check (core/model/model_spec.h, model_loader.h's model_memory_check), and for what the plan
// lets through: the forward pass and the answer's readings on small models.
//
// The input is config.json's text, optionally followed by a NUL and control bytes:
//   [0] the prompt's length - 1 (mod 64)    [1] flags: 1 an lm_head, 2 q/k/v biases, 4 q/k norms
//   (Llama kin), 8 int8 layers, 16 one tensor spoiled   [2..3] which tensor   [4] how: dropped,
//   a dimension one more or one less, an unreadable dtype, one more dimension.
// The checkpoint beside the config is made from the plan itself (model_tensor_list: headers only,
// no bytes), so a config that parses is planned against a checkpoint that matches it, or that
// differs from it in the one place the control bytes say.
//
// Checked on every input (the model memory budget, MODEL_MEMORY_BUDGET, is the allocation bound):
//   - a refusal says why (a reason in both languages; a memory refusal names sizes past the budget);
//   - what parses is a model the pass can run: every count >= 1, the heads divide, RoPE's turned
//     dimensions even and within a head, one mixer per layer;
//   - a checkpoint made from the plan is accepted by the plan, unless it was spoiled or config.json
//     asks for an lm_head it does not have; a spoiled one is refused, naming a tensor;
//   - before the weights, nothing in proportion to the model is allocated (the heap stays within
//     kPlanBound however large the config's dimensions);
//   - the memory check refuses exactly what does not fit: the weights and a one-token answer
//     (model_answer_bytes) within the budget, or a refusal;
//   - on a model small enough to run here: the pass, the switch-off rerun and the readings never
//     hold more than model_forward_bytes / model_answer_bytes counted for them beforehand (every
//     operator new is counted), and a non-finite output is flagged where it is.
// Built by tools/fuzz.sh with clang, ASan and UBSan; ctest replays the committed corpus
// (tests/fuzz/corpus/model/).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "core/model/forward.h"
#include "core/model/model_loader.h"

// [SECTION] every allocation counted (sizes kept in a header before each block)
static size_t g_live = 0, g_peak = 0;
static const size_t kHead = 16;

static void* counted_alloc(size_t n) {
  char* p = (char*)std::malloc(n + kHead);
  if (!p) return nullptr;
  std::memcpy(p, &n, sizeof n);
  g_live += n;
  if (g_live > g_peak) g_peak = g_live;
  return p + kHead;
}
static void counted_free(void* q) {
  if (!q) return;
  char* p = (char*)q - kHead;
  size_t n;
  std::memcpy(&n, p, sizeof n);
  g_live -= n;
  std::free(p);
}
void* operator new(size_t n) {
  void* p = counted_alloc(n);
  if (!p) throw std::bad_alloc();
  return p;
}
void* operator new[](size_t n) { return operator new(n); }
void* operator new(size_t n, const std::nothrow_t&) noexcept { return counted_alloc(n); }
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, size_t) noexcept { counted_free(p); }
void operator delete[](void* p, size_t) noexcept { counted_free(p); }

// Parsing a config of at most 64 KiB and planning up to 1024 layers of named tensors: a few MiB.
// Anything in proportion to the model's dimensions would pass this.
static const size_t kPlanBound = 64u << 20;
// Models run here: weights, the pass's multiply-adds and the answer small enough for a fuzzer's
// pace (the page's built-in model, 1.8 MiB, runs a short prompt).
static const uint64_t kRunWeights = 4u << 20, kRunWork = 8u << 20, kRunAnswer = 16u << 20;

// Multiply-adds of one pass, roughly: every weight once a token, attention's scores and sums over
// the tokens before, the DeltaNet state (k_dim x v_dim per value head, three passes over it) a token.
static uint64_t pass_work(const model_spec& s, uint64_t weights, int T) {
  const uint64_t t = (uint64_t)T;
  uint64_t work = t * weights / 2;
  for (model_mixer m : s.mixers)
    work += m == MIXER_FULL_ATTENTION ? t * t * (uint64_t)s.heads * s.head_dim
                                      : 3 * t * (uint64_t)s.lin_v_heads * s.lin_k_dim * s.lin_v_dim;
  return work;
}

static void check(bool ok) {
  if (!ok) __builtin_trap();
}

static bool said(const read_error& why) {
  return why.set() && !read_error_text_in(LAB_LANG_EN, why).empty() && !read_error_text_in(LAB_LANG_ZH, why).empty();
}

// [SECTION] a checkpoint's headers made from the plan (no bytes: offsets only)

struct control {
  int T = 3;
  uint8_t flags = 0;
  size_t spoil_at = 0;
  uint8_t spoil_how = 0;
};

static control control_of(const uint8_t* c, size_t n) {
  control k;
  if (n > 0) k.T = c[0] % MODEL_MAX_TOKENS + 1;
  if (n > 1) k.flags = c[1];
  if (n > 3) k.spoil_at = (size_t)c[2] | (size_t)c[3] << 8;
  if (n > 4) k.spoil_how = c[4];
  return k;
}

static bool make_checkpoint(const model_config& config, const std::vector<model_tensor>& list, const control& k,
                            checkpoint* ck) {
  st_file f;
  f.file = "model.safetensors";
  uint64_t at = 8 + 4096;
  for (const model_tensor& t : list) {
    st_tensor s;
    s.name = t.name, s.dtype = ST_DTYPE_BF16, s.dtype_name = "BF16", s.shape = t.shape;
    s.begin = at;
    s.end = at += 2 * (uint64_t)t.elements();
    f.tensors.push_back(s);
  }
  if (k.flags & 16 && !f.tensors.empty()) {
    std::vector<st_tensor>::iterator s = f.tensors.begin() + (long)(k.spoil_at % f.tensors.size());
    switch (k.spoil_how % 5) {
      case 0: f.tensors.erase(s); break;
      case 1: s->shape.back()++; break;
      case 2: s->shape.back()--; break;
      case 3: s->dtype = ST_DTYPE_OTHER, s->dtype_name = "I32"; break;
      default: s->shape.push_back(1); break;
    }
  }
  ck->config = config;
  std::string err;
  return ckpt_add_file(ck, std::move(f), &err) && ckpt_finish(ck, {}, &err);
}

// [SECTION] a small model run, every allocation against what was counted for it

// Deterministic small values: the pass's numbers are not checked, its memory and its flags are.
static void fill(model_weights* w, const std::vector<model_tensor>& plan) {
  for (const model_tensor& t : plan) {
    int64_t rows, cols;
    model_tensor_rows(t, &rows, &cols);
    std::vector<float> v((size_t)(rows * cols));
    uint32_t x = (uint32_t)t.name.size() * 2654435761u;
    for (float& e : v) e = (float)((x = x * 1664525u + 1013904223u) >> 8) / (float)(1u << 24) - 0.5f;
    read_error why;
    check(model_weights_put(w, t, 0, rows, ST_DTYPE_F32, v.data(), &why));
  }
}

static void run(const model_spec& spec, const std::vector<model_tensor>& plan, model_formats formats, int T) {
  model_weights w;
  read_error why;
  check(model_weights_prepare(&w, spec, plan, formats, &why));
  fill(&w, plan);
  std::vector<int64_t> ids;
  for (int t = 0; t < T; t++) ids.push_back((t * 7 + 1) % spec.base.vocab);
  const forward_bytes counted = model_forward_bytes(spec, T);
  const uint64_t answer = model_answer_bytes(spec, T);
  forward_trace base, off;
  const size_t before = g_live;
  g_peak = g_live;
  model_forward(w, ids, {}, &base);
  check(g_peak - before <= counted.trace + counted.scratch);
  // Flagged exactly when the stream or the logits hold NaN or infinity.
  bool stream_finite = true, logits_finite = true;
  for (float v : base.logits) logits_finite &= std::isfinite(v);
  for (const std::vector<float>& h : base.layer_in)
    for (float v : h) stream_finite &= std::isfinite(v);
  check(base.nonfinite_logits == !logits_finite);
  if (base.nonfinite_layer < 0) check(stream_finite);
  // The rerun with units off beside the run, then the readings over the vocabulary as the host makes them.
  const int L = (int)spec.base.layers, F = (int)spec.base.intermediate;
  std::vector<unit_ref> units;
  for (int i = 0; i < MODEL_ANSWER_UNITS; i++) units.push_back({(i * 5) % L, (i * 11) % F});
  model_forward_switch_off(w, base, std::vector<unit_ref>(units.begin(), units.begin() + 3), &off);
  check(g_peak - before <= 2 * counted.trace + counted.scratch);
  {
    std::vector<double> p_run(base.logits.size()), p_base(base.logits.size());
    forward_top_tokens(off, 10);
    forward_top_tokens(base, 10);
    std::vector<int64_t> order(base.logits.size());
    forward_top_units(base, T - 1, 10);
    units_write_toward(w, units, 8);
  }
  check(g_peak - before <= answer);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const uint8_t* nul = (const uint8_t*)std::memchr(data, 0, size);
  const std::string text((const char*)data, nul ? (size_t)(nul - data) : size);
  const control k = nul ? control_of(nul + 1, size - (size_t)(nul - data) - 1) : control();
  const size_t base = g_live;
  g_peak = g_live;

  model_spec spec;
  model_spec_problem problem = MODEL_SPEC_OK;
  read_error why;
  if (!model_spec_parse(text, &spec, &problem, &why)) {
    check(problem != MODEL_SPEC_OK && said(why));
    return 0;
  }
  // What parses is a model the pass can run.
  const model_config& c = spec.base;
  check(c.hidden >= 1 && c.intermediate >= 1 && c.layers >= 1 && c.vocab >= 1);
  check(spec.heads >= 1 && spec.kv_heads >= 1 && spec.head_dim >= 1 && spec.heads % spec.kv_heads == 0);
  check(spec.rotary_dim >= 0 && spec.rotary_dim <= spec.head_dim && spec.rotary_dim % 2 == 0);
  check((int64_t)spec.mixers.size() == c.layers);
  if (std::count(spec.mixers.begin(), spec.mixers.end(), MIXER_LINEAR_ATTENTION))
    check(spec.lin_k_heads >= 1 && spec.lin_v_heads % spec.lin_k_heads == 0 && spec.lin_k_dim >= 1 && spec.lin_v_dim >= 1 &&
          spec.conv_kernel >= 1);

  // The checkpoint made from the plan, with what the control bytes add or spoil.
  const bool llama = spec.family == FAMILY_LLAMA;
  model_spec as_made = spec;
  as_made.tied_embeddings = !(k.flags & 1);
  as_made.qkv_bias = llama && (k.flags & 2);
  if (llama) as_made.qk_norm = k.flags & 4;
  const std::string prefix = llama ? "model." : "model.language_model.";
  checkpoint ck;
  if (!make_checkpoint(c, model_tensor_list(as_made, prefix, "lm_head.weight"), k, &ck)) return 0;  // no embedding left
  std::vector<model_tensor> plan;
  why = read_error();
  const bool planned = model_tensor_plan(ck, &spec, &plan, &problem, &why);
  const bool spoiled = k.flags & 16, lm_head_missing = spec.lm_head_required && as_made.tied_embeddings;
  if (!planned) {
    check(problem == MODEL_SPEC_TENSOR && said(why) && (spoiled || lm_head_missing));
    return 0;
  }
  if (!spoiled) check(!lm_head_missing);
  for (const model_tensor& t : plan) check(ck.find(t.name) && ck.find(t.name)->shape == t.shape);

  // The memory check, before anything in proportion to the model is allocated.
  model_formats formats;
  if (k.flags & 8) formats.layers = WMAT_Q8G;
  stream_error room;
  uint64_t weights = 0;
  const bool fits = model_memory_check(spec, plan, formats, MODEL_MEMORY_BUDGET, &room, &weights);
  check(g_peak - base <= kPlanBound);
  const uint64_t one = model_answer_bytes(spec, 1);
  check(fits == (weights <= MODEL_MEMORY_BUDGET && weights + one <= MODEL_MEMORY_BUDGET));
  if (!fits) {
    check(room.fault == STREAM_NO_ROOM ? room.want > room.got && room.got == MODEL_MEMORY_BUDGET
                                       : room.fault == STREAM_UNSUPPORTED && said(room.reason));
    return 0;
  }
  if (weights <= kRunWeights && pass_work(spec, weights, k.T) <= kRunWork && model_answer_bytes(spec, k.T) <= kRunAnswer)
    run(spec, plan, formats, k.T);
  return 0;
}
