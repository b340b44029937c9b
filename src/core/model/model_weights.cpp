// The whole model's weights in memory (see model_weights.h).
#include "core/model/model_weights.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "core/base/number_format.h"

wbuffer& wbuffer::operator=(wbuffer&& o) noexcept {
  if (this != &o) {
    std::free(data);
    data = o.data, bytes = o.bytes;
    o.data = nullptr, o.bytes = 0;
  }
  return *this;
}

wbuffer::~wbuffer() { std::free(data); }

bool wbuffer::alloc(size_t n) {
  std::free(data);
  data = nullptr, bytes = 0;
  if (n == 0) return true;
  data = std::malloc(n);
  if (!data) return false;
  bytes = n;
  return true;
}

void wmatrix::row_f32(int64_t row, float* out) const {
  if (format == WMAT_BF16) {
    dtype_to_f32(ST_DTYPE_BF16, (const uint16_t*)values.data + (size_t)row * cols, (size_t)cols, out);
    return;
  }
  const int8_t* q = (const int8_t*)values.data + (size_t)row * cols;
  const float* s = (const float*)scales.data + (size_t)row * (cols / WMAT_GROUP);
  for (int k = 0; k < cols; k++) out[k] = q[k] * s[k / WMAT_GROUP];
}

wmat_view wmatrix::view() const {
  wmat_view v;
  v.rows = rows, v.cols = cols, v.format = format;
  if (format == WMAT_BF16) v.bf16 = (const uint16_t*)values.data;
  else v.q = (const int8_t*)values.data, v.scales = (const float*)scales.data;
  return v;
}

// A matrix's two buffers in its format: its values, and for Q8G one f32 scale a group. The budget
// (model_weights_bytes) and the allocation (model_weights_prepare) read these same sizes.
struct matrix_sizes {
  uint64_t values = 0, scales = 0;
  uint64_t total() const { return values + scales; }
};
static matrix_sizes matrix_sizes_of(int64_t rows, int64_t cols, wmat_format f) {
  const uint64_t n = (uint64_t)rows * (uint64_t)cols;
  return f == WMAT_BF16 ? matrix_sizes{2 * n, 0} : matrix_sizes{n, 4 * (n / WMAT_GROUP)};
}

// The embedding (and lm_head) in the embedding's format, the rest in the layers'. Q8G needs whole
// groups: a matrix whose width is not a multiple of the group stays BF16.
static wmat_format format_for(const model_tensor& t, model_formats formats) {
  const wmat_format f = t.role == MT_EMBED || t.role == MT_LM_HEAD ? formats.embedding : formats.layers;
  return f == WMAT_Q8G && t.shape[1] % WMAT_GROUP == 0 ? WMAT_Q8G : WMAT_BF16;
}

uint64_t model_weights_bytes(const std::vector<model_tensor>& plan, model_formats format) {
  uint64_t b = 0;
  for (const model_tensor& t : plan)
    b += t.matrix ? matrix_sizes_of(t.shape[0], t.shape[1], format_for(t, format)).total() : 4 * (uint64_t)t.elements();
  return b;
}

static wmatrix* matrix_of(model_weights* w, const model_tensor& t) {
  model_layer_weights* L = t.layer >= 0 ? &w->layers[t.layer] : nullptr;
  switch (t.role) {
    case MT_EMBED: return &w->embed;
    case MT_LM_HEAD: return &w->lm_head;
    case MT_ATTN_Q: return &L->q;
    case MT_ATTN_K: return &L->k;
    case MT_ATTN_V: return &L->v;
    case MT_ATTN_O: return &L->o;
    case MT_LIN_QKV: return &L->qkv;
    case MT_LIN_Z: return &L->z;
    case MT_LIN_B: return &L->b;
    case MT_LIN_A: return &L->a;
    case MT_LIN_OUT: return &L->out;
    case MT_MLP_GATE: return &L->gate;
    case MT_MLP_UP: return &L->up;
    case MT_MLP_DOWN: return &L->down;
    default: return nullptr;
  }
}

static std::vector<float>* vector_of(model_weights* w, const model_tensor& t) {
  model_layer_weights* L = t.layer >= 0 ? &w->layers[t.layer] : nullptr;
  switch (t.role) {
    case MT_FINAL_NORM: return &w->final_norm;
    case MT_INPUT_NORM: return &L->input_norm;
    case MT_POST_NORM: return &L->post_norm;
    case MT_ATTN_Q_BIAS: return &L->q_bias;
    case MT_ATTN_K_BIAS: return &L->k_bias;
    case MT_ATTN_V_BIAS: return &L->v_bias;
    case MT_ATTN_Q_NORM: return &L->q_norm;
    case MT_ATTN_K_NORM: return &L->k_norm;
    case MT_LIN_CONV: return &L->conv;
    case MT_LIN_DT_BIAS: return &L->dt_bias;
    case MT_LIN_A_LOG: return &L->neg_a;
    case MT_LIN_NORM: return &L->lin_norm;
    default: return nullptr;
  }
}

// RoPE's frequencies, with the config's scaling: linear divides them all by the factor; llama3
// divides the long wavelengths, keeps the short ones and blends between (transformers'
// _compute_llama3_parameters).
static std::vector<float> rope_frequencies(const model_spec& s) {
  std::vector<float> f((size_t)s.rotary_dim / 2);
  for (size_t i = 0; i < f.size(); i++) {
    double inv = 1.0 / std::pow(s.rope_theta, (2.0 * i) / s.rotary_dim);
    if (s.rope_scaling == ROPE_LINEAR) inv /= s.rope_factor;
    if (s.rope_scaling == ROPE_LLAMA3) {
      const double wavelen = 2 * M_PI / inv;
      const double low = s.rope_original_max / s.rope_low_freq, high = s.rope_original_max / s.rope_high_freq;
      if (wavelen > low) {
        inv /= s.rope_factor;
      } else if (wavelen >= high) {
        const double smooth = (s.rope_original_max / wavelen - s.rope_low_freq) / (s.rope_high_freq - s.rope_low_freq);
        inv = (1 - smooth) * inv / s.rope_factor + smooth * inv;
      }
    }
    f[i] = (float)inv;
  }
  return f;
}

bool model_weights_prepare(model_weights* w, const model_spec& spec, const std::vector<model_tensor>& plan,
                           model_formats format, read_error* why) {
  *w = model_weights();
  w->spec = spec;
  w->formats = format;
  w->layers.resize((size_t)spec.base.layers);
  for (int l = 0; l < (int)spec.base.layers; l++) w->layers[l].mixer = spec.mixers[l];
  w->rope_inv_freq = rope_frequencies(spec);
  for (const model_tensor& t : plan) {
    if (!t.matrix) continue;
    wmatrix* m = matrix_of(w, t);
    m->rows = (int)t.shape[0], m->cols = (int)t.shape[1];
    m->format = format_for(t, format);
    const matrix_sizes z = matrix_sizes_of(m->rows, m->cols, m->format);
    if (!m->values.alloc((size_t)z.values) || !m->scales.alloc((size_t)z.scales)) {  // alloc(0) holds nothing
      if (why) *why = read_error_in(READ_AT_FILE, STR_MODEL_NO_MEMORY, {fmt_mib(model_weights_bytes(plan, format))});
      *w = model_weights();
      return false;
    }
  }
  return true;
}

void model_tensor_rows(const model_tensor& t, int64_t* rows, int64_t* cols) {
  *rows = t.shape.size() == 1 ? 1 : t.shape[0];
  *cols = t.elements() / *rows;
}

void* model_weights_rows_at(model_weights* w, const model_tensor& t, int64_t row0, int64_t n, st_dtype dtype, size_t* bytes) {
  int64_t rows, cols;
  model_tensor_rows(t, &rows, &cols);
  if (!t.matrix || dtype != ST_DTYPE_BF16 || row0 < 0 || n < 0 || row0 + n > rows) return nullptr;
  wmatrix* m = matrix_of(w, t);
  if (m->format != WMAT_BF16 || !m->values.data) return nullptr;
  *bytes = (size_t)(n * cols) * 2;
  return (uint16_t*)m->values.data + (size_t)row0 * m->cols;
}

bool model_weights_put(model_weights* w, const model_tensor& t, int64_t row0, int64_t n, st_dtype dtype, const void* raw,
                       read_error* why) {
  int64_t rows, cols;
  model_tensor_rows(t, &rows, &cols);
  if (row0 < 0 || n < 0 || row0 + n > rows) return false;
  const size_t count = (size_t)(n * cols);
  if (t.matrix && dtype == ST_DTYPE_BF16 && matrix_of(w, t)->format == WMAT_BF16) {
    // The checkpoint's own values, kept as they are: checked by their bits, copied once (no f32
    // copy: most of a warm start's weights pass here, 1.4 GB for Qwen3.5-0.8B).
    if (!dtype_bf16_all_finite(raw, count)) {
      if (why) *why = read_error_at(t.name, STR_READ_NOT_FINITE);
      return false;
    }
    wmatrix* m = matrix_of(w, t);
    std::memcpy((uint16_t*)m->values.data + (size_t)row0 * m->cols, raw, count * 2);
    return true;
  }
  std::vector<float> v(count);
  dtype_to_f32(dtype, raw, count, v.data());
  for (float x : v)
    if (!std::isfinite(x)) {
      if (why) *why = read_error_at(t.name, STR_READ_NOT_FINITE);
      return false;
    }
  if (t.matrix) {
    wmatrix* m = matrix_of(w, t);
    if (m->format == WMAT_BF16) {  // from f16 or f32 (bf16 took the way above)
      dtype_from_f32(ST_DTYPE_BF16, v.data(), count, (uint16_t*)m->values.data + (size_t)row0 * m->cols);
    } else {
      q8g_quantize_rows(v.data(), (int)n, m->cols, (int8_t*)m->values.data + (size_t)row0 * m->cols,
                        (float*)m->scales.data + (size_t)row0 * (m->cols / WMAT_GROUP));
    }
    return true;
  }
  // A vector's values, as the multiplier the model applies where it is a norm or a decay.
  std::vector<float>& out = *vector_of(w, t);
  out.resize((size_t)t.elements());
  const bool one_plus_w = w->spec.base.norm == MODEL_NORM_ONE_PLUS_W;
  for (size_t i = 0; i < count; i++) {
    double x = v[i];
    switch (t.role) {
      case MT_FINAL_NORM:
      case MT_INPUT_NORM:
      case MT_POST_NORM:
      case MT_ATTN_Q_NORM:
      case MT_ATTN_K_NORM:
        if (one_plus_w) x = 1.0 + x;
        break;
      case MT_LIN_A_LOG: x = -std::exp(x); break;
      default: break;
    }
    out[(size_t)row0 * cols + i] = (float)x;
  }
  return true;
}

bool model_load(byte_source* src, model_formats format, model_weights* out, std::string* error, read_error* why) {
  checkpoint ck;
  if (!ckpt_open(src, &ck, error)) return false;
  std::string config_text;
  if (!byte_source_read_all(src, "config.json", MODEL_CONFIG_MAX_BYTES, &config_text, error)) return false;
  model_spec spec;
  read_error reason;
  model_spec_problem problem;
  std::vector<model_tensor> plan;
  auto failed = [&]() {  // the reason in the CLI's words, and as data
    *error = read_error_text_in(LAB_LANG_EN, reason);
    if (why) *why = reason;
    return false;
  };
  if (!model_spec_parse(config_text, &spec, &problem, &reason) || !model_tensor_plan(ck, &spec, &plan, &problem, &reason) ||
      !model_weights_prepare(out, spec, plan, format, &reason))
    return failed();
  std::vector<unsigned char> raw;
  for (const model_tensor& t : plan) {
    const st_tensor* st = ck.find(t.name);
    const std::string& file = ck.files[ck.tensors.at(t.name).first].file;
    int64_t rows, cols;
    model_tensor_rows(t, &rows, &cols);
    const int64_t row_bytes = cols * (int64_t)st_dtype_bytes(st->dtype);
    const int64_t step = std::max<int64_t>(1, (4 << 20) / row_bytes);  // a few MiB at a time
    for (int64_t r = 0; r < rows; r += step) {
      const int64_t n = std::min(step, rows - r);
      raw.resize((size_t)(n * row_bytes));
      if (!src->read(file, st->begin + (uint64_t)(r * row_bytes), raw.size(), raw.data(), error)) return false;
      if (!model_weights_put(out, t, r, n, st->dtype, raw.data(), &reason)) return failed();
    }
  }
  return true;
}
