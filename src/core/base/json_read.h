// Reading JSON that comes from outside (pack manifests, config.json, safetensors headers, the shard
// index, the tokenizer worker's answers): cJSON's tree behind the few questions the readers ask.
// Every call takes any node, including nullptr, and answers "absent" or false for a wrong shape,
// so a reader checks what it needs and never crashes on hostile input.
//
// cJSON, not nlohmann-json, because these readers are in the page's first load: 9 KB brotli
// against 27 KB. The native tools' writers keep nlohmann-json (src/core/pack/pack_write.cpp).
#pragma once

#include <cJSON.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

struct json_tree_delete {
  void operator()(cJSON* j) const { cJSON_Delete(j); }
};
using json_tree = std::unique_ptr<cJSON, json_tree_delete>;

// The text must be well-formed UTF-8 and exactly one JSON value, white space around it allowed;
// else nullptr.
json_tree json_parse(const char* text, size_t n);
inline json_tree json_parse(const std::string& text) { return json_parse(text.data(), text.size()); }

// An upper bound on the JSON values in `text` (every ',' '[' and '{' outside strings, plus one),
// counted without parsing or allocating, and stopping past `limit`: a reader refuses text that would
// make too large a tree before cJSON builds it (a header of "0,0,0,..." is 8 M values in 16 MiB).
size_t json_values_at_most(const char* text, size_t n, size_t limit);

// The member `key` of an object (the first, if a hostile file repeats it); nullptr otherwise.
const cJSON* json_member(const cJSON* object, const char* key);
// The first key an object holds twice ("" when none, or not an object). Parsers disagree on which
// value wins (cJSON's lookup the first, Python's json the last): a reader refuses rather than guess.
std::string json_repeated_key(const cJSON* object);

// A number whose value is a whole number a double holds exactly (|v| <= 2^53). JSON does not tell
// 1 from 1.0, and neither does this.
bool json_integer(const cJSON* node, int64_t* out);

// A string's bytes, or "" for anything else.
std::string json_string(const cJSON* node);

// A value as JSON text, for a refusal that quotes it: at most 40 bytes (longer is cut, "…"), "?" for none.
std::string json_value_text(const cJSON* node);

// The element count of an array or the member count of an object; 0 for anything else.
size_t json_size(const cJSON* node);

// Iterates the elements of an array or the members of an object (child->string is the key):
//   for (const cJSON* e = json_first(node); e; e = e->next)
inline const cJSON* json_first(const cJSON* node) {
  return node && (cJSON_IsArray(node) || cJSON_IsObject(node)) ? node->child : nullptr;
}
