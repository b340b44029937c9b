// The string table (see strings.h).
#include "core/strings.h"

static const char* const TABLE[STR_COUNT][LAB_LANG_COUNT] = {
#define S(id, en, zh) {en, zh},
#include "core/strings.inc"
#undef S
};

static lab_lang current = LAB_LANG_EN;

void strings_set_lang(lab_lang lang) { current = lang; }
lab_lang strings_lang() { return current; }
const char* tr(str_id id) { return TABLE[id][current]; }
const char* tr_in(lab_lang lang, str_id id) { return TABLE[id][lang]; }
