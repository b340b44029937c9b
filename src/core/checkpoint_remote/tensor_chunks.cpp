// Chunked conversion of checkpoint tensors to q8 (see tensor_chunks.h).
#include "core/checkpoint_remote/tensor_chunks.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/base/hash.h"
#include "core/quant/q8_format.h"

std::vector<tensor_chunk> tensor_chunk_plan(uint64_t begin, int rows, int cols, size_t elem_bytes, uint64_t chunk_bytes) {
  std::vector<tensor_chunk> out;
  const uint64_t row_bytes = (uint64_t)cols * elem_bytes;
  uint64_t per = row_bytes ? chunk_bytes / row_bytes : (uint64_t)rows;
  per -= per % Q8_PANEL_ROWS;
  if (per < Q8_PANEL_ROWS) per = Q8_PANEL_ROWS;
  for (int r = 0; r < rows; r += (int)per) {
    tensor_chunk c;
    c.row0 = r;
    c.rows = (int)std::min<uint64_t>(per, (uint64_t)(rows - r));
    c.begin = begin + (uint64_t)r * row_bytes;
    c.bytes = (uint64_t)c.rows * row_bytes;
    out.push_back(c);
  }
  return out;
}

bool tensor_chunk_convert(st_dtype t, const void* raw, const tensor_chunk& c, int rows, int cols, void* blob,
                          std::vector<float>* w, std::string* error) {
  return tensor_chunk_convert_rows(t, raw, c, 0, c.rows, rows, cols, blob, w, error);
}

int tensor_chunk_slice_rows(int cols, uint64_t slice_elements) {
  const uint64_t per = cols > 0 ? slice_elements / (uint64_t)cols : 1;
  return per < 1 ? 1 : per > (uint64_t)Q8_MAX_DIM ? Q8_MAX_DIM : (int)per;
}

bool tensor_rows_to_q8(st_dtype t, const void* raw, int row, int count, int rows, int cols, void* blob,
                       std::vector<float>* w, std::string* error) {
  const size_t n = (size_t)count * (size_t)cols;
  w->resize(n);
  dtype_to_f32(t, raw, n, w->data());
  for (size_t i = 0; i < n; i++)
    if (!std::isfinite((*w)[i])) return *error = "row " + std::to_string(row + (int)(i / (size_t)cols)) + " holds NaN or infinity", false;
  const q8_status st = q8_matrix_quantize_rows(w->data(), row, count, rows, cols, blob);
  if (st != Q8_OK) return *error = q8_status_str(st), false;
  return true;
}

bool tensor_chunk_convert_rows(st_dtype t, const void* raw, const tensor_chunk& c, int first, int count, int rows, int cols,
                               void* blob, std::vector<float>* w, std::string* error) {
  if (first < 0 || count < 0 || first > c.rows - count) return *error = "rows outside the chunk", false;
  return tensor_rows_to_q8(t, (const unsigned char*)raw + (size_t)first * (size_t)cols * st_dtype_bytes(t), c.row0 + first, count,
                           rows, cols, blob, w, error);
}

static uint64_t record_hash(const void* data, size_t n, uint64_t bind) {
  return hash64(data, n) ^ (bind * 0x9e3779b97f4a7c15ull);
}

static uint64_t chunk_bind(const tensor_chunk& c, int rows, int cols) {
  const uint64_t v[4] = {(uint64_t)c.row0, (uint64_t)c.rows, (uint64_t)rows, (uint64_t)cols};
  return hash64(v, sizeof v) | 1;
}

// Where a chunk's scales and panels sit in the blob of a (rows, cols) matrix.
struct chunk_span {
  size_t scales_at, scales_n, weights_at, weights_n;
};
static chunk_span chunk_span_of(const void* blob, const tensor_chunk& c, int rows, int cols) {
  q8_matrix_header h;
  std::memcpy(&h, blob, sizeof h);
  const size_t Kp = h.cols_padded;
  const int row_end = c.row0 + c.rows == rows ? (int)h.rows_padded : c.row0 + c.rows;  // the last chunk takes the padding
  (void)cols;
  return {(size_t)h.scales_offset + 4 * (size_t)c.row0, 4 * (size_t)(row_end - c.row0),
          (size_t)h.weights_offset + (size_t)c.row0 * Kp, (size_t)(row_end - c.row0) * Kp};
}

std::string tensor_chunk_record(const void* blob, const tensor_chunk& c, int rows, int cols) {
  const chunk_span s = chunk_span_of(blob, c, rows, cols);
  const char* b = (const char*)blob;
  std::string payload(b + s.scales_at, s.scales_n);
  payload.append(b + s.weights_at, s.weights_n);
  return checked_record(payload.data(), payload.size(), chunk_bind(c, rows, cols));
}

bool tensor_chunk_from_record(const void* record, size_t n, const tensor_chunk& c, int rows, int cols, void* blob) {
  const chunk_span s = chunk_span_of(blob, c, rows, cols);
  const unsigned char* p;
  if (!checked_record_open(record, n, s.scales_n + s.weights_n, &p, chunk_bind(c, rows, cols))) return false;
  char* b = (char*)blob;
  std::memcpy(b + s.scales_at, p, s.scales_n);
  std::memcpy(b + s.weights_at, p + s.scales_n, s.weights_n);
  return true;
}

std::string checked_record(const void* data, size_t n, uint64_t bind) {
  std::string r((const char*)data, n);
  const uint64_t h = record_hash(data, n, bind);
  for (int i = 0; i < 8; i++) r.push_back((char)(h >> (8 * i)));
  return r;
}

bool checked_record_check(const void* payload, size_t payload_n, const void* rest, size_t rest_n, uint64_t bind) {
  if (rest_n != 8 || !rest) return false;
  const unsigned char* r = (const unsigned char*)rest;
  uint64_t h = 0;
  for (int i = 7; i >= 0; i--) h = (h << 8) | r[i];
  return h == record_hash(payload, payload_n, bind);
}

bool checked_record_open(const void* record, size_t n, size_t payload, const unsigned char** data, uint64_t bind) {
  if (n != payload + 8) return false;
  const unsigned char* p = (const unsigned char*)record;
  if (!checked_record_check(p, payload, p + payload, 8, bind)) return false;
  *data = p;
  return true;
}
