// The whole model's answers in a shared link (ans=): a teacher's page ran the model (1.5 GB for
// Qwen3.5-0.8B, more than a student's phone can take) and the link carries what the rule book,
// the flow and the gates view on the stream print from its answers, a few hundred bytes, so the
// student's page shows the same rows without the model.
//
// The text is base64url of a small versioned binary format (docs/links.md has the byte-level
// table): a version byte, the model's identity and shape, a table of tokens (each id and piece
// written once, a Chinese character in two bytes), then each answer: its question, and of its reply only what the views print, each
// number as the digits the teacher's page printed (a probability's "20.9 %" as 209, a value's six
// decimals as an integer), so that the student's page prints exactly the same text.
//
// Decoding takes hostile input (a link anyone can edit): every count, reference and number is
// checked against the format's bounds and the carried model's shape, and a refusal says why in
// the page's words, naming the key.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/link/lab_state.h"
#include "core/model/model_protocol.h"

// 2: the header carries the shards' ETags' digest beside the revision. A version-1 link still reads.
#define CLASS_ANSWERS_VERSION 2
#define CLASS_ANSWERS_MAX_CHARS LAB_ANSWERS_MAX_CHARS  // the link's ans= (url_state.cpp bounds it too)
#define CLASS_ANSWERS_MAX 16                           // answers in one link

// Which views' numbers an answer carries. A rule-book question without a picked unit is also the
// flow's question (model_session_question), so an answer says which of the two it serves.
enum class_answer_part { CLASS_PART_RULES = 1, CLASS_PART_FLOW = 2, CLASS_PART_GATES = 4 };

struct carried_answer {
  model_question question;
  model_reply reply;
  // CLASS_PART_* the answer carries. 0 when encoding: what its question can serve (the gates view's
  // part for a question with gate layers, the rule book's for a picked unit, else the rule book's
  // and the flow's, when the reply has a flow). Decoded answers say theirs.
  unsigned parts = 0;
};

struct class_answers {
  // The model the answers come from.
  // Its location as in model= ("" for the built-in one). The text carries only its digest (the
  // link holds model= in full): decoded, it is the context's model, whose digest it matched.
  std::string model;
  std::string revision;  // the host's revision, commit or ETag digest ("" when unknown)
  // The shards' ETags' digest (model_status's revision_files) whatever `revision` is: a page that
  // cannot read the Hub's commit still knows the same files. "" when unknown, from a version-1
  // link, or decoded from a link whose revision is that digest (written once).
  std::string revision_files;
  std::string format;    // its weights' format, e.g. "bf16"
  // Its shape, as its status gives it (the status lines print them; the decoder bounds with them).
  std::string name;
  int layers = 0, hidden = 0, intermediate = 0, vocab = 0;
  bool synthetic = false;
  std::vector<carried_answer> answers;
};

// What the link around ans= says: the answers must be for its model=.
struct class_answers_context {
  std::string model;  // the link's model= ("" for the built-in one)
};

enum answers_refusal_code {
  ANSWERS_OK,
  ANSWERS_TOO_LONG,     // more than CLASS_ANSWERS_MAX_CHARS characters
  ANSWERS_ALPHABET,     // a character outside base64url
  ANSWERS_TRUNCATED,    // the bytes end inside a field
  ANSWERS_VERSION,      // a format this page does not know
  ANSWERS_OTHER_MODEL,  // carried for another model than the link's model=
  ANSWERS_TOO_MANY,     // more than CLASS_ANSWERS_MAX answers
  ANSWERS_COUNT,        // counts that disagree (a list against the prompt, the flow against the layers)
  ANSWERS_RANGE,        // a number outside its range or the carried shape (a probability over 100 %)
  ANSWERS_TOKEN,        // a token reference outside the table
  ANSWERS_TEXT,         // a string that is not UTF-8
  ANSWERS_TRAILING,     // bytes after the last answer
};

struct answers_refusal {
  answers_refusal_code code = ANSWERS_OK;
  size_t at = 0;       // the byte of the decoded format where reading stopped (for the tests and the fuzzer)
  unsigned value = 0;  // ANSWERS_VERSION: the version the text says
};

// No answers yet, for the model `st` describes, opened at `model` (model=, "" for the built-in
// one): its name, revision and shape as its status gives them.
class_answers class_answers_for(const model_status& st, const std::string& model);

// The link's text for these answers ("" when none is carried). Answers the views could not draw
// from (a reply with an error, a number that is not finite or too large to print) are left out, as
// are answers past CLASS_ANSWERS_MAX or past CLASS_ANSWERS_MAX_CHARS characters: a student's page
// asks the model for those. `carried`: how many were written.
std::string class_answers_encode(const class_answers& a, size_t* carried = nullptr);

// The answers a link carries, or false with the reason in *why (and *out untouched).
bool class_answers_decode(const std::string& text, const class_answers_context& ctx, class_answers* out, answers_refusal* why);

// The carried answer to exactly this question (model_question's ==, which leaves out its id) that
// carries at least `parts` (CLASS_PART_*; 0: any), or null.
const carried_answer* class_answers_find(const class_answers& a, const model_question& q, unsigned parts = 0);

// Whether the host now serves other weights than the answers were computed on (`now`: the
// checking page's status). Where both pages know the shards' ETags' digest, it decides (other
// files are the same weights only under one commit both read); else any identity both know, the
// commit or tag each read or the digest. So a page that cannot read the Hub's commit agrees with
// a link made where it could (version 2 carries the digest too), and the other way round, and a
// branch or tag whose files moved is another revision.
bool class_answers_other_revision(const class_answers& a, const model_status& now);

// The model's status as the carried identity and shape give it (its name and size, synthetic or
// not; phase ready, no download): what the status lines above the views print on a page that
// shows the link's answers without opening the model.
model_status class_answers_status(const class_answers& a);

// What a view needs of an answer (CLASS_PART_*; 0 for the views that ask the whole model nothing).
unsigned class_answers_view_part(lab_view view);
// What an answer to this question can serve: see carried_answer::parts.
unsigned class_answers_question_parts(const model_question& q);

// The notice for a refusal, in the page's language: "ans: the answers are for another model;
// asking the model instead."
std::string class_answers_refusal_text(const answers_refusal& why);
