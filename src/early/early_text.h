// The tiny module's entry: the view's text for a link, before the page's main wasm has
// arrived. Built alone into swiglu_text_en.wasm / swiglu_text_zh.wasm (one language each) from the
// core's URL, text, string and number code and its pack manifest reader (no ImGui, GL, fonts,
// kernels or weights), and natively into the tests.
#pragma once

#include <cstddef>

extern "C" {
// The mirror text (lab_text_at_open; for a link with the whole model's answers, ans=, in the module
// built for those and in the tests, lab_text_at_open_carried) for a URL fragment ("#v=1&view=hand&lang=zh", with or
// without '#'), as NUL-terminated UTF-8 owned by the module (valid until the next call). "" when
// the link's language is not the one this module was built with (the page then waits for the app).
const char* early_text_for_link(const char* fragment);
// The same with the default pack's manifest (its bytes, as the page's one request got them): for
// the gates view, also the rows counted from it. A manifest that does not read is ignored, as it is
// by swiglu_text_LANG.wasm, which has no json reader (swiglu_text_gates_LANG.wasm has).
const char* early_text_with_manifest(const char* fragment, const char* manifest, size_t bytes);
// The same with the built-in model's precomputed answers (models/synthetic/answers.txt, its bytes):
// for the rule book, the flow and the gates view on the stream on the built-in model, also the
// precomputed answer's rows (lab_text_at_open_precomputed). Only swiglu_text_class_LANG.wasm has it.
const char* early_text_with_answers(const char* fragment, const char* answers, size_t bytes);
// The histograms' SVG markup of the last call ("" when it had none), owned like the text.
const char* early_svg();
// This browser's quiz record (localStorage "swiglu-lab.quiz"), before the text: the quiz view's
// mirror prints it.
void early_set_quiz_record(const char* stored);
}
