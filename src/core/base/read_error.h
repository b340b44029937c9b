// Why bytes that arrived could not be read (a pack manifest, a checkpoint's config.json, index or
// safetensors header, a q8 blob), as data: the reason (a string-table id) and the parts that are
// no language (a field path, a tensor or file name, numbers). The words are built here only, in
// the language asked: a Chinese page never shows a parser's English, and the CLI keeps English.
#pragma once

#include <string>
#include <vector>

#include "core/base/strings.h"

// Where in the file: a field path such as "probes[0].layers[1]" (no words), the whole file, the
// top level of a JSON object, or a tensor named by `where` (these said in words).
enum read_place { READ_AT_FIELD, READ_AT_FILE, READ_AT_TOP, READ_AT_TENSOR };

struct read_error {
  int what = -1;  // str_id of the reason; -1: no reason recorded
  read_place place = READ_AT_FIELD;
  std::string where;              // READ_AT_FIELD: the path, or "" for none
  std::vector<std::string> args;  // the reason's %s, in order
  bool set() const { return what >= 0; }
  bool operator==(const read_error& o) const {
    return what == o.what && place == o.place && where == o.where && args == o.args;
  }
};

read_error read_error_at(const std::string& where, str_id what, std::vector<std::string> args = {});
read_error read_error_in(read_place place, str_id what, std::vector<std::string> args = {});

// "probes[0]: 'tokens' must be ..." in `lang`; read_error_text in the page's current language.
std::string read_error_text_in(lab_lang lang, const read_error& e);
std::string read_error_text(const read_error& e);
// For a parser that also returns the CLI's English ("file: reason"): the reason as data in *why
// (when asked for) and in English in *error. Returns false, for `return read_fail(...)`.
bool read_fail(std::string* error, read_error* why, const std::string& file, read_error e);
// A string-table format with its %s filled from `args` in order (missing ones stay empty); "%2$s"
// takes one by place, so one language may leave out what the other says (a parser's English).
std::string read_error_fill(const char* fmt, const std::vector<std::string>& args);
