// JSON reading through cJSON (see json_read.h).
#include "core/base/json_read.h"

#include <cmath>
#include <set>

// Well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF), which
// JSON text must be (RFC 8259). cJSON copies string bytes as they come; checked here once, no
// reader shows or writes back a broken string.
static bool utf8_valid(const unsigned char* p, size_t n) {
  for (size_t i = 0; i < n;) {
    const unsigned char c = p[i];
    if (c < 0x80) { i++; continue; }
    size_t len;
    unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c == 0xE0) len = 3, lo = 0xA0;
    else if (c == 0xED) len = 3, hi = 0x9F;  // not U+D800..U+DFFF
    else if (c >= 0xE1 && c <= 0xEF) len = 3;
    else if (c == 0xF0) len = 4, lo = 0x90;
    else if (c == 0xF4) len = 4, hi = 0x8F;  // not past U+10FFFF
    else if (c >= 0xF1 && c <= 0xF3) len = 4;
    else return false;
    if (n - i < len || p[i + 1] < lo || p[i + 1] > hi) return false;
    for (size_t k = 2; k < len; k++)
      if ((p[i + k] & 0xC0) != 0x80) return false;
    i += len;
  }
  return true;
}

json_tree json_parse(const char* text, size_t n) {
  if (!text || n == 0 || !utf8_valid((const unsigned char*)text, n)) return nullptr;
  const char* end = nullptr;
  json_tree tree(cJSON_ParseWithLengthOpts(text, n, &end, /*require_null_terminated=*/false));
  if (!tree || !end) return nullptr;
  // cJSON stops after the first value: anything but white space after it is not one JSON value.
  for (const char* p = end; p < text + n; p++)
    if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') return nullptr;
  return tree;
}

size_t json_values_at_most(const char* text, size_t n, size_t limit) {
  size_t values = 1;
  bool in_string = false;
  for (size_t i = 0; i < n && values <= limit; i++) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') i++;  // an escape: the next character is the string's
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == ',' || c == '[' || c == '{') {
      values++;
    }
  }
  return values;
}

const cJSON* json_member(const cJSON* object, const char* key) {
  return cJSON_IsObject(object) ? cJSON_GetObjectItemCaseSensitive(object, key) : nullptr;
}

std::string json_repeated_key(const cJSON* object) {
  if (!cJSON_IsObject(object)) return "";
  std::set<std::string> seen;
  for (const cJSON* m = object->child; m; m = m->next)
    if (m->string && !seen.insert(m->string).second) return m->string;
  return "";
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

std::string json_value_text(const cJSON* node) {
  static const size_t MAX_BYTES = 40;
  char* printed = node ? cJSON_PrintUnformatted(node) : nullptr;
  if (!printed) return "?";
  std::string text(printed);
  cJSON_free(printed);
  if (text.size() <= MAX_BYTES) return text;
  size_t end = MAX_BYTES;
  while (end > 0 && ((unsigned char)text[end] & 0xC0) == 0x80) end--;  // not inside a UTF-8 character
  return text.substr(0, end) + "…";
}

size_t json_size(const cJSON* node) {
  size_t n = 0;
  for (const cJSON* e = json_first(node); e; e = e->next) n++;
  return n;
}
