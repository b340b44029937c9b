// tokenizer.json is hostile input: every bad file below must give a clear one-line error naming
// the problem, leave the output untouched, and never crash. Ends with seeded random corruptions
// of a valid file (the run's seed: tests/catch_main.cpp).
#include <random>

#include <catch2/catch.hpp>

#include "core/tokenizer/bpe_tokenizer.h"
#include "tokenizer/tiny_tokenizer.h"

// Loads text that must fail, and returns the error.
static std::string load_error_text(const std::string& text) {
  bpe_tokenizer tok;
  std::string error;
  bool ok = bpe_tokenizer_load(text, &tok, &error);
  INFO(text.substr(0, 200));
  CHECK_FALSE(ok);
  CHECK(tok.model == nullptr);
  CHECK_FALSE(error.empty());
  CHECK(error.find('\n') == std::string::npos);
  return error;
}

static std::string load_error(const nlohmann::json& j) { return load_error_text(j.dump()); }

static nlohmann::json valid() {
  tiny_spec s;
  s.merges = {{"a", "b"}};
  s.added = {tiny_added(300, "<|x|>")};
  return tiny_json(s);
}

using Catch::Matchers::Contains;

TEST_CASE("the valid base file loads", "[tokenizer][hostile]") {
  bpe_tokenizer tok;
  std::string error;
  REQUIRE(bpe_tokenizer_load(valid().dump(), &tok, &error));
  CHECK(bpe_encode(&tok, "ab<|x|>").ids == std::vector<int>{256, 300});
}

TEST_CASE("not JSON, or not an object", "[tokenizer][hostile]") {
  CHECK_THAT(load_error_text(""), Contains("not valid JSON"));
  CHECK_THAT(load_error_text("{\"model\": "), Contains("not valid JSON"));
  CHECK_THAT(load_error_text("{\"model\": {}}}"), Contains("not valid JSON"));
  CHECK_THAT(load_error_text("{\"a\": \"\xFF\"}"), Contains("not valid JSON"));  // bad UTF-8 inside a string
  CHECK_THAT(load_error_text("{\n\"model\": nul\n}"), Contains("line 3, column 0"));  // where the parser stopped
  CHECK_THAT(load_error_text("[]"), Contains("must be a JSON object"));
  CHECK_THAT(load_error_text("42"), Contains("must be a JSON object"));
  CHECK_THAT(load_error_text("{}"), Contains("no 'model' object"));
  CHECK_THAT(load_error_text(std::string(64, '[') + std::string(64, ']')), Contains("must be a JSON object"));
}

TEST_CASE("a file inside the size limit whose tree would not be: refused from its text, before parsing", "[tokenizer][hostile]") {
  // 32 Mi '[' then 32 Mi ']': exactly the host's 64 MiB limit. Parsed, its tree took 2.5 GB and
  // aborted the page's worker; counted first, it is refused at once.
  const std::string deep = std::string(32u << 20, '[') + std::string(32u << 20, ']');
  CHECK(load_error_text(deep) == "tokenizer.json nests deeper than 64 levels");
  CHECK(load_error_text(std::string(65, '[') + std::string(65, ']')) == "tokenizer.json nests deeper than 64 levels");
  // Brackets inside strings are text, not nesting.
  nlohmann::json j = valid();
  j["model"]["vocab"][std::string(100, '[')] = 299;
  bpe_tokenizer tok;
  std::string error;
  CHECK(bpe_tokenizer_load(j.dump(), &tok, &error));
  // Flat but endless: more values than any tokenizer has (Qwen3's file holds about 0.6 M), or more
  // object members (each a map node and a key).
  std::string flat = "[0";
  for (int i = 0; i < BPE_JSON_MAX_VALUES; ++i) flat += ",0";
  flat += "]";
  CHECK(load_error_text(flat) == "tokenizer.json holds more than 2097152 JSON values");
  std::string members = "{";
  for (int i = 0; i <= BPE_JSON_MAX_MEMBERS; ++i) members += (i ? ",\"" : "\"") + std::to_string(i) + "\":0";
  members += "}";
  CHECK(load_error_text(members) == "tokenizer.json has more than 524288 object members");
  // Commas inside strings are not values: a vocab entry full of them loads.
  j = valid();
  j["model"]["vocab"][std::string(60000, ',')] = 298;
  CHECK(bpe_tokenizer_load(j.dump(), &tok, &error));
}

TEST_CASE("model types outside byte-level BPE are refused by name", "[tokenizer][hostile]") {
  nlohmann::json j = valid();
  j["model"] = {{"type", "Unigram"}, {"unk_id", 0}, {"vocab", {{"<unk>", 0.0}, {"a", -1.5}}}};
  CHECK_THAT(load_error(j), Contains("model type 'Unigram' is not supported"));
  j["model"] = {{"type", "WordPiece"}, {"unk_token", "[UNK]"}, {"vocab", {{"[UNK]", 0}}}};
  CHECK_THAT(load_error(j), Contains("model type 'WordPiece' is not supported"));
  j["model"] = {{"type", "WordLevel"}, {"vocab", {{"a", 0}}}};
  CHECK_THAT(load_error(j), Contains("'WordLevel'"));
  j["model"] = {{"vocab", {{"a", 0}}}};
  CHECK_THAT(load_error(j), Contains("model type '(none)'"));
  j["model"] = {{"type", 7}};
  CHECK_THAT(load_error(j), Contains("model.type must be a string"));
  j["model"] = "BPE";
  CHECK_THAT(load_error(j), Contains("no 'model' object"));
}

TEST_CASE("BPE that is not byte-level is refused", "[tokenizer][hostile]") {
  nlohmann::json sentencepiece = valid();  // Llama 2 / Mistral style
  sentencepiece["pre_tokenizer"] = nullptr;
  sentencepiece["model"]["byte_fallback"] = true;
  CHECK_THAT(load_error(sentencepiece), Contains("without a ByteLevel pre-tokenizer"));
  nlohmann::json metaspace = valid();
  metaspace["pre_tokenizer"] = {{"type", "Metaspace"}, {"replacement", "\xE2\x96\x81"}};
  CHECK_THAT(load_error(metaspace), Contains("pre_tokenizer 'Metaspace' is not supported"));
  nlohmann::json suffix = valid();
  suffix["model"]["continuing_subword_prefix"] = "##";
  CHECK_THAT(load_error(suffix), Contains("continuing_subword_prefix"));
  nlohmann::json dropout = valid();
  dropout["model"]["dropout"] = 0.1;
  CHECK_THAT(load_error(dropout), Contains("dropout"));
  nlohmann::json lower = valid();
  lower["normalizer"] = {{"type", "Lowercase"}};
  CHECK_THAT(load_error(lower), Contains("normalizer 'Lowercase' is not supported"));
}

TEST_CASE("missing or mistyped fields", "[tokenizer][hostile]") {
  nlohmann::json j = valid();
  j["model"].erase("vocab");
  CHECK_THAT(load_error(j), Contains("model.vocab must be an object"));
  j = valid();
  j["model"]["vocab"] = nlohmann::json::array({"a", "b"});
  CHECK_THAT(load_error(j), Contains("model.vocab must be an object"));
  j = valid();
  j["model"].erase("merges");
  CHECK_THAT(load_error(j), Contains("model.merges must be a list"));
  for (nlohmann::json bad_id : {nlohmann::json(-1), nlohmann::json("7"), nlohmann::json(1.5), nlohmann::json(1e12),
                                nlohmann::json(uint64_t(1) << 63), nlohmann::json(true)}) {
    j = valid();
    j["model"]["vocab"]["a"] = bad_id;
    CHECK_THAT(load_error(j), Contains("model.vocab['a'] must be an id"));
  }
  j = valid();
  j["added_tokens"] = "none";
  CHECK_THAT(load_error(j), Contains("added_tokens must be a list"));
  j = valid();
  j["added_tokens"][0]["content"] = 5;
  CHECK_THAT(load_error(j), Contains("added_tokens[0].content"));
  j = valid();
  j["added_tokens"][0]["content"] = "";
  CHECK_THAT(load_error(j), Contains("added_tokens[0].content"));
  j = valid();
  j["added_tokens"][0].erase("id");
  CHECK_THAT(load_error(j), Contains("added_tokens[0].id"));
  j = valid();
  j["added_tokens"][0]["special"] = "yes";
  CHECK_THAT(load_error(j), Contains("added_tokens[0].special must be true or false"));
  j = valid();
  j["pre_tokenizer"]["use_regex"] = 1;
  CHECK_THAT(load_error(j), Contains("use_regex must be true or false"));
  j = valid();
  j["pre_tokenizer"] = {{"kind", "ByteLevel"}};
  CHECK_THAT(load_error(j), Contains("pre_tokenizer has no type"));
  j = valid();
  j["pre_tokenizer"] = {{"type", "Sequence"}, {"pretokenizers", "ByteLevel"}};
  CHECK_THAT(load_error(j), Contains("needs a 'pretokenizers' list"));
}

TEST_CASE("merges that name unknown tokens or have the wrong shape", "[tokenizer][hostile]") {
  nlohmann::json j = valid();
  j["model"]["merges"] = nlohmann::json::array({nlohmann::json::array({"a", "zz"})});
  CHECK_THAT(load_error(j), Contains("model.merges[0] names 'zz', which is not in the vocab"));
  j["model"]["merges"] = {"a b", "q \xE4\xBD\xA0"};
  CHECK_THAT(load_error(j), Contains("model.merges[1] names"));
  j["model"]["merges"] = nlohmann::json::array({nlohmann::json::array({"b", "a"})});  // "ba" is unknown
  CHECK_THAT(load_error(j), Contains("the merged token 'ba' is not in the vocab"));
  for (nlohmann::json bad : {nlohmann::json("ab"), nlohmann::json("a b c"), nlohmann::json({"a"}),
                             nlohmann::json({1, 2}), nlohmann::json({"a", "b", "c"}), nlohmann::json(3)}) {
    j["model"]["merges"] = {bad};
    CHECK_THAT(load_error(j), Contains("model.merges[0] must be \"a b\" or [\"a\", \"b\"]"));
  }
}

TEST_CASE("bad regexes and patterns", "[tokenizer][hostile]") {
  auto with_split = [](const nlohmann::json& pattern) {
    nlohmann::json j = valid();
    j["pre_tokenizer"] = {{"type", "Sequence"}, {"pretokenizers", {
        {{"type", "Split"}, {"pattern", pattern}, {"behavior", "Isolated"}, {"invert", false}},
        {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", false}}}}};
    return j;
  };
  CHECK_THAT(load_error(with_split({{"Regex", "(unclosed"}})), Contains("bad regex /(unclosed/"));
  CHECK_THAT(load_error(with_split({{"Regex", "\\p{NoSuchClass}"}})), Contains("bad regex"));
  CHECK_THAT(load_error(with_split({{"Regex", "a{2,1}"}})), Contains("bad regex"));
  // The file's own text echoed in an error stays on one line (load_error_text checks for '\n').
  CHECK_THAT(load_error(with_split({{"Regex", "(a\nb\tc\x01"}})), Contains("bad regex /(a\\nb\\tc\\x01/"));
  CHECK_THAT(load_error(with_split({{"Regex", "\\p{L}\r("}})), Contains("bad regex /\\p{L}\\r(/"));
  CHECK_THAT(load_error(with_split({{"Regex", ""}})), Contains("empty pattern"));
  CHECK_THAT(load_error(with_split({{"Glob", "*"}})), Contains("needs pattern"));
  CHECK_THAT(load_error(with_split("\\s+")), Contains("needs pattern"));
  nlohmann::json j = with_split({{"Regex", "\\s+"}});
  j["pre_tokenizer"]["pretokenizers"][0]["behavior"] = "Sideways";
  CHECK_THAT(load_error(j), Contains("behavior 'Sideways' is not one of"));
}

TEST_CASE("huge entries and deep nesting", "[tokenizer][hostile]") {
  nlohmann::json j = valid();
  j["model"]["vocab"][std::string(70000, 'a')] = 999;
  CHECK_THAT(load_error(j), Contains("a token of 70000 bytes"));
  j = valid();
  j["model"]["vocab"]["zz"] = 1 << 30;
  CHECK_THAT(load_error(j), Contains("must be an id in [0, 4194304)"));
  j = valid();
  j["model"]["vocab"]["line\none"] = -1;
  CHECK_THAT(load_error(j), Contains("model.vocab['line\\none'] must be an id"));
  j = valid();
  j["added_tokens"][0]["id"] = 1 << 30;
  CHECK_THAT(load_error(j), Contains("added_tokens[0].id"));
  j = valid();
  j["added_tokens"][0]["content"] = std::string(70000, 'x');
  CHECK_THAT(load_error(j), Contains("added_tokens[0].content"));
  nlohmann::json nested = {{"type", "ByteLevel"}};
  for (int i = 0; i < 20; ++i) nested = {{"type", "Sequence"}, {"pretokenizers", {nested}}};
  j = valid();
  j["pre_tokenizer"] = nested;
  CHECK_THAT(load_error(j), Contains("nest too deep"));
  nlohmann::json nested_norm = {{"type", "NFC"}};
  for (int i = 0; i < 20; ++i) nested_norm = {{"type", "Sequence"}, {"normalizers", {nested_norm}}};
  j = valid();
  j["normalizer"] = nested_norm;
  CHECK_THAT(load_error(j), Contains("nest too deep"));
}

TEST_CASE("a tokenizer that never loaded encodes and decodes nothing", "[tokenizer][hostile]") {
  bpe_tokenizer empty;
  CHECK(bpe_encode(&empty, "abc").error == "no tokenizer loaded");
  CHECK(bpe_decode(empty, {1, 2}).empty());
  CHECK(bpe_vocab_size(empty) == 0);
}

// Random byte edits of a valid file: each load must either fail with a message or give a
// tokenizer that encodes and decodes without crashing.
TEST_CASE("random corruptions of a valid file never crash", "[tokenizer][hostile]") {
  const unsigned seed = Catch::rngSeed();  // fresh each run, printed by the main (tests/catch_main.cpp)
  INFO("seed " << seed << " (replay: SWIGLU_TEST_SEED=" << seed << ")");
  tiny_spec s;
  s.merges = {{"a", "b"}, {"ab", "c"}, {" ", "t"}};
  s.added = {tiny_added(300, "<|x|>"), tiny_added(301, "<|y|>", false)};
  s.normalizer = {{"type", "NFC"}};
  s.pre_tokenizer = {{"type", "Sequence"}, {"pretokenizers", {
      {{"type", "Split"}, {"pattern", {{"Regex", "(?i:'s|'t)|\\p{L}+|\\p{N}|\\s+(?!\\S)|\\s+|[^\\s\\p{L}\\p{N}]+"}}},
       {"behavior", "Isolated"}, {"invert", false}},
      {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", false}}}}};
  const std::string base = tiny_json(s).dump();
  std::mt19937 rng(seed);
  const char noise[] = "{}[]\":,0123456789-. \\u0aAz\xC3\xFF";
  int loaded = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::string text = base;
    int edits = 1 + int(rng() % 4);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      size_t at = rng() % text.size();
      switch (rng() % 3) {
        case 0: text[at] = noise[rng() % (sizeof noise - 1)]; break;
        case 1: text.erase(at, 1 + rng() % 8); break;
        default: text.insert(at, 1, noise[rng() % (sizeof noise - 1)]); break;
      }
    }
    bpe_tokenizer tok;
    std::string error;
    if (bpe_tokenizer_load(text, &tok, &error)) {
      ++loaded;
      bpe_encoding enc = bpe_encode(&tok, "abc the <|x|> 今天 it's \xFF 123");
      bpe_decode(tok, enc.ids);
    } else {
      REQUIRE_FALSE(error.empty());
    }
  }
  CHECK(loaded > 0);  // some edits land in harmless places (e.g. inside a string)
}
