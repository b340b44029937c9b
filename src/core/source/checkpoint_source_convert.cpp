// The MLP views' converter (checkpoint_source.h's tensor_converter): a checkpoint's rows as the
// kernels' q8 matrices (byte for byte what `swiglu convert` writes) and the probe's f32 rows, and
// both as the verified cache's records.
#include <cmath>
#include <cstring>
#include <new>

#include "core/quant/q8_format.h"
#include "core/source/checkpoint_source.h"

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
  const tensor_plan& p = fetch()->plan(t);
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

std::string checkpoint_source::tensor_chunk_record(int t, const tensor_chunk& c, const unsigned char* raw) {
  (void)raw;  // the record is what was made of it
  const role& r = roles_[t];
  const tensor_plan& p = fetch()->plan(t);
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
  return fetch()->chunk_record(t, c, v.data(), v.size() * 4);
}

bool checkpoint_source::tensor_chunk_from_record(int t, const tensor_chunk& c, const void* record, size_t n) {
  const role& r = roles_[t];
  const tensor_plan& p = fetch()->plan(t);
  if (r.kind == ROLE_MATRIX) {
    const matrix_state& m = layers_[r.layer_index][r.part];
    return m.blob && ::tensor_chunk_from_record(record, n, c, m.rows, m.cols, m.blob);
  }
  const unsigned char* data = fetch()->chunk_record_open(t, c, record, n, (size_t)(c.rows * p.cols) * 4);
  if (!data) return false;
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
    probe_.compute_inputs(reader_.opened().ck.config);
    return true;
  }
  matrix_state& m = layers_[r.layer_index][r.part];
  if (!m.blob || q8_matrix_parse(m.blob, (size_t)m.bytes, &m.view) != Q8_OK) return false;
  m.complete = true;
  residency_.touch(r.layer_index);
  return true;
}

