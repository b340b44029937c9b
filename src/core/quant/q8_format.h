// q8 weight format: int8 weights, symmetric, one f32 scale per output row, packed in panels.
// This is the layout the kernels in src/core/kernels/ read, and the layout a weight pack stores
// on disk (a later issue streams it into the page). Documented in docs/kernels.md.
//
// A q8 matrix W is (rows N, cols K): N outputs, K inputs, e.g. gate_proj is (intermediate, hidden).
// Dequantized weight: w[n][k] = q[n][k] * scale[n], q in [-127, 127] (never -128).
//
// Blob = header (64 bytes) | scales | weights, every part starting on a 64-byte boundary,
// all little-endian:
//   scales  f32[rows_padded]                     (padding rows have scale 0)
//   weights i8 [rows_padded/4][cols_padded/8][4][8]
//           panel p holds rows 4p..4p+3; inside it, block b holds columns 8b..8b+7 of the
//           four rows one after the other (row 4p's 8 bytes, then row 4p+1's, ...). Reading a
//           panel front to back is one sequential stream; padding rows/columns are zero.
// A parser never trusts the bytes: q8_matrix_parse checks magic, version, layout, offsets,
// sizes and alignment, and returns a status instead of crashing.
#pragma once

#include <cstddef>
#include <cstdint>

enum {
  Q8_FORMAT_VERSION = 1,
  Q8_PANEL_ROWS = 4,   // rows interleaved in one panel (the kernels' register tile height)
  Q8_PANEL_COLS = 8,   // columns per block: one i16x8 after sign extension
  Q8_ALIGN = 64,       // every section starts on a multiple of this from the blob start
  Q8_SCALE_PER_ROW = 0,
  Q8_MAX_DIM = 1 << 20,
};

// On-disk header, 64 bytes, little-endian. Zero reserved bytes; readers reject non-zero ones
// so a future version can use them.
struct q8_matrix_header {
  char magic[4];            // "Q8MX"
  uint32_t version;         // Q8_FORMAT_VERSION
  uint32_t rows;            // N (logical)
  uint32_t cols;            // K (logical)
  uint32_t rows_padded;     // N rounded up to Q8_PANEL_ROWS
  uint32_t cols_padded;     // K rounded up to Q8_PANEL_COLS
  uint16_t panel_rows;      // Q8_PANEL_ROWS
  uint16_t panel_cols;      // Q8_PANEL_COLS
  uint32_t scale_kind;      // Q8_SCALE_PER_ROW
  uint64_t scales_offset;   // bytes from the blob start, multiple of Q8_ALIGN
  uint64_t weights_offset;  // bytes from the blob start, multiple of Q8_ALIGN
  uint64_t total_bytes;     // header + scales + weights (+ padding), multiple of Q8_ALIGN
  uint8_t reserved[8];
};
static_assert(sizeof(q8_matrix_header) == 64, "q8_matrix_header is a 64-byte on-disk struct");
static_assert(offsetof(q8_matrix_header, version) == 4, "layout");
static_assert(offsetof(q8_matrix_header, panel_rows) == 24, "layout");
static_assert(offsetof(q8_matrix_header, scales_offset) == 32, "layout");
static_assert(offsetof(q8_matrix_header, total_bytes) == 48, "layout");
static_assert(sizeof(float) == 4, "f32 scales");
#if defined(__BYTE_ORDER__)
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the format is read in place: little-endian hosts only");
#endif

// Non-owning view into a parsed blob: what the kernels take.
struct q8_matrix_view {
  int rows, cols;                // N, K
  int rows_padded, cols_padded;  // Np, Kp
  const float* scales;           // [Np]
  const int8_t* weights;         // [Np/4][Kp/8][4][8]
};

enum q8_status {
  Q8_OK = 0,
  Q8_ERR_TRUNCATED,  // fewer bytes than the header or than total_bytes says
  Q8_ERR_MAGIC,
  Q8_ERR_VERSION,
  Q8_ERR_LAYOUT,     // panel sizes, padding, scale kind, dims out of range, reserved bytes
  Q8_ERR_OFFSETS,    // sections overlap, are misaligned or run past total_bytes
  Q8_ERR_ALIGN,      // the buffer itself is not 4-byte aligned (scales are read in place)
  Q8_ERR_SCALES,     // a scale is negative, NaN or infinite
};
const char* q8_status_str(q8_status s);

// Bytes a blob of (rows, cols) takes, in 64 bits: a host may claim dims whose blob a 32-bit
// size_t (wasm) cannot hold (65536 x 65536 is 4 GiB). Callers check it against what they can
// allocate; the writers below refuse a blob larger than size_t counts (Q8_ERR_LAYOUT).
uint64_t q8_matrix_blob_bytes(int rows, int cols);
// Pure function over bytes: fills *out on Q8_OK, leaves it untouched otherwise.
q8_status q8_matrix_parse(const void* bytes, size_t n_bytes, q8_matrix_view* out);

// Reference quantizer: w (rows, cols) row-major f32 -> blob of q8_matrix_blob_bytes(rows, cols)
// bytes at `blob` (4-byte aligned or better). scale[n] = max|w[n][:]| / 127,
// q = round-half-even(w / scale) clamped to [-127, 127]. Returns Q8_OK or Q8_ERR_LAYOUT.
q8_status q8_matrix_quantize_ref(const float* w, int rows, int cols, void* blob);
// The same in pieces, for weights that arrive a chunk of rows at a time (a checkpoint read by
// byte ranges): q8_matrix_begin zeroes the blob and writes its header; q8_matrix_quantize_rows
// fills rows [row0, row0 + n) from w (n, cols). Scales are per row, so the pieces give exactly
// the bytes q8_matrix_quantize_ref gives for the whole matrix.
q8_status q8_matrix_begin(int rows, int cols, void* blob);
q8_status q8_matrix_quantize_rows(const float* w, int row0, int n, int rows, int cols, void* blob);
// Reference dequantizer: view -> w (rows, cols) row-major f32, w = q * scale.
void q8_matrix_dequantize_ref(const q8_matrix_view* m, float* w);
// One weight q[n][k] of a packed view (for tests and references; slow).
int q8_matrix_at(const q8_matrix_view* m, int n, int k);

// An owned, 64-byte aligned blob (tests, benchmark, converter).
struct q8_matrix_owned {
  void* blob;
  size_t bytes;
  q8_matrix_view view;
};
q8_status q8_matrix_owned_init(q8_matrix_owned* m, const float* w, int rows, int cols);
void q8_matrix_owned_free(q8_matrix_owned* m);
