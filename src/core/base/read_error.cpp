// Reasons a file could not be read, in words (see read_error.h).
#include "core/base/read_error.h"

#include <cstring>

read_error read_error_at(const std::string& where, str_id what, std::vector<std::string> args) {
  read_error e;
  e.what = what;
  e.where = where;
  e.args = std::move(args);
  return e;
}

read_error read_error_in(read_place place, str_id what, std::vector<std::string> args) {
  read_error e = read_error_at("", what, std::move(args));
  e.place = place;
  return e;
}

std::string read_error_fill(const char* fmt, const std::vector<std::string>& args) {
  std::string out;
  size_t next = 0;
  for (const char* p = fmt; *p; p++) {
    if (p[0] == '%' && p[1] == 's') {
      if (next < args.size()) out += args[next];
      next++, p++;
    } else if (p[0] == '%' && p[1] >= '1' && p[1] <= '9' && p[2] == '$' && p[3] == 's') {  // "%2$s": one language skips an arg
      const size_t k = (size_t)(p[1] - '1');
      if (k < args.size()) out += args[k];
      p += 3;
    } else if (p[0] == '%' && p[1] == '%') {
      out += '%', p++;
    } else {
      out += *p;
    }
  }
  return out;
}

std::string read_error_text_in(lab_lang lang, const read_error& e) {
  if (!e.set()) return "";
  const std::string where = e.place == READ_AT_FILE     ? tr_in(lang, STR_READ_AT_FILE)
                            : e.place == READ_AT_TOP    ? tr_in(lang, STR_READ_AT_TOP)
                            : e.place == READ_AT_TENSOR ? read_error_fill(tr_in(lang, STR_READ_AT_TENSOR), {e.where})
                                                        : e.where;
  const std::string reason = read_error_fill(tr_in(lang, (str_id)e.what), e.args);
  return where.empty() ? reason : where + tr_in(lang, STR_MIRROR_COLON) + reason;
}

std::string read_error_text(const read_error& e) { return read_error_text_in(strings_lang(), e); }

bool read_fail(std::string* error, read_error* why, const std::string& file, read_error e) {
  *error = (file.empty() ? "" : file + ": ") + read_error_text_in(LAB_LANG_EN, e);
  if (why) *why = std::move(e);
  return false;
}
