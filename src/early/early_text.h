// The tiny module's entry (issue 16): the view's text for a link, before the page's main wasm has
// arrived. Built alone into swiglu_text_en.wasm / swiglu_text_zh.wasm (one language each) from the
// core's URL, text, string and number code (no ImGui, GL, fonts, kernels or weights), and
// natively into the tests.
#pragma once

extern "C" {
// The mirror text (lab_text_at_open) for a URL fragment ("#v=1&view=hand&lang=zh", with or
// without '#'), as NUL-terminated UTF-8 owned by the module (valid until the next call). "" when
// the link's language is not the one this module was built with (the page then waits for the app).
const char* early_text_for_link(const char* fragment);
}
