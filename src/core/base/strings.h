// Every user-facing string of the page, in one table (strings.inc), English and Chinese.
// Panels and the text mirror ask tr(STR_...) and never hold text of their own, so a wording
// change or a new language touches only strings.inc. Strings with %s / %d are printf formats
// whose arguments come in the same order in every language.
#pragma once

#include "core/base/language.h"

enum str_id {
#define S(id, en, zh) id,
#define PAGE(id, en, zh)  // the page shell's (tools/page_shell.mjs), not the program's
#include "core/base/strings.inc"
#undef PAGE
#undef S
  STR_COUNT
};

void strings_set_lang(lab_lang lang);
lab_lang strings_lang();
// The words in `lang` while it lives, the page's own language back after: a text printed for a
// link (the mirror, the early text) in the link's language, whatever the page shows.
struct strings_lang_scope {
  explicit strings_lang_scope(lab_lang lang) : saved_(strings_lang()) { strings_set_lang(lang); }
  ~strings_lang_scope() { strings_set_lang(saved_); }
  strings_lang_scope(const strings_lang_scope&) = delete;
  strings_lang_scope& operator=(const strings_lang_scope&) = delete;

 private:
  lab_lang saved_;
};
const char* tr(str_id id);
const char* tr_in(lab_lang lang, str_id id);
