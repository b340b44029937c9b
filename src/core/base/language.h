// The page's languages: what the words (strings.inc) come in and what a link's lang= names.
#pragma once

enum lab_lang { LAB_LANG_EN, LAB_LANG_ZH, LAB_LANG_COUNT };
