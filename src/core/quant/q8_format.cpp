// q8 weight format: reference quantizer, dequantizer and the validating parser.
// Layout and rationale: q8_format.h and docs/kernels.md.
#include "q8_format.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

static const char kQ8Magic[4] = {'Q', '8', 'M', 'X'};

static uint64_t q8_round_up(uint64_t v, uint64_t m) { return (v + m - 1) / m * m; }

const char* q8_status_str(q8_status s) {
  switch (s) {
    case Q8_OK: return "ok";
    case Q8_ERR_TRUNCATED: return "q8: truncated (fewer bytes than the header says)";
    case Q8_ERR_MAGIC: return "q8: bad magic (not a Q8MX matrix)";
    case Q8_ERR_VERSION: return "q8: unsupported version";
    case Q8_ERR_LAYOUT: return "q8: bad layout (dims, panel sizes, padding or reserved bytes)";
    case Q8_ERR_OFFSETS: return "q8: bad section offsets";
    case Q8_ERR_ALIGN: return "q8: buffer not 4-byte aligned";
    case Q8_ERR_SCALES: return "q8: scale negative, NaN or infinite";
  }
  return "q8: unknown status";
}

struct q8_sections {
  uint64_t rows_padded, cols_padded, scales_offset, weights_offset, total_bytes;
};

static q8_sections q8_sections_for(uint64_t rows, uint64_t cols) {
  q8_sections s;
  s.rows_padded = q8_round_up(rows, Q8_PANEL_ROWS);
  s.cols_padded = q8_round_up(cols, Q8_PANEL_COLS);
  s.scales_offset = sizeof(q8_matrix_header);
  s.weights_offset = q8_round_up(s.scales_offset + 4 * s.rows_padded, Q8_ALIGN);
  s.total_bytes = q8_round_up(s.weights_offset + s.rows_padded * s.cols_padded, Q8_ALIGN);
  return s;
}

uint64_t q8_matrix_blob_bytes(int rows, int cols) {
  return q8_sections_for((uint64_t)(rows > 0 ? rows : 0), (uint64_t)(cols > 0 ? cols : 0)).total_bytes;
}

// Dims a blob of this machine can hold: every offset into it then fits size_t.
static bool q8_dims_ok(int rows, int cols) {
  return rows > 0 && cols > 0 && rows <= Q8_MAX_DIM && cols <= Q8_MAX_DIM &&
         q8_sections_for((uint64_t)rows, (uint64_t)cols).total_bytes <= (uint64_t)SIZE_MAX;
}

q8_status q8_matrix_parse(const void* bytes, size_t n_bytes, q8_matrix_view* out) {
  if (bytes == nullptr || n_bytes < sizeof(q8_matrix_header)) return Q8_ERR_TRUNCATED;
  if (((uintptr_t)bytes & 3u) != 0) return Q8_ERR_ALIGN;
  q8_matrix_header h;
  std::memcpy(&h, bytes, sizeof h);
  if (std::memcmp(h.magic, kQ8Magic, 4) != 0) return Q8_ERR_MAGIC;
  if (h.version != Q8_FORMAT_VERSION) return Q8_ERR_VERSION;
  for (uint8_t r : h.reserved)
    if (r != 0) return Q8_ERR_LAYOUT;
  if (h.rows == 0 || h.cols == 0 || h.rows > Q8_MAX_DIM || h.cols > Q8_MAX_DIM) return Q8_ERR_LAYOUT;
  if (h.panel_rows != Q8_PANEL_ROWS || h.panel_cols != Q8_PANEL_COLS || h.scale_kind != Q8_SCALE_PER_ROW)
    return Q8_ERR_LAYOUT;
  const q8_sections s = q8_sections_for(h.rows, h.cols);
  if (h.rows_padded != s.rows_padded || h.cols_padded != s.cols_padded) return Q8_ERR_LAYOUT;
  // Offsets: aligned, in order, non-overlapping, inside total_bytes.
  if (h.scales_offset % Q8_ALIGN || h.weights_offset % Q8_ALIGN || h.total_bytes % Q8_ALIGN) return Q8_ERR_OFFSETS;
  if (h.scales_offset < sizeof(q8_matrix_header)) return Q8_ERR_OFFSETS;
  if (h.scales_offset > h.total_bytes || h.weights_offset > h.total_bytes) return Q8_ERR_OFFSETS;
  if (h.total_bytes - h.scales_offset < 4 * s.rows_padded) return Q8_ERR_OFFSETS;
  if (h.weights_offset < h.scales_offset + 4 * s.rows_padded) return Q8_ERR_OFFSETS;
  if (h.total_bytes - h.weights_offset < s.rows_padded * s.cols_padded) return Q8_ERR_OFFSETS;
  if (n_bytes < h.total_bytes) return Q8_ERR_TRUNCATED;

  const uint8_t* base = (const uint8_t*)bytes;
  const float* scales = (const float*)(base + h.scales_offset);
  for (uint64_t i = 0; i < s.rows_padded; i++)
    if (!(scales[i] >= 0.0f) || std::isinf(scales[i])) return Q8_ERR_SCALES;

  out->rows = (int)h.rows;
  out->cols = (int)h.cols;
  out->rows_padded = (int)s.rows_padded;
  out->cols_padded = (int)s.cols_padded;
  out->scales = scales;
  out->weights = (const int8_t*)(base + h.weights_offset);
  return Q8_OK;
}

q8_status q8_matrix_begin(int rows, int cols, void* blob) {
  if (!q8_dims_ok(rows, cols)) return Q8_ERR_LAYOUT;
  if (((uintptr_t)blob & 3u) != 0) return Q8_ERR_ALIGN;
  const q8_sections s = q8_sections_for((uint64_t)rows, (uint64_t)cols);
  uint8_t* base = (uint8_t*)blob;
  std::memset(base, 0, (size_t)s.total_bytes);

  q8_matrix_header h;
  std::memset(&h, 0, sizeof h);
  std::memcpy(h.magic, kQ8Magic, 4);
  h.version = Q8_FORMAT_VERSION;
  h.rows = (uint32_t)rows;
  h.cols = (uint32_t)cols;
  h.rows_padded = (uint32_t)s.rows_padded;
  h.cols_padded = (uint32_t)s.cols_padded;
  h.panel_rows = Q8_PANEL_ROWS;
  h.panel_cols = Q8_PANEL_COLS;
  h.scale_kind = Q8_SCALE_PER_ROW;
  h.scales_offset = s.scales_offset;
  h.weights_offset = s.weights_offset;
  h.total_bytes = s.total_bytes;
  std::memcpy(base, &h, sizeof h);
  return Q8_OK;
}

q8_status q8_matrix_quantize_rows(const float* w, int row0, int n_rows, int rows, int cols, void* blob) {
  if (!q8_dims_ok(rows, cols)) return Q8_ERR_LAYOUT;
  if (row0 < 0 || n_rows < 0 || row0 > rows - n_rows) return Q8_ERR_LAYOUT;
  if (((uintptr_t)blob & 3u) != 0) return Q8_ERR_ALIGN;
  const q8_sections s = q8_sections_for((uint64_t)rows, (uint64_t)cols);
  uint8_t* base = (uint8_t*)blob;
  float* scales = (float*)(base + s.scales_offset);
  int8_t* q = (int8_t*)(base + s.weights_offset);
  const size_t Kp = (size_t)s.cols_padded;
  for (int n = row0; n < row0 + n_rows; n++) {
    const float* wr = w + (size_t)(n - row0) * cols;
    double amax = 0.0;
    for (int k = 0; k < cols; k++) amax = std::fmax(amax, std::fabs((double)wr[k]));
    const double scale = amax / 127.0;
    scales[n] = (float)scale;
    // Round against the stored f32 scale, so dequantize(q) is the nearest grid point to w.
    const double inv = scales[n] > 0.0f ? 1.0 / (double)scales[n] : 0.0;
    int8_t* panel = q + (size_t)(n / Q8_PANEL_ROWS) * Q8_PANEL_ROWS * Kp;
    for (int k = 0; k < cols; k++) {
      double v = std::nearbyint((double)wr[k] * inv);
      v = v > 127.0 ? 127.0 : (v < -127.0 ? -127.0 : v);
      panel[(size_t)(k / Q8_PANEL_COLS) * (Q8_PANEL_ROWS * Q8_PANEL_COLS) + (n % Q8_PANEL_ROWS) * Q8_PANEL_COLS +
            k % Q8_PANEL_COLS] = (int8_t)v;
    }
  }
  return Q8_OK;
}

q8_status q8_matrix_quantize_ref(const float* w, int rows, int cols, void* blob) {
  q8_status st = q8_matrix_begin(rows, cols, blob);
  return st == Q8_OK ? q8_matrix_quantize_rows(w, 0, rows, rows, cols, blob) : st;
}

int q8_matrix_at(const q8_matrix_view* m, int n, int k) {
  const int8_t* panel = m->weights + (size_t)(n / Q8_PANEL_ROWS) * Q8_PANEL_ROWS * m->cols_padded;
  return panel[(size_t)(k / Q8_PANEL_COLS) * (Q8_PANEL_ROWS * Q8_PANEL_COLS) + (n % Q8_PANEL_ROWS) * Q8_PANEL_COLS +
               k % Q8_PANEL_COLS];
}

void q8_matrix_dequantize_ref(const q8_matrix_view* m, float* w) {
  for (int n = 0; n < m->rows; n++)
    for (int k = 0; k < m->cols; k++) w[(size_t)n * m->cols + k] = (float)q8_matrix_at(m, n, k) * m->scales[n];
}

q8_status q8_matrix_owned_init(q8_matrix_owned* m, const float* w, int rows, int cols) {
  std::memset(m, 0, sizeof *m);
  if (!q8_dims_ok(rows, cols)) return Q8_ERR_LAYOUT;
  m->bytes = (size_t)q8_matrix_blob_bytes(rows, cols);
  m->blob = ::operator new(m->bytes, std::align_val_t(Q8_ALIGN));
  q8_status st = q8_matrix_quantize_ref(w, rows, cols, m->blob);
  if (st == Q8_OK) st = q8_matrix_parse(m->blob, m->bytes, &m->view);
  if (st != Q8_OK) q8_matrix_owned_free(m);
  return st;
}

void q8_matrix_owned_free(q8_matrix_owned* m) {
  if (m->blob) ::operator delete(m->blob, std::align_val_t(Q8_ALIGN));
  std::memset(m, 0, sizeof *m);
}
