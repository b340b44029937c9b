// tokenizer.json -> bpe_model: a pure function over hostile text. Every field is type-checked
// before use (no nlohmann accessor that could throw is reached on a wrong type), and anything
// outside the byte-level BPE family is refused with a message that names it.
#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "core/tokenizer/bpe_model.h"
#include "core/tokenizer/bpe_tokenizer.h"
#include "core/tokenizer/tok_text.h"

using json = nlohmann::json;

// Ids beyond this are refused: the largest real vocabularies are ~260k, and the id table is dense.
#define BPE_MAX_ID (1 << 22)
// A vocab or added token longer than this is not text a tokenizer would hold.
#define BPE_MAX_TOKEN_BYTES 65536
// Sequences inside Sequences: real files nest one level.
#define BPE_MAX_NESTING 8

// The GPT-2 pattern ByteLevel uses when use_regex is true (the `tokenizers` library's).
static const char kGpt2Pattern[] =
    "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

// [SECTION] JSON access that never throws

// Captures the parser's message so "not JSON" says where, without exceptions being thrown.
struct json_error_capture : nlohmann::detail::json_sax_dom_parser<json> {
  std::string message;
  explicit json_error_capture(json& j) : json_sax_dom_parser(j, false) {}
  template <class E>
  bool parse_error(std::size_t pos, const std::string& token, const E& ex) {
    message = ex.what();
    size_t cut = message.find("] ");
    if (message.rfind("[json.exception", 0) == 0 && cut != std::string::npos) message.erase(0, cut + 2);
    return json_sax_dom_parser::parse_error(pos, token, ex);
  }
};

static const json* json_field(const json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  return it == obj.end() || it->is_null() ? nullptr : &*it;
}

static bool json_read_bool(const json& obj, const char* key, bool fallback, bool* out, const std::string& where,
                           std::string* error) {
  const json* v = json_field(obj, key);
  if (!v) { *out = fallback; return true; }
  if (!v->is_boolean()) { *error = where + "." + key + " must be true or false"; return false; }
  *out = v->get<bool>();
  return true;
}

static bool json_read_id(const json& v, int* out) {
  if (!v.is_number_integer()) return false;
  if (v.is_number_unsigned() ? v.get<uint64_t>() >= BPE_MAX_ID
                             : (v.get<int64_t>() < 0 || v.get<int64_t>() >= BPE_MAX_ID)) return false;
  *out = int(v.get<int64_t>());
  return true;
}

static std::string json_type_text(const json* v) {
  if (!v) return "missing";
  if (v->is_string()) return "'" + v->get<std::string>() + "'";
  return std::string("a ") + v->type_name();
}

// [SECTION] the file's shape, counted before anything is built
// nlohmann builds a node for every value (16 bytes, and a map node of about 80 more per object
// member): 64 MiB of "[[[[..." or "[0,0,0,..." would take gigabytes, and the page's worker aborts.
// The text is scanned first, allocating nothing: deeper nesting or more values than a tokenizer
// has is refused before the tree is built.
static bool json_shape_ok(const char* text, size_t n, std::string* error) {
  size_t values = 1, members = 0, depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < n; i++) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') i++;  // an escape: the next character is the string's
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == ',') {
      values++;
    } else if (c == ':' && ++members > BPE_JSON_MAX_MEMBERS) {  // a member's map node and key cost more than a value
      *error = "tokenizer.json has more than " + std::to_string(BPE_JSON_MAX_MEMBERS) + " object members";
      return false;
    } else if (c == '[' || c == '{') {
      values++;
      if (++depth > BPE_JSON_MAX_DEPTH) {
        *error = "tokenizer.json nests deeper than " + std::to_string(BPE_JSON_MAX_DEPTH) + " levels";
        return false;
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      depth--;
    }
    if (values > BPE_JSON_MAX_VALUES) {
      *error = "tokenizer.json holds more than " + std::to_string(BPE_JSON_MAX_VALUES) + " JSON values";
      return false;
    }
  }
  return true;
}

// [SECTION] normalizer and pre-tokenizer

static bool load_normalizer(const json& n, int depth, bpe_model* m, std::string* error) {
  if (n.is_null()) return true;
  const json* type = json_field(n, "type");
  if (!type || !type->is_string()) { *error = "normalizer has no type"; return false; }
  std::string t = type->get<std::string>();
  if (t == "NFC") m->normalizers.push_back(BPE_NORM_NFC);
  else if (t == "NFD") m->normalizers.push_back(BPE_NORM_NFD);
  else if (t == "NFKC") m->normalizers.push_back(BPE_NORM_NFKC);
  else if (t == "NFKD") m->normalizers.push_back(BPE_NORM_NFKD);
  else if (t == "Sequence") {
    const json* list = json_field(n, "normalizers");
    if (!list || !list->is_array()) { *error = "normalizer Sequence needs a 'normalizers' list"; return false; }
    if (depth >= BPE_MAX_NESTING) { *error = "normalizer Sequences nest too deep"; return false; }
    for (const json& item : *list)
      if (!load_normalizer(item, depth + 1, m, error)) return false;
  } else {
    *error = "normalizer '" + t + "' is not supported (NFC, NFD, NFKC, NFKD, Sequence and null are)";
    return false;
  }
  return true;
}

static bool load_split(const json& p, bpe_pretok_step* step, std::string* error) {
  const json* pattern = json_field(p, "pattern");
  const json* regex = pattern ? json_field(*pattern, "Regex") : nullptr;
  const json* literal = pattern ? json_field(*pattern, "String") : nullptr;
  const json* src = regex ? regex : literal;
  if (!src || !src->is_string()) {
    *error = "pre_tokenizer Split needs pattern {\"Regex\": ...} or {\"String\": ...}";
    return false;
  }
  if (src->get<std::string>().empty()) { *error = "pre_tokenizer Split has an empty pattern"; return false; }
  if (!tok_regex_compile(src->get<std::string>(), literal != nullptr, &step->regex, error)) {
    *error = "pre_tokenizer Split: " + *error;
    return false;
  }
  static const struct { const char* name; bpe_split_behavior b; } behaviors[] = {
      {"Isolated", BPE_SPLIT_ISOLATED}, {"Removed", BPE_SPLIT_REMOVED},
      {"MergedWithPrevious", BPE_SPLIT_MERGED_WITH_PREVIOUS}, {"MergedWithNext", BPE_SPLIT_MERGED_WITH_NEXT},
      {"Contiguous", BPE_SPLIT_CONTIGUOUS}};
  const json* behavior = json_field(p, "behavior");
  bool known = false;
  for (const auto& b : behaviors)
    if (behavior && behavior->is_string() && behavior->get<std::string>() == b.name) { step->behavior = b.b; known = true; }
  if (!known) { *error = "pre_tokenizer Split: behavior " + json_type_text(behavior) + " is not one of Isolated, Removed, MergedWithPrevious, MergedWithNext, Contiguous"; return false; }
  return json_read_bool(p, "invert", false, &step->invert, "pre_tokenizer Split", error);
}

static bool load_pretokenizer(const json& p, int depth, bpe_model* m, bool* byte_level, std::string* error) {
  if (p.is_null()) return true;
  const json* type = json_field(p, "type");
  if (!type || !type->is_string()) { *error = "pre_tokenizer has no type"; return false; }
  std::string t = type->get<std::string>();
  bpe_pretok_step step;
  if (t == "Split") {
    if (!load_split(p, &step, error)) return false;
  } else if (t == "ByteLevel") {
    if (!json_read_bool(p, "add_prefix_space", true, &step.add_prefix_space, "pre_tokenizer ByteLevel", error) ||
        !json_read_bool(p, "use_regex", true, &step.use_regex, "pre_tokenizer ByteLevel", error))
      return false;
    if (step.use_regex && !tok_regex_compile(kGpt2Pattern, false, &step.regex, error)) return false;
    *byte_level = true;
  } else if (t == "Digits") {
    bool individual = false;
    if (!json_read_bool(p, "individual_digits", false, &individual, "pre_tokenizer Digits", error)) return false;
    // The library's Digits splits on char::is_numeric: every Nd, Nl and No character, not just 0-9.
    if (!tok_regex_compile("\\p{N}", false, &step.regex, error)) return false;
    step.behavior = individual ? BPE_SPLIT_ISOLATED : BPE_SPLIT_CONTIGUOUS;
  } else if (t == "Sequence") {
    const json* list = json_field(p, "pretokenizers");
    if (!list || !list->is_array()) { *error = "pre_tokenizer Sequence needs a 'pretokenizers' list"; return false; }
    if (depth >= BPE_MAX_NESTING) { *error = "pre_tokenizer Sequences nest too deep"; return false; }
    for (const json& item : *list)
      if (!load_pretokenizer(item, depth + 1, m, byte_level, error)) return false;
    return true;
  } else {
    *error = "pre_tokenizer '" + t + "' is not supported (Split, ByteLevel, Digits and Sequence are)";
    return false;
  }
  m->pretok.push_back(std::move(step));
  return true;
}

// [SECTION] model: vocab, merges, added tokens

static bool load_vocab(const json& model, bpe_model* m, int* max_id, std::string* error) {
  const json* vocab = json_field(model, "vocab");
  if (!vocab || !vocab->is_object()) { *error = "model.vocab must be an object of token -> id"; return false; }
  m->vocab.reserve(vocab->size());
  for (auto it = vocab->begin(); it != vocab->end(); ++it) {
    int id;
    if (!json_read_id(it.value(), &id)) {
      *error = "model.vocab['" + it.key().substr(0, 64) + "'] must be an id in [0, " + std::to_string(BPE_MAX_ID) + ")";
      return false;
    }
    if (it.key().empty() || it.key().size() > BPE_MAX_TOKEN_BYTES) {
      *error = "model.vocab has a token of " + std::to_string(it.key().size()) + " bytes (id " + std::to_string(id) + ")";
      return false;
    }
    m->vocab.emplace(it.key(), id);
    *max_id = std::max(*max_id, id);
  }
  return true;
}

static bool merge_sides(const json& item, std::string* a, std::string* b) {
  if (item.is_string()) {  // the older "a b" form: token text never holds a space in byte-level BPE
    const std::string& s = item.get_ref<const std::string&>();
    size_t sp = s.find(' ');
    if (sp == std::string::npos || s.find(' ', sp + 1) != std::string::npos) return false;
    a->assign(s, 0, sp);
    b->assign(s, sp + 1, std::string::npos);
    return true;
  }
  if (item.is_array() && item.size() == 2 && item[0].is_string() && item[1].is_string()) {
    *a = item[0].get_ref<const std::string&>();
    *b = item[1].get_ref<const std::string&>();
    return true;
  }
  return false;
}

static bool load_merges(const json& model, bpe_model* m, std::string* error) {
  const json* merges = json_field(model, "merges");
  if (!merges || !merges->is_array()) { *error = "model.merges must be a list"; return false; }
  m->merges.reserve(merges->size());
  std::string a, b, ab;
  int rank = 0;
  for (const json& item : *merges) {
    auto where = [rank] { return "model.merges[" + std::to_string(rank) + "]"; };  // built on error only
    if (!merge_sides(item, &a, &b)) { *error = where() + " must be \"a b\" or [\"a\", \"b\"]"; return false; }
    ab.assign(a).append(b);
    auto ia = m->vocab.find(a), ib = m->vocab.find(b), iab = m->vocab.find(ab);
    const std::string* missing = ia == m->vocab.end() ? &a : ib == m->vocab.end() ? &b : nullptr;
    if (missing) { *error = where() + " names '" + missing->substr(0, 64) + "', which is not in the vocab"; return false; }
    if (iab == m->vocab.end()) { *error = where() + ": the merged token '" + ab.substr(0, 64) + "' is not in the vocab"; return false; }
    m->merges.emplace(bpe_pair_key(ia->second, ib->second), bpe_merge{rank, iab->second});  // first rank wins
    ++rank;
  }
  return true;
}

static bool load_added_tokens(const json& root, bpe_model* m, int* max_id, std::string* error) {
  const json* list = json_field(root, "added_tokens");
  if (!list) return true;
  if (!list->is_array()) { *error = "added_tokens must be a list"; return false; }
  for (size_t i = 0; i < list->size(); ++i) {
    const json& t = (*list)[i];
    std::string where = "added_tokens[" + std::to_string(i) + "]";
    bpe_added_token a;
    const json* id = json_field(t, "id");
    const json* content = json_field(t, "content");
    if (!id || !json_read_id(*id, &a.id)) { *error = where + ".id must be an id in [0, " + std::to_string(BPE_MAX_ID) + ")"; return false; }
    if (!content || !content->is_string() || content->get_ref<const std::string&>().empty() ||
        content->get_ref<const std::string&>().size() > BPE_MAX_TOKEN_BYTES) {
      *error = where + ".content must be a non-empty string of at most " + std::to_string(BPE_MAX_TOKEN_BYTES) + " bytes";
      return false;
    }
    a.content = content->get<std::string>();
    if (!json_read_bool(t, "special", false, &a.special, where, error) ||
        !json_read_bool(t, "lstrip", false, &a.lstrip, where, error) ||
        !json_read_bool(t, "rstrip", false, &a.rstrip, where, error) ||
        !json_read_bool(t, "single_word", false, &a.single_word, where, error) ||
        !json_read_bool(t, "normalized", !a.special, &a.normalized, where, error))  // the library's default
      return false;
    *max_id = std::max(*max_id, a.id);
    m->added.push_back(std::move(a));
  }
  // Longest first, so the first candidate that matches at a position is the longest one.
  std::stable_sort(m->added.begin(), m->added.end(),
                   [](const bpe_added_token& x, const bpe_added_token& y) { return x.content.size() > y.content.size(); });
  return true;
}

static bool load_model(const json& model, bpe_model* m, std::string* error) {
  if (!model.is_object()) { *error = "tokenizer.json has no 'model' object"; return false; }
  const json* type = json_field(model, "type");
  if (type && !type->is_string()) { *error = "model.type must be a string"; return false; }
  std::string t = type ? type->get<std::string>() : (json_field(model, "merges") ? "BPE" : "(none)");
  if (t != "BPE") {
    *error = "model type '" + t + "' is not supported: only byte-level BPE (Qwen, Llama 3, GPT-2 style) is";
    return false;
  }
  const json* dropout = json_field(model, "dropout");
  if (dropout && !(dropout->is_number() && dropout->get<double>() == 0.0)) {
    *error = "model.dropout must be null or 0: BPE dropout is for training, not for tokenizing a probe";
    return false;
  }
  for (const char* key : {"continuing_subword_prefix", "end_of_word_suffix"}) {
    const json* v = json_field(model, key);
    if (v && !(v->is_string() && v->get_ref<const std::string&>().empty())) {
      *error = std::string("model.") + key + " is set: that is word-suffix BPE, not byte-level BPE";
      return false;
    }
  }
  return json_read_bool(model, "ignore_merges", false, &m->ignore_merges, "model", error);
}

// [SECTION] the whole file

static bool load_tokenizer(const char* text, size_t n, bpe_tokenizer* out, std::string* error) {
  if (!json_shape_ok(text, n, error)) return false;
  json root;
  json_error_capture sax(root);
  if (!json::sax_parse(text, text + n, &sax) || sax.is_errored()) {
    *error = "not valid JSON: " + (sax.message.empty() ? std::string("parse failed") : sax.message);
    return false;
  }
  if (!root.is_object()) { *error = "tokenizer.json must be a JSON object"; return false; }
  auto m = std::make_shared<bpe_model>();
  const json* model = json_field(root, "model");
  if (!model) { *error = "tokenizer.json has no 'model' object"; return false; }
  if (!load_model(*model, m.get(), error)) return false;

  bool byte_level = false;
  const json* norm = json_field(root, "normalizer");
  const json* pre = json_field(root, "pre_tokenizer");
  if ((norm && !load_normalizer(*norm, 0, m.get(), error)) ||
      (pre && !load_pretokenizer(*pre, 0, m.get(), &byte_level, error)))
    return false;
  if (!byte_level) {
    *error = "BPE without a ByteLevel pre-tokenizer (SentencePiece-style BPE) is not supported: only byte-level BPE is";
    return false;
  }

  int max_id = -1;
  if (!load_vocab(*model, m.get(), &max_id, error) || !load_merges(*model, m.get(), error) ||
      !load_added_tokens(root, m.get(), &max_id, error))
    return false;

  m->id_to_token.assign(size_t(max_id + 1), std::string());
  m->id_is_added.assign(size_t(max_id + 1), 0);
  for (const auto& kv : m->vocab)
    if (m->id_to_token[size_t(kv.second)].empty()) m->id_to_token[size_t(kv.second)] = kv.first;
  for (const bpe_added_token& a : m->added) {
    m->id_to_token[size_t(a.id)] = a.content;
    m->id_is_added[size_t(a.id)] = 1;
  }
  for (int b = 0; b < 256; ++b) {
    std::string ch;
    tok_utf8_append(&ch, tok_byte_to_cp(static_cast<unsigned char>(b)));
    auto it = m->vocab.find(ch);
    m->byte_id[b] = it == m->vocab.end() ? -1 : it->second;
  }
  const json* unk = json_field(*model, "unk_token");
  if (unk && unk->is_string()) {
    auto it = m->vocab.find(unk->get<std::string>());
    if (it != m->vocab.end()) m->unk_id = it->second;
  }
  out->model = std::move(m);
  return true;
}

// Errors echo the file's own text (a regex, a vocab key), which may hold a newline: the promise
// is one line, so control characters are written as escapes.
bool bpe_tokenizer_load(const char* json_text, size_t json_bytes, bpe_tokenizer* out, std::string* error) {
  if (load_tokenizer(json_text, json_bytes, out, error)) return true;
  *error = tok_escape_controls(*error);
  return false;
}

bool bpe_tokenizer_load(const std::string& json_text, bpe_tokenizer* out, std::string* error) {
  return bpe_tokenizer_load(json_text.data(), json_text.size(), out, error);
}

int bpe_vocab_size(const bpe_tokenizer& tok) {
  return tok.model ? int(tok.model->id_to_token.size()) : 0;
}
