// The JSON reader every parser of outside files stands on (core/base/json_read.h, cJSON): one value
// per text, whole numbers that a double holds exactly, UTF-8 from escapes, hostile nesting refused
// without a crash, and what the native tools write (nlohmann-json) read back value for value.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <random>

#include "core/base/json_read.h"

static bool parses(const std::string& text) { return json_parse(text) != nullptr; }

static int64_t integer_of(const std::string& text) {
  json_tree t = json_parse(text);
  int64_t v = -777;
  return json_integer(t.get(), &v) ? v : -777;
}

TEST_CASE("json_parse: exactly one value, white space around it") {
  CHECK(parses("{}"));
  CHECK(parses(" \n\t{\"a\": [1, 2]}\r\n  "));
  CHECK_FALSE(parses(""));
  CHECK_FALSE(parses("{} x"));
  CHECK_FALSE(parses("{}{}"));
  CHECK_FALSE(parses(std::string("{}\0", 3)));  // a NUL after the value is not white space
  CHECK_FALSE(parses("{\"a\": 1,}"));
  CHECK_FALSE(parses("{\"a\" 1}"));
  CHECK_FALSE(parses("[1, 2"));
}

TEST_CASE("json_integer: whole numbers up to 2^53, nothing else") {
  CHECK(integer_of("7") == 7);
  CHECK(integer_of("-5") == -5);
  CHECK(integer_of("1.0") == 1);  // JSON does not tell 1 from 1.0
  CHECK(integer_of("3e2") == 300);
  CHECK(integer_of("9007199254740992") == 9007199254740992LL);
  CHECK(integer_of("9007199254740994") == -777);  // past 2^53 a double skips integers
  CHECK(integer_of("1.5") == -777);
  CHECK(integer_of("1e400") == -777);  // inf
  CHECK(integer_of("\"7\"") == -777);
  CHECK(integer_of("true") == -777);
  int64_t v;
  CHECK_FALSE(json_integer(nullptr, &v));
}

TEST_CASE("json_member, json_string, json_size: any node, absent for a wrong shape") {
  json_tree t = json_parse(R"({"a": "x", "a": "second", "n": 3, "arr": [1, {"b": null}], "o": {"p": 1, "q": 2}})");
  REQUIRE(t);
  CHECK(json_string(json_member(t.get(), "a")) == "x");  // a repeated key: the first
  CHECK(json_string(json_member(t.get(), "n")).empty());
  CHECK(json_member(t.get(), "missing") == nullptr);
  CHECK(json_member(json_member(t.get(), "arr"), "b") == nullptr);  // not an object
  CHECK(json_member(nullptr, "a") == nullptr);
  CHECK(json_size(json_member(t.get(), "arr")) == 2);
  CHECK(json_size(json_member(t.get(), "o")) == 2);
  CHECK(json_size(json_member(t.get(), "n")) == 0);
  CHECK(json_first(json_member(t.get(), "n")) == nullptr);
  CHECK(json_member(t.get(), "A") == nullptr);  // keys are case-sensitive
}

TEST_CASE("json_parse: escapes become UTF-8, raw UTF-8 stays as it is") {
  json_tree t = json_parse(R"(["\u00e9\u4e2d", "\ud83d\ude00", "tab\there", "\"quoted\" \\ /", "中文 ▁piece"])");
  REQUIRE(t);
  const cJSON* e = json_first(t.get());
  CHECK(json_string(e) == "\xC3\xA9\xE4\xB8\xAD");
  CHECK(json_string(e->next) == "\xF0\x9F\x98\x80");  // a surrogate pair: one code point
  CHECK(json_string(e->next->next) == "tab\there");
  CHECK(json_string(e->next->next->next) == "\"quoted\" \\ /");
  CHECK(json_string(e->next->next->next->next) == "中文 ▁piece");
  CHECK_FALSE(parses(R"(["\ud83d"])"));  // half a pair
  CHECK_FALSE(parses("[\"\xFD\"]"));          // not UTF-8
  CHECK_FALSE(parses("[\"\xC0\xAF\"]"));      // an overlong '/'
  CHECK_FALSE(parses("[\"\xED\xA0\x80\"]"));  // a surrogate, encoded
  CHECK_FALSE(parses("[\"\xF4\x90\x80\x80\"]"));  // past U+10FFFF
  CHECK_FALSE(parses("[\"\xE4\xB8\"]"));      // cut short
  CHECK(parses("[\"\xF0\x9F\x98\x80 \xEF\xBF\xBF\"]"));
  CHECK_FALSE(parses(R"(["\x41"])"));
}

TEST_CASE("json_parse: hostile nesting is refused, never a crash") {
  const auto nested = [](int depth) { return std::string(depth, '[') + std::string(depth, ']'); };
  CHECK(parses(nested(32)));  // our files nest 5 deep
  CHECK_FALSE(parses(nested(65)));
  CHECK_FALSE(parses(nested(200000)));  // would overflow the stack without the limit
}

// What nlohmann-json writes (the tools' writers), cJSON reads back: random documents, seeded.
TEST_CASE("json_parse reads back what nlohmann-json writes, value for value") {
  const unsigned seed = Catch::rngSeed();
  INFO("seed " << seed << " (pass it back with --rng-seed)");
  std::mt19937 rng(seed);
  const std::vector<std::string> words = {"gate_proj", "中文", "▁the", "a\"b", "back\\slash", "tab\t", "", "é", "\x01"};
  for (int round = 0; round < 200; round++) {
    nlohmann::json doc = nlohmann::json::object();
    std::vector<std::pair<std::string, nlohmann::json>> expect;
    const int n = 1 + int(rng() % 12);
    for (int i = 0; i < n; i++) {
      const std::string key = "k" + std::to_string(i) + words[rng() % words.size()];
      nlohmann::json v;
      switch (rng() % 4) {
        case 0: v = (int64_t)(rng() % 2 ? rng() : -(int64_t)(((uint64_t)rng() << 21) ^ rng())); break;
        case 1: v = std::ldexp(double(rng()) / 4294967296.0, int(rng() % 40) - 20); break;
        case 2: v = words[rng() % words.size()] + words[rng() % words.size()]; break;
        default: v = nlohmann::json::array({(int64_t)rng(), words[rng() % words.size()]}); break;
      }
      doc[key] = v;
      expect.push_back({key, v});
    }
    json_tree t = json_parse(doc.dump(rng() % 2 ? -1 : 2));
    REQUIRE(t);
    CHECK(json_size(t.get()) == expect.size());
    for (const auto& [key, v] : expect) {
      const cJSON* got = json_member(t.get(), key.c_str());
      REQUIRE(got);
      int64_t i;
      if (v.is_number_integer()) CHECK((json_integer(got, &i) && i == v.get<int64_t>()));
      if (v.is_number_float()) CHECK(got->valuedouble == v.get<double>());  // nlohmann prints 17 digits when needed
      if (v.is_string()) CHECK(json_string(got) == v.get<std::string>());
      if (v.is_array()) {
        CHECK((json_integer(json_first(got), &i) && i == v[0].get<int64_t>()));
        CHECK(json_string(json_first(got)->next) == v[1].get<std::string>());
      }
    }
  }
}
