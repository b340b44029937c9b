// safetensors: the header parser (hostile input) and a writer (tests, the synthetic checkpoint).
// File = u64 little-endian header length N | N bytes of JSON | data. The JSON maps each tensor
// name to {"dtype", "shape", "data_offsets": [begin, end]} (offsets relative to the data start)
// and may hold "__metadata__" (string -> string).
// The parser is a pure function over the header bytes and the file size: every length, offset
// and shape is checked, and each problem is an error naming the file and the tensor.
#pragma once

#include "core/base/read_error.h"
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/checkpoint/dtype.h"
#include "core/io/byte_source.h"

enum { ST_MAX_HEADER_BYTES = 100 << 20 };  // the safetensors library's own cap

struct st_tensor {
  std::string name;
  std::string dtype_name;  // as written, e.g. "BF16"
  st_dtype dtype;
  std::vector<int64_t> shape;
  uint64_t begin, end;  // absolute byte offsets in the file: [begin, end)
};

struct st_file {
  std::string file;
  uint64_t data_start = 0;  // 8 + N
  std::vector<st_tensor> tensors;  // in data order
  std::map<std::string, std::string> metadata;
  const st_tensor* find(const std::string& name) const;
};

// The first 8 bytes -> N, checked against the cap and the file size.
// Errors: "file: reason" in English (the CLI's), and the reason as data in *why when asked for.
bool st_header_length(const unsigned char first8[8], uint64_t file_size, const std::string& file, uint64_t* n,
                      std::string* error, read_error* why = nullptr);
// The N header bytes (JSON) of a file of file_size bytes -> *out.
bool st_parse_header(const char* json, size_t n, uint64_t file_size, const std::string& file, st_file* out,
                     std::string* error, read_error* why = nullptr);
// Both steps through a byte source: reads only the header, never the data.
bool st_read_header(byte_source* src, const std::string& file, st_file* out, std::string* error);

struct st_write_tensor {
  std::string name;
  st_dtype dtype;
  std::vector<int64_t> shape;
  std::string bytes;  // little-endian elements
};
// A well-formed safetensors file (header padded with spaces to 8 bytes, tensors in the given order).
std::string st_write(const std::vector<st_write_tensor>& tensors, const std::map<std::string, std::string>& metadata);
