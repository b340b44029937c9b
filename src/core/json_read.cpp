// JSON reading through cJSON (see json_read.h).
#include "core/json_read.h"

#include <cmath>

json_tree json_parse(const char* text, size_t n) {
  if (!text || n == 0) return nullptr;
  const char* end = nullptr;
  json_tree tree(cJSON_ParseWithLengthOpts(text, n, &end, /*require_null_terminated=*/false));
  if (!tree || !end) return nullptr;
  // cJSON stops after the first value: anything but white space after it is not one JSON value.
  for (const char* p = end; p < text + n; p++)
    if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') return nullptr;
  return tree;
}

const cJSON* json_member(const cJSON* object, const char* key) {
  return cJSON_IsObject(object) ? cJSON_GetObjectItemCaseSensitive(object, key) : nullptr;
}

bool json_integer(const cJSON* node, int64_t* out) {
  if (!cJSON_IsNumber(node)) return false;
  const double v = node->valuedouble;
  if (!(std::fabs(v) <= 9007199254740992.0) || v != std::trunc(v)) return false;  // also NaN, inf
  *out = (int64_t)v;
  return true;
}

std::string json_string(const cJSON* node) {
  return cJSON_IsString(node) && node->valuestring ? std::string(node->valuestring) : std::string();
}

size_t json_size(const cJSON* node) {
  size_t n = 0;
  for (const cJSON* e = json_first(node); e; e = e->next) n++;
  return n;
}
