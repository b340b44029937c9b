// The whole model's answers in a link (core/views/class_answers.h), without a model: the format
// byte by byte (a link built here by hand from docs/links.md's table decodes), every number printed
// again exactly as the teacher's page printed it (random values over every magnitude, with the
// run's seed), and every refusal: truncated at every length, another version, another model,
// counts that disagree, numbers out of range, tokens outside the table, too long, too many, not
// UTF-8, bytes after the end; random damage never crashes. The round trip on the built-in model:
// class_answers_model_test.cpp.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>

#include "core/views/class_answers.h"
#include "core/views/model_view.h"
#include "core/base/strings.h"

namespace {

// [SECTION] building links by hand
std::string b64url(const std::string& bytes) {
  static const char* a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    uint32_t v = 0;
    const size_t n = std::min<size_t>(3, bytes.size() - i);
    for (size_t k = 0; k < 3; k++) v = v << 8 | (k < n ? (unsigned char)bytes[i + k] : 0u);
    for (size_t k = 0; k <= n; k++) out += a[(v >> (18 - 6 * k)) & 63];
  }
  return out;
}

std::string un_b64url(const std::string& text) {
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    const char* a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    acc = acc << 6 | uint32_t(std::strchr(a, c) - a), bits += 6;
    if (bits >= 8) out += char((acc >> (bits - 8)) & 0xff), bits -= 8;
  }
  return out;
}

// The format's primitives (docs/links.md): LEB128 varints, strings as length + UTF-8.
struct bytes_out {
  std::string b;
  bytes_out& v(uint64_t x) {
    while (x >= 0x80) b += char(0x80 | (x & 0x7f)), x >>= 7;
    b += char(x);
    return *this;
  }
  bytes_out& s(const std::string& t) {
    v(t.size());
    b += t;
    return *this;
  }
  // A token of the table: its id's step from the one before, times 8, plus its coded piece's
  // length (7: the length minus 7 follows), then the coded piece.
  bytes_out& token(uint64_t step, const std::string& piece) {
    v(step * 8 + std::min<uint64_t>(piece.size(), 7));
    if (piece.size() >= 7) v(piece.size() - 7);
    b += piece;
    return *this;
  }
};

// A piece as the format codes it: ASCII as is, U+3000 … U+AEFF in two bytes (0x80 + the high byte
// of its offset from U+3000, the low byte), anything else 0xFF and its UTF-8.
std::string pack(const std::string& utf8) {
  std::string out;
  for (size_t i = 0; i < utf8.size();) {
    const unsigned char c = (unsigned char)utf8[i];
    const size_t n = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
    uint32_t cp = n == 1 ? c : n == 2 ? c & 0x1f : n == 3 ? c & 0x0f : c & 0x07;
    for (size_t k = 1; k < n; k++) cp = cp << 6 | ((unsigned char)utf8[i + k] & 0x3f);
    if (n == 1) out += char(c);
    else if (n == 3 && cp >= 0x3000 && cp < 0xaf00) out += char(0x80 + ((cp - 0x3000) >> 8)), out += char((cp - 0x3000) & 0xff);
    else out += '\xff', out += utf8.substr(i, n);
    i += n;
  }
  return out;
}

// A whole link by hand: the built-in model's identity (model ""), its ETags' digest 0123456789ab
// (from version 2), a table of two tokens, one rule-book answer to the text 中国 (its one token),
// whose next token is `next` with the probability code `p` (209: "20.9 %").
struct hand_link {
  uint64_t version = CLASS_ANSWERS_VERSION, layers = 24, p = 209, next = 1, answers = 1, prompt_count = 1;
  std::string piece0 = "\x9e\x2d\xa6\xfd";  // 中国 coded: U+4E2D, U+56FD less U+3000, each in 2 bytes
  std::string bytes() const {
    bytes_out o;
    o.v(version);
    o.b += std::string("\xc5\x9d\x1c\x81", 4);  // the model: FNV-1a of "" (the built-in one), little-endian
    o.v(0);                                        // revision (even: text, 0 bytes)
    if (version >= 2) o.v(13).b += "\x01\x23\x45\x67\x89\xab";  // the ETags' digest (odd: 6 bytes of hex digits)
    o.s("bf16").s("synthetic");                     // format, name
    o.v(layers - 1).v(64 - 1).v(192 - 1).v(512 - 1).v(1);  // shape, each minus its lowest value; synthetic
    o.v(2).token(3, piece0).token(4, pack("北京"));       // tokens: id 3, then id 3 + 4 = 7
    o.v(answers);
    for (uint64_t i = 0; i < answers; i++) {
      o.v(CLASS_PART_RULES - 1);
      o.v(prompt_count);
      for (uint64_t k = 0; k < prompt_count; k++) o.v(0);  // the prompt: token 0
      o.v(0);                                               // position 0
      o.v(4 | 8).v(0).v(0);  // question: text, the prompt's; no unit off; position -1 (+1)
      o.v(1).v(next).v(p);   // top: one row
      o.v(0).v(0);           // before_top, rising
      o.v(0).v(0);           // units, no picked unit
    }
    return o.b;
  }
  std::string text() const { return b64url(bytes()); }
};

answers_refusal refused(const std::string& text, const std::string& model = "") {
  class_answers out;
  answers_refusal why;
  const bool ok = class_answers_decode(text, {model}, &out, &why);
  if (ok) why.code = ANSWERS_OK;
  return why;
}

std::string words(lab_lang lang, const answers_refusal& why) {
  strings_set_lang(lang);
  const std::string t = class_answers_refusal_text(why);
  strings_set_lang(LAB_LANG_EN);
  return t;
}

// [SECTION] answers made here, as a reply could hold them
class_answers small_model() {
  class_answers a;
  a.format = "bf16";
  a.name = "synthetic";
  a.layers = 24, a.hidden = 64, a.intermediate = 192, a.vocab = 512;
  a.synthetic = true;
  return a;
}

model_reply some_reply() {
  model_reply r;
  r.prompt = {{3, "中国"}, {5, "的"}, {9, "首都"}, {11, "是"}};
  r.position = 3;
  return r;
}

std::vector<std::string> lines(const std::vector<view_row>& rows) {
  std::vector<std::string> out;
  for (const view_row& r : rows) {
    std::string tones;
    for (const view_cell& c : r.cells) tones += char('a' + c.tone);
    out.push_back(view_row_line(r) + " [" + tones + "]");
  }
  return out;
}

// A random value of every magnitude a view prints: 0, tiny ones that print as 0 with their sign,
// around the six decimals' edges, up to a million.
float random_six(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0, 1);
  const double sign = rng() % 2 ? 1 : -1;
  switch (rng() % 5) {
    case 0: return rng() % 4 ? float(sign * std::pow(10.0, -12 + 18 * u(rng))) : 0.0f;
    case 1: return float(sign * (double(rng() % 20000000) + 0.5) / 1e6);  // at an edge of the sixth decimal
    case 2: return float(sign * 1e-9);
    default: return float(sign * u(rng) * 20);
  }
}

// A random probability: uniform, log-uniform down to 1e-46 (float's smallest), at the printed edges.
double random_p(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0, 1);
  switch (rng() % 6) {
    case 0: return u(rng);
    case 1: return std::pow(10.0, -46 * u(rng));
    case 2: return (double(rng() % 1000) + 0.5) / 1000 * (1 + (u(rng) - 0.5) * 1e-12);  // x.x5 %
    case 3: {  // "0.0100 %", "0.050 %": the edges of the two significant digits
      const double e = std::pow(10.0, -double(rng() % 40) - 2);
      return std::nextafter(e * (rng() % 2 ? 1 : 0.5), rng() % 2 ? 0.0 : 1.0);
    }
    case 4: return rng() % 2 ? 0.0 : 1.0;
    default: return double(float(std::pow(10.0, -8 * u(rng))));  // as a float softmax gives it
  }
}

}  // namespace

// [SECTION] the format

TEST_CASE("answers: a token's piece is coded in two bytes a Chinese character, any text round-trips", "[answers]") {
  CHECK(pack("中国") == "\x9e\x2d\xa6\xfd");
  CHECK(pack(" Paris") == " Paris");
  CHECK(pack("é") == "\xff\xc3\xa9");
  class_answers a = small_model();
  carried_answer c;
  c.question.text = "x";
  c.reply = some_reply();
  for (const char* piece : {"中国", "，。", "ひらがな", "한국어", "é", "😀", "<e5 85>", "\n", "", "a\u3000b\uaeff\uaf00\u2fff"}) {
    c.reply.top.push_back({{int64_t(c.reply.top.size()), piece}, 0.5, 0.5});
  }
  a.answers = {c};
  class_answers back;
  answers_refusal why;
  REQUIRE(class_answers_decode(class_answers_encode(a), {""}, &back, &why));
  REQUIRE(back.answers[0].reply.top.size() == c.reply.top.size());
  for (size_t i = 0; i < c.reply.top.size(); i++) CHECK(back.answers[0].reply.top[i].token.piece == c.reply.top[i].token.piece);
}

TEST_CASE("answers: a link built by hand from the format's table decodes to what it says", "[answers]") {
  class_answers a;
  answers_refusal why;
  REQUIRE(class_answers_decode(hand_link().text(), {""}, &a, &why));
  CHECK(a.model == "");
  CHECK(a.revision == "");
  CHECK(a.revision_files == "0123456789ab");
  CHECK(a.format == "bf16");
  CHECK(a.name == "synthetic");
  CHECK(a.layers == 24);
  CHECK(a.intermediate == 192);
  CHECK(a.synthetic);
  REQUIRE(a.answers.size() == 1);
  const carried_answer& c = a.answers[0];
  CHECK(c.parts == CLASS_PART_RULES);
  CHECK(c.question.text == "中国");
  CHECK(c.question.position == -1);
  REQUIRE(c.reply.prompt.size() == 1);
  CHECK(c.reply.prompt[0].id == 3);
  REQUIRE(c.reply.top.size() == 1);
  CHECK(c.reply.top[0].token.id == 7);
  CHECK(c.reply.top[0].token.piece == "北京");
  CHECK(rules_next_rows(c.reply, false).size() == 1);
  CHECK(view_row_line(rules_next_rows(c.reply, false)[0]) == "'北京': id 7, P: 20.9 %");
  CHECK(c.reply.picked.unit.layer == -1);
  // The encoder writes the same bytes for what it read.
  CHECK(class_answers_encode(a) == hand_link().text());
  model_question q;
  q.text = "中国";
  CHECK(class_answers_find(a, q) == &a.answers[0]);
  CHECK(class_answers_find(a, q, CLASS_PART_RULES) == &a.answers[0]);
  CHECK(class_answers_find(a, q, CLASS_PART_FLOW) == nullptr);
  q.text = "中国的";
  CHECK(class_answers_find(a, q) == nullptr);
}

// A link of version 1 (before the ETags' digest) still reads, with no digest, and is written again
// as the current version.
TEST_CASE("answers: a version-1 link still reads", "[answers]") {
  hand_link v1;
  v1.version = 1;
  class_answers a;
  answers_refusal why;
  REQUIRE(class_answers_decode(v1.text(), {""}, &a, &why));
  CHECK(a.revision_files == "");
  CHECK(a.name == "synthetic");
  REQUIRE(a.answers.size() == 1);
  CHECK(view_row_line(rules_next_rows(a.answers[0].reply, false)[0]) == "'北京': id 7, P: 20.9 %");
  a.revision_files = "0123456789ab";
  CHECK(class_answers_encode(a) == hand_link().text());
  // A revision that is the digest itself (no commit read) is written once, and still compares.
  a.revision = "0123456789ab";
  const std::string once = class_answers_encode(a);
  a.revision_files = "";
  CHECK(class_answers_encode(a) == once);
  class_answers back;
  REQUIRE(class_answers_decode(once, {""}, &back, &why));
  CHECK(back.revision == "0123456789ab");
  CHECK(back.revision_files == "");
  model_status same, moved;
  same.revision = same.revision_files = "0123456789ab";
  moved.revision = moved.revision_files = "fedcba987654";
  CHECK_FALSE(class_answers_other_revision(back, same));
  CHECK(class_answers_other_revision(back, moved));
}

// The check's verdict on the revision: the ETags' digest where both pages know it, else any
// identity both know.
TEST_CASE("answers: another revision: the ETags' digest decides where both pages know it, else any identity both know", "[answers]") {
  const std::string commit = "2fc06364715b", digest = "0123456789ab", other = "fedcba987654";
  struct tried {
    std::string then, then_files, now, now_files;
    bool other;
  };
  const std::vector<tried> cases = {
      {commit, digest, commit, digest, false},  // the same page
      {commit, digest, digest, digest, false},  // read the commit; the student's host hides it
      {digest, digest, commit, digest, false},  // the other way round
      {digest, "", commit, digest, false},      // a version-1 link made without the commit
      {commit, "", digest, digest, true},       // a version-1 link with the commit: nothing to compare but it
      {commit, digest, other, other, true},     // the files changed, the commit hidden
      {commit, digest, other, digest, false},   // another commit, the same weights' files
      {digest, digest, other, other, true},
      {"", "", commit, digest, false},          // a host that named nothing: unknown
      {commit, digest, "", "", false},
      {"v1.0", digest, "v1.0", digest, false},  // a tag by name, its files the same
      {"v1.0", digest, "v1.0", other, true},    // a tag (or branch) whose files moved
      {commit, digest, commit, other, false},   // one commit both read: its files cannot have changed
  };
  for (const tried& t : cases) {
    INFO(t.then << "/" << t.then_files << " checked at " << t.now << "/" << t.now_files);
    class_answers a = small_model();
    a.revision = t.then, a.revision_files = t.then_files;
    model_status now;
    now.revision = t.now, now.revision_files = t.now_files;
    CHECK(class_answers_other_revision(a, now) == t.other);
  }
}

TEST_CASE("answers: every number prints again as the teacher's page printed it (seed: --rng-seed)", "[answers]") {
  const unsigned seed = Catch::rngSeed();
  INFO("seed " << seed << " (SWIGLU_TEST_SEED=" << seed << " or --rng-seed " << seed << " repeats it)");
  std::mt19937 rng(seed);
  for (int trial = 0; trial < 300; trial++) {
    class_answers a = small_model();
    carried_answer c;
    c.question.text = "中国的首都是";
    const bool off = trial % 2;
    if (off) c.question.off = {{23, 75}};
    c.question.unit = {23, 75};
    model_reply& r = c.reply;
    r = some_reply();
    for (int i = 0; i < 64; i++) {
      model_next_token t{{int64_t(i), "t" + std::to_string(i)}, random_p(rng), 0};
      // Before and after that print the same, with either one larger, now and then.
      t.p_before = rng() % 4 ? random_p(rng) : std::min(1.0, t.p * (rng() % 2 ? 1 + 1e-7 : 1 - 1e-7));
      (off ? r.before_top : r.top).push_back(t);
      if (off && i < 5) r.rising.push_back(t);
    }
    for (int i = 0; i < 64; i++) r.units.push_back({{int(rng() % 24), int(rng() % 192)}, random_six(rng), {{int64_t(i), "w"}}});
    r.picked.unit = {23, 75};
    for (int t = 0; t < 4; t++) {
      r.picked_per_token.push_back(random_six(rng));
      r.picked_gate.push_back(random_six(rng));
      r.picked_up.push_back(random_six(rng));
    }
    a.answers = {c};
    class_answers back;
    answers_refusal why;
    const std::string text = class_answers_encode(a);
    INFO("trial " << trial << ": " << text);
    REQUIRE(class_answers_decode(text, {""}, &back, &why));
    REQUIRE(back.answers.size() == 1);
    const model_reply& b = back.answers[0].reply;
    lab_state s = lab_state_default();
    s.off = off ? std::vector<int64_t>{23, 75} : std::vector<int64_t>{};
    CHECK(lines(rules_next_rows(b, off)) == lines(rules_next_rows(r, off)));
    CHECK(lines(rules_rising_rows(b)) == lines(rules_rising_rows(r)));
    CHECK(lines(rules_unit_rows(b, s)) == lines(rules_unit_rows(r, s)));
    CHECK(lines(rules_picked_rows(b, s)) == lines(rules_picked_rows(r, s)));
  }
}

TEST_CASE("answers: the flow's rows, ratios and extremes print as the teacher's, ties and edges too (seed: --rng-seed)", "[answers]") {
  const unsigned seed = Catch::rngSeed();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  for (int trial = 0; trial < 300; trial++) {
    class_answers a = small_model();
    carried_answer c;
    c.question.ids = {3, 5};
    c.parts = CLASS_PART_FLOW;
    c.reply = some_reply();
    for (int l = 0; l < 24; l++) {
      const float out = float(std::pow(10.0, -7 + 10 * u(rng)));
      // Ratios at the edge of their tenth of a percent, equal ratios on several layers, zeros.
      const double ratio = trial % 3 == 0 ? (double(rng() % 1000) + 0.5) / 1000 : trial % 3 == 1 ? 0.25 : u(rng);
      const float mlp = rng() % 10 ? float(out * ratio) : 0.0f;
      c.reply.flow.push_back({mlp, out});
    }
    a.answers = {c};
    class_answers back;
    answers_refusal why;
    REQUIRE(class_answers_decode(class_answers_encode(a), {""}, &back, &why));
    lab_state s = lab_state_default();
    s.layer = int64_t(rng() % 24);
    CHECK(lines(flow_rows(back.answers[0].reply, s)) == lines(flow_rows(c.reply, s)));
    CHECK(flow_extremes_text(back.answers[0].reply) == flow_extremes_text(c.reply));
    CHECK(flow_picked_text(back.answers[0].reply, s) == flow_picked_text(c.reply, s));
  }
}

TEST_CASE("answers: the encoder leaves out what it cannot carry, and what does not fit", "[answers]") {
  class_answers a = small_model();
  carried_answer good;
  good.question.text = "中国";
  good.reply = some_reply();
  good.reply.top = {{{7, "北京"}, 0.209, 0.209}};
  carried_answer failed = good;
  failed.reply.error.fault = STREAM_NEEDS_IDS;  // no answer to draw
  carried_answer nan = good;
  nan.reply.units = {{{1, 2}, std::nanf(""), {}}};
  carried_answer outside = good;
  outside.reply.units = {{{24, 2}, 1.0f, {}}};  // layer 24 of 24
  carried_answer short_flow = good;
  short_flow.parts = CLASS_PART_FLOW;
  short_flow.reply.flow.resize(23);
  a.answers = {failed, nan, good, outside, short_flow};
  size_t carried = 99;
  const std::string text = class_answers_encode(a, &carried);
  CHECK(carried == 1);
  class_answers back;
  answers_refusal why;
  REQUIRE(class_answers_decode(text, {""}, &back, &why));
  REQUIRE(back.answers.size() == 1);
  CHECK(back.answers[0].reply.top.size() == 1);
  // Past CLASS_ANSWERS_MAX answers, the rest are left out; nothing carried is no text.
  a.answers.assign(CLASS_ANSWERS_MAX + 3, good);
  CHECK(!class_answers_encode(a, &carried).empty());
  CHECK(carried == CLASS_ANSWERS_MAX);
  a.answers = {failed};
  CHECK(class_answers_encode(a, &carried).empty());
  CHECK(carried == 0);
  // Past CLASS_ANSWERS_MAX_CHARS characters, the last ones are left out.
  carried_answer big = good;
  for (int i = 0; i < 64; i++) {
    big.reply.units.push_back({{i % 24, i}, 1.5f, {}});
    for (int k = 0; k < 8; k++) big.reply.units.back().toward.push_back({int64_t(i * 8 + k), "piece"});
  }
  a.answers.assign(CLASS_ANSWERS_MAX, big);
  for (size_t i = 0; i < a.answers.size(); i++) a.answers[i].question.text = "q" + std::to_string(i);
  const std::string fitted = class_answers_encode(a, &carried);
  CHECK(carried > 0);
  CHECK(carried < CLASS_ANSWERS_MAX);
  CHECK(fitted.size() <= CLASS_ANSWERS_MAX_CHARS);
  REQUIRE(class_answers_decode(fitted, {""}, &back, &why));
  CHECK(back.answers.size() == carried);
}

// [SECTION] refusals

TEST_CASE("answers refused: cut short at every length, in characters and in bytes", "[answers]") {
  const std::string text = hand_link().text(), bytes = hand_link().bytes();
  for (size_t n = 0; n < text.size(); n++) {
    INFO("characters " << n);
    CHECK(refused(text.substr(0, n)).code == ANSWERS_TRUNCATED);
  }
  for (size_t n = 0; n < bytes.size(); n++) {
    INFO("bytes " << n);
    CHECK(refused(b64url(bytes.substr(0, n))).code == ANSWERS_TRUNCATED);
  }
  CHECK(refused(text).code == ANSWERS_OK);
  CHECK(words(LAB_LANG_EN, refused(text.substr(0, 9))) == "ans: the answers end too soon (the link may have been cut short); asking the model instead.");
  CHECK(words(LAB_LANG_ZH, refused(text.substr(0, 9))) == "ans：答案提前结束（链接可能被截断了）；改为询问模型。");
}

TEST_CASE("answers refused: another version, another model", "[answers]") {
  for (uint64_t v : {uint64_t(0), uint64_t(CLASS_ANSWERS_VERSION + 1), uint64_t(255), uint64_t(70000)}) {
    hand_link l;
    l.version = v;
    const answers_refusal why = refused(l.text());
    CHECK(why.code == ANSWERS_VERSION);
    CHECK(why.value == v);
    CHECK(words(LAB_LANG_EN, why) == "ans: the answers are in a format this page does not know (version " + std::to_string(v) +
                                         "); asking the model instead.");
  }
  const answers_refusal other = refused(hand_link().text(), "hf:Qwen/Qwen3.5-0.8B");
  CHECK(other.code == ANSWERS_OTHER_MODEL);
  CHECK(words(LAB_LANG_EN, other) == "ans: the answers are for another model; asking the model instead.");
  CHECK(words(LAB_LANG_ZH, other) == "ans：这些答案属于另一个模型；改为询问模型。");
}

TEST_CASE("answers refused: counts that disagree, numbers out of range, tokens outside the table", "[answers]") {
  // The prompt's count against the format's bound, and a flow whose rows are not the layers.
  hand_link prompt;
  prompt.prompt_count = MODEL_MAX_TOKENS + 1;
  CHECK(refused(prompt.text()).code == ANSWERS_COUNT);
  prompt.prompt_count = 0;
  CHECK(refused(prompt.text()).code == ANSWERS_COUNT);
  class_answers a = small_model();
  carried_answer flow;
  flow.question.text = "中国的首都是";
  flow.parts = CLASS_PART_FLOW;
  flow.reply = some_reply();
  flow.reply.flow.assign(24, {1.0f, 2.0f});
  a.answers = {flow};
  std::string bytes = un_b64url(class_answers_encode(a));
  // The header's layer count (after the version, the model's digest, the revision and the ETags'
  // digest (none), format and name).
  const size_t layers_at = 1 + 4 + 1 + 1 + (1 + 4) + (1 + a.name.size());
  REQUIRE((unsigned char)bytes[layers_at] == 23);
  bytes[layers_at] = 22;  // the shape says 23 layers; the flow has 24 rows
  CHECK(refused(b64url(bytes)).code == ANSWERS_COUNT);
  CHECK(words(LAB_LANG_EN, refused(b64url(bytes))) == "ans: the answers' counts disagree; asking the model instead.");

  // A probability code past its digits: "0.060 %" is never printed (from 0.05 % on, one decimal),
  // nor 51 decimals. (Past 1000, the codes are the tiny ones, "0.0011 %": no code means more than
  // 100 %.)
  for (uint64_t p : {uint64_t(1001 + 50), uint64_t(1001 + 48 * 91), uint64_t(1) << 40}) {
    hand_link l;
    l.p = p;
    INFO("code " << p);
    CHECK(refused(l.text()).code == ANSWERS_RANGE);
  }
  hand_link in_range;
  in_range.p = 1001 + 91 + 1;
  CHECK(refused(in_range.text()).code == ANSWERS_OK);
  CHECK(words(LAB_LANG_ZH, refused(hand_link{CLASS_ANSWERS_VERSION, 24, 1051}.text())) == "ans：答案中有数字超出范围；改为询问模型。");
  // Layers outside the format (0, over LAB_LAYERS_MAX).
  for (uint64_t layers : {uint64_t(LAB_LAYERS_MAX + 1), uint64_t(1) << 62}) {
    hand_link l;
    l.layers = layers;
    CHECK(refused(l.text()).code == ANSWERS_RANGE);
  }
  // A token reference past the table of two.
  hand_link token;
  token.next = 2;
  CHECK(refused(token.text()).code == ANSWERS_TOKEN);
  token.next = uint64_t(1) << 63;
  CHECK(refused(token.text()).code == ANSWERS_TOKEN);
  CHECK(words(LAB_LANG_EN, refused(hand_link{CLASS_ANSWERS_VERSION, 24, 209, 2}.text())) ==
        "ans: the answers name a token outside their table; asking the model instead.");
}

TEST_CASE("answers refused: too long, too many, other characters, not UTF-8, bytes after the end", "[answers]") {
  CHECK(refused(std::string(CLASS_ANSWERS_MAX_CHARS + 1, 'A')).code == ANSWERS_TOO_LONG);
  CHECK(words(LAB_LANG_EN, refused(std::string(CLASS_ANSWERS_MAX_CHARS + 1, 'A'))) ==
        "ans: the answers are longer than 8,192 characters; asking the model instead.");
  hand_link many;
  many.answers = CLASS_ANSWERS_MAX + 1;
  CHECK(refused(many.text()).code == ANSWERS_TOO_MANY);
  many.answers = CLASS_ANSWERS_MAX;
  CHECK(refused(many.text()).code == ANSWERS_OK);
  CHECK(words(LAB_LANG_EN, refused(hand_link{CLASS_ANSWERS_VERSION, 24, 209, 1, 17}.text())) ==
        "ans: the link carries more than 16 answers; asking the model instead.");
  for (const char* bad : {"AQ==", "AQ+/", "AQ A", "AQ\xe4\xb8\xad"}) CHECK(refused(bad).code == ANSWERS_ALPHABET);
  for (const char* bad : {"\xff\xe4\xb8", "\x9e", "\xff", "\xff\x80", "a\xff\xf8\x80\x80\x80"}) {  // half a character
    hand_link l;
    l.piece0 = bad;
    CHECK(refused(l.text()).code == ANSWERS_TEXT);
  }
  CHECK(refused(b64url(hand_link().bytes() + '\0')).code == ANSWERS_TRAILING);
  // Every refusal has its words in both languages, naming the key.
  for (int c = ANSWERS_TOO_LONG; c <= ANSWERS_TRAILING; c++) {
    answers_refusal why;
    why.code = answers_refusal_code(c);
    for (lab_lang lang : {LAB_LANG_EN, LAB_LANG_ZH}) {
      const std::string t = words(lang, why);
      CHECK(t.rfind("ans", 0) == 0);
      CHECK(t.size() > 20);
    }
    CHECK(words(LAB_LANG_EN, why) != words(LAB_LANG_ZH, why));
  }
}

TEST_CASE("answers refused: random damage never crashes, and what decodes re-encodes to a fixed point (seed: --rng-seed)", "[answers]") {
  const unsigned seed = Catch::rngSeed();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  class_answers a = small_model();
  carried_answer c;
  c.question.text = "中国的首都是";
  c.question.off = {{23, 75}};
  c.question.unit = {23, 75};
  c.parts = CLASS_PART_RULES | CLASS_PART_FLOW;
  c.reply = some_reply();
  c.reply.before_top = {{{7, "北京"}, 0.035, 0.209}, {{8, "哪个"}, 0.3, 0.1}};
  c.reply.rising = {{{8, "哪个"}, 0.3, 0.1}};
  c.reply.units = {{{23, 75}, 6.186947f, {{7, "北京"}, {12, "上海"}}}};
  c.reply.picked = c.reply.units[0];
  c.reply.picked_per_token = {0, 0.5f, -0.25f, 0};
  c.reply.picked_gate = {0, 1, -0.5f, 0.1f};
  c.reply.picked_up = {1, 0.5f, 0.5f, 0};
  c.reply.flow.assign(24, {1.5f, 20.0f});
  carried_answer g;
  g.question.text = "中国的首都是";
  g.question.gate_layers = {0, 11, 23};
  g.question.threshold = 0.05;
  g.reply = some_reply();
  g.reply.gate_layers = {0, 11, 23};
  for (int i = 0; i < 3; i++) {
    mlp_gate_counts k;
    k.total = 768, k.open = 300, k.negative = 100, k.histogram[5] = 468, k.histogram[40] = 300;
    g.reply.gates_stream.push_back(k);
    g.reply.gates_shortcut.push_back(k);
  }
  a.answers = {c, g};
  const std::string bytes = un_b64url(class_answers_encode(a));
  REQUIRE(refused(b64url(bytes)).code == ANSWERS_OK);
  int decoded = 0;
  for (int trial = 0; trial < 20000; trial++) {
    std::string damaged = bytes;
    for (int k = 1 + int(rng() % 4); k > 0; k--) {
      const size_t at = rng() % damaged.size();
      switch (rng() % 4) {
        case 0: damaged[at] = char(rng()); break;
        case 1: damaged[at] = char(damaged[at] ^ (1 << (rng() % 8))); break;
        case 2: damaged.erase(at, 1 + rng() % 3); break;
        default: damaged.insert(at, 1, char(rng())); break;
      }
      if (damaged.empty()) damaged = "\x01";
    }
    class_answers out;
    answers_refusal why;
    if (!class_answers_decode(b64url(damaged), {""}, &out, &why)) {
      CHECK(why.code != ANSWERS_OK);
      CHECK(why.at <= damaged.size());
      continue;
    }
    decoded++;
    // What decodes is drawn, and written again it reads back the same.
    lab_state s = lab_state_default();
    for (const carried_answer& x : out.answers) {
      CHECK(x.reply.position < int(x.reply.prompt.size()));
      model_prompt_text(x.reply);
      rules_next_rows(x.reply, !x.question.off.empty());
      rules_unit_rows(x.reply, s);
      rules_picked_rows(x.reply, s);
      flow_rows(x.reply, s);
      flow_extremes_text(x.reply);
      gates_shortcut_rows(x.reply, 0.1);
    }
    const std::string again = class_answers_encode(out);
    class_answers out2;
    if (again.empty()) continue;
    REQUIRE(class_answers_decode(again, {""}, &out2, &why));
    CHECK(class_answers_encode(out2) == again);
  }
  INFO("decoded " << decoded << " of 20000 damaged links");
  CHECK(decoded > 0);
}
