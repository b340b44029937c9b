// The common questions (see faq.h).
#include "core/lesson/faq.h"

const faq_entry FAQ[FAQ_COUNT] = {
    {FAQ_GATE_VS_OUTPUT_GATE, "gate-vs-output-gate", LAB_VIEW_SILU, STR_FAQ_GATE_Q, STR_FAQ_GATE_A},
    {FAQ_WIDEN, "widen", LAB_VIEW_BUDGET, STR_FAQ_WIDEN_Q, STR_FAQ_WIDEN_A},
    {FAQ_MOE, "moe", LAB_VIEW_PERM, STR_FAQ_MOE_Q, STR_FAQ_MOE_A},
};

std::string faq_text(lab_view view, faq_open_set open) {
  std::string out;
  for (const faq_entry& f : FAQ) {
    if (f.view != view || !(open & (1u << f.id))) continue;
    if (out.empty()) out = std::string(tr(STR_FAQ_TITLE)) + "\n";
    out += std::string(tr(f.question)) + "\n" + tr(f.answer) + "\n";
  }
  return out;
}
