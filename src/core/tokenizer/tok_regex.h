// A compiled Unicode regular expression (PCRE2, UTF + UCP, JIT when the platform has it) for the
// tokenizer's pre-tokenizers, and the one translation their patterns need: `\s` / `\S` rewritten
// to the White_Space set Oniguruma uses (the engine the `tokenizers` library runs), since PCRE2's
// own \s differs on U+0085 and U+180E.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

struct tok_regex {
  std::shared_ptr<void> code;  // pcre2_code_8*, freed by its deleter; null = not compiled
};

// literal: the pattern is a plain string (tokenizer.json's {"String": ...}), not a regex.
bool tok_regex_compile(const std::string& pattern, bool literal, tok_regex* out, std::string* error);

// Every non-overlapping, non-empty match in text (already valid UTF-8), as [begin, end) byte
// offsets, left to right. Returns false if the engine gave up (match limit on a runaway pattern).
bool tok_regex_find_all(const tok_regex& re, const std::string& text,
                        std::vector<std::pair<size_t, size_t>>* matches);

// `\s` -> the Oniguruma White_Space class, `\S` -> its complement (outside brackets only; inside
// a bracket `\S` is left to PCRE2). Escapes and bracket expressions are skipped over intact.
std::string tok_regex_onig_spaces(const std::string& pattern);
