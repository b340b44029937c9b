// A sentence through a checkpoint's own tokenizer.json (see sentence_tokenizer.h).
#include "core/checkpoint_remote/sentence_tokenizer.h"

#include "core/base/number_format.h"
#include "core/tokenizer/bpe_tokenizer.h"  // its limits, which the words name

sentence_tokenizer::sentence_tokenizer(fetch_client* client, tokenizer_service* service, const model_location& where)
    : client_(client), service_(service), where_(where) {}

sentence_tokenizer::~sentence_tokenizer() {
  if (client_) client_->forget_sink(this);
}

void sentence_tokenizer::fail(sentence_failure f, stream_error e) {
  state_ = SENTENCE_FAILED;
  failure_ = f;
  error_ = e;
  job_ = 0;
}

void sentence_tokenizer::request(const std::string& text, size_t max_tokens) {
  text_ = text;
  max_tokens_ = max_tokens;
  answer_ = tokenize_answer();
  failure_ = SENTENCE_OK;
  error_ = stream_error();
  job_ = 0;  // a late answer to an older sentence is dropped
  if (!service_) return fail(SENTENCE_NO_SERVICE, stream_error());
  if (fetch_id_) {  // the file is on its way: tokenize when it is in
    state_ = SENTENCE_FETCHING;
    return;
  }
  if (service_->tokenizer_known(file_url())) return start_tokenizing(nullptr, 0);
  state_ = SENTENCE_FETCHING;
  fetch_request rq;
  rq.url = file_url();
  rq.max_bytes = SENTENCE_TOKENIZER_MAX_BYTES;  // a 1 GiB "tokenizer" is stopped at its limit as it comes
  fetch_id_ = client_->fetch_start(this, rq);
}

void sentence_tokenizer::on_fetch_response(uint32_t id, const fetch_response& r, double) {
  if (id != fetch_id_) return;
  fetch_id_ = 0;
  bytes_fetched_ += r.n;
  stream_error got;
  const sentence_failure f = tokenizer_file_answer(r, SENTENCE_TOKENIZER_MAX_BYTES, &got);
  if (f != SENTENCE_OK) return fail(f, got);
  // Handed over from the fetch's own buffer: this object keeps no copy (a 64 MiB file would be
  // two in the page's heap, which never shrinks).
  if (state_ == SENTENCE_FETCHING) start_tokenizing((const char*)r.body, r.n);
}

void sentence_tokenizer::start_tokenizing(const char* json, size_t json_bytes) {
  state_ = SENTENCE_TOKENIZING;
  job_ = service_->tokenize_start(file_url(), json, json_bytes, text_);
}

void sentence_tokenizer::pump() {
  if (state_ != SENTENCE_TOKENIZING || !job_) return;
  tokenize_answer a;
  if (!service_->tokenize_poll(job_, &a)) return;
  job_ = 0;
  stream_error e;
  e.detail = a.error;
  if (a.file_needed) return request(text_, max_tokens_);  // fetched again, and handed over with its bytes
  if (a.module_failed) return fail(SENTENCE_MODULE, e);
  // A refused file is fetched again by a later request (the host may have fixed it).
  if (!a.error.empty()) return fail(SENTENCE_FILE_UNREADABLE, e);
  if (a.ids.empty() || a.ids.size() > max_tokens_ || a.pieces.size() != a.ids.size()) {
    e.detail = std::to_string(a.ids.size());
    return fail(SENTENCE_TOO_LONG, e);
  }
  answer_ = a;
  state_ = SENTENCE_DONE;
}

// The part of tokenizer.json a tokenizer's reason is about (its words start with it): a JSON key,
// the same in every language. "" for JSON that does not parse.
static std::string tokenizer_reason_part(const std::string& words) {
  static const char* const kParts[][2] = {
      {"not valid JSON", ""},           {"normalizer", "normalizer"},     {"pre_tokenizer", "pre_tokenizer"},
      {"model.vocab", "model.vocab"},   {"model.merges", "model.merges"}, {"added_tokens", "added_tokens"},
      {"bad regex", "pre_tokenizer"},   {"decoder", "decoder"},
  };
  for (const auto& p : kParts)
    if (words.rfind(p[0], 0) == 0) return p[1];
  return "model";  // its type, dropout, or the file's shape around it
}

sentence_failure tokenizer_file_answer(const fetch_response& r, uint64_t max_bytes, stream_error* got) {
  *got = stream_error();
  if (r.status == 404) return *got = stream_error_from_status(404, ""), SENTENCE_FILE_MISSING;
  if (r.status != 200) return *got = fetch_answer_error(r), SENTENCE_FILE_FETCH;
  if (r.cut || r.n > max_bytes) return *got = stream_error_sizes(STREAM_TOO_LARGE, r.n, max_bytes), SENTENCE_FILE_FETCH;
  if (r.n == 0 || (r.total_size && r.total_size != r.n))  // cut short: never hand on part of a file
    return *got = stream_error_sizes(STREAM_TRUNCATED, r.n, r.total_size), SENTENCE_FILE_FETCH;
  return SENTENCE_OK;
}

stream_error sentence_failure_error(const sentence_tokenizer& t) { return sentence_failure_error_of(t.failure(), t.error()); }

stream_error sentence_failure_error_of(sentence_failure f, const stream_error& got) {
  stream_error e = stream_error_of(STREAM_NEEDS_IDS);
  switch (f) {
    case SENTENCE_OK: return stream_error();
    case SENTENCE_NO_SERVICE: e.reason = read_error_at("", STR_TOK_NO_SERVICE); break;
    case SENTENCE_FILE_MISSING: e.reason = read_error_at("", STR_TOK_FILE_MISSING); break;
    case SENTENCE_FILE_FETCH:  // the fetch's own fault, with its numbers and words
      e = got;
      e.cause = got.fault;
      e.fault = STREAM_NEEDS_IDS;
      break;
    case SENTENCE_FILE_UNREADABLE: {
      // The file's shape as a whole has words of its own in every language; a part of it is named.
      const std::string& d = got.detail;
      const std::string part = tokenizer_reason_part(d);
      if (d.rfind("tokenizer.json must be a JSON object", 0) == 0) e.reason = read_error_at("", STR_TOK_NOT_OBJECT);
      else if (d.rfind("tokenizer.json nests deeper", 0) == 0) e.reason = read_error_at("", STR_TOK_TOO_DEEP, {std::to_string((int)BPE_JSON_MAX_DEPTH)});
      else if (d.rfind("tokenizer.json holds more than", 0) == 0)
        e.reason = read_error_at("", STR_TOK_TOO_MANY_VALUES, {fmt_count(BPE_JSON_MAX_VALUES)});
      else if (d.rfind("tokenizer.json has more than", 0) == 0)
        e.reason = read_error_at("", STR_TOK_TOO_MANY_MEMBERS, {fmt_count(BPE_JSON_MAX_MEMBERS)});
      else e.reason = part.empty() ? read_error_at("", STR_TOK_NOT_JSON, {d}) : read_error_at("", STR_TOK_FILE_UNREADABLE, {d, part});
      break;
    }
    case SENTENCE_MODULE: e.reason = read_error_at("", STR_TOK_MODULE, {got.detail}); break;
    case SENTENCE_TOO_LONG: e.reason = read_error_at("", STR_TOK_TOO_LONG, {got.detail, std::to_string((int)SENTENCE_MAX_TOKENS)}); break;
  }
  return e;
}

std::string sentence_pieces_join(const std::vector<std::string>& pieces) {
  std::string out;
  for (size_t i = 0; i < pieces.size(); i++) {
    if (i) out += ',';
    for (char ch : pieces[i]) {
      if (ch == ',' || ch == '\\') out += '\\';
      out += ch;
    }
  }
  return out;
}

bool sentence_pieces_split(const std::string& joined, std::vector<std::string>* pieces) {
  std::vector<std::string> out(1);
  for (size_t i = 0; i < joined.size(); i++) {
    if (joined[i] == ',') {
      out.emplace_back();
    } else if (joined[i] == '\\') {
      if (++i == joined.size()) return false;
      out.back() += joined[i];
    } else {
      out.back() += joined[i];
    }
  }
  *pieces = out;
  return true;
}
