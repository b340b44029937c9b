// The link keys of a checkpoint read by byte ranges: model= (hf:OWNER/NAME[@REV], a URL or a
// relative path), ids= (a teacher's sentence as token ids) and text= (the sentence, shown as text).
// Round trips, refusals with a notice naming the key, and seeded random states.
#include <catch2/catch.hpp>

#include <random>

#include "core/link/url_state.h"

static bool has_notice(const url_decoded& d, url_problem p, const std::string& key) {
  for (const url_notice& n : d.notices)
    if (n.problem == p && n.key == key) return true;
  return false;
}

TEST_CASE("model key: Hub ids, revisions, URLs and paths round trip", "[checkpoint_remote][url]") {
  for (const char* ok : {"hf:Qwen/Qwen3.5-0.8B", "hf:Qwen/Qwen3.5-0.8B@main", "hf:org/m@refs/pr/3", "hf:a_b/c.d-e@v1.2",
                         "https://host.example/ckpt/q?x=1&y=2", "http://127.0.0.1:8081/Qwen/X/resolve/main/", "ckpt/qwen"}) {
    lab_state s = lab_state_default();
    s.model = ok;
    const std::string link = url_encode(s);
    url_decoded d = url_decode(link);
    INFO(ok << " -> " << link);
    CHECK(d.notices.empty());
    CHECK(d.state.model == ok);
    CHECK(url_encode(d.state) == link);
  }
  // As a teacher would type it, unencoded.
  url_decoded d = url_decode("#v=1&view=gates&model=hf:Qwen/Qwen3.5-0.8B@main&ids=100644,104307,3837&text=今天天气，");
  CHECK(d.notices.empty());
  CHECK(d.state.model == "hf:Qwen/Qwen3.5-0.8B@main");
  CHECK(d.state.ids == std::vector<int64_t>{100644, 104307, 3837});
  CHECK(d.state.text == "今天天气，");
  CHECK(lab_state_default().model.empty());
  CHECK(lab_state_default().ids.empty());
}

TEST_CASE("model key: malformed values fall back to none, with a notice", "[checkpoint_remote][url]") {
  for (const char* bad : {"hf:Qwen", "hf:Qwen/x/y", "hf:-bad/x", "hf:Qwen/x@a..b", "hf:Qwen/x@", "ftp://host/x", "javascript:alert(1)",
                          "../up", "/abs", "a b", "hf:Qw en/x"}) {
    url_decoded d = url_decode(std::string("#model=") + bad);
    INFO(bad);
    CHECK(has_notice(d, URL_MALFORMED, "model"));
    CHECK(d.state.model.empty());
  }
  url_decoded e = url_decode("#model=hf:a/b&model=hf:Qwen/x@a..b");  // the last value counts, and it is bad
  CHECK(e.state.model.empty());
}

TEST_CASE("ids and text keys: limits and refusals", "[checkpoint_remote][url]") {
  CHECK(has_notice(url_decode("#ids=1,x,3"), URL_MALFORMED, "ids"));
  CHECK(has_notice(url_decode("#ids=-1"), URL_CLAMPED, "ids"));  // as every key: clamped, and said
  url_decoded big = url_decode("#ids=1,99999999");
  CHECK(has_notice(big, URL_CLAMPED, "ids"));
  CHECK(big.state.ids == std::vector<int64_t>{1, (1 << 24) - 1});
  std::string many = "#ids=0";
  for (int i = 1; i < 65; i++) many += "," + std::to_string(i);
  CHECK(has_notice(url_decode(many), URL_MALFORMED, "ids"));
  CHECK(url_decode(many).state.ids.empty());
  CHECK(url_decode("#ids=").state.ids.empty());
  CHECK(has_notice(url_decode("#text=%00x"), URL_MALFORMED, "text"));
  CHECK(has_notice(url_decode("#text=%FF%FE"), URL_MALFORMED, "text"));       // not UTF-8
  CHECK(has_notice(url_decode("#text=%E4%BB"), URL_MALFORMED, "text"));       // cut short
  CHECK(has_notice(url_decode("#text=" + std::string(513, 'a')), URL_MALFORMED, "text"));
  CHECK(url_decode("#text=" + std::string(512, 'a')).notices.empty());
  // Characters that would break the fragment are encoded, and come back.
  lab_state s = lab_state_default();
  s.text = "a&b=c#d%e+f g <i>";
  CHECK(url_decode(url_encode(s)).state.text == s.text);
}

TEST_CASE("model, ids and text: seeded random states round trip", "[checkpoint_remote][url]") {
  const unsigned seed = Catch::rngSeed();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  const char* pieces[] = {"今天", "天气", "不错", "，", "we", " ", "&", "=", "#", "%", "+", "é", "🙂"};
  for (int trial = 0; trial < 300; trial++) {
    lab_state s = lab_state_default();
    s.model = trial % 3 == 0 ? "" : trial % 3 == 1 ? "hf:o" + std::to_string(rng() % 100) + "/m-" + std::to_string(rng() % 9) + "@v" + std::to_string(rng() % 5)
                                                   : "https://h.example/c" + std::to_string(rng() % 100) + "/";
    s.ids.clear();
    for (unsigned i = 0, n = rng() % 10; i < n; i++) s.ids.push_back(rng() % (1 << 24));
    s.text.clear();
    for (unsigned i = 0, n = rng() % 12; i < n; i++) s.text += pieces[rng() % 13];
    const std::string link = url_encode(s);
    url_decoded d = url_decode("#" + link);
    INFO(link);
    CHECK(d.notices.empty());
    CHECK(lab_state_equal(d.state, s));
    CHECK(d.state.model == s.model);
    CHECK(d.state.ids == s.ids);
    CHECK(d.state.text == s.text);
  }
}
