// safetensors header parser (see safetensors.h), through json_read.h; the writer is
// safetensors_write.cpp.
#include "core/checkpoint/safetensors.h"

#include <algorithm>

#include "core/base/json_read.h"

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
static bool json_u64(const cJSON* j, uint64_t* out) {
  int64_t v;
  if (!json_integer(j, &v) || v < 0) return false;
  *out = (uint64_t)v;
  return true;
}

static bool st_parse_entry(const std::string& name, const cJSON* e, uint64_t data_size, uint64_t data_start,
                           const std::string& file, st_tensor* t, std::string* error, read_error* why) {
  auto fail = [&](str_id what, std::vector<std::string> args = {}) {
    read_error r = read_error_at(name, what, std::move(args));
    r.place = READ_AT_TENSOR;
    return read_fail(error, why, file, r);
  };
  if (!cJSON_IsObject(e)) return fail(STR_READ_ST_ENTRY);
  const cJSON *dt = json_member(e, "dtype"), *sh = json_member(e, "shape"), *off = json_member(e, "data_offsets");
  if (!cJSON_IsString(dt)) return fail(STR_READ_ST_DTYPE);
  if (!cJSON_IsArray(sh)) return fail(STR_READ_ST_SHAPE);
  if (!cJSON_IsArray(off) || json_size(off) != 2) return fail(STR_READ_ST_OFFSETS_PAIR);
  t->name = name;
  t->dtype_name = json_string(dt);
  size_t elem = 0;
  t->dtype = st_dtype_from_name(t->dtype_name, &elem);
  if (t->dtype == ST_DTYPE_UNKNOWN) return fail(STR_READ_ST_UNKNOWN_DTYPE, {t->dtype_name});
  if (json_size(sh) > 8) return fail(STR_READ_ST_DIMS);
  uint64_t numel = 1;
  for (const cJSON* d = json_first(sh); d; d = d->next) {
    uint64_t v;
    if (!json_u64(d, &v) || v > (1ull << 40)) return fail(STR_READ_ST_SIZE);
    t->shape.push_back((int64_t)v);
    if (v != 0 && numel > (1ull << 62) / v) return fail(STR_READ_ST_OVERFLOW);
    numel *= v;
  }
  uint64_t b, en;
  if (!json_u64(json_first(off), &b) || !json_u64(json_first(off)->next, &en))
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
  const json_tree tree = json_parse(text, n);
  const cJSON* j = tree.get();
  if (!j) return read_fail(error, why, file, read_error_at("", STR_READ_ST_NOT_JSON));
  if (!cJSON_IsObject(j)) return read_fail(error, why, file, read_error_at("", STR_READ_ST_NOT_OBJECT));
  st_file f;
  f.file = file;
  f.data_start = 8 + (uint64_t)n;
  const uint64_t data_size = file_size - f.data_start;  // st_header_length checked 8 + n <= file_size
  for (const cJSON* it = json_first(j); it; it = it->next) {
    const std::string key = it->string ? it->string : "";
    if (key == "__metadata__") {
      if (!cJSON_IsObject(it)) return read_fail(error, why, file, read_error_at("", STR_READ_ST_META));
      for (const cJSON* m = json_first(it); m; m = m->next) {
        const std::string mkey = m->string ? m->string : "";
        if (!cJSON_IsString(m)) return read_fail(error, why, file, read_error_at("", STR_READ_ST_META_VALUE, {mkey}));
        f.metadata[mkey] = json_string(m);
      }
      continue;
    }
    st_tensor t;
    if (!st_parse_entry(key, it, data_size, f.data_start, file, &t, error, why)) return false;
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
