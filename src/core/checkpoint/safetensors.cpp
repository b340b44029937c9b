// safetensors header parser and writer (see safetensors.h). JSON through nlohmann-json, used
// without exceptions: the page's wasm build has them off, and hostile input must not throw.
#include "core/checkpoint/safetensors.h"

#include <algorithm>
#include <nlohmann/json.hpp>

using json = nlohmann::json;

const st_tensor* st_file::find(const std::string& name) const {
  for (const st_tensor& t : tensors)
    if (t.name == name) return &t;
  return nullptr;
}

bool st_header_length(const unsigned char b[8], uint64_t file_size, const std::string& file, uint64_t* n,
                      std::string* error, read_error* why) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | b[i];
  if (v > ST_MAX_HEADER_BYTES)
    return read_fail(error, why, file,
                     read_error_at("", STR_READ_ST_CLAIMS, {std::to_string(v), std::to_string((int)ST_MAX_HEADER_BYTES)}));
  if (file_size < 8 || v > file_size - 8)
    return read_fail(error, why, file, read_error_at("", STR_READ_ST_PAST_END, {std::to_string(v), std::to_string(file_size)}));
  *n = v;
  return true;
}

// A JSON integer in [0, 2^53], the range safetensors writers produce.
static bool json_u64(const json& j, uint64_t* out) {
  if (j.is_number_unsigned()) {
    *out = j.get<uint64_t>();
  } else if (j.is_number_integer()) {
    int64_t v = j.get<int64_t>();
    if (v < 0) return false;
    *out = (uint64_t)v;
  } else {
    return false;
  }
  return *out <= (1ull << 53);
}

static bool st_parse_entry(const std::string& name, const json& e, uint64_t data_size, uint64_t data_start,
                           const std::string& file, st_tensor* t, std::string* error, read_error* why) {
  auto fail = [&](str_id what, std::vector<std::string> args = {}) {
    read_error r = read_error_at(name, what, std::move(args));
    r.place = READ_AT_TENSOR;
    return read_fail(error, why, file, r);
  };
  if (!e.is_object()) return fail(STR_READ_ST_ENTRY);
  auto dt = e.find("dtype"), sh = e.find("shape"), off = e.find("data_offsets");
  if (dt == e.end() || !dt->is_string()) return fail(STR_READ_ST_DTYPE);
  if (sh == e.end() || !sh->is_array()) return fail(STR_READ_ST_SHAPE);
  if (off == e.end() || !off->is_array() || off->size() != 2)
    return fail(STR_READ_ST_OFFSETS_PAIR);
  t->name = name;
  t->dtype_name = dt->get<std::string>();
  size_t elem = 0;
  t->dtype = st_dtype_from_name(t->dtype_name, &elem);
  if (t->dtype == ST_DTYPE_UNKNOWN) return fail(STR_READ_ST_UNKNOWN_DTYPE, {t->dtype_name});
  if (sh->size() > 8) return fail(STR_READ_ST_DIMS);
  uint64_t numel = 1;
  for (const json& d : *sh) {
    uint64_t v;
    if (!json_u64(d, &v) || v > (1ull << 40)) return fail(STR_READ_ST_SIZE);
    t->shape.push_back((int64_t)v);
    if (v != 0 && numel > (1ull << 62) / v) return fail(STR_READ_ST_OVERFLOW);
    numel *= v;
  }
  uint64_t b, en;
  if (!json_u64((*off)[0], &b) || !json_u64((*off)[1], &en))
    return fail(STR_READ_ST_OFFSETS_INT);
  if (b > en) return fail(STR_READ_ST_BEGIN_END, {std::to_string(b), std::to_string(en)});
  if (en > data_size)
    return fail(STR_READ_ST_PAST_DATA, {std::to_string(en), std::to_string(data_size)});
  if (numel > (1ull << 62) / elem || en - b != numel * elem)
    return fail(STR_READ_ST_BYTES, {std::to_string(en - b), t->dtype_name, std::to_string(numel), std::to_string(elem)});
  t->begin = data_start + b;
  t->end = data_start + en;
  return true;
}

bool st_parse_header(const char* text, size_t n, uint64_t file_size, const std::string& file, st_file* out,
                     std::string* error, read_error* why) {
  json j = json::parse(text, text + n, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return read_fail(error, why, file, read_error_at("", STR_READ_ST_NOT_JSON));
  if (!j.is_object()) return read_fail(error, why, file, read_error_at("", STR_READ_ST_NOT_OBJECT));
  st_file f;
  f.file = file;
  f.data_start = 8 + (uint64_t)n;
  const uint64_t data_size = file_size - f.data_start;  // st_header_length checked 8 + n <= file_size
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "__metadata__") {
      if (!it->is_object()) return read_fail(error, why, file, read_error_at("", STR_READ_ST_META));
      for (auto m = it->begin(); m != it->end(); ++m) {
        if (!m->is_string()) return read_fail(error, why, file, read_error_at("", STR_READ_ST_META_VALUE, {m.key()}));
        f.metadata[m.key()] = m->get<std::string>();
      }
      continue;
    }
    st_tensor t;
    if (!st_parse_entry(it.key(), *it, data_size, f.data_start, file, &t, error, why)) return false;
    f.tensors.push_back(std::move(t));
  }
  std::sort(f.tensors.begin(), f.tensors.end(), [](const st_tensor& a, const st_tensor& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  for (size_t i = 1; i < f.tensors.size(); i++) {
    const st_tensor &a = f.tensors[i - 1], &b = f.tensors[i];
    if (b.begin < a.end && b.begin != b.end && a.begin != a.end)
      return read_fail(error, why, file, read_error_at("", STR_READ_ST_OVERLAP, {a.name, b.name}));
  }
  *out = std::move(f);
  return true;
}

bool st_read_header(byte_source* src, const std::string& file, st_file* out, std::string* error) {
  uint64_t size = 0;
  if (!src->size(file, &size, error)) return false;
  unsigned char first8[8] = {0};
  if (size < 8) return read_fail(error, nullptr, file, read_error_at("", STR_READ_ST_TOO_SHORT, {std::to_string(size)}));
  if (!src->read(file, 0, 8, first8, error)) return false;
  uint64_t n = 0;
  if (!st_header_length(first8, size, file, &n, error)) return false;
  std::string text((size_t)n, '\0');
  if (n && !src->read(file, 8, (size_t)n, &text[0], error)) return false;
  return st_parse_header(text.data(), text.size(), size, file, out, error);
}

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
