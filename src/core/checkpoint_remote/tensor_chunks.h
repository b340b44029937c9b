// A checkpoint tensor read a chunk of rows at a time and converted in place to the kernels' q8
// layout (core/quant/q8_format.h). Rows go in multiples of the q8 panel height, so each chunk
// fills whole panels; scales are per row, so chunks convert independently and the finished blob
// is byte for byte what the converter (`swiglu convert`) writes for the whole tensor.
//
// A converted chunk is also what the verified cache keeps (a record: its scales, its panels and
// an XXH3-64 of both), so a reload converts nothing and fetches no weight byte.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/checkpoint/dtype.h"

#define CKPT_CHUNK_BYTES (2ull << 20)  // of the file per request: a few round trips per matrix, bounded memory
// Values converted in one slice: 64 Ki (64 rows of Qwen3.5-0.8B's gate, 16 of Llama-3-8B's) is a
// few ms in the page, so a chunk's conversion spreads over frames instead of holding one answer
// (a 2 MiB BF16 chunk at once was 57 ms on a quiet machine, 250-380 ms under load).
#define CKPT_SLICE_ELEMENTS (64u << 10)

struct tensor_chunk {
  int row0 = 0, rows = 0;            // rows [row0, row0 + rows) of the tensor
  uint64_t begin = 0, bytes = 0;     // their bytes in the file: [begin, begin + bytes)
};

// Chunks of a (rows, cols) tensor of element size elem_bytes starting at file offset `begin`:
// each at most chunk_bytes (but never fewer than one panel of rows), rows in multiples of
// Q8_PANEL_ROWS except the last.
std::vector<tensor_chunk> tensor_chunk_plan(uint64_t begin, int rows, int cols, size_t elem_bytes, uint64_t chunk_bytes);

// Converts one chunk's raw bytes (dtype t, little-endian) into the q8 blob of the whole
// (rows, cols) matrix (after q8_matrix_begin). False, with a reason, when a value is NaN or
// infinite (the converter refuses those too).
bool tensor_chunk_convert(st_dtype t, const void* raw, const tensor_chunk& c, int rows, int cols, void* blob,
                          std::vector<float>* scratch, std::string* error);

// Rows of `cols` values per slice within slice_elements (at least one row: scales are per row,
// so any split into rows converts exactly as the whole; docs/kernels.md).
int tensor_chunk_slice_rows(int cols, uint64_t slice_elements);
// Rows [row, row + count) of a (rows, cols) matrix into its q8 blob (after q8_matrix_begin), from
// their raw bytes (dtype t, little-endian, row `row` first). False, with a reason, on NaN or
// infinity. Scales are per row: any split into rows gives the bytes of the whole.
bool tensor_rows_to_q8(st_dtype t, const void* raw, int row, int count, int rows, int cols, void* blob,
                       std::vector<float>* scratch, std::string* error);
// Rows [first, first + count) of chunk c (raw: the chunk's bytes, from its first row), as
// tensor_chunk_convert does them: converting a chunk in slices gives the same bytes.
bool tensor_chunk_convert_rows(st_dtype t, const void* raw, const tensor_chunk& c, int first, int count, int rows, int cols,
                               void* blob, std::vector<float>* scratch, std::string* error);

// The converted chunk as a cache record, and back into a blob (false when the record is not one
// of this chunk: wrong size or checksum).
std::string tensor_chunk_record(const void* blob, const tensor_chunk& c, int rows, int cols);
bool tensor_chunk_from_record(const void* record, size_t n, const tensor_chunk& c, int rows, int cols, void* blob);

// Raw bytes with an XXH3-64 after them (embedding rows, norm weights), and back. `bind` mixes
// what the bytes are (a chunk's rows and shape) into the checksum, so a record of the same size
// stored for something else is refused too.
std::string checked_record(const void* data, size_t n, uint64_t bind = 0);
bool checked_record_open(const void* record, size_t n, size_t payload, const unsigned char** data, uint64_t bind = 0);
// The same check of a record read in two parts: its payload (payload_n bytes, where it was read
// straight in) and the rest (rest_n bytes: the checksum alone, or it is not one).
bool checked_record_check(const void* payload, size_t payload_n, const void* rest, size_t rest_n, uint64_t bind = 0);
