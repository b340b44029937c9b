// The tokenizer on small hand-made tokenizer.json files (tiny_tokenizer.h): merges by rank, the
// byte-level mapping, added and special tokens, normalizers, pre-tokenizers, decoding, and the
// UTF-8 repair rule. The real Qwen3 file is exercised by tests/tokenizer/compare.mjs.
#include <catch2/catch.hpp>

#include "core/tokenizer/bpe_tokenizer.h"
#include "core/tokenizer/tok_regex.h"
#include "core/tokenizer/tok_text.h"
#include "tokenizer/tiny_tokenizer.h"

using ids_t = std::vector<int>;

static bpe_tokenizer tiny_load(const tiny_spec& spec) {
  bpe_tokenizer tok;
  std::string error;
  bool ok = bpe_tokenizer_load(tiny_json(spec).dump(), &tok, &error);
  INFO(error);
  REQUIRE(ok);
  return tok;
}

static ids_t tiny_encode(bpe_tokenizer* tok, const std::string& text) {
  bpe_encoding e = bpe_encode(tok, text);
  REQUIRE(e.error.empty());
  REQUIRE(e.pieces.size() == e.ids.size());
  return e.ids;
}

static int b(char c) { return static_cast<unsigned char>(c); }  // a byte token's id

// [SECTION] merges

TEST_CASE("merges apply by rank, lowest first", "[tokenizer]") {
  tiny_spec ab_first;
  ab_first.merges = {{"a", "b"}, {"b", "c"}};
  bpe_tokenizer t1 = tiny_load(ab_first);
  CHECK(tiny_encode(&t1, "abc") == ids_t{tiny_merge_id(0), b('c')});

  tiny_spec bc_first;
  bc_first.merges = {{"b", "c"}, {"a", "b"}};
  bpe_tokenizer t2 = tiny_load(bc_first);
  CHECK(tiny_encode(&t2, "abc") == ids_t{b('a'), tiny_merge_id(0)});
}

TEST_CASE("merges chain into longer tokens and tie to the leftmost pair", "[tokenizer]") {
  tiny_spec s;
  s.merges = {{" ", "t"}, {"h", "e"}, {" t", "he"}, {"a", "a"}};
  bpe_tokenizer tok = tiny_load(s);
  CHECK(tiny_encode(&tok, " the") == ids_t{tiny_merge_id(2)});
  CHECK(tiny_encode(&tok, " then") == ids_t{tiny_merge_id(2), b('n')});
  CHECK(tiny_encode(&tok, "aaa") == ids_t{tiny_merge_id(3), b('a')});
  CHECK(tiny_encode(&tok, "aaaa") == ids_t{tiny_merge_id(3), tiny_merge_id(3)});
}

TEST_CASE("merges written as \"a b\" strings equal merges written as pairs", "[tokenizer]") {
  tiny_spec pairs;
  pairs.merges = {{" ", "t"}, {"h", "e"}, {" t", "he"}};
  tiny_spec strings = pairs;
  strings.merges_as_strings = true;
  bpe_tokenizer t1 = tiny_load(pairs), t2 = tiny_load(strings);
  for (const char* text : {" the", "the then", "hehe t"}) CHECK(tiny_encode(&t1, text) == tiny_encode(&t2, text));
  CHECK(tiny_encode(&t2, " the") == ids_t{tiny_merge_id(2)});
}

TEST_CASE("ignore_merges takes a whole pre-token found in the vocab (Llama 3)", "[tokenizer]") {
  tiny_spec s;
  s.extra_vocab = {"xyz"};
  bpe_tokenizer plain = tiny_load(s);
  CHECK(tiny_encode(&plain, "xyz") == ids_t{b('x'), b('y'), b('z')});
  s.ignore_merges = true;
  bpe_tokenizer ignoring = tiny_load(s);
  CHECK(tiny_encode(&ignoring, "xyz") == ids_t{256});
  CHECK(tiny_encode(&ignoring, "xy") == ids_t{b('x'), b('y')});
}

// [SECTION] byte-level mapping

TEST_CASE("GPT-2's byte alphabet: printable bytes stand for themselves, the rest from U+0100", "[tokenizer]") {
  CHECK(tok_byte_to_cp('a') == 'a');
  CHECK(tok_byte_to_cp('!') == '!');
  CHECK(tok_byte_to_cp(0) == 0x100);
  CHECK(tok_byte_to_cp(' ') == 0x120);   // Ġ
  CHECK(tok_byte_to_cp('\n') == 0x10A);  // Ċ
  CHECK(tok_byte_to_cp(0x7F) == 0x121);
  CHECK(tok_byte_to_cp(0xAD) == 0x143);  // the soft hyphen is not printable
  CHECK(tok_byte_to_cp(0xA9) == 0xA9);
  for (int byte = 0; byte < 256; ++byte) CHECK(tok_cp_to_byte(tok_byte_to_cp(static_cast<unsigned char>(byte))) == byte);
  CHECK(tok_cp_to_byte(0x144) == -1);
  CHECK(tok_cp_to_byte(0x4E2D) == -1);
}

TEST_CASE("text with no merges falls back to one token per UTF-8 byte", "[tokenizer]") {
  bpe_tokenizer tok = tiny_load(tiny_spec{});
  CHECK(tiny_encode(&tok, "é") == ids_t{0xC3, 0xA9});
  CHECK(tiny_encode(&tok, "今") == ids_t{0xE4, 0xBB, 0x8A});
  CHECK(tiny_encode(&tok, "😀") == ids_t{0xF0, 0x9F, 0x98, 0x80});
  CHECK(tiny_encode(&tok, "a\nb") == ids_t{'a', '\n', 'b'});
  CHECK(tiny_encode(&tok, std::string("\0x", 2)) == ids_t{0, 'x'});
  CHECK(tiny_encode(&tok, "").empty());
}

TEST_CASE("invalid UTF-8 becomes U+FFFD first, one per maximal invalid subpart", "[tokenizer]") {
  CHECK(tok_utf8_sanitize("a\xFF" "b") == "a\xEF\xBF\xBD" "b");
  CHECK(tok_utf8_sanitize("\xE4\xBD") == "\xEF\xBF\xBD");                 // truncated: one
  CHECK(tok_utf8_sanitize("\xF0\x9F\x98") == "\xEF\xBF\xBD");             // truncated: one
  CHECK(tok_utf8_sanitize("\xED\xA0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate: three
  CHECK(tok_utf8_sanitize("\xC0\xAF") == "\xEF\xBF\xBD\xEF\xBF\xBD");     // overlong: two
  CHECK(tok_utf8_sanitize("\xE4\xBD\xA0\xFF") == "\xE4\xBD\xA0\xEF\xBF\xBD");
  CHECK(tok_utf8_sanitize("ok 今天") == "ok 今天");
  bpe_tokenizer tok = tiny_load(tiny_spec{});
  CHECK(tiny_encode(&tok, "a\xFF") == ids_t{'a', 0xEF, 0xBF, 0xBD});
  CHECK(bpe_decode(tok, tiny_encode(&tok, "a\xFF")) == "a\xEF\xBF\xBD");
}

// [SECTION] added and special tokens

TEST_CASE("added tokens are matched before the model, longest first", "[tokenizer]") {
  tiny_spec s;
  s.merges = {{"<", "|"}};
  s.added = {tiny_added(300, "<|x|>"), tiny_added(301, "<|xy|>"), tiny_added(302, "hello", false)};
  bpe_tokenizer tok = tiny_load(s);
  CHECK(tiny_encode(&tok, "<|x|>") == ids_t{300});
  CHECK(tiny_encode(&tok, "a<|xy|>b") == ids_t{'a', 301, 'b'});
  CHECK(tiny_encode(&tok, "<|x|><|x|>") == ids_t{300, 300});
  CHECK(tiny_encode(&tok, "<|x") == ids_t{tiny_merge_id(0), 'x'});
  CHECK(tiny_encode(&tok, "say hello") == ids_t{'s', 'a', 'y', ' ', 302});
  bpe_encoding e = bpe_encode(&tok, "<|xy|>hello!");
  CHECK(e.pieces == std::vector<std::string>{"<|xy|>", "hello", "!"});
}

TEST_CASE("lstrip and rstrip take the whitespace beside an added token", "[tokenizer]") {
  tiny_spec s;
  nlohmann::json strip = tiny_added(300, "<m>");
  strip["lstrip"] = true;
  strip["rstrip"] = true;
  s.added = {strip};
  bpe_tokenizer tok = tiny_load(s);
  CHECK(tiny_encode(&tok, "a  <m>  b") == ids_t{'a', 300, 'b'});
  CHECK(tiny_encode(&tok, "a\n<m>\u3000b") == ids_t{'a', 300, 'b'});
  s.added = {tiny_added(300, "<m>")};
  bpe_tokenizer kept = tiny_load(s);
  CHECK(tiny_encode(&kept, "a <m> b") == ids_t{'a', ' ', 300, ' ', 'b'});
}

TEST_CASE("a single_word added token matches only as a whole word", "[tokenizer]") {
  tiny_spec s;
  nlohmann::json word = tiny_added(300, "ab", false);
  word["single_word"] = true;
  s.added = {word};
  bpe_tokenizer tok = tiny_load(s);
  CHECK(tiny_encode(&tok, "ab") == ids_t{300});
  CHECK(tiny_encode(&tok, "ab cab") == ids_t{300, ' ', 'c', 'a', 'b'});
  CHECK(tiny_encode(&tok, "abc") == ids_t{'a', 'b', 'c'});
  CHECK(tiny_encode(&tok, "ab_") == ids_t{'a', 'b', '_'});            // '_' is a word character
  CHECK(tiny_encode(&tok, "ab\xC2\xB2") == ids_t{300, 0xC2, 0xB2});    // '²' is not
  CHECK(tiny_encode(&tok, "ab\xCC\x81") == ids_t{'a', 'b', 0xCC, 0x81});  // a combining mark is
}

TEST_CASE("a normalized added token is matched on the normalized text", "[tokenizer]") {
  tiny_spec s;
  s.normalizer = {{"type", "NFC"}};
  nlohmann::json cafe = tiny_added(300, "caf\xC3\xA9", false);  // NFC spelling
  cafe["normalized"] = true;
  s.added = {cafe};
  bpe_tokenizer tok = tiny_load(s);
  CHECK(tiny_encode(&tok, "cafe\xCC\x81") == ids_t{300});  // e + combining acute composes first
}

// [SECTION] normalizers and pre-tokenizers

TEST_CASE("the NFC normalizer composes before the model; none leaves the marks", "[tokenizer]") {
  tiny_spec s;
  s.merges = {{"\xC3", "\xA9"}};  // é's two bytes
  bpe_tokenizer raw = tiny_load(s);
  CHECK(tiny_encode(&raw, "e\xCC\x81") == ids_t{'e', 0xCC, 0x81});
  s.normalizer = {{"type", "NFC"}};
  bpe_tokenizer nfc = tiny_load(s);
  CHECK(tiny_encode(&nfc, "e\xCC\x81") == ids_t{tiny_merge_id(0)});
  CHECK(bpe_decode(nfc, tiny_encode(&nfc, "Cafe\xCC\x81")) == "Caf\xC3\xA9");
  s.normalizer = {{"type", "Sequence"}, {"normalizers", {{{"type", "NFD"}}, {{"type", "NFC"}}}}};
  bpe_tokenizer seq = tiny_load(s);
  CHECK(tiny_encode(&seq, "e\xCC\x81") == ids_t{tiny_merge_id(0)});
  s.normalizer = {{"type", "NFKC"}};
  bpe_tokenizer nfkc = tiny_load(s);
  CHECK(tiny_encode(&nfkc, "\xEF\xAC\x81") == ids_t{'f', 'i'});  // the ﬁ ligature
}

TEST_CASE("ByteLevel's GPT-2 split keeps merges inside a pre-token", "[tokenizer]") {
  tiny_spec s;
  s.merges = {{"b", " "}};
  bpe_tokenizer split = tiny_load(s);
  CHECK(tiny_encode(&split, "ab ab") == ids_t{'a', 'b', ' ', 'a', 'b'});
  s.pre_tokenizer = {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", false}};
  bpe_tokenizer whole = tiny_load(s);
  CHECK(tiny_encode(&whole, "ab ab") == ids_t{'a', tiny_merge_id(0), 'a', 'b'});
  s.pre_tokenizer["add_prefix_space"] = true;
  bpe_tokenizer prefixed = tiny_load(s);
  CHECK(tiny_encode(&prefixed, "hi") == ids_t{' ', 'h', 'i'});
  CHECK(tiny_encode(&prefixed, " hi") == ids_t{' ', 'h', 'i'});
}

// One Split on "-" between pieces that could merge either way shows where the "-" went.
static ids_t split_with(const char* behavior, const std::string& text) {
  tiny_spec s;
  s.merges = {{"a", "-"}, {"-", "b"}, {"-", "-"}};
  s.pre_tokenizer = {{"type", "Sequence"}, {"pretokenizers", {
      {{"type", "Split"}, {"pattern", {{"String", "-"}}}, {"behavior", behavior}, {"invert", false}},
      {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", false}}}}};
  bpe_tokenizer tok = tiny_load(s);
  return tiny_encode(&tok, text);
}

TEST_CASE("Split behaviors: Isolated, Removed, MergedWithPrevious/Next, Contiguous", "[tokenizer]") {
  CHECK(split_with("Isolated", "a-b") == ids_t{'a', '-', 'b'});
  CHECK(split_with("Removed", "a-b") == ids_t{'a', 'b'});
  CHECK(split_with("MergedWithPrevious", "a-b") == ids_t{tiny_merge_id(0), 'b'});
  CHECK(split_with("MergedWithNext", "a-b") == ids_t{'a', tiny_merge_id(1)});
  CHECK(split_with("Contiguous", "a--b") == ids_t{'a', tiny_merge_id(2), 'b'});
  CHECK(split_with("Isolated", "a--b") == ids_t{'a', '-', '-', 'b'});
}

TEST_CASE("Digits splits numbers (any script) one by one or in runs", "[tokenizer]") {
  tiny_spec s;
  s.merges = {{"1", "2"}};
  auto digits = [&](bool individual) {
    s.pre_tokenizer = {{"type", "Sequence"}, {"pretokenizers", {
        {{"type", "Digits"}, {"individual_digits", individual}},
        {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", false}}}}};
    return tiny_load(s);
  };
  bpe_tokenizer one = digits(true), runs = digits(false);
  CHECK(tiny_encode(&one, "x123") == ids_t{'x', '1', '2', '3'});
  CHECK(tiny_encode(&runs, "x123") == ids_t{'x', tiny_merge_id(0), '3'});
  // U+0663 (Arabic-Indic three) is numeric: the two spaces before it stay one piece, so the
  // ByteLevel split cannot give one of them to the digit.
  s.merges = {{" ", " "}};
  bpe_tokenizer arabic = digits(true);
  CHECK(tiny_encode(&arabic, "x  \xD9\xA3") == ids_t{'x', tiny_merge_id(0), 0xD9, 0xA3});
}

TEST_CASE("\\s in patterns means Oniguruma's White_Space (U+0085 yes, U+180E no)", "[tokenizer]") {
  CHECK(tok_regex_onig_spaces("a\\sb") == "a[\\x{9}-\\x{D}\\x{20}\\x{85}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}]b");
  CHECK(tok_regex_onig_spaces("\\\\s") == "\\\\s");  // an escaped backslash, then a plain s
  CHECK(tok_regex_onig_spaces("[^\\s\\p{L}]").rfind("[^\\x{9}-\\x{D}", 0) == 0);
  CHECK(tok_regex_onig_spaces("[]\\s]").find("]\\x{9}") != std::string::npos);
  tok_regex re;
  std::string error;
  REQUIRE(tok_regex_compile("\\s+", false, &re, &error));
  std::vector<std::pair<size_t, size_t>> m;
  REQUIRE(tok_regex_find_all(re, "a\xC2\x85" "b", &m));        // NEL
  CHECK(m == std::vector<std::pair<size_t, size_t>>{{1, 3}});
  REQUIRE(tok_regex_find_all(re, "a\xE1\xA0\x8E" "b", &m));     // MONGOLIAN VOWEL SEPARATOR
  CHECK(m.empty());
  REQUIRE(tok_regex_find_all(re, "a\xE3\x80\x80 b", &m));       // ideographic space
  CHECK(m == std::vector<std::pair<size_t, size_t>>{{1, 5}});
}

TEST_CASE("a pattern that matches the empty string makes no empty pieces and ends", "[tokenizer]") {
  tiny_spec s;
  s.pre_tokenizer = {{"type", "Sequence"}, {"pretokenizers", {
      {{"type", "Split"}, {"pattern", {{"Regex", "x*"}}}, {"behavior", "Isolated"}, {"invert", false}},
      {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", false}}}}};
  bpe_tokenizer tok = tiny_load(s);
  CHECK(tiny_encode(&tok, "axxb今") == ids_t{'a', 'x', 'x', 'b', 0xE4, 0xBB, 0x8A});
}

// [SECTION] decoding

TEST_CASE("decode turns ids back into the text", "[tokenizer]") {
  tiny_spec s;
  s.merges = {{" ", "t"}, {"h", "e"}, {" t", "he"}, {"\xE4", "\xBB"}, {"\xE4\xBB", "\x8A"}};
  s.added = {tiny_added(400, "<|end|>")};
  s.normalizer = {{"type", "NFC"}};
  bpe_tokenizer tok = tiny_load(s);
  for (const char* text : {"the cat", " the 今天 😀 <|end|>x", "", "  \n\t ", "<|end|><|end|>"})
    CHECK(bpe_decode(tok, tiny_encode(&tok, text)) == text);
  CHECK(bpe_decode(tok, {0xE4, 0xBB}) == "\xEF\xBF\xBD");            // half a character
  CHECK(bpe_decode(tok, {0xE4, 400, 0xBB}) == "\xEF\xBF\xBD<|end|>\xEF\xBF\xBD");
  CHECK(bpe_decode(tok, {'a', -1, 99999, 'b'}) == "ab");            // unknown ids are skipped
  bpe_encoding e = bpe_encode(&tok, "今");
  CHECK(e.ids == ids_t{tiny_merge_id(4)});
  CHECK(e.pieces == std::vector<std::string>{"今"});
  CHECK(bpe_vocab_size(tok) == 401);
}

// A character split across tokens (公 in "Hi 公园" with Qwen3's merges) showed
// as U+FFFD in the chips. Each piece now shows its bytes, and only the pieces together make it.
TEST_CASE("a piece that holds part of a character shows its bytes, not U+FFFD", "[tokenizer]") {
  tiny_spec s;
  s.merges = {{"\xE5", "\x85"}};  // 公 is E5 85 AC: two bytes merge, the third stays alone
  bpe_tokenizer tok = tiny_load(s);
  bpe_encoding e = bpe_encode(&tok, "Hi \xE5\x85\xAC");
  REQUIRE(e.ids.size() == 5);
  CHECK(e.pieces == std::vector<std::string>{"H", "i", " ", "<e5 85>", "<ac>"});
  CHECK(bpe_decode(tok, e.ids) == "Hi \xE5\x85\xAC");  // the text itself is whole
  CHECK(bpe_decode_piece(tok, e.ids[3]) == "<e5 85>");
  CHECK(bpe_decode_piece(tok, 'a') == "a");
  CHECK(bpe_decode_piece(tok, -1).empty());
  CHECK(tok_utf8_show_bytes("a\xE4\xBB\xE4\xBB\x8A\xFF") == "a<e4 bb>今<ff>");  // one group per maximal invalid part
  CHECK(tok_utf8_show_bytes("今天") == "今天");
}
