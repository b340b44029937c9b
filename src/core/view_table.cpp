// The view table (see view_table.h).
#include "core/view_table.h"

const char* const LAB_VIEW_NAMES[LAB_VIEW_COUNT] = {"hand", "silu", "budget", "gates", "perm", "weights", "quiz", "glossary"};

const lab_view_info LAB_VIEWS[LAB_VIEW_COUNT] = {
    {LAB_VIEW_HAND, LAB_VIEW_NAMES[LAB_VIEW_HAND], STR_VIEW_HAND, false},
    {LAB_VIEW_SILU, LAB_VIEW_NAMES[LAB_VIEW_SILU], STR_VIEW_SILU, false},
    {LAB_VIEW_BUDGET, LAB_VIEW_NAMES[LAB_VIEW_BUDGET], STR_VIEW_BUDGET, false},
    {LAB_VIEW_GATES, LAB_VIEW_NAMES[LAB_VIEW_GATES], STR_VIEW_GATES, true},
    {LAB_VIEW_PERM, LAB_VIEW_NAMES[LAB_VIEW_PERM], STR_VIEW_PERM, true},
    {LAB_VIEW_WEIGHTS, LAB_VIEW_NAMES[LAB_VIEW_WEIGHTS], STR_VIEW_WEIGHTS, true},
    {LAB_VIEW_QUIZ, LAB_VIEW_NAMES[LAB_VIEW_QUIZ], STR_VIEW_QUIZ, false},
    {LAB_VIEW_GLOSSARY, LAB_VIEW_NAMES[LAB_VIEW_GLOSSARY], STR_VIEW_GLOSSARY, false},
};

const lab_view_info& lab_view_get(lab_view v) { return LAB_VIEWS[v < 0 || v >= LAB_VIEW_COUNT ? 0 : v]; }
