// safetensors writer (see safetensors.h): nlohmann-json, for the native tools that make test
// checkpoints (tools/make_checkpoint, the synthetic checkpoint); the reader is safetensors.cpp.
#include <nlohmann/json.hpp>

#include "core/checkpoint/safetensors.h"

using json = nlohmann::json;

std::string st_write(const std::vector<st_write_tensor>& tensors, const std::map<std::string, std::string>& metadata) {
  json header = json::object();
  if (!metadata.empty()) header["__metadata__"] = metadata;
  uint64_t at = 0;
  for (const st_write_tensor& t : tensors) {
    header[t.name] = {{"dtype", st_dtype_name(t.dtype)}, {"shape", t.shape}, {"data_offsets", {at, at + t.bytes.size()}}};
    at += t.bytes.size();
  }
  std::string text = header.dump();
  while ((8 + text.size()) % 8) text += ' ';
  std::string out(8, '\0');
  for (int i = 0; i < 8; i++) out[i] = (char)((uint64_t)text.size() >> (8 * i));
  out += text;
  out.reserve(out.size() + at);
  for (const st_write_tensor& t : tensors) out += t.bytes;
  return out;
}
