// The class links' modules (swiglu_text_class_LANG.wasm) print the whole model's views from the
// link's answers (core/views/model_view.cpp links in full); of the gates view only its rows on the
// stream, which is all a class link carries of it. The pack's rows need weights it never has.
#include "core/views/live_view.h"
#include "core/views/model_view.h"

std::string gates_view_text(const lab_state& s, live_session* ls, const live_choice&) {
  if (s.gates_input != LAB_GATES_STREAM) __builtin_trap();  // lab_text: only with a session on the stream
  return gates_stream_view_text(s, ls);
}

// lab_text() takes the page's live_session, whose typed sentence's tokenizer a module never opens:
// its destructor runs only on a null pointer here, so it is not linked (the tokenizer's code is large).
#include "core/checkpoint_remote/sentence_tokenizer.h"
sentence_tokenizer::~sentence_tokenizer() { __builtin_trap(); }
