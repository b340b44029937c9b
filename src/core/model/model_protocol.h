// What the page asks the whole model and what it answers, as plain data and as the JSON that
// crosses from the page to its model worker and back. The views (rule book, flow, the gates view's
// in=stream) ask a model_question; the worker's model_host answers a model_reply and reports its
// model_status as it loads. Both sides read and write JSON with the core's code, so the native
// tests run the very messages the page sends.
//
// Every field is a row of model_messages.inc: the structs below, their equality, the writer and
// the reader are generated from those rows (model_fields.h walks them), so a field is added or
// changed there and nowhere else.
#pragma once

#include <cfloat>
#include <cstdint>
#include <string>
#include <vector>

#include "core/checkpoint/model_config.h"
#include "core/model/forward.h"
#include "core/base/gate_counts.h"
#include "core/stream/stream_error.h"
#include "core/base/strings.h"

enum { MODEL_TOP_TOKENS = 10, MODEL_TOP_UNITS = 10, MODEL_TOWARD_TOKENS = 8, MODEL_RISING_TOKENS = 5 };

// A question's picked unit when there is none.
constexpr unit_ref MODEL_NO_UNIT{-1, -1};

// [SECTION] the messages: structs and enums from model_messages.inc
// Each record gets operator== over every row but MODEL_ID's: model_question's decides whether an
// answer is current, so a field it left out would make a stale answer look current; the id only
// names the message. An enum or a struct declared elsewhere gets a shadow of its rows here
// (model_rows_of_*), checked against the declaration, so a member added there without a row stops
// the build.
#define MODEL_VERSION(n) constexpr int MODEL_MESSAGES_VERSION = n;
#define MODEL_BOUND(type, name, value) constexpr type name = value;
#define MODEL_ENUM_DECLARE(type) enum type {
#define MODEL_ENUM_FOREIGN(type, count) enum class model_rows_of_##type {
#define MODEL_ENUM_VALUE(value) value,
#define MODEL_ENUM_END(type) };
#define MODEL_RECORD(type) struct type {
#define MODEL_RECORD_END(type)                  \
  bool operator==(const type& o) const;         \
  bool operator!=(const type& o) const { return !(*this == o); } \
  };
#define MODEL_FOREIGN(type) struct model_rows_of_##type {
#define MODEL_FOREIGN_END(type) \
  };                            \
  static_assert(sizeof(model_rows_of_##type) == sizeof(type), "model_messages.inc: a member of " #type " has no row");
#define MODEL_ID(name) uint32_t name = 0;
#define MODEL_INT(type, name, dflt, lo, hi) type name = dflt;
#define MODEL_REAL(type, name, dflt, lo, hi) type name = dflt;
#define MODEL_FLAG(name, dflt) bool name = dflt;
#define MODEL_TEXT(name, max_bytes) std::string name;
#define MODEL_ENUM(type, name, dflt) type name = (type)(dflt);
#define MODEL_INTS(type, name, max_items, lo, hi) std::vector<type> name;
#define MODEL_INT_ARRAY(type, name, count, lo, hi) type name[count] = {};
#define MODEL_REALS(type, name, max_items, lo, hi) std::vector<type> name;
#define MODEL_TEXTS(name, max_items, max_bytes) std::vector<std::string> name;
#define MODEL_LIST(type, name, max_items) std::vector<type> name;
#define MODEL_SUB(type, name, dflt) type name = dflt;
#define MODEL_INLINE(type, name) type name = {};
#include "core/model/model_messages.inc"

// [SECTION] the envelope: the worker's postMessage types (web/model_worker.js, model_web.cpp)
enum model_post_to { MODEL_TO_WORKER, MODEL_TO_PAGE };
struct model_post {
  model_post_to to;
  const char* type;
  const char* fields;  // beside `type`, space-separated
};
inline constexpr model_post MODEL_POSTS[] = {
#define MODEL_POST(to, type, fields) {to, type, fields},
#include "core/model/model_messages.inc"
};

// [SECTION] JSON (cJSON both ways; see model_messages.inc for what a reader takes)
// A reader's verdict: another version is told apart from unreadable text, since the page's answer
// to it differs (its worker is from another build: reload).
enum model_read_fault { MODEL_READ_OK, MODEL_READ_UNREADABLE, MODEL_READ_OTHER_VERSION };

// The parsers return false and leave *out untouched unless the whole message reads (why in *fault,
// when asked for).
std::string model_question_json(const model_question& q);
bool model_question_parse(const std::string& json, model_question* out, model_read_fault* fault = nullptr);
std::string model_reply_json(const model_reply& r);
bool model_reply_parse(const std::string& json, model_reply* out, model_read_fault* fault = nullptr);
std::string model_status_json(const model_status& s);
bool model_status_parse(const std::string& json, model_status* out, model_read_fault* fault = nullptr);

// What the page shows when its worker's status is of another version: a failed status whose
// error says, in words, that the worker is from another build of the page and the page must be
// reloaded (a cached model_worker.js beside a newer page; nothing it sends can be read).
model_status model_status_other_version(const std::string& location);
