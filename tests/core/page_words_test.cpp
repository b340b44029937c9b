// What the page says: notices name the value used (thr=-1 -> 0, htok -> all tokens),
// credentials never stay in a link, the quiz's record is in the mirror (and in the early text),
// a share too small for its decimals never reads 0, in English and Chinese.
#include <catch2/catch.hpp>

#include <regex>

#include "core/views/lab_text.h"
#include "core/views/lab_text_open.h"
#include "core/lesson/model_budget.h"
#include "core/base/number_format.h"
#include "core/lesson/quiz.h"
#include "core/base/strings.h"
#include "core/link/url_state.h"

static bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

static std::string notice_in(lab_lang lang, const url_notice& n) {
  strings_set_lang(lang);
  const std::string text = lab_notice_text(n);
  strings_set_lang(LAB_LANG_EN);
  return text;
}

TEST_CASE("words: a clamped value's notice says the value used") {
  const url_decoded thr = url_decode("#view=gates&thr=-1");
  REQUIRE(thr.notices.size() == 1);
  CHECK(thr.notices[0].used == "0");
  CHECK(notice_in(LAB_LANG_EN, thr.notices[0]) == "Link key 'thr' = '-1' is out of range: using 0, the nearest allowed value.");
  CHECK(notice_in(LAB_LANG_ZH, thr.notices[0]) == "链接参数 'thr' = '-1' 超出范围：改用最接近的允许值 0。");
  // Several numbers: each as used; a huge one too.
  const url_decoded x = url_decode("#x=1e400,1");
  REQUIRE(x.notices.size() == 1);
  CHECK(contains(notice_in(LAB_LANG_EN, x.notices[0]), "using 100,1, the nearest"));
  const url_decoded h = url_decode("#h=0");
  CHECK(contains(notice_in(LAB_LANG_EN, h.notices[0]), "using 1, the nearest"));
  // The -1 of htok and layer is said in words, never as an internal value.
  const url_decoded htok = url_decode("#view=gates&htok=-7");
  REQUIRE(htok.notices.size() == 1);
  CHECK(contains(notice_in(LAB_LANG_EN, htok.notices[0]), "using all tokens, the nearest"));
  CHECK(contains(notice_in(LAB_LANG_ZH, htok.notices[0]), "全部 token"));
  CHECK(lab_link_value_text("layer", "-1") == "the first layer shown");
  CHECK(lab_link_value_text("tok", "-1") == "-1");
  // A layer past any model's: the link's own value and the default, never the page's limit.
  const url_decoded layer = url_decode("#view=flow&layer=1e309");
  REQUIRE(layer.notices.size() == 1);
  CHECK(notice_in(LAB_LANG_EN, layer.notices[0]) == "Link key 'layer' = '1e309' is out of range: using the lesson default.");
  CHECK(notice_in(LAB_LANG_ZH, layer.notices[0]) == "链接参数 'layer' = '1e309' 超出范围：改用课程默认值。");
}

TEST_CASE("words: a user name and password in pack= or model= are removed, and the notice does not repeat them") {
  for (const char* key : {"model", "pack"}) {
    INFO(key);
    const url_decoded d = url_decode(std::string("#view=gates&") + key + "=http://u:p@127.0.0.1:8123/swiglu-lab/x/");
    REQUIRE(d.notices.size() == 1);
    CHECK(d.notices[0].problem == URL_CREDENTIALS);
    CHECK(d.notices[0].value == "http://127.0.0.1:8123/swiglu-lab/x/");
    const std::string& kept = std::string(key) == "model" ? d.state.model : d.state.pack;
    CHECK(kept == "http://127.0.0.1:8123/swiglu-lab/x/");
    CHECK_FALSE(contains(url_encode(d.state), "u:p"));
    for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH}) {
      const std::string text = notice_in(l, d.notices[0]);
      CHECK_FALSE(contains(text, "u:p"));
      CHECK(contains(text, "http://127.0.0.1:8123/swiglu-lab/x/"));
    }
  }
  CHECK(contains(notice_in(LAB_LANG_ZH, url_decode("#pack=https://me@host/p/").notices.at(0)), "用户名或密码"));
  std::string out;
  CHECK(url_strip_userinfo("https://a@b@host/x@y/", &out));  // the last @ before the path ends the userinfo
  CHECK(out == "https://host/x@y/");
  CHECK_FALSE(url_strip_userinfo("packs/me@home/", &out));   // a relative path has no userinfo
  CHECK(out == "packs/me@home/");
  CHECK_FALSE(url_strip_userinfo("hf:Qwen/Qwen3.5-0.8B@main", &out));
  CHECK(url_decode("#model=hf:Qwen/Qwen3.5-0.8B@main").notices.empty());
}

TEST_CASE("words: a share too small for its decimals keeps two significant digits") {
  CHECK(fmt_share(0.3512, 1) == "35.1 %");
  CHECK(fmt_share(0.0005, 1) == "0.1 %");      // rounds to 0.1: as it is
  CHECK(fmt_share(0.00049, 1) == "0.049 %");   // would read 0.0
  CHECK(fmt_share(0, 1) == "0.0 %");
  CHECK(fmt_share(-0.0000123, 1) == "-0.0012 %");
  // Qwen3.5-0.8B's norms: 50,176 of 752,393,024 parameters, 0.00667 %.
  const model_budget b = model_budget_count(budget_shape_qwen35_08b());
  CHECK(b.norms == 50176);
  CHECK(lab_model_percent(b.norms) == "0.0067 %");
  CHECK(lab_model_percent(b.mlp) == "35.1 %");
  lab_state s = lab_state_default();
  s.view = LAB_VIEW_BUDGET;
  CHECK(contains(lab_text(s), "norms: 50,176 (50.18K), 0.0067 %"));
  CHECK_FALSE(std::regex_search(lab_text(s), std::regex("(^|[^0-9])0\\.0 %")));  // "100.0 %" is the total
}

TEST_CASE("words: the quiz's record is in the mirror, and in the early text of this browser") {
  quiz_progress p = quiz_progress_empty();
  strings_set_lang(LAB_LANG_EN);
  CHECK(lab_quiz_progress_text(p) == "0 of " + std::to_string(QUIZ_COUNT) + " answered right in this browser\n");
  p.verdict[QUIZ_ODOT] = QUIZ_RIGHT, p.verdict[QUIZ_WRITE_SIZE] = QUIZ_RIGHT, p.verdict[QUIZ_BF16_LAYER] = QUIZ_WRONG;
  CHECK(lab_quiz_progress_text(p) ==
        "2 of " + std::to_string(QUIZ_COUNT) + " answered right in this browser\nanswered right: 1, 2\nanswered, not right yet: " +
            std::to_string(QUIZ_BF16_LAYER + 1) + "\n");
  strings_set_lang(LAB_LANG_ZH);
  CHECK(contains(lab_quiz_progress_text(p), "在这个浏览器里答对 2 / " + std::to_string(QUIZ_COUNT) + " 题"));
  CHECK(contains(lab_quiz_progress_text(p), "已答对：1, 2"));
  strings_set_lang(LAB_LANG_EN);
  lab_state s = url_decode("#v=1&view=quiz&quiz=write").state;
  lab_text_open_set_quiz_record(quiz_progress_encode(p));
  const std::string early = lab_text_at_open(s);
  lab_text_open_set_quiz_record("");
  CHECK(contains(early, "2 of " + std::to_string(QUIZ_COUNT) + " answered right in this browser\nanswered right: 1, 2\n"));
  CHECK(contains(lab_text_at_open(s), "0 of " + std::to_string(QUIZ_COUNT) + " answered right"));
}
