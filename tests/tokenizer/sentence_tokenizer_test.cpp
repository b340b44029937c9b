// The lesson's sentence and a typed one through a checkpoint's own tokenizer.json
// (core/checkpoint_remote/sentence_tokenizer.h), with the native build of the core's tokenizer as
// the service (the page runs the same sources as wasm in a worker: tests/tokenizer/wasm_compare.mjs
// shows they agree). A model= link without ids= opens with the lesson's sentence; a checkpoint
// without tokenizer.json, or with one the tokenizer refuses, says which (STREAM_NEEDS_IDS); the
// file is fetched once per session; the link's pieces= round-trips any pieces.
#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <random>

#include <nlohmann/json.hpp>

#include "core/checkpoint/synthetic_tokenizer.h"
#include "core/source/checkpoint_source.h"
#include "core/views/live_view.h"
#include "core/base/strings.h"
#include "core/tokenizer/bpe_tokenizer.h"
#include "packs/pack_test_util.h"
#include "platform/native/fetch_native.h"

static const char* kBase = "https://hub.example/o/m/resolve/main/";
static const char* kLesson = "今天天气不错，我们去公园";

// The core's tokenizer as the platform's service, answering on the next poll (as a worker would).
struct native_service final : tokenizer_service {
  std::map<std::string, bpe_tokenizer> parsed;
  std::map<uint32_t, tokenize_answer> answers;
  uint32_t next = 1;
  int loads = 0;
  bool lost = false;  // says it has a file it lost (a worker that failed to keep it): asked once
  bool tokenizer_known(const std::string& key) override { return parsed.count(key) > 0 || lost; }
  uint32_t tokenize_start(const std::string& key, const char* json, size_t json_bytes, const std::string& text) override {
    tokenize_answer a;
    if (!parsed.count(key) && !json) {
      a.file_needed = true;  // as the worker answers "reload"
      lost = false;
    } else if (!parsed.count(key)) {
      bpe_tokenizer t;
      loads++;
      if (bpe_tokenizer_load(std::string(json, json_bytes), &t, &a.error)) parsed[key] = t;
    }
    if (a.error.empty() && !a.file_needed) {
      bpe_encoding e = bpe_encode(&parsed[key], text);
      a.ids.assign(e.ids.begin(), e.ids.end());
      a.pieces = e.pieces;
    }
    answers[next] = a;
    return next++;
  }
  bool tokenize_poll(uint32_t id, tokenize_answer* out) override {
    auto it = answers.find(id);
    if (it == answers.end()) return false;
    *out = it->second;
    answers.erase(it);
    return true;
  }
};

static mem_files unmarked_checkpoint(bool with_tokenizer) {
  synth_spec s = pack_test_spec(SYNTH_NAMING_QWEN35, ST_DTYPE_BF16, 1);
  s.vocab = 300;  // the synthetic tokenizer's ids are below 300
  mem_files m = pack_test_checkpoint(s);
  nlohmann::json cfg = nlohmann::json::parse(m.files["config.json"]);
  cfg.erase("swiglu_lab_synthetic");  // a "real" model: no probe of its own
  m.files["config.json"] = cfg.dump();
  if (with_tokenizer) m.files["tokenizer.json"] = synth_tokenizer_json();
  return m;
}

struct open_fixture {
  mem_files files;
  native_fetch net;
  native_service service;
  std::unique_ptr<checkpoint_source> src;
  explicit open_fixture(mem_files f, void (*faults)(native_fetch&) = nullptr) : files(std::move(f)) {
    net.files = &files;
    net.base = kBase;
    if (faults) faults(net);
    model_location loc;
    std::string err;
    REQUIRE(model_location_parse(kBase, &loc, &err));
    checkpoint_source_options o;
    o.tokenizer = &service;
    o.lesson_sentence = kLesson;  // the caller's words (source_choice gives the string table's)
    src.reset(new checkpoint_source(&net, loc, 0, o));
    for (int i = 0; i < 1000 && src->phase() == SOURCE_OPENING; i++) {
      src->pump(0);
      net.deliver(0);
    }
  }
};

static bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST_CASE("the synthetic checkpoints' tokenizer.json splits the lesson's sentence as Qwen3 does") {
  bpe_tokenizer t;
  std::string err;
  REQUIRE(bpe_tokenizer_load(synth_tokenizer_json(), &t, &err));
  const bpe_encoding e = bpe_encode(&t, kLesson);
  CHECK(e.pieces == std::vector<std::string>{"今天", "天气", "不错", "，", "我们", "去", "公园"});
  for (int id : e.ids) CHECK((id >= 0 && id < 300));
  CHECK(bpe_decode(t, e.ids) == kLesson);
  // Any other text still goes through: bytes, and the lesson's characters where they occur.
  const bpe_encoding o = bpe_encode(&t, "Hi 天!");
  CHECK(bpe_decode(t, o.ids) == "Hi 天!");
  CHECK(o.pieces == std::vector<std::string>{"H", "i", " ", "天", "!"});  // no merge joins a space to 天
}

TEST_CASE("model= without ids=: the lesson's sentence through the checkpoint's own tokenizer.json") {
  strings_set_lang(LAB_LANG_EN);
  SECTION("with tokenizer.json: open, with its ids and pieces") {
    open_fixture f(unmarked_checkpoint(true));
    REQUIRE(f.src->phase() == SOURCE_READY);
    const source_probe& p = f.src->model().probes.at(0);
    bpe_tokenizer t;
    std::string err;
    REQUIRE(bpe_tokenizer_load(synth_tokenizer_json(), &t, &err));
    const bpe_encoding want = bpe_encode(&t, kLesson);
    CHECK(p.label == kLesson);
    CHECK(p.tokens == std::vector<int64_t>(want.ids.begin(), want.ids.end()));
    CHECK(p.pieces == want.pieces);
    CHECK(f.src->probe_input(0) == nullptr);  // not yet: the embedding rows come next
  }
  SECTION("no tokenizer.json: NEEDS_IDS, and says so") {
    open_fixture f(unmarked_checkpoint(false));
    REQUIRE(f.src->phase() == SOURCE_FAILED);
    const source_failure e = f.src->failures().at(0);
    CHECK(e.error.fault == STREAM_NEEDS_IDS);
    CHECK(e.file == "tokenizer.json");
    CHECK(e.error.reason.what == STR_TOK_FILE_MISSING);  // data, worded when it is drawn
    CHECK(contains(live_failure_text(e), "(the checkpoint has no tokenizer.json)"));
  }
  SECTION("a tokenizer.json the tokenizer refuses: NEEDS_IDS, with its words") {
    mem_files m = unmarked_checkpoint(false);
    m.files["tokenizer.json"] = R"({"model": {"type": "Unigram", "vocab": []}})";
    open_fixture f(std::move(m));
    REQUIRE(f.src->phase() == SOURCE_FAILED);
    const source_failure e = f.src->failures().at(0);
    CHECK(e.error.fault == STREAM_NEEDS_IDS);
    CHECK(e.error.reason.what == STR_TOK_FILE_UNREADABLE);
    CHECK(contains(live_failure_text(e), "(its tokenizer.json cannot be read: "));
    CHECK(contains(live_failure_text(e), "Unigram"));
    // In Chinese: which part of the file, in Chinese, without the tokenizer's English.
    strings_set_lang(LAB_LANG_ZH);
    const std::string zh = live_failure_text(e);
    strings_set_lang(LAB_LANG_EN);
    INFO(zh);
    CHECK(contains(zh, "分词器不支持其中的 'model' 部分"));
    for (const char* english : {"Unigram", "supported", "type", "BPE"}) CHECK_FALSE(contains(zh, english));
  }
  SECTION("not JSON, or cut short by the host: never handed on, and says which") {
    mem_files m = unmarked_checkpoint(true);
    m.files["tokenizer.json"].resize(m.files["tokenizer.json"].size() / 2);
    open_fixture a(std::move(m));
    REQUIRE(a.src->phase() == SOURCE_FAILED);
    CHECK(contains(live_failure_text(a.src->failures().at(0)), "(its tokenizer.json is not valid JSON ("));
    strings_set_lang(LAB_LANG_ZH);
    CHECK(contains(live_failure_text(a.src->failures().at(0)), "（它的 tokenizer.json 不是有效的 JSON）"));
    strings_set_lang(LAB_LANG_EN);
    mem_files m2 = unmarked_checkpoint(true);
    open_fixture b(std::move(m2), [](native_fetch& n) { n.faults["tokenizer.json"].truncate = true; });
    REQUIRE(b.src->phase() == SOURCE_FAILED);
    CHECK(b.src->failures().at(0).error.cause == STREAM_TRUNCATED);
    CHECK(contains(live_failure_text(b.src->failures().at(0)), "(its tokenizer.json could not be fetched: truncated"));
    CHECK(b.service.loads == 0);
    open_fixture c(unmarked_checkpoint(true), [](native_fetch& n) { n.faults["tokenizer.json"].status = 403; });
    REQUIRE(c.src->phase() == SOURCE_FAILED);
    CHECK(contains(live_failure_text(c.src->failures().at(0)), "HTTP 403"));
  }
  SECTION("JSON but not an object, or a tree too large to build: the same reason in both languages") {
    auto words = [](const std::string& json, lab_lang lang) {
      mem_files m = unmarked_checkpoint(false);
      m.files["tokenizer.json"] = json;
      open_fixture f(std::move(m));
      REQUIRE(f.src->phase() == SOURCE_FAILED);
      strings_set_lang(lang);
      const std::string text = live_failure_text(f.src->failures().at(0));
      strings_set_lang(LAB_LANG_EN);
      return text;
    };
    CHECK(contains(words("[1, 2]", LAB_LANG_EN), "(its tokenizer.json is not a JSON object)"));
    CHECK(contains(words("[1, 2]", LAB_LANG_ZH), "（它的 tokenizer.json 不是 JSON 对象）"));
    const std::string deep = std::string(100, '[') + std::string(100, ']');
    CHECK(contains(words(deep, LAB_LANG_EN), "(its tokenizer.json nests deeper than 64 levels: this page does not parse it)"));
    CHECK(contains(words(deep, LAB_LANG_ZH), "它的 tokenizer.json 嵌套超过 64 层：本页不解析它"));
    std::string flat = "[0";
    for (int i = 0; i < BPE_JSON_MAX_VALUES; ++i) flat += ",0";
    flat += "]";
    CHECK(contains(words(flat, LAB_LANG_EN), "holds more than 2,097,152 JSON values"));
    CHECK(contains(words(flat, LAB_LANG_ZH), "含有超过 2,097,152 个 JSON 值"));
    std::string members = "{";
    for (int i = 0; i <= BPE_JSON_MAX_MEMBERS; ++i) members += (i ? ",\"" : "\"") + std::to_string(i) + "\":0";
    members += "}";
    CHECK(contains(words(members, LAB_LANG_EN), "has more than 524,288 object members"));
    CHECK(contains(words(members, LAB_LANG_ZH), "含有超过 524,288 个对象成员"));
  }
}

// A checkpoint with its tokenizer.json behind the fetch twin, the core's tokenizer as the service.
struct typed_fixture {
  mem_files files = unmarked_checkpoint(true);
  native_fetch net;
  native_service service;
  model_location loc;
  typed_fixture() {
    net.files = &files;
    net.base = kBase;
    std::string err;
    REQUIRE(model_location_parse(kBase, &loc, &err));
  }
  void settle(sentence_tokenizer& t) {
    for (int i = 0; i < 20 && (t.state() == SENTENCE_FETCHING || t.state() == SENTENCE_TOKENIZING); i++) {
      net.deliver(0);
      t.pump();
    }
  }
};

// The sentence goes to the service without the file's bytes, since it says it has them, and it
// has lost them (the page's worker answers "reload"): the file is fetched again and handed over,
// and the sentence is answered; nothing of the file stays with the sentence's object meanwhile.
TEST_CASE("a tokenizer the service lost is fetched again and the sentence answered") {
  typed_fixture f;
  sentence_tokenizer t(&f.net, &f.service, f.loc);
  f.service.lost = true;
  t.request("我们去公园", SENTENCE_MAX_TOKENS);
  f.settle(t);
  REQUIRE(t.state() == SENTENCE_DONE);
  CHECK(t.answer().pieces == std::vector<std::string>{"我们", "去", "公园"});
  CHECK(f.net.network_requests == 1);
  CHECK(f.service.loads == 1);
  CHECK_FALSE(f.service.lost);
}

TEST_CASE("a typed sentence: tokenizer.json is fetched once, later sentences reuse the parsed tokenizer") {
  typed_fixture f;
  sentence_tokenizer a(&f.net, &f.service, f.loc), b(&f.net, &f.service, f.loc);
  a.request("我们去公园", SENTENCE_MAX_TOKENS);
  f.settle(a);
  REQUIRE(a.state() == SENTENCE_DONE);
  CHECK(a.answer().pieces == std::vector<std::string>{"我们", "去", "公园"});
  b.request("今天天气不错", SENTENCE_MAX_TOKENS);  // another object, same file: known to the service
  f.settle(b);
  REQUIRE(b.state() == SENTENCE_DONE);
  CHECK(b.answer().pieces == std::vector<std::string>{"今天", "天气", "不错"});
  CHECK(f.net.network_requests == 1);
  CHECK(f.service.loads == 1);
  a.request(std::string(70, 'x') + " " + std::string(70, '.'), 2);  // more tokens than allowed
  f.settle(a);
  CHECK(a.state() == SENTENCE_FAILED);
  CHECK(a.failure() == SENTENCE_TOO_LONG);
  sentence_tokenizer none(&f.net, nullptr, f.loc);
  none.request("x", 4);
  CHECK(none.failure() == SENTENCE_NO_SERVICE);
}

TEST_CASE("pieces= joins and splits any pieces back") {
  std::mt19937 rng(Catch::rngSeed());  // --rng-seed N reproduces
  const std::vector<std::string> atoms = {",", "\\", "\\,", "a", " ", "今天", "😀", "", ",,", "\\\\"};
  for (int round = 0; round < 2000; round++) {
    std::vector<std::string> pieces(1 + rng() % 8);
    for (std::string& p : pieces)
      for (int k = (int)(rng() % 4); k > 0; k--) p += atoms[rng() % atoms.size()];
    std::vector<std::string> back;
    REQUIRE(sentence_pieces_split(sentence_pieces_join(pieces), &back));
    CHECK(back == pieces);
  }
  std::vector<std::string> out;
  CHECK(sentence_pieces_join({"今天", "，", "a,b", "c\\"}) == "今天,，,a\\,b,c\\\\");
  CHECK_FALSE(sentence_pieces_split("a\\", &out));
}
