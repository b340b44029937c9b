// PCRE2 behind the tokenizer's pre-tokenizer patterns (see tok_regex.h).
#include "core/tokenizer/tok_regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

// Oniguruma's \s for UTF-8: HT..CR, NEL, and the Zs/Zl/Zp characters.
static const char kOnigSpace[] =
    "\\x{9}-\\x{D}\\x{20}\\x{85}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}";

std::string tok_regex_onig_spaces(const std::string& p) {
  std::string out;
  bool in_class = false;
  for (size_t i = 0; i < p.size(); ++i) {
    char c = p[i];
    if (c == '\\' && i + 1 < p.size()) {
      char e = p[++i];
      if (e == 's') out += in_class ? std::string(kOnigSpace) : "[" + std::string(kOnigSpace) + "]";
      else if (e == 'S' && !in_class) out += "[^" + std::string(kOnigSpace) + "]";
      else { out += c; out += e; }
      continue;
    }
    if (!in_class && c == '[') {
      in_class = true;
      out += c;
      // A ']' first in a bracket (after an optional '^') is a literal, not the end.
      if (i + 1 < p.size() && p[i + 1] == '^') out += p[++i];
      if (i + 1 < p.size() && p[i + 1] == ']') out += p[++i];
      continue;
    }
    if (in_class && c == '[' && i + 1 < p.size() && p[i + 1] == ':') {  // [:alpha:] stays whole
      size_t end = p.find(":]", i + 2);
      if (end != std::string::npos) { out.append(p, i, end + 2 - i); i = end + 1; continue; }
    }
    if (in_class && c == ']') in_class = false;
    out += c;
  }
  return out;
}

bool tok_regex_compile(const std::string& pattern, bool literal, tok_regex* out, std::string* error) {
  int code_err = 0;
  PCRE2_SIZE offset = 0;
  uint32_t options = PCRE2_UTF | (literal ? PCRE2_LITERAL : PCRE2_UCP);  // LITERAL refuses UCP
  std::string source = literal ? pattern : tok_regex_onig_spaces(pattern);
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(source.data()), source.size(), options,
                                   &code_err, &offset, nullptr);
  if (!code) {
    PCRE2_UCHAR msg[256];
    pcre2_get_error_message(code_err, msg, sizeof msg);
    *error = "bad regex /" + pattern + "/: " + reinterpret_cast<const char*>(msg) + " (at offset " +
             std::to_string(offset) + ")";
    return false;
  }
  pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);  // may fail (no JIT on this platform): the interpreter runs
  out->code = std::shared_ptr<void>(code, [](void* c) { pcre2_code_free(static_cast<pcre2_code*>(c)); });
  return true;
}

bool tok_regex_find_all(const tok_regex& re, const std::string& text,
                        std::vector<std::pair<size_t, size_t>>* matches) {
  matches->clear();
  const pcre2_code* code = static_cast<const pcre2_code*>(re.code.get());
  pcre2_match_data* md = pcre2_match_data_create_from_pattern(code, nullptr);
  if (!md) return false;
  PCRE2_SPTR subject = reinterpret_cast<PCRE2_SPTR>(text.data());
  size_t start = 0;
  bool ok = true;
  while (start <= text.size()) {
    // NO_UTF_CHECK: the caller passes sanitized text, and the check would cost O(n) per match.
    int rc = pcre2_match(code, subject, text.size(), start, PCRE2_NO_UTF_CHECK, md, nullptr);
    if (rc == PCRE2_ERROR_NOMATCH) break;
    if (rc < 0) { ok = false; break; }
    PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md);
    size_t b = ov[0], e = ov[1];
    if (e > b) { matches->emplace_back(b, e); start = e; continue; }
    // An empty match yields no piece; step one character so the scan moves on.
    if (b >= text.size()) break;
    size_t step = 1;
    while (b + step < text.size() && (static_cast<unsigned char>(text[b + step]) & 0xC0) == 0x80) ++step;
    start = b + step;
  }
  pcre2_match_data_free(md);
  return ok;
}
