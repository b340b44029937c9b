// The rows of model_messages.inc as code: model_fields<T>::each(v, r...) calls the visitor `v` once
// per field of record T, in the rows' order, with the field's key and bounds and the field of each
// record given (one to write or read it, two to compare). The protocol's writer, reader and
// equality (model_protocol.cpp) and the round-trip test are such visitors, so none of them names a
// field. A visitor has one method per kind of row:
//   id(key, f...)                               integer(key, dflt, lo, hi, f...)
//   real(key, dflt, lo, hi, f...)               flag(key, dflt, f...)
//   text(key, max_bytes, f...)                  named(key, dflt, names, f...)
//   integers(key, max_items, lo, hi, f...)      (a std::vector, or a fixed array whose size is its count)
//   reals(key, max_items, lo, hi, f...)         texts(key, max_items, max_bytes, f...)
//   list(key, max_items, f...)                  record(key, f...)
// (A MODEL_INLINE row calls the visitor with its record's fields, as if they were this record's.)
#pragma once

#include "core/model/model_protocol.h"

// An enum's names, indexed by value ("STREAM_NO_ROOM"): what crosses instead of its ordinal.
struct model_name_table {
  const char* const* names;
  int count;
  const char* name(int value) const { return value >= 0 && value < count ? names[value] : nullptr; }
  bool find(const char* name, int* value) const;
};
// The string table's ids by their names in core/base/strings.inc (a reason of read_error).
const model_name_table& model_names_of(const str_id*);

template <class T>
struct model_fields;

#define MODEL_ENUM_DECLARE(type) const model_name_table& model_names_of(const type*);
#define MODEL_ENUM_FOREIGN(type, count) MODEL_ENUM_DECLARE(type)
#define MODEL_RECORD(type)   \
  template <>                \
  struct model_fields<type> { \
    template <class V, class... R> \
    static void each(V& v, R&... r) {
#define MODEL_RECORD_END(type) \
  }                            \
  };
#define MODEL_FOREIGN(type) MODEL_RECORD(type)
#define MODEL_FOREIGN_END(type) MODEL_RECORD_END(type)
#define MODEL_ID(name) v.id(#name, r.name...);
#define MODEL_INT(type, name, dflt, lo, hi) v.integer(#name, (int64_t)(dflt), (int64_t)(lo), (int64_t)(hi), r.name...);
#define MODEL_REAL(type, name, dflt, lo, hi) v.real(#name, (double)(dflt), (double)(lo), (double)(hi), r.name...);
#define MODEL_FLAG(name, dflt) v.flag(#name, dflt, r.name...);
#define MODEL_TEXT(name, max_bytes) v.text(#name, (size_t)(max_bytes), r.name...);
#define MODEL_ENUM(type, name, dflt) v.named(#name, (int)(dflt), model_names_of((const type*)nullptr), r.name...);
#define MODEL_INTS(type, name, max_items, lo, hi) v.integers(#name, (size_t)(max_items), (int64_t)(lo), (int64_t)(hi), r.name...);
#define MODEL_INT_ARRAY(type, name, count, lo, hi) v.integers(#name, (size_t)(count), (int64_t)(lo), (int64_t)(hi), r.name...);
#define MODEL_REALS(type, name, max_items, lo, hi) v.reals(#name, (size_t)(max_items), (double)(lo), (double)(hi), r.name...);
#define MODEL_TEXTS(name, max_items, max_bytes) v.texts(#name, (size_t)(max_items), (size_t)(max_bytes), r.name...);
#define MODEL_LIST(type, name, max_items) v.list(#name, (size_t)(max_items), r.name...);
#define MODEL_SUB(type, name, dflt) v.record(#name, r.name...);
#define MODEL_INLINE(type, name) model_fields<type>::each(v, r.name...);
#include "core/model/model_messages.inc"
