// libFuzzer target for the whole model's answers in a link (ans=, core/views/class_answers.h).
//
// The input is the format's bytes (docs/links.md), handed to the decoder as the link carries them,
// base64url, for the built-in model (model= "") or, when that says another model, Qwen3.5-0.8B's; the committed corpus (tests/fuzz/corpus/answers/) starts from real encodings of the
// built-in model's answers (`ANSWERS_CORPUS_DIR=DIR answers_tests "[measure]"` writes them).
// Checked on every input:
//   - a refusal has a reason with its words (in both languages, naming the key) and stops within
//     the bytes;
//   - what decodes is what the views can draw: every reply's position inside its prompt, its picked
//     unit's per-token values no longer than the prompt, its flow one row a carried layer; the
//     views' rows (the rule book, the flow, the gates view's shortcut rows and the histograms' bars)
//     are built from it;
//   - written again, it decodes, and writing that gives the same text (one round to the format's
//     own form).
// Built by tools/fuzz.sh with clang, ASan and UBSan; ctest replays the committed corpus.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/views/gates_figure.h"
#include "core/views/class_answers.h"
#include "core/views/model_view.h"
#include "core/base/strings.h"

static void check(bool ok) {
  if (!ok) __builtin_trap();
}

static std::string b64url(const uint8_t* data, size_t size) {
  static const char* a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < size; i++) {
    acc = (acc << 8) | data[i], bits += 8;
    while (bits >= 6) out += a[(acc >> (bits - 6)) & 63], bits -= 6;
  }
  if (bits > 0) out += a[(acc << (6 - bits)) & 63];
  return out;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = b64url(data, size);
  class_answers a;
  answers_refusal why;
  // The built-in model's links, and those of the Qwen3.5-0.8B estimate's (answers_tests [measure]).
  std::string model = "";
  if (!class_answers_decode(text, {model}, &a, &why) && why.code == ANSWERS_OTHER_MODEL) model = "hf:Qwen/Qwen3.5-0.8B";
  if (!class_answers_decode(text, {model}, &a, &why)) {
    check(why.code != ANSWERS_OK && why.at <= size);
    for (lab_lang lang : {LAB_LANG_EN, LAB_LANG_ZH}) {
      strings_set_lang(lang);
      check(class_answers_refusal_text(why).compare(0, 3, "ans") == 0);
    }
    strings_set_lang(LAB_LANG_EN);
    return 0;
  }
  check(a.layers >= 1 && a.intermediate >= 1 && a.vocab >= 1 && a.answers.size() <= CLASS_ANSWERS_MAX);
  lab_state s = lab_state_default();
  for (const carried_answer& c : a.answers) {
    const model_reply& r = c.reply;
    check(c.parts >= 1 && !r.prompt.empty() && r.position >= 0 && size_t(r.position) < r.prompt.size());
    check(r.picked_per_token.size() <= r.prompt.size() && r.picked_gate.size() <= r.picked_per_token.size());
    check(r.flow.empty() || r.flow.size() == size_t(a.layers));
    for (const token_text& t : r.prompt) check(t.id >= 0 && t.id < a.vocab);
    for (const model_unit_row& u : r.units) check(u.unit.layer >= 0 && u.unit.layer < a.layers && u.unit.unit < a.intermediate);
    // The views' rows, as the panels and the mirror build them.
    s.layer = r.flow.empty() ? -1 : int64_t(r.flow.size()) - 1;
    model_prompt_text(r);
    rules_next_rows(r, !c.question.off.empty());
    rules_rising_rows(r);
    rules_unit_rows(r, s);
    rules_picked_rows(r, s);
    flow_rows(r, s);
    flow_extremes_text(r);
    flow_picked_text(r, s);
    gates_shortcut_rows(r, c.question.threshold);
    for (const gate_row& g : gates_stream_rows(r)) {
      const gates_bars bars = gates_bars_from(g.counts.histogram);
      check(bars.peak >= 1);
    }
    check(class_answers_find(a, c.question, c.parts) != nullptr);
  }
  const std::string again = class_answers_encode(a);
  if (again.empty()) return 0;
  class_answers b;
  check(class_answers_decode(again, {model}, &b, &why));
  check(class_answers_encode(b) == again);
  return 0;
}
