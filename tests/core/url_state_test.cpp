// The URL fragment: round trips, clamping, and every way a key can be malformed.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "core/lesson/quiz.h"
#include "core/link/url_state.h"
#include "core/base/strings.h"
#include "core/views/lab_text.h"

static bool has_notice(const url_decoded& d, url_problem p, const std::string& key) {
  for (const url_notice& n : d.notices)
    if (n.problem == p && n.key == key) return true;
  return false;
}

TEST_CASE("an empty fragment is the lesson default, with no notice") {
  for (const char* f : {"", "#", "#v=1"}) {
    url_decoded d = url_decode(f);
    CHECK(lab_state_equal(d.state, lab_state_default()));
    CHECK(d.notices.empty());
  }
}

TEST_CASE("the issue's example link") {
  url_decoded d = url_decode("#v=1&view=hand&x=1,2&step=5");
  CHECK(d.notices.empty());
  CHECK(d.state.view == LAB_VIEW_HAND);
  CHECK(d.state.step == 5);
  CHECK(d.state.x[0] == 1);
  CHECK(d.state.x[1] == 2);
}

TEST_CASE("encode then decode gives the same state, for random states") {
  INFO("seed " << Catch::rngSeed());
  std::mt19937 rng(Catch::rngSeed());
  std::uniform_real_distribution<double> value(-LAB_VALUE_LIMIT, LAB_VALUE_LIMIT);
  std::uniform_real_distribution<double> probe(LAB_PROBE_MIN, LAB_PROBE_MAX);
  for (int trial = 0; trial < 500; ++trial) {
    lab_state s = lab_state_default();
    s.view = lab_view(rng() % LAB_VIEW_COUNT);
    s.lang = lab_lang(rng() % LAB_LANG_COUNT);
    for (double& v : s.x) v = value(rng);
    for (double& v : s.w.up) v = value(rng);
    for (double& v : s.w.gate) v = trial % 2 ? value(rng) : std::round(value(rng));
    for (double& v : s.w.down) v = value(rng) / 1e6;
    s.step = int(rng() % HAND_STEP_COUNT);
    s.probe_z = probe(rng);
    s.show_sigmoid = rng() % 2;
    s.show_gelu = rng() % 2;
    s.hidden = LAB_HIDDEN_MIN + rng() % LAB_HIDDEN_MAX;
    s.intermediate = LAB_INTERMEDIATE_MIN + rng() % LAB_INTERMEDIATE_MAX;
    s.layers = LAB_LAYERS_MIN + rng() % LAB_LAYERS_MAX;
    s.quiz = int(rng() % QUIZ_COUNT);
    s.path.clear();
    for (int i = 0, n = int(rng() % 8); i < n; ++i) s.path.push_back(int64_t(rng() % LAB_VIEW_COUNT));
    s.path_at = int(rng() % (s.path.size() + 1)) - 1;  // -1 .. the path's last place
    s.lock = int(rng() % 2);
    s.ui = int(rng() % LAB_UI_COUNT);
    std::string url = url_encode(s);
    url_decoded d = url_decode("#" + url);
    INFO(url);
    CHECK(d.notices.empty());
    CHECK(lab_state_equal(d.state, s));
    CHECK(url_encode(d.state) == url);
  }
}

TEST_CASE("numbers are written as short as they read back") {
  CHECK(url_format_number(1) == "1");
  CHECK(url_format_number(-0.5) == "-0.5");
  CHECK(url_format_number(0.1) == "0.1");
  CHECK(url_format_number(-0.0) == "0");
  CHECK(url_format_number(1.0 / 3) == "0.3333333333333333");
  CHECK(url_format_number(-20) == "-20");
  CHECK(url_format_number(1e-5) == "1e-05");
}

TEST_CASE("unknown keys are ignored") {
  url_decoded d = url_decode("#v=1&utm_source=mail&view=silu&foo&=3&&");
  CHECK(d.notices.empty());
  CHECK(d.state.view == LAB_VIEW_SILU);
}

TEST_CASE("out-of-range values are clamped, and said so") {
  url_decoded d = url_decode("#z=99&step=9&h=0&f=99999999&layers=-3&x=1000,-2");
  CHECK(d.state.probe_z == LAB_PROBE_MAX);
  CHECK(d.state.step == HAND_STEP_COUNT - 1);
  CHECK(d.state.hidden == LAB_HIDDEN_MIN);
  CHECK(d.state.intermediate == LAB_INTERMEDIATE_MAX);
  CHECK(d.state.layers == LAB_LAYERS_MIN);
  CHECK(d.state.x[0] == LAB_VALUE_LIMIT);
  CHECK(d.state.x[1] == -2);
  for (const char* key : {"z", "step", "h", "f", "layers", "x"}) {
    INFO(key);
    CHECK(has_notice(d, URL_CLAMPED, key));
  }
}

TEST_CASE("a malformed value falls back to the lesson default, with a notice naming the key") {
  const lab_state def = lab_state_default();
  struct bad { const char* fragment; const char* key; };
  const bad cases[] = {
      {"#x=abc", "x"},         {"#x=1", "x"},              {"#x=1,2,3", "x"},
      {"#x=1,,", "x"},         {"#x=0x10,1", "x"},         {"#x=nan,1", "x"},
      {"#x=inf,1", "x"},       {"#x=1e,1", "x"},           {"#x=", "x"},
      {"#wu=1,2,3", "wu"},     {"#wg=1,2,3,4,5,6,7,8,9", "wg"}, {"#wd=a,b,c,d,e,f,g,h", "wd"},
      {"#step=two", "step"},   {"#step=2.5", "step"},      {"#step=", "step"},
      {"#z=", "z"},            {"#z=--1", "z"},            {"#view=chart", "view"},
      {"#view=", "view"},      {"#lang=fr", "lang"},       {"#ov=sigmoid,tanh", "ov"},
      {"#h=1.5", "h"},         {"#f=lots", "f"},           {"#layers=%zz", "layers"},
      {"#v=one", "v"},
  };
  for (const bad& c : cases) {
    INFO(c.fragment);
    url_decoded d = url_decode(c.fragment);
    CHECK(has_notice(d, URL_MALFORMED, c.key));
    CHECK(d.notices.size() == 1);
    CHECK(lab_state_equal(d.state, def));
  }
}

TEST_CASE("numbers too large for a double are out of range: clamped, with a notice, as the README says") {
  url_decoded d = url_decode("#z=1e309&x=1e400,-1e400&h=1e400&layers=-1e999");
  CHECK(d.state.probe_z == LAB_PROBE_MAX);
  CHECK(d.state.x[0] == LAB_VALUE_LIMIT);
  CHECK(d.state.x[1] == -LAB_VALUE_LIMIT);
  CHECK(d.state.hidden == LAB_HIDDEN_MAX);
  CHECK(d.state.layers == LAB_LAYERS_MIN);
  for (const char* key : {"z", "x", "h", "layers"}) {
    INFO(key);
    CHECK(has_notice(d, URL_CLAMPED, key));
    CHECK_FALSE(has_notice(d, URL_MALFORMED, key));
  }
  CHECK(d.notices.size() == 4);
}

// A layer, unit or token is the weights' to bound: past the page's own limit it names nothing in any
// model, so the default is used and said, never the limit (layer=1e309 read as "using 1023", a layer
// no model here has, which the model's notice then refused by a number the link never held).
TEST_CASE("a layer, unit or token past the page's limit falls back to the default, not to the limit") {
  const lab_state def = lab_state_default();
  for (const char* key : {"layer", "unit", "tok", "htok", "probe"})
    for (const char* value : {"1e309", "99999999", "1e400"}) {
      const std::string fragment = std::string("#view=flow&") + key + "=" + value;
      INFO(fragment);
      const url_decoded d = url_decode(fragment);
      REQUIRE(d.notices.size() == 1);
      CHECK(d.notices[0].problem == URL_BEYOND);
      CHECK(d.notices[0].key == key);
      CHECK(d.notices[0].value == value);
      CHECK(d.state.layer == def.layer);
      CHECK(d.state.unit == def.unit);
      CHECK(d.state.token == def.token);
      CHECK(d.state.hist_token == def.hist_token);
      CHECK(d.state.probe == def.probe);
    }
  // Within the page's limit the value is kept for the weights to judge, and below it, clamped.
  CHECK(url_decode("#layer=99").notices.empty());
  CHECK(url_decode("#layer=99").state.layer == 99);
  CHECK(has_notice(url_decode("#layer=-5"), URL_CLAMPED, "layer"));
  // Other keys keep the nearest allowed value.
  CHECK(has_notice(url_decode("#layers=1e309"), URL_CLAMPED, "layers"));
}

TEST_CASE("a repeated key takes its last value, silently") {
  url_decoded d = url_decode("#z=1&step=2&z=-2.5&step=4");
  CHECK(d.state.probe_z == -2.5);
  CHECK(d.state.step == 4);
  CHECK(d.notices.empty());
}

TEST_CASE("one bad key does not spoil the others") {
  url_decoded d = url_decode("#view=silu&x=oops&z=-2&step=3");
  CHECK(d.state.view == LAB_VIEW_SILU);
  CHECK(d.state.probe_z == -2);
  CHECK(d.state.step == 3);
  CHECK(d.state.x[0] == 1);
  CHECK(d.notices.size() == 1);
}

TEST_CASE("percent-encoding, the Unicode minus and a leading plus are read") {
  url_decoded d = url_decode("#x=%2D1%2C2&z=%E2%88%921.5&wu=%2B1,0,0,1,1,1,1,-1");
  CHECK(d.notices.empty());
  CHECK(d.state.x[0] == -1);
  CHECK(d.state.x[1] == 2);
  CHECK(d.state.probe_z == -1.5);
  CHECK(d.state.w.up[0] == 1);
}

TEST_CASE("a link from a newer page is read, with a notice") {
  url_decoded d = url_decode("#v=7&view=budget");
  CHECK(d.state.view == LAB_VIEW_BUDGET);
  CHECK(has_notice(d, URL_NEWER_VERSION, "v"));
}

// [SECTION] the live views' keys
TEST_CASE("live keys: a pack location is a relative path or an http(s) URL, nothing else") {
  for (const char* ok : {"packs/qwen3.5/", "https://example.org/packs/q?x=1&y=2", "http://127.0.0.1:9000/p/", "p"}) {
    lab_state s = lab_state_default();
    s.pack = ok;
    url_decoded d = url_decode(url_encode(s));
    INFO(ok);
    CHECK(d.notices.empty());
    CHECK(d.state.pack == ok);
  }
  for (const char* bad : {"javascript:alert(1)", "../secret", "packs/../../x", "/etc/passwd", "data:text/html,x",
                          "file:///etc", "a b", "\\\\server\\share"}) {
    lab_state s = lab_state_default();
    s.pack = bad;
    url_decoded d = url_decode(url_encode(s));
    INFO(bad);
    CHECK(has_notice(d, URL_MALFORMED, "pack"));
    CHECK(d.state.pack.empty());
  }
}

TEST_CASE("live keys: layers, permutation, threshold, token, delta, unit, matrix") {
  url_decoded d = url_decode("#v=1&view=perm&pl=0,11,23&layer=11&perm=5,3,1,0,2,4&thr=0.2&tok=4&delta=-2.5&unit=275&mat=down");
  CHECK(d.notices.empty());
  CHECK(d.state.view == LAB_VIEW_PERM);
  CHECK(d.state.pack_layers == std::vector<int64_t>{0, 11, 23});
  CHECK(d.state.layer == 11);
  CHECK(d.state.perm == std::vector<int64_t>{5, 3, 1, 0, 2, 4});
  CHECK(d.state.threshold == 0.2);
  CHECK(d.state.token == 4);
  CHECK(d.state.delta == -2.5);
  CHECK(d.state.unit == 275);
  CHECK(d.state.matrix == MLP_DOWN);
  CHECK(has_notice(url_decode("#pl=0,x"), URL_MALFORMED, "pl"));
  CHECK(has_notice(url_decode("#thr=7"), URL_CLAMPED, "thr"));
  CHECK(url_decode("#thr=7").state.threshold == 1.0);
  CHECK(has_notice(url_decode("#mat=left"), URL_MALFORMED, "mat"));
  CHECK(has_notice(url_decode("#delta=1e9"), URL_CLAMPED, "delta"));
  // "layers" keeps its shipped meaning: the budget's layer count.
  CHECK(url_decode("#layers=32").state.layers == 32);
  CHECK(url_decode("#layers=32").state.pack_layers.empty());
}

TEST_CASE("live keys: random states round trip", "[url]") {
  INFO("seed " << Catch::rngSeed());
  std::mt19937 rng(Catch::rngSeed());
  for (int trial = 0; trial < 300; ++trial) {
    lab_state s = lab_state_default();
    s.view = lab_view(rng() % LAB_VIEW_COUNT);
    s.pack = trial % 3 ? "packs/p" + std::to_string(rng() % 100) + "/" : "https://h.example/x?a=" + std::to_string(rng()) + "&b=%";
    s.pack_layers.clear();
    for (unsigned i = 0, n = rng() % 5; i < n; i++) s.pack_layers.push_back(rng() % 1024);
    s.layer = int64_t(rng() % 1025) - 1;
    s.perm.clear();
    for (unsigned i = 0, n = rng() % 8; i < n; i++) s.perm.push_back(rng() % 8);
    s.threshold = (rng() % 1001) / 1000.0;
    s.hist_token = int64_t(rng() % 10) - 1;
    s.token = int64_t(rng() % 4097) - 1;
    s.delta = (double(rng() % 20001) - 10000) / 100.0;
    s.unit = rng() % 3584;
    s.matrix = int(rng() % MLP_PART_COUNT);
    s.heat_zoom = 1 + (rng() % 25500) / 100.0;
    s.heat_cx = (rng() % 100001) / 1e5;
    s.heat_cy = (rng() % 100001) / 1e5;
    const std::string url = url_encode(s);
    url_decoded d = url_decode("#" + url);
    INFO(url);
    CHECK(d.notices.empty());
    CHECK(lab_state_equal(d.state, s));
    CHECK(d.state.pack == s.pack);
    CHECK(url_encode(d.state) == url);
  }
}

// [SECTION] the key table drives the tests too
#include "core/lesson/hand_calc.h"

// A valid value of a key, at random, as a link writes it.
static std::string random_value(const url_key_desc& k, std::mt19937& rng) {
  auto pick = [&](double lo, double hi) { return lo + (hi - lo) * (double)(rng() % 100001) / 100000.0; };
  std::string out;
  switch (k.kind) {
    case URL_KEY_NUMBERS:
      for (int i = 0; i < k.count; i++) out += (i ? "," : "") + url_format_number(pick(k.lo, k.hi));
      return out;
    case URL_KEY_INTEGER:
    case URL_KEY_INT: return std::to_string((int64_t)k.lo + (int64_t)(rng() % (uint64_t)(k.hi - k.lo + 1)));
    case URL_KEY_CHOICE: return k.names[rng() % k.names.size()];
    case URL_KEY_FLAGS:
      for (const std::string& n : k.names)
        if (rng() % 2) out += (out.empty() ? "" : ",") + n;
      return out;
    case URL_KEY_INTEGERS: {
      const int n = (int)(rng() % (uint64_t)std::min(k.count, 8));
      for (int i = 0; i < n; i++) out += (i ? "," : "") + std::to_string((int64_t)k.lo + (int64_t)(rng() % (uint64_t)(k.hi - k.lo + 1)));
      return out;
    }
    case URL_KEY_PACK: return rng() % 2 ? "" : "https://host.example/packs/p" + std::to_string(rng() % 1000) + "/";
    case URL_KEY_MODEL: return rng() % 2 ? "" : "hf:owner" + std::to_string(rng() % 100) + "/model-" + std::to_string(rng() % 100);
    case URL_KEY_TEXT: return rng() % 2 ? "" : "sentence-" + std::to_string(rng() % 1000);  // as a link writes it (a space would be %20)
    case URL_KEY_ANSWERS: {  // base64url, sometimes none
      static const char* const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
      for (int i = 0, n = rng() % 2 ? 0 : 1 + (int)(rng() % 200); i < n; i++) out += alphabet[rng() % 64];
      return out;
    }
    case URL_KEY_NAME_LIST: {
      const int n = (int)(rng() % (uint64_t)std::min(k.count, 8));
      for (int i = 0; i < n; i++) out += (i ? "," : "") + k.names[rng() % k.names.size()];
      return out;
    }
  }
  return out;
}

TEST_CASE("every key of the table round-trips random values (seed: Catch's --rng-seed)") {
  const unsigned seed = Catch::rngSeed();
  INFO("seed " << seed << " (pass --rng-seed " << seed << " to repeat)");
  std::mt19937 rng(seed);
  const std::vector<url_key_desc> keys = url_key_table();
  REQUIRE(keys.size() >= 26);
  for (int trial = 0; trial < 300; trial++) {
    // Every key set, each to a random value: the decoded state writes the same values back.
    std::string link = "v=1";
    for (const url_key_desc& k : keys) {
      const std::string v = random_value(k, rng);
      if (!v.empty() || !k.only_when_set) link += "&" + k.key + "=" + v;  // as url_encode writes it
    }
    INFO(link);
    const url_decoded d = url_decode("#" + link);
    CHECK(d.notices.empty());
    CHECK(url_encode(d.state) == link);
    // One key changed alone changes the link in that key only: its row reaches its own field.
    const url_key_desc& k = keys[rng() % keys.size()];
    const url_decoded one = url_decode("#" + k.key + "=" + random_value(k, rng));
    const std::string enc = url_encode(one.state), def = url_encode(lab_state_default());
    for (const url_key_desc& other : keys) {
      if (other.key == k.key) continue;
      const std::string tag = "&" + other.key + "=";
      const size_t a = enc.find(tag), b = def.find(tag);
      if (other.only_when_set && a == std::string::npos && b == std::string::npos) continue;  // unset in both
      REQUIRE(a != std::string::npos);
      CHECK(enc.substr(a, enc.find('&', a + 1) - a) == def.substr(b, def.find('&', b + 1) - b));
    }
  }
}

TEST_CASE("each key's default is the lesson's value") {
  const lab_state s = lab_state_default();
  double x[HAND_IN];
  hand_lesson_input(x);
  const hand_weights w = hand_lesson_weights();
  for (int i = 0; i < HAND_IN; i++) CHECK(s.x[i] == x[i]);
  for (int i = 0; i < HAND_MID * HAND_IN; i++) CHECK(s.w.up[i] == w.up[i]);
  for (int i = 0; i < HAND_MID * HAND_IN; i++) CHECK(s.w.gate[i] == w.gate[i]);
  for (int i = 0; i < HAND_OUT * HAND_MID; i++) CHECK(s.w.down[i] == w.down[i]);
  CHECK(s.step == HAND_STEP_DOWN);
  CHECK(s.hidden == 1024);
  CHECK(s.intermediate == 3584);
  CHECK(s.layers == 24);
  CHECK(s.threshold == LAB_THRESHOLD_DEFAULT);
  CHECK(s.token == -1);  // the view's own: lesson 000's "change token 2" in the per-token view
  CHECK(lab_changed_token(s) == 2);
  // Every default reads back without a notice.
  for (const url_key_desc& k : url_key_table()) CHECK(url_decode("#" + k.key + "=" + k.dflt).notices.empty());
}

// [SECTION] the lesson's keys: quiz=, path=, lock=, ui=

TEST_CASE("lesson keys: a teacher's link with a path, a lock, the projector layout and a question") {
  url_decoded d = url_decode("#v=1&view=budget&path=hand,silu,budget,gates,perm,quiz&lock=1&ui=present&quiz=bf16");
  CHECK(d.notices.empty());
  CHECK(d.state.view == LAB_VIEW_BUDGET);
  CHECK(d.state.path == std::vector<int64_t>{LAB_VIEW_HAND, LAB_VIEW_SILU, LAB_VIEW_BUDGET, LAB_VIEW_GATES, LAB_VIEW_PERM, LAB_VIEW_QUIZ});
  CHECK(d.state.lock == 1);
  CHECK(d.state.ui == LAB_UI_PRESENT);
  CHECK(d.state.quiz == QUIZ_BF16_LAYER);
  CHECK(lab_path_index(d.state) == 2);
  const std::string url = url_encode(d.state);
  CHECK(url.find("&quiz=bf16&path=hand,silu,budget,gates,perm,quiz&lock=1&ui=present") != std::string::npos);
  CHECK(url_encode(url_decode(url).state) == url);
  // The defaults: no path, unlocked, the normal layout, the first question.
  const std::string plain = url_encode(lab_state_default());
  CHECK(plain.find("&quiz=odot&path=&lock=0&ui=normal") != std::string::npos);
  CHECK(url_decode("#view=quiz&quiz=change").state.quiz == QUIZ_CHANGE);
  CHECK(url_decode("#view=glossary").state.view == LAB_VIEW_GLOSSARY);
  CHECK(url_decode("#path=glossary,glossary").state.path == std::vector<int64_t>{LAB_VIEW_GLOSSARY, LAB_VIEW_GLOSSARY});
}

TEST_CASE("lesson keys: every question name is a key value, and a link never holds an answer") {
  for (int q = 0; q < QUIZ_COUNT; ++q) {
    lab_state s = lab_state_default();
    s.view = LAB_VIEW_QUIZ;
    s.quiz = q;
    const std::string url = url_encode(s);
    CHECK(url.find(std::string("quiz=") + QUIZ_NAMES[q]) != std::string::npos);
    url_decoded d = url_decode(url);
    CHECK(d.notices.empty());
    CHECK(d.state.quiz == q);
    // The state has no field for an answer: its encoding is the same whatever was answered.
    CHECK(url.find("answer") == std::string::npos);
  }
}

TEST_CASE("lesson keys: malformed and out-of-range values fall back, with a notice naming the key") {
  struct bad { const char* fragment; const char* key; url_problem problem; };
  const bad cases[] = {
      {"#quiz=nope", "quiz", URL_MALFORMED},      {"#quiz=", "quiz", URL_MALFORMED},
      {"#quiz=1", "quiz", URL_MALFORMED},         {"#path=hand,nope", "path", URL_MALFORMED},
      {"#path=hand,,silu", "path", URL_MALFORMED}, {"#path=Hand", "path", URL_MALFORMED},
      {"#lock=yes", "lock", URL_MALFORMED},       {"#lock=0.5", "lock", URL_MALFORMED},
      {"#lock=2", "lock", URL_CLAMPED},           {"#lock=-1", "lock", URL_CLAMPED},
      {"#ui=projector", "ui", URL_MALFORMED},     {"#ui=", "ui", URL_MALFORMED},
  };
  for (const bad& b : cases) {
    INFO(b.fragment);
    url_decoded d = url_decode(b.fragment);
    REQUIRE(d.notices.size() == 1);
    CHECK(d.notices[0].key == b.key);
    CHECK(d.notices[0].problem == b.problem);
  }
  CHECK(url_decode("#path=hand,nope").state.path.empty());  // all or nothing
  CHECK(url_decode("#lock=2").state.lock == 1);
  CHECK(url_decode("#ui=projector").state.ui == LAB_UI_NORMAL);
  CHECK(url_decode("#path=").notices.empty());
  CHECK(url_decode("#path=").state.path.empty());
  // A path longer than LAB_PATH_MAX views is refused whole.
  std::string longest = "#path=hand";
  for (int i = 1; i < LAB_PATH_MAX; ++i) longest += ",silu";
  CHECK(url_decode(longest).notices.empty());
  CHECK(url_decode(longest + ",budget").notices.size() == 1);
  // The other keys of a bad lesson link still apply.
  url_decoded d = url_decode("#view=silu&path=x&lock=1&ui=present");
  CHECK(d.state.view == LAB_VIEW_SILU);
  CHECK(d.state.lock == 1);
  CHECK(d.state.ui == LAB_UI_PRESENT);
}

// [SECTION] ans=: the whole model's answers a teacher's link carries (core/views/class_answers.h
// reads them; here only the key: raw, its alphabet and its length)

TEST_CASE("ans: kept as written, written last and only when set, bounded in length and alphabet") {
  const std::string plain = url_encode(lab_state_default());
  CHECK(plain.find("ans=") == std::string::npos);  // a link without answers is as it was
  const url_decoded d = url_decode("#view=rules&ans=AQAB-_9z&off=23:75");
  CHECK(d.notices.empty());
  CHECK(d.state.answers == "AQAB-_9z");
  const std::string link = url_encode(d.state);
  const std::string last = "&ans=AQAB-_9z";
  REQUIRE(link.size() > last.size());
  CHECK(link.substr(link.size() - last.size()) == last);  // the last key: the rest of the link reads first
  CHECK(url_decode(link).state.answers == d.state.answers);
  CHECK(url_decode("#ans=").state.answers.empty());
  // At most LAB_ANSWERS_MAX_CHARS characters of base64url, no padding: anything else is malformed
  // (the notice names the key; the page then asks the model).
  const std::string longest(LAB_ANSWERS_MAX_CHARS, 'A');
  CHECK(url_decode("#ans=" + longest).notices.empty());
  CHECK(url_decode("#ans=" + longest).state.answers.size() == LAB_ANSWERS_MAX_CHARS);
  for (const std::string& bad : {longest + "A", std::string("AQ=="), std::string("AQ+/"), std::string("A%20B"),
                                 std::string("\xe4\xb8\xad")}) {
    INFO(bad.substr(0, 20));
    const url_decoded b = url_decode("#view=rules&ans=" + bad);
    CHECK(has_notice(b, URL_MALFORMED, "ans"));
    CHECK(b.state.answers.empty());
    CHECK(b.state.view == LAB_VIEW_RULES);  // the rest of the link stands
  }
}

// [SECTION] off=: the whole model's units switched off. A pair the page cannot hold, a repeat, or
// pairs past 16 are dropped and said (the rest used); only an unreadable list is dropped whole.
TEST_CASE("off: pairs outside the page's range, repeats and pairs past 16 are dropped and named; the rest is used") {
  std::string seventeen;
  std::vector<int64_t> first16;
  for (int i = 0; i < 17; i++) {
    seventeen += (i ? "," : "") + std::to_string(i) + ":" + std::to_string(100 + i);
    if (i < 16) first16.push_back(i), first16.push_back(100 + i);
  }
  struct tried {
    std::string off;
    std::vector<int64_t> used;
    url_problem problem;
    std::string used_text;
  };
  const std::vector<tried> cases = {
      {seventeen, first16, URL_CLAMPED, seventeen.substr(0, seventeen.rfind(','))},
      {"1024:1", {}, URL_CLAMPED, ""},
      {"23:75,1024:1,5:1048576", {23, 75}, URL_CLAMPED, "23:75"},
      {"23:75,23:75", {23, 75}, URL_REPEATED, "23:75"},
      {"23:75,18:65,23:75", {23, 75, 18, 65}, URL_REPEATED, "23:75,18:65"},
  };
  for (const tried& t : cases) {
    INFO("off=" << t.off);
    const url_decoded d = url_decode("#v=1&view=rules&off=" + t.off);
    CHECK(d.state.off == t.used);
    REQUIRE(d.notices.size() == 1);
    CHECK(d.notices[0].problem == t.problem);
    CHECK(d.notices[0].key == "off");
    CHECK(d.notices[0].used == t.used_text);
    CHECK(url_decode(url_encode(d.state)).notices.empty());  // the link the page writes reads clean
  }
  // The words: what is used, or that none is.
  strings_lang_scope en(LAB_LANG_EN);
  CHECK(lab_notice_text(url_decode("#off=1024:1").notices.at(0)) ==
        "Link key 'off' = '1024:1' is out of range: using no unit switched off, the nearest allowed value.");
  CHECK(lab_notice_text(url_decode("#off=23:75,23:75").notices.at(0)) ==
        "Link key 'off' = '23:75,23:75' names the same item more than once: using 23:75.");
  {
    strings_lang_scope zh(LAB_LANG_ZH);
    CHECK(lab_notice_text(url_decode("#off=23:75,23:75").notices.at(0)) == "链接参数 'off' = '23:75,23:75' 多次列出同一项：改用 23:75。");
  }
  // Unreadable still drops the list whole, as before.
  for (const char* bad : {"23", "23:", "a:b", "23:75:1", "-1:5", "23:75,x"}) {
    INFO(bad);
    const url_decoded d = url_decode(std::string("#off=") + bad);
    CHECK(d.state.off.empty());
    REQUIRE(d.notices.size() == 1);
    CHECK(d.notices[0].problem == URL_MALFORMED);
  }
}
