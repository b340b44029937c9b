// The string table (see strings.h).
#include "core/base/strings.h"

#ifndef SWIGLU_STRINGS_ONE_LANG
static const char* const TABLE[STR_COUNT][LAB_LANG_COUNT] = {
#define S(id, en, zh) {en, zh},
#define PAGE(id, en, zh)
#include "core/base/strings.inc"
#undef PAGE
#undef S
};

static lab_lang current = LAB_LANG_EN;

void strings_set_lang(lab_lang lang) { current = lang; }
lab_lang strings_lang() { return current; }
const char* tr(str_id id) { return TABLE[id][current]; }
const char* tr_in(lab_lang lang, str_id id) { return TABLE[id][lang]; }
#else
// One language only (SWIGLU_STRINGS_ONE_LANG = LAB_LANG_EN or LAB_LANG_ZH): the early-text
// module is built once per language (src/early/), so a page fetches only its own language's text.
static const char* const TABLE[STR_COUNT] = {
#define S(id, en, zh) (SWIGLU_STRINGS_ONE_LANG == LAB_LANG_EN ? en : zh),
#define PAGE(id, en, zh)
#include "core/base/strings.inc"
#undef PAGE
#undef S
};

void strings_set_lang(lab_lang) {}
lab_lang strings_lang() { return SWIGLU_STRINGS_ONE_LANG; }
const char* tr(str_id id) { return TABLE[id]; }
const char* tr_in(lab_lang, str_id id) { return TABLE[id]; }
#endif
