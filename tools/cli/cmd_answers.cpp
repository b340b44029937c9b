// swiglu answers: the whole model's answers to links' questions, in the class link's format
// (ans=, class_answers.h), through the same host the page's model worker runs.
//
//   swiglu answers DIR [FRAGMENT ...]
//
// With no fragment: the questions the site precomputes for its built-in model (the rule book's and
// the flow's first question, the gates view's on the stream: precomputed_answers.h); the build
// writes them to models/synthetic/answers.txt. Each fragment is read as a link is (its view, prompt,
// off=, tok=, layer= and unit=, pl=, thr=, htok=). Prints the text and a newline.
// Exit status: 0 ok, 1 a model or question that cannot be answered (the reason printed), 2 bad arguments.
#include <cstdio>
#include <string>
#include <vector>

#include "cli_commands.h"
#include "cli_model.h"
#include "core/experiments/precomputed_answers.h"
#include "core/link/url_state.h"
#include "core/views/view_table.h"
#include "core/views/live_view.h"
#include "core/base/read_error.h"

int cli_answers(int argc, char** argv) {
  if (argc < 1 || argv[0][0] == '-') {
    std::fprintf(stderr, "usage: swiglu answers DIR [FRAGMENT ...]\n");
    return 2;
  }
  std::vector<std::string> links;
  for (int i = 1; i < argc; i++) links.push_back(argv[i]);
  if (links.empty()) links = precomputed_answer_links();
  cli_model m(argv[0]);
  if (!cli_model_load("answers", &m)) return 1;
  const model_status st = m.host.status();
  class_answers a = class_answers_for(st, "");  // the built-in model's answers, read by the page beside it
  // Not the revision: a local directory's identity is not the one the page's host will give.
  a.revision.clear();
  for (const std::string& link : links) {
    const url_decoded d = url_decode(link);
    if (!d.notices.empty() || !lab_view_on_whole_model(d.state)) {
      std::fprintf(stderr, "swiglu answers: %s is not a link to the rule book, the flow or the gates view on the stream\n", link.c_str());
      return 2;
    }
    carried_answer c;
    c.question = model_session_question(d.state, st.layers);
    c.reply = m.host.answer(c.question);
    if (c.reply.error.failed()) {
      const stream_error& e = c.reply.error;
      std::fprintf(stderr, "swiglu answers: %s: %s\n", link.c_str(), e.reason.set() ? read_error_text(e.reason).c_str() : live_fault_text(e).c_str());
      return 1;
    }
    a.answers.push_back(c);
  }
  size_t carried = 0;
  const std::string text = class_answers_encode(a, &carried);
  if (text.empty() || carried < a.answers.size()) {
    std::fprintf(stderr, "swiglu answers: %zu of %zu answers fit the format's bounds\n", carried, a.answers.size());
    return 1;
  }
  std::printf("%s\n", text.c_str());
  return 0;
}
