// A sentence -> the token ids and pieces of a checkpoint's own tokenizer.json, for a model= link
// without ids= (the lesson's sentence) and for the sentence a teacher types in the live header.
//
// The tokenizer itself is the platform's (tokenizer_service): the page runs the core's tokenizer
// as a second wasm module in a worker, fetched only when needed (platform/web/tokenize_web.cpp).
// This object fetches tokenizer.json through the fetch seam (whole file, verified: a 200 of the
// length the host announced, at most SENTENCE_TOKENIZER_MAX_BYTES) and hands it over once; the
// service keeps the parsed tokenizer for the session, keyed by the file's URL, so later sentences
// and other objects asking for the same file fetch nothing. The bytes are not cached on disk.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/checkpoint_remote/model_location.h"
#include "core/stream/fetch_seam.h"
#include "core/stream/stream_error.h"

#define SENTENCE_TOKENIZER_FILE "tokenizer.json"
#define SENTENCE_TOKENIZER_MAX_BYTES (64u << 20)  // Qwen3's is 11 MB; Llama 3's 9 MB
#define SENTENCE_MAX_TOKENS 64  // what a link's ids= carries (url_state.cpp)

struct tokenize_answer {
  std::vector<int64_t> ids;
  std::vector<std::string> pieces;
  std::string error;        // the tokenizer refused the file (its words), or the module did not load
  bool module_failed = false;  // error is about loading the module, not about the file
  // The service no longer has the file it was told it had (its worker lost it): fetch it again.
  bool file_needed = false;
};

// The platform's tokenizer: asynchronous (a worker), answers collected by polling each frame.
struct tokenizer_service {
  virtual ~tokenizer_service() = default;
  // The file under `key` was handed over already (parsed, or being parsed: the service answers in
  // order): tokenize_start may pass no bytes.
  virtual bool tokenizer_known(const std::string& key) = 0;
  // `json`: the file's bytes (null when the service has them), read during the call only, so the
  // caller may pass the fetch's own buffer and keep no copy.
  virtual uint32_t tokenize_start(const std::string& key, const char* json, size_t json_bytes, const std::string& text) = 0;
  // True once, when the answer to `id` is in (then *out holds it).
  virtual bool tokenize_poll(uint32_t id, tokenize_answer* out) = 0;
};

enum sentence_state { SENTENCE_IDLE, SENTENCE_FETCHING, SENTENCE_TOKENIZING, SENTENCE_DONE, SENTENCE_FAILED };

// Why it failed (as data: sentence_failure_error; worded by core/views/live_view.h).
enum sentence_failure {
  SENTENCE_OK,
  SENTENCE_NO_SERVICE,     // this build has no tokenizer (the native UI tests)
  SENTENCE_FILE_MISSING,   // tokenizer.json: 404 (error.status)
  SENTENCE_FILE_FETCH,     // tokenizer.json could not be fetched (error says how)
  SENTENCE_FILE_UNREADABLE,  // fetched, but the tokenizer refused it (detail: its words)
  SENTENCE_MODULE,         // the tokenizer module did not load (detail)
  SENTENCE_TOO_LONG,       // more tokens than a link carries (detail: the count)
};

struct sentence_tokenizer final : fetch_sink {
  sentence_tokenizer(fetch_client* client, tokenizer_service* service, const model_location& where);
  ~sentence_tokenizer() override;

  // Tokenizes `text` (a new request replaces one in flight). max_tokens: more is SENTENCE_TOO_LONG.
  void request(const std::string& text, size_t max_tokens);
  void pump();  // collects the service's answer; call once a frame

  sentence_state state() const { return state_; }
  const std::string& text() const { return text_; }
  const tokenize_answer& answer() const { return answer_; }  // when DONE
  sentence_failure failure() const { return failure_; }       // when FAILED
  const stream_error& error() const { return error_; }        // the fetch's fault, or detail
  std::string file_url() const { return model_location_file_url(where_, SENTENCE_TOKENIZER_FILE); }
  uint64_t bytes_fetched() const { return bytes_fetched_; }

  // [SECTION] fetch_sink
  void on_fetch_progress(uint32_t, uint64_t, double) override {}
  void on_fetch_response(uint32_t id, const fetch_response& r, double now) override;
  void on_store_failed(const std::string&) override {}

 private:
  void start_tokenizing(const char* json, size_t json_bytes);
  void fail(sentence_failure f, stream_error e);

  fetch_client* client_;
  tokenizer_service* service_;
  model_location where_;
  sentence_state state_ = SENTENCE_IDLE;
  sentence_failure failure_ = SENTENCE_OK;
  stream_error error_;
  std::string text_;
  size_t max_tokens_ = 0;
  uint32_t fetch_id_ = 0, job_ = 0;
  uint64_t bytes_fetched_ = 0;
  tokenize_answer answer_;
};

// Why a failed sentence has no ids, as data worded by the page in its language: STREAM_NEEDS_IDS
// with the reason (STR_TOK_*), or with the fault fetching tokenizer.json as its cause.
stream_error sentence_failure_error(const sentence_tokenizer& t);
// The same for any reader of tokenizer.json (the whole model's host too): `f` and what it got
// (the fetch's fault, or the tokenizer's words in `got.detail` for SENTENCE_FILE_UNREADABLE).
stream_error sentence_failure_error_of(sentence_failure f, const stream_error& got);
// tokenizer.json's answer: SENTENCE_OK when it is the whole file within `max_bytes` (then it may
// be parsed), else why not (a 404: the checkpoint has none), with the fetch's fault in *got.
sentence_failure tokenizer_file_answer(const fetch_response& r, uint64_t max_bytes, stream_error* got);

// The pieces as the link's pieces= carries them: joined by ',', with ',' and '\\' inside a piece
// escaped by a '\\'. Split fails on a dangling escape.
std::string sentence_pieces_join(const std::vector<std::string>& pieces);
bool sentence_pieces_split(const std::string& joined, std::vector<std::string>* pieces);
