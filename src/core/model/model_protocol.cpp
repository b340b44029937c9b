// The whole model's messages as JSON (see model_protocol.h): three visitors over the rows of
// model_messages.inc (model_fields.h), a writer with cJSON's builder, a reader through json_read.h
// and equality, and the enums' names. Nothing here names a field.
#include "core/model/model_protocol.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/base/json_read.h"
#include "core/model/model_fields.h"

// [SECTION] names
bool model_name_table::find(const char* name, int* value) const {
  for (int i = 0; i < count; i++)
    if (std::strcmp(names[i], name) == 0) return *value = i, true;
  return false;
}

const model_name_table& model_names_of(const str_id*) {
  static const char* const names[] = {
#define S(id, en, zh) #id,
#define PAGE(id, en, zh)
#include "core/base/strings.inc"
#undef PAGE
#undef S
  };
  static const model_name_table t{names, STR_COUNT};
  return t;
}

namespace {
// The rows of an enum declared elsewhere must list its values in order, every one: a table indexed
// by value would otherwise give a value another's name.
constexpr bool values_in_order(const int* values, int n, int count) {
  for (int i = 0; i < n; i++)
    if (values[i] != i) return false;
  return count < 0 || n == count;
}
#define MODEL_ENUM_DECLARE(type) constexpr int type##_count = -1, type##_values[] = {
#define MODEL_ENUM_FOREIGN(type, count) constexpr int type##_count = count, type##_values[] = {
#define MODEL_ENUM_VALUE(value) value,
#define MODEL_ENUM_END(type)                                                                                       \
  };                                                                                                               \
  static_assert(values_in_order(type##_values, sizeof type##_values / sizeof(int), type##_count),                  \
                "model_messages.inc: the rows of " #type " are not its values in order, one row each");
#include "core/model/model_messages.inc"
}  // namespace

#define MODEL_ENUM_DECLARE(type)                               \
  const model_name_table& model_names_of(const type*) {        \
    static const char* const names[] = {
#define MODEL_ENUM_FOREIGN(type, count) MODEL_ENUM_DECLARE(type)
#define MODEL_ENUM_VALUE(value) #value,
#define MODEL_ENUM_END(type)                                               \
  }                                                                        \
  ;                                                                        \
  static const model_name_table t{names, (int)(sizeof names / sizeof *names)}; \
  return t;                                                                \
  }
#include "core/model/model_messages.inc"

namespace {
// [SECTION] writing: every field, a non-finite number as 0 (JSON has none), an enum value with no
// name (read_error's -1: no reason) left out, so it reads as the row's default.

// A number as the fewest digits that read back as exactly it. (cJSON's own printing stops at 15
// digits when those come within an epsilon, so a value would not always cross unchanged.)
cJSON* exact_number(double x) {
  if (!std::isfinite(x)) x = 0;
  char text[32];
  for (int digits = 15; digits <= 17; digits++) {
    std::snprintf(text, sizeof text, "%.*g", digits, x);
    if (std::strtod(text, nullptr) == x) break;
  }
  return cJSON_CreateRaw(text);
}

struct json_writer {
  cJSON* o;
  void number(const char* k, double x) { cJSON_AddItemToObject(o, k, exact_number(x)); }
  void id(const char* k, uint32_t f) { number(k, f); }
  template <class T>
  void integer(const char* k, int64_t, int64_t, int64_t, const T& f) { number(k, (double)f); }
  template <class T>
  void real(const char* k, double, double, double, const T& f) { number(k, (double)f); }
  void flag(const char* k, bool, bool f) { cJSON_AddBoolToObject(o, k, f); }
  void text(const char* k, size_t, const std::string& f) { cJSON_AddStringToObject(o, k, f.c_str()); }
  template <class T>
  void named(const char* k, int, const model_name_table& t, const T& f) {
    if (const char* name = t.name((int)f)) cJSON_AddStringToObject(o, k, name);
  }
  template <class T>
  static void put_numbers(cJSON* a, const T* x, size_t n) {
    for (size_t i = 0; i < n; i++) cJSON_AddItemToArray(a, exact_number((double)x[i]));
  }
  template <class T>
  void integers(const char* k, size_t, int64_t, int64_t, const std::vector<T>& f) { put_numbers(cJSON_AddArrayToObject(o, k), f.data(), f.size()); }
  template <class T, size_t N>
  void integers(const char* k, size_t, int64_t, int64_t, const T (&f)[N]) { put_numbers(cJSON_AddArrayToObject(o, k), f, N); }
  template <class T>
  void reals(const char* k, size_t, double, double, const std::vector<T>& f) { put_numbers(cJSON_AddArrayToObject(o, k), f.data(), f.size()); }
  void texts(const char* k, size_t, size_t, const std::vector<std::string>& f) {
    cJSON* a = cJSON_AddArrayToObject(o, k);
    for (const std::string& s : f) cJSON_AddItemToArray(a, cJSON_CreateString(s.c_str()));
  }
  template <class T>
  void list(const char* k, size_t, const std::vector<T>& f) {
    cJSON* a = cJSON_AddArrayToObject(o, k);
    for (const T& x : f) {
      json_writer w{cJSON_CreateObject()};
      model_fields<T>::each(w, x);
      cJSON_AddItemToArray(a, w.o);
    }
  }
  template <class T>
  void record(const char* k, const T& f) {
    json_writer w{cJSON_AddObjectToObject(o, k)};
    model_fields<T>::each(w, f);
  }
};

template <class T>
std::string message_json(const T& x) {
  json_writer w{cJSON_CreateObject()};
  w.number("v", MODEL_MESSAGES_VERSION);
  model_fields<T>::each(w, x);
  char* s = cJSON_PrintUnformatted(w.o);
  std::string out = s ? s : "";
  cJSON_free(s);
  cJSON_Delete(w.o);
  return out;
}

// [SECTION] reading: a field of the wrong type or outside its bounds is left at its default; a
// list is taken whole or not at all; an enum's unknown name marks the message unreadable.
bool integer_in(const cJSON* n, int64_t lo, int64_t hi, int64_t* v) { return json_integer(n, v) && *v >= lo && *v <= hi; }
bool real_in(const cJSON* n, double lo, double hi) {
  return cJSON_IsNumber(n) && std::isfinite(n->valuedouble) && n->valuedouble >= lo && n->valuedouble <= hi;
}
bool text_in(const cJSON* n, size_t max_bytes) { return cJSON_IsString(n) && std::strlen(n->valuestring) <= max_bytes; }
bool list_in(const cJSON* a, size_t max_items) { return cJSON_IsArray(a) && json_size(a) <= max_items; }

struct json_reader {
  const cJSON* o;
  bool* unreadable;
  const cJSON* at(const char* k) const { return json_member(o, k); }
  void id(const char* k, uint32_t& f) { integer(k, 0, 0, UINT32_MAX, f); }
  template <class T>
  void integer(const char* k, int64_t, int64_t lo, int64_t hi, T& f) {
    int64_t v;
    if (integer_in(at(k), lo, hi, &v)) f = (T)v;
  }
  template <class T>
  void real(const char* k, double, double lo, double hi, T& f) {
    if (real_in(at(k), lo, hi)) f = (T)at(k)->valuedouble;
  }
  void flag(const char* k, bool, bool& f) {
    if (cJSON_IsBool(at(k))) f = cJSON_IsTrue(at(k));
  }
  void text(const char* k, size_t max_bytes, std::string& f) {
    if (text_in(at(k), max_bytes)) f = at(k)->valuestring;
  }
  template <class T>
  void named(const char* k, int, const model_name_table& t, T& f) {
    const cJSON* n = at(k);
    int v;
    if (!n) return;
    if (cJSON_IsString(n) && t.find(n->valuestring, &v)) f = (T)v;
    else *unreadable = true;
  }
  // A list whole, each item read by `one` (false: the list stays as it was).
  template <class T, class F>
  void take_list(const char* k, size_t max_items, std::vector<T>& f, F one) {
    const cJSON* a = at(k);
    if (!list_in(a, max_items)) return;
    std::vector<T> v(json_size(a));
    size_t i = 0;
    for (const cJSON* e = json_first(a); e; e = e->next)
      if (!one(e, &v[i++])) return;
    f = std::move(v);
  }
  template <class T>
  void integers(const char* k, size_t max_items, int64_t lo, int64_t hi, std::vector<T>& f) {
    take_list(k, max_items, f, [&](const cJSON* e, T* x) {
      int64_t v;
      return integer_in(e, lo, hi, &v) && (*x = (T)v, true);
    });
  }
  template <class T, size_t N>
  void integers(const char* k, size_t, int64_t lo, int64_t hi, T (&f)[N]) {
    std::vector<T> v;
    integers(k, N, lo, hi, v);
    if (v.size() == N) std::copy(v.begin(), v.end(), f);
  }
  template <class T>
  void reals(const char* k, size_t max_items, double lo, double hi, std::vector<T>& f) {
    take_list(k, max_items, f, [&](const cJSON* e, T* x) { return real_in(e, lo, hi) && (*x = (T)e->valuedouble, true); });
  }
  void texts(const char* k, size_t max_items, size_t max_bytes, std::vector<std::string>& f) {
    take_list(k, max_items, f, [&](const cJSON* e, std::string* x) { return text_in(e, max_bytes) && (*x = e->valuestring, true); });
  }
  template <class T>
  void list(const char* k, size_t max_items, std::vector<T>& f) {
    take_list(k, max_items, f, [&](const cJSON* e, T* x) {
      json_reader r{e, unreadable};
      if (cJSON_IsObject(e)) model_fields<T>::each(r, *x);
      return cJSON_IsObject(e) != 0;
    });
  }
  template <class T>
  void record(const char* k, T& f) {
    json_reader r{at(k), unreadable};
    if (cJSON_IsObject(r.o)) model_fields<T>::each(r, f);
  }
};

template <class T>
bool message_parse(const std::string& json, T* out, model_read_fault* fault) {
  model_read_fault verdict = MODEL_READ_UNREADABLE;
  T x{};
  // Counted before cJSON builds a tree: a hostile message of a million "0," stops here.
  if (json_values_at_most(json.data(), json.size(), MODEL_MAX_MESSAGE_VALUES) <= (size_t)MODEL_MAX_MESSAGE_VALUES) {
    const json_tree t = json_parse(json);
    int64_t v;
    if (!cJSON_IsObject(t.get())) {
      verdict = MODEL_READ_UNREADABLE;
    } else if (!json_integer(json_member(t.get(), "v"), &v) || v != MODEL_MESSAGES_VERSION) {
      verdict = MODEL_READ_OTHER_VERSION;  // (no "v": a build from before messages had versions)
    } else {
      bool unreadable = false;
      json_reader r{t.get(), &unreadable};
      model_fields<T>::each(r, x);
      verdict = unreadable ? MODEL_READ_UNREADABLE : MODEL_READ_OK;
    }
  }
  if (fault) *fault = verdict;
  if (verdict != MODEL_READ_OK) return false;
  *out = std::move(x);
  return true;
}

// [SECTION] equality: every field but the ids, which name a message rather than say anything
struct fields_equal {
  bool same = true;
  void id(const char*, uint32_t, uint32_t) {}
  template <class T>
  void integer(const char*, int64_t, int64_t, int64_t, const T& a, const T& b) { same = same && a == b; }
  template <class T>
  void real(const char*, double, double, double, const T& a, const T& b) { same = same && a == b; }
  void flag(const char*, bool, bool a, bool b) { same = same && a == b; }
  void text(const char*, size_t, const std::string& a, const std::string& b) { same = same && a == b; }
  template <class T>
  void named(const char*, int, const model_name_table&, const T& a, const T& b) { same = same && a == b; }
  template <class T>
  void integers(const char*, size_t, int64_t, int64_t, const std::vector<T>& a, const std::vector<T>& b) { same = same && a == b; }
  template <class T, size_t N>
  void integers(const char*, size_t, int64_t, int64_t, const T (&a)[N], const T (&b)[N]) { same = same && std::equal(a, a + N, b); }
  template <class T>
  void reals(const char*, size_t, double, double, const std::vector<T>& a, const std::vector<T>& b) { same = same && a == b; }
  void texts(const char*, size_t, size_t, const std::vector<std::string>& a, const std::vector<std::string>& b) { same = same && a == b; }
  template <class T>
  void list(const char*, size_t, const std::vector<T>& a, const std::vector<T>& b) {
    same = same && a.size() == b.size();
    for (size_t i = 0; same && i < a.size(); i++) model_fields<T>::each(*this, a[i], b[i]);
  }
  template <class T>
  void record(const char*, const T& a, const T& b) { model_fields<T>::each(*this, a, b); }
};

template <class T>
bool equal_fields(const T& a, const T& b) {
  fields_equal e;
  model_fields<T>::each(e, a, b);
  return e.same;
}
}  // namespace

#define MODEL_RECORD(type) \
  bool type::operator==(const type& o) const { return equal_fields(*this, o); }
#include "core/model/model_messages.inc"

// [SECTION] the messages
std::string model_question_json(const model_question& q) { return message_json(q); }
bool model_question_parse(const std::string& json, model_question* out, model_read_fault* fault) {
  return message_parse(json, out, fault);
}
std::string model_reply_json(const model_reply& r) { return message_json(r); }
bool model_reply_parse(const std::string& json, model_reply* out, model_read_fault* fault) {
  return message_parse(json, out, fault);
}
std::string model_status_json(const model_status& s) { return message_json(s); }
bool model_status_parse(const std::string& json, model_status* out, model_read_fault* fault) {
  return message_parse(json, out, fault);
}

model_status model_status_other_version(const std::string& location) {
  model_status st;
  st.location = location;
  st.phase = MODEL_STATUS_FAILED;
  st.error = stream_error_of(STREAM_FORMAT, read_error_at("", STR_MODEL_OTHER_BUILD));
  return st;
}
