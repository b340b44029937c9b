// The built-in model's answers to the lessons' first questions, computed when the site is built
// (swiglu answers, cmake/native.cmake) and served beside the model as models/synthetic/answers.txt,
// in the class link's format (class_answers.h). A page that opens the rule book, the flow or the
// gates view on the stream shows them at once, marked as precomputed, instead of a wait of seconds
// (a minute on a slow phone) for the model, which loads all the same and replaces them with its own.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/experiments/model_session.h"
#include "core/stream/fetch_seam.h"

#define PRECOMPUTED_ANSWERS_URL MODEL_DEFAULT_LOCATION "answers.txt"
#define PRECOMPUTED_ANSWERS_MAX_BYTES 65536

// The links whose questions the build answers: the rule book's first question (one answer serves
// the flow too: model_session_question) and the gates view's on the stream, each in its defaults.
std::vector<std::string> precomputed_answer_links();

// The file's text read as a link's ans= for the built-in model: false (and *out untouched) when it
// does not read, is for another model, or carries no answer.
bool precomputed_answers_read(const std::string& text, class_answers* out);

// Fetches the file once, when a whole-model view on the built-in model first opens, and hands its
// answers to that view's session. A file that is missing or does not read is not used: the views
// wait for the model as they would without it.
struct precomputed_fetch : fetch_sink {
  ~precomputed_fetch() override;
  void frame(model_session* ms, const lab_state& s, fetch_client* client);
  void on_fetch_progress(uint32_t, uint64_t, double) override {}
  void on_fetch_response(uint32_t id, const fetch_response& r, double now) override;
  void on_store_failed(const std::string&) override {}
  bool pending() const { return id_ != 0; }  // the file asked for, not yet in

 private:
  fetch_client* client_ = nullptr;
  uint32_t id_ = 0;
  bool answered_ = false;
  class_answers answers_;
};
