// Why a file failed is said in the page's language. HTTP faults, a cancel and a
// parser's reasons (manifest, checkpoint config, index, safetensors header) are data worded by the
// string table: a Chinese page shows Chinese, and no English reason reaches its mirror.
#include "ui_harness.h"

#include <cctype>
#include <set>

#include "core/views/live_view.h"
#include "core/base/read_error.h"
#include "core/base/strings.h"
#include "platform/native/fetch_native.h"

// Words that read the same in both languages: names of protocols, formats, files and programs.
static const std::set<std::string> kSameInBothLanguages = {
    "http", "cors", "range", "json", "safetensors", "xxh3", "swiglu", "lab", "mlp", "pytorch_model", "bin", "pickle",
    "nan", "token", "ids", "tokenize", "content", "int4", "gptq", "awq", "true", "false", "silu", "mib"};

// The prose words (3 letters or more, lower case) of a text: not what stands in quotes (a
// field's name: 'tokens', "1+w"), not names with a dot, an underscore, a dash or a digit
// (embed_tokens.weight, config.json, BF16), not the names that read the same in both languages.
static std::set<std::string> prose_words(const std::string& text) {
  std::set<std::string> out;
  std::string w;
  bool quoted = false;
  for (size_t i = 0;; i++) {
    const char c = i < text.size() ? text[i] : '\0';
    if (std::isalnum((unsigned char)c) || c == '_' || c == '.' || c == '-') {
      w += (char)std::tolower((unsigned char)c);
      continue;
    }
    // A full stop before a space ends a sentence; "model.," is a name.
    if (c == ' ' || c == '\n' || c == '\0')
      while (!w.empty() && (w.back() == '.' || w.back() == '-')) w.pop_back();
    bool name = false;
    for (char x : w) name |= !std::isalpha((unsigned char)x);
    if (w.size() >= 3 && !quoted && !name && !kSameInBothLanguages.count(w)) out.insert(w);
    w.clear();
    if (c == '\'' || c == '"') quoted = !quoted;
    if (!c) break;
  }
  return out;
}

// No prose word of `en` (the English of what was shown) stands as a word in the Chinese text.
static void check_no_english(const std::string& zh, const std::string& en, const std::string& what) {
  INFO(what << ": " << zh);
  const std::set<std::string> shown = prose_words(zh);
  for (const std::string& w : prose_words(en)) {
    INFO("English word '" << w << "'");
    CHECK_FALSE(shown.count(w));
  }
}

// The last reason of the string table's section (core/base/read_error.h).
static const int kLastReason = STR_READ_LIMIT_HEADER;

TEST_CASE("failure words: every fault and every parser reason is Chinese on a Chinese page") {
  strings_set_lang(LAB_LANG_ZH);
  for (int f = STREAM_NETWORK; f < STREAM_FAULT_COUNT; f++) {
    source_failure sf{"x1.q8", "x1.q8", {}};
    sf.error.fault = (stream_fault)f;
    sf.error.status = 503, sf.error.got = 5, sf.error.want = 9, sf.error.seconds = 20;
    const std::string zh = live_failure_text(sf);
    strings_set_lang(LAB_LANG_EN);
    const std::string en = live_failure_text(sf);
    strings_set_lang(LAB_LANG_ZH);
    CHECK(zh != en);
    check_no_english(zh, en, "fault " + std::to_string(f));
  }
  // Each reason a parser can give, in the sentence that carries it (args hold no words).
  for (int id = STR_READ_AT_FILE; id <= kLastReason; id++) {
    for (read_place place : {READ_AT_FIELD, READ_AT_FILE, READ_AT_TOP, READ_AT_TENSOR}) {
      source_failure sf{"manifest.json", "packs/default/manifest.json", {}};
      sf.error.fault = STREAM_FORMAT;
      sf.error.reason = read_error_at("x[0]", (str_id)id, {"7", "9"});  // a path of no words
      sf.error.reason.place = place;
      const std::string zh = live_failure_text(sf);
      check_no_english(zh, tr_in(LAB_LANG_EN, (str_id)id), std::string("reason ") + tr_in(LAB_LANG_EN, (str_id)id));
      check_no_english(zh, tr_in(LAB_LANG_EN, STR_READ_AT_TOP), "top level");
      check_no_english(zh, tr_in(LAB_LANG_EN, STR_READ_AT_FILE), "file");
      check_no_english(zh, tr_in(LAB_LANG_EN, STR_READ_AT_TENSOR), "tensor");
      check_no_english(zh, tr_in(LAB_LANG_EN, STR_FAULT_FORMAT), "unreadable");
    }
  }
  strings_set_lang(LAB_LANG_EN);
}

TEST_CASE("failure words: the CLI's English reasons read as before") {
  pack_manifest m;
  std::string err;
  CHECK_FALSE(pack_manifest_parse("[]", &m, &err));
  CHECK(err == "manifest.json: file: not a JSON object");
  CHECK_FALSE(pack_manifest_parse("{\"format\": \"x\"}", &m, &err));
  CHECK(err == "manifest.json: top level: format 'x' is not swiglu-lab-pack");
  read_error why;
  CHECK_FALSE(pack_manifest_parse("{\"format\": \"swiglu-lab-pack\", \"version\": 9}", &m, &why));
  CHECK(why.place == READ_AT_TOP);
  CHECK(why.what == STR_READ_MANIFEST_NEWER);
  CHECK(why.args == std::vector<std::string>{"9", std::to_string((int)PACK_FORMAT_VERSION)});
  CHECK(read_error_text_in(LAB_LANG_ZH, why) == "顶层：权重包版本 9 比本读取器（2）新：请更新 SwiGLU Lab");
}

// The page in Chinese, failing three ways.
TEST_CASE("failure words: a Chinese page says a 404, a cancel and a malformed manifest in Chinese") {
  SECTION("a pack that is not on the server") {
    live_page lp;
    headless_page page("#v=1&view=gates&pack=missing/folder/&lang=zh");
    lp.settle(page);
    INFO(page.mirror());
    CHECK(contains(page.mirror(), "无法加载 manifest.json：HTTP 404：服务器上没有这个文件"));
    check_no_english(page.mirror(), tr_in(LAB_LANG_EN, STR_FAULT_NOT_FOUND), "404");
  }
  SECTION("a cancel while the manifest loads, and while the layers load") {
    live_page lp;
    headless_page page("#v=1&view=gates&lang=zh");
    page.frame();  // the manifest is asked for
    page.click("stream-cancel");
    lp.settle(page);
    INFO(page.mirror());
    CHECK(contains(page.mirror(), "无法打开位于 packs/default/ 的权重。"));
    check_no_english(page.mirror(), tr_in(LAB_LANG_EN, STR_FAULT_CANCELLED), "cancel");
    page.click("stream-retry");
    lp.cancel_then_open(page, "view-perm");
    INFO(page.mirror());
    CHECK(contains(page.mirror(), "加载已取消"));
    check_no_english(page.mirror(), tr_in(LAB_LANG_EN, STR_FAULT_CANCELLED), "cancel");
  }
  SECTION("a manifest that is not JSON, and one with a bad field") {
    for (const char* text : {"<html>not a pack</html>", "{\"format\": \"swiglu-lab-pack\", \"version\": 1, \"hash\": 5}"}) {
      live_page lp;
      lp.pack.files[PACK_MANIFEST_FILE] = text;
      headless_page page("#v=1&view=gates&lang=zh");
      lp.settle(page);
      INFO(page.mirror());
      const bool json = text[0] == '{';
      CHECK(contains(page.mirror(), json ? "无法加载 manifest.json：无法读取（顶层：'hash' 不是字符串）"
                                         : "无法加载 manifest.json：无法读取（文件：不是 JSON 对象）"));
      check_no_english(page.mirror(), tr_in(LAB_LANG_EN, json ? STR_READ_NOT_STRING : STR_READ_NOT_JSON_OBJECT), "manifest");
      check_no_english(page.mirror(), "file top level unreadable", "manifest");
    }
  }
}
