// The lesson around the views: the whole model's parameter count against lessons
// 000/003 (752M, 35 %, 264,241,152, ≈ 233M), decode traffic (22 MB, 528 MB, int8), the glossary
// and common questions in both languages, the quiz's checkers right and wrong, progress storage,
// and the text mirror of the new views.
#include <algorithm>
#include <catch2/catch.hpp>

#include <cstring>
#include <set>

#include "core/lesson/faq.h"
#include "core/lesson/glossary.h"
#include "core/views/lab_text.h"
#include "core/lesson/model_budget.h"
#include "core/lesson/param_budget.h"
#include "core/lesson/quiz.h"
#include "core/base/strings.h"
#include "core/views/view_table.h"

static bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// [SECTION] the whole model

TEST_CASE("Qwen3.5-0.8B from its configuration: 752M parameters, the MLP 35 %, attention ≈ 233M") {
  const model_budget b = model_budget_count(budget_shape_qwen35_08b());
  CHECK(b.embedding == 248320LL * 1024);  // 254,279,680
  CHECK(b.mlp_per_layer == 11010048);
  CHECK(b.mlp == 264241152);               // 24 x 3 x 1024 x 3584
  CHECK(b.full_attention_layers == 6);
  CHECK(b.linear_attention_layers == 18);
  // Independent arithmetic, term by term (model_budget.h): full attention with its output gate,
  // Gated DeltaNet with its convolution.
  const int64_t full = 1024LL * 8 * 256 * 2 + 2 * 1024LL * 2 * 256 + 8 * 256 * 1024LL + 2 * 256;
  const int64_t qkv = 2 * 16 * 128 + 16 * 128;
  const int64_t linear = 1024LL * qkv + 1024LL * 2048 + 2 * 1024LL * 16 + qkv * 4 + 2 * 16 + 128 + 2048LL * 1024;
  CHECK(b.full_attention_per_layer == full);
  CHECK(b.linear_attention_per_layer == linear);
  CHECK(b.attention == 6 * full + 18 * linear);
  CHECK(b.attention == 233822016);
  CHECK(b.norms == 2 * 1024 * 24 + 1024);
  CHECK(b.total == b.embedding + b.mlp + b.attention + b.norms);
  CHECK(b.total == 752393024);
  // The lessons' rounded figures: "752M", "35%", "about 233M".
  CHECK(int64_t(double(b.total) / 1e6 + 0.5) == 752);
  CHECK(int64_t(100 * b.mlp_share + 0.5) == 35);
  CHECK(b.mlp_share == Approx(0.351201).epsilon(1e-6));
  CHECK(b.attention / 1000000 == 233);
  // The lessons call the MLP the largest block besides the embedding table, "about as large";
  // the configuration's numbers put it just ahead: 264.24M vs 254.28M.
  CHECK(b.mlp > b.embedding);
  CHECK(b.embedding > b.attention);
}

TEST_CASE("decode traffic per token from the budget's counts: 22 MB a layer, 528 MB for 24, int8 about half") {
  const decode_traffic t = decode_traffic_count(1024, 3584, 24);
  const int64_t weights = budget_count(1024, 3584, 24).swiglu_per_layer;
  CHECK(t.bf16_layer == 2 * weights);
  CHECK(t.bf16_layer == 22020096);
  CHECK(t.bf16_all == 528482304);
  CHECK(model_megabytes(t.bf16_layer) == Approx(22.020096).margin(1e-9));
  CHECK(int64_t(model_megabytes(t.bf16_layer) + 0.5) == 22);   // lesson: "about 22 MB"
  CHECK(int64_t(model_megabytes(t.bf16_all) + 0.5) == 528);    // lesson: "about 528 MB"
  CHECK(t.int8_layer == weights + 4 * (3584 + 3584 + 1024));   // weights + f32 scale per row
  CHECK(t.int8_layer == 11042816);
  CHECK(t.int8_all == 24 * 11042816LL);
  // Follows the budget fields: a Llama-7B-like MLP (4096, 11008, 32 layers).
  const decode_traffic llama = decode_traffic_count(4096, 11008, 32);
  CHECK(llama.bf16_layer == 2LL * 3 * 4096 * 11008);
  CHECK(llama.bf16_all == 32 * llama.bf16_layer);
}

// [SECTION] glossary and common questions

TEST_CASE("glossary: the lessons' terms and the views' words, each defined in both languages") {
  const char* lesson_terms[] = {"MLP block", "SwiGLU", "SiLU", "intermediate_dim", "residual stream", "residual connection",
                                "gate", "up", "down", "intermediate unit", "token", "probe", "int8 weights",
                                "L2", "probability", "logit", "token id", "writes toward"};
  REQUIRE(GLOSSARY_COUNT == 18);
  std::set<std::string> names;
  for (int i = 0; i < GLOSSARY_COUNT; ++i) {
    const glossary_term& t = GLOSSARY[i];
    CHECK(t.id == i);
    CHECK(std::string(tr_in(LAB_LANG_EN, t.term)) == lesson_terms[i]);
    for (int l = 0; l < LAB_LANG_COUNT; ++l) {
      CHECK(std::strlen(tr_in(lab_lang(l), t.term)) > 0);
      CHECK(std::strlen(tr_in(lab_lang(l), t.definition)) > 40);
    }
    CHECK(std::string(tr_in(LAB_LANG_EN, t.definition)) != tr_in(LAB_LANG_ZH, t.definition));
    CHECK(names.insert(t.name).second);
    CHECK(glossary_find(t.name) == &t);
  }
  CHECK(glossary_find("attention") == nullptr);
  // Facts the definitions carry (lessons 001/003).
  CHECK(contains(tr_in(LAB_LANG_EN, STR_DEF_INTERMEDIATE_DIM), "3584"));
  CHECK(contains(tr_in(LAB_LANG_ZH, STR_DEF_INTERMEDIATE_DIM), "3584"));
  CHECK(contains(tr_in(LAB_LANG_EN, STR_DEF_SILU), "−0.278"));
  CHECK(contains(tr_in(LAB_LANG_ZH, STR_DEF_SILU), "−1.278"));
}

TEST_CASE("glossary: the terms a text holds, a longer term winning over the one inside it") {
  auto found = [](const std::string& text, lab_lang lang) {
    std::set<int> ids;
    for (glossary_id id : glossary_find_in(text, lang)) ids.insert(id);
    return ids;
  };
  CHECK(found("the residual stream of a token", LAB_LANG_EN) == std::set<int>{GLOSSARY_RESIDUAL_STREAM, GLOSSARY_TOKEN});
  CHECK(found("each intermediate unit", LAB_LANG_EN) == std::set<int>{GLOSSARY_INTERMEDIATE_UNIT});
  CHECK(found("残差流和残差连接", LAB_LANG_ZH) == std::set<int>{GLOSSARY_RESIDUAL_STREAM, GLOSSARY_RESIDUAL_CONNECTION});
  CHECK(found("nothing here", LAB_LANG_EN).empty());
  // "token id" is one term, not "token" and a word after it.
  CHECK(found("a token id and a token", LAB_LANG_EN) == std::set<int>{GLOSSARY_TOKEN_ID, GLOSSARY_TOKEN});
  // "int8 weights" is one term; SiLU inside "SwiGLU" is not (different letters).
  CHECK(found("int8 weights and SwiGLU", LAB_LANG_EN) == std::set<int>{GLOSSARY_INT8, GLOSSARY_SWIGLU});
}

// The runs as "plain|[term-name]|plain" for a compact expectation.
static std::string runs_of(const std::string& text, lab_lang lang) {
  std::string out;
  size_t at = 0;
  for (const glossary_run& r : glossary_runs(text, lang)) {
    REQUIRE(r.begin == at);  // in order, every byte covered once
    REQUIRE(r.end > r.begin);
    const std::string piece = text.substr(r.begin, r.end - r.begin);
    out += r.term < 0 ? piece : "[" + std::string(GLOSSARY[r.term].name) + ":" + piece + "]";
    at = r.end;
  }
  REQUIRE(at == text.size());
  return out;
}

TEST_CASE("glossary in prose: a paragraph cut into plain runs and term references, in both languages") {
  // Longest term wins, each marked once where it first appears, plurals with their term.
  CHECK(runs_of("The residual stream of each token; tokens again, and the residual stream.", LAB_LANG_EN) ==
        "The [residual-stream:residual stream] of each [token:token]; tokens again, and the residual stream.");
  CHECK(runs_of("Two gates and one intermediate unit", LAB_LANG_EN) == "Two [gate:gates] and one [intermediate-unit:intermediate unit]");
  // Whole words only: W_up, up_proj, group and setup are not the term "up"; "silu(" is SiLU.
  CHECK(runs_of("W_up x, up_proj, a group, the setup; silu(z) then up.", LAB_LANG_EN) ==
        "W_up x, up_proj, a group, the setup; [silu:silu](z) then [up:up].");
  // Chinese terms need no spaces around them; a Latin term inside Chinese is still a whole word.
  CHECK(runs_of("加回残差流，每个中间单元逐 token 工作。", LAB_LANG_ZH) ==
        "加回[residual-stream:残差流]，每个[intermediate-unit:中间单元]逐 [token:token] 工作。");
  CHECK(runs_of("残差流和残差连接", LAB_LANG_ZH) == "[residual-stream:残差流]和[residual-connection:残差连接]");
  // A language's terms only: the English words are not Chinese terms where the two differ.
  CHECK(runs_of("residual stream", LAB_LANG_ZH) == "residual stream");
  CHECK(runs_of("", LAB_LANG_EN).empty());
  CHECK(runs_of("nothing to mark", LAB_LANG_EN) == "nothing to mark");
  // The views' own prose holds terms in both languages.
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH}) {
    CHECK(glossary_find_in(tr_in(l, STR_HAND_INTRO), l) == std::vector<glossary_id>{GLOSSARY_SWIGLU, GLOSSARY_SILU});
    // The whole model's views mark their words: the flow's L2 and residual stream, the rule book's probability.
    CHECK(glossary_find_in(tr_in(l, STR_FLOW_INTRO), l) ==
          std::vector<glossary_id>{GLOSSARY_RESIDUAL_STREAM, GLOSSARY_TOKEN, GLOSSARY_L2});
    const std::vector<glossary_id> rules = glossary_find_in(tr_in(l, STR_RULES_INTRO), l);
    CHECK(std::find(rules.begin(), rules.end(), GLOSSARY_PROBABILITY) != rules.end());
    CHECK(glossary_find_in(tr_in(l, STR_FAQ_WIDEN_A), l) == std::vector<glossary_id>{GLOSSARY_SILU, GLOSSARY_RESIDUAL_STREAM, GLOSSARY_INTERMEDIATE_UNIT});
  }
}

TEST_CASE("glossary in prose: an opened definition as the mirror carries it, in the page's language") {
  strings_set_lang(LAB_LANG_EN);
  CHECK(glossary_mirror_text(GLOSSARY_SILU) == std::string("Glossary: SiLU — ") + tr_in(LAB_LANG_EN, STR_DEF_SILU));
  strings_set_lang(LAB_LANG_ZH);
  CHECK(glossary_mirror_text(GLOSSARY_RESIDUAL_STREAM) == std::string("术语：残差流 — ") + tr_in(LAB_LANG_ZH, STR_DEF_RESIDUAL_STREAM));
  strings_set_lang(LAB_LANG_EN);
}

TEST_CASE("common questions: three, under their views, in both languages; the mirror holds the open ones") {
  REQUIRE(FAQ_COUNT == 3);
  CHECK(FAQ[FAQ_GATE_VS_OUTPUT_GATE].view == LAB_VIEW_SILU);
  CHECK(FAQ[FAQ_WIDEN].view == LAB_VIEW_BUDGET);
  CHECK(FAQ[FAQ_MOE].view == LAB_VIEW_PERM);
  for (const faq_entry& f : FAQ)
    for (int l = 0; l < LAB_LANG_COUNT; ++l) {
      CHECK(std::strlen(tr_in(lab_lang(l), f.question)) > 10);
      CHECK(std::strlen(tr_in(lab_lang(l), f.answer)) > 60);
    }
  CHECK(contains(tr_in(LAB_LANG_EN, STR_FAQ_GATE_A), "−0.28"));
  CHECK(contains(tr_in(LAB_LANG_EN, STR_FAQ_GATE_A), "[0, 1]"));
  CHECK(contains(tr_in(LAB_LANG_ZH, STR_FAQ_WIDEN_Q), "3584"));
  strings_set_lang(LAB_LANG_EN);
  CHECK(faq_text(LAB_VIEW_BUDGET, 0).empty());
  CHECK(faq_text(LAB_VIEW_BUDGET, 1u << FAQ_MOE).empty());  // open, but under another view
  const std::string open = faq_text(LAB_VIEW_BUDGET, 1u << FAQ_WIDEN);
  CHECK(contains(open, "Common questions"));
  CHECK(contains(open, tr(STR_FAQ_WIDEN_A)));
  strings_set_lang(LAB_LANG_ZH);
  CHECK(contains(faq_text(LAB_VIEW_SILU, 7), tr_in(LAB_LANG_ZH, STR_FAQ_GATE_A)));
  strings_set_lang(LAB_LANG_EN);
}

// [SECTION] quiz

TEST_CASE("quiz: the lesson's three choices, right and wrong") {
  const quiz_live_answers none;
  quiz_answer a;
  CHECK(quiz_check(QUIZ_ODOT, a, none) == QUIZ_UNANSWERED);
  a.chosen = 1;  // entry by entry
  CHECK(quiz_check(QUIZ_ODOT, a, none) == QUIZ_RIGHT);
  a.chosen = 0;  // a matrix product
  CHECK(quiz_check(QUIZ_ODOT, a, none) == QUIZ_WRONG);
  a.chosen = 2;
  CHECK(quiz_check(QUIZ_ODOT, a, none) == QUIZ_WRONG);
  a.chosen = 0;  // much smaller
  CHECK(quiz_check(QUIZ_WRITE_SIZE, a, none) == QUIZ_RIGHT);
  a.chosen = 1;
  CHECK(quiz_check(QUIZ_WRITE_SIZE, a, none) == QUIZ_WRONG);
  a.chosen = 1;  // three big matrices in every layer
  CHECK(quiz_check(QUIZ_LARGEST, a, none) == QUIZ_RIGHT);
  a.chosen = 2;
  CHECK(quiz_check(QUIZ_LARGEST, a, none) == QUIZ_WRONG);
  a.chosen = 3;  // no such option
  CHECK(quiz_check(QUIZ_LARGEST, a, none) == QUIZ_UNANSWERED);
  // Thinking questions: still non-linear without silu (yes); a whole layer is not per token (no).
  a.chosen = 0;
  CHECK(quiz_check(QUIZ_BILINEAR, a, none) == QUIZ_RIGHT);
  CHECK(quiz_check(QUIZ_WHOLE_LAYER, a, none) == QUIZ_WRONG);
  a.chosen = 1;
  CHECK(quiz_check(QUIZ_BILINEAR, a, none) == QUIZ_WRONG);
  CHECK(quiz_check(QUIZ_WHOLE_LAYER, a, none) == QUIZ_RIGHT);
  a.chosen = 2;  // yes/no has two options
  CHECK(quiz_check(QUIZ_BILINEAR, a, none) == QUIZ_UNANSWERED);
}

TEST_CASE("quiz: bytes per token typed as numbers, checked against the budget's counts with a tolerance") {
  const quiz_live_answers none;
  double expected;
  REQUIRE(quiz_expected_number(QUIZ_BF16_LAYER, none, &expected));
  CHECK(expected == Approx(22.020096));
  REQUIRE(quiz_expected_number(QUIZ_BF16_ALL, none, &expected));
  CHECK(expected == Approx(528.482304));
  REQUIRE(quiz_expected_number(QUIZ_INT8_LAYER, none, &expected));
  CHECK(expected == Approx(11.042816));
  auto check = [&](quiz_id q, const char* typed) {
    quiz_answer a;
    a.typed = typed;
    return quiz_check(q, a, none);
  };
  for (const char* right : {"22", "22.02", " 22 MB", "21.6", "22.5"}) CHECK(check(QUIZ_BF16_LAYER, right) == QUIZ_RIGHT);
  for (const char* wrong : {"11", "44", "21.5", "22,020,096", "2.2"}) CHECK(check(QUIZ_BF16_LAYER, wrong) == QUIZ_WRONG);
  for (const char* right : {"528", "528.48", "530 MB", "520"}) CHECK(check(QUIZ_BF16_ALL, right) == QUIZ_RIGHT);
  for (const char* wrong : {"22", "264", "1056", "500"}) CHECK(check(QUIZ_BF16_ALL, wrong) == QUIZ_WRONG);
  for (const char* right : {"11", "11.04", "11.01"}) CHECK(check(QUIZ_INT8_LAYER, right) == QUIZ_RIGHT);
  for (const char* wrong : {"22", "5.5", "10.5"}) CHECK(check(QUIZ_INT8_LAYER, wrong) == QUIZ_WRONG);
  for (const char* unreadable : {"about 22", "22MB!", "0x16", "1,5", "inf"})
    CHECK(check(QUIZ_BF16_LAYER, unreadable) == QUIZ_UNREADABLE);
  CHECK(check(QUIZ_BF16_LAYER, "   ") == QUIZ_UNANSWERED);
}

TEST_CASE("quiz: number parsing keeps thousands commas apart from decimal commas") {
  double v;
  CHECK(quiz_parse_number("528,482,304", &v));
  CHECK(v == 528482304);
  CHECK(quiz_parse_number("1,234.5", &v));
  CHECK(v == 1234.5);
  CHECK(quiz_parse_number("35 %", &v));
  CHECK(v == 35);
  CHECK(quiz_parse_number("35％", &v));
  CHECK(quiz_parse_number("−0.5", &v));  // the lessons' minus sign
  CHECK(v == -0.5);
  for (const char* bad : {"", "1,23", "12,3456", ",123", "1.5,000", "nan", "MB"}) CHECK_FALSE(quiz_parse_number(bad, &v));
}

TEST_CASE("quiz: live answers are checked against the value the caller computed") {
  quiz_live_answers live;
  quiz_answer a;
  a.typed = "32";
  CHECK(quiz_check(QUIZ_OPEN_SHARE, a, live) == QUIZ_NOT_READY);  // nothing computed yet
  live.open_ready = true;
  live.open_percent = 32.34;
  CHECK(quiz_check(QUIZ_OPEN_SHARE, a, live) == QUIZ_RIGHT);
  for (const char* right : {"31.4", "33.3", "32.34 %"}) {
    a.typed = right;
    CHECK(quiz_check(QUIZ_OPEN_SHARE, a, live) == QUIZ_RIGHT);
  }
  for (const char* wrong : {"31.3", "33.4", "0.32", "43"}) {
    a.typed = wrong;
    CHECK(quiz_check(QUIZ_OPEN_SHARE, a, live) == QUIZ_WRONG);
  }
  // The shuffle: exactly 0.
  a.typed = "0";
  CHECK(quiz_check(QUIZ_SHUFFLE, a, live) == QUIZ_NOT_READY);
  live.shuffle_ready = true;
  live.shuffle_max_diff = 0;
  CHECK(quiz_check(QUIZ_SHUFFLE, a, live) == QUIZ_RIGHT);
  a.typed = "1e-7";
  CHECK(quiz_check(QUIZ_SHUFFLE, a, live) == QUIZ_WRONG);
  // Which positions change: a set.
  a.typed = "2";
  CHECK(quiz_check(QUIZ_CHANGE, a, live) == QUIZ_NOT_READY);
  live.change_ready = true;
  live.changed = {2};
  for (const char* right : {"2", " 2 ", "2,2", "2, "}) {
    a.typed = right;
    CHECK(quiz_check(QUIZ_CHANGE, a, live) == QUIZ_RIGHT);
  }
  for (const char* wrong : {"2,3", "3", "2,3,4,5", "0,1,2"}) {
    a.typed = wrong;
    CHECK(quiz_check(QUIZ_CHANGE, a, live) == QUIZ_WRONG);
  }
  for (const char* unreadable : {"two", "-2", "2.5", "2;3"}) {
    a.typed = unreadable;
    CHECK(quiz_check(QUIZ_CHANGE, a, live) == QUIZ_UNREADABLE);
  }
  CHECK(quiz_check_positions("3 4 2", {2, 3, 4}) == QUIZ_RIGHT);
  CHECK(quiz_check_positions("2,3,4,5", {5, 4, 3, 2}) == QUIZ_RIGHT);
}

TEST_CASE("quiz: every question has a prompt and an explanation in both languages, filled in") {
  lab_state s = lab_state_default();
  quiz_live_answers live;
  live.open_ready = live.shuffle_ready = live.change_ready = true;
  live.open_percent = 32.34;
  live.open_layer = 11;
  live.changed = {2};
  std::set<std::string> names;
  for (int l = 0; l < LAB_LANG_COUNT; ++l) {
    strings_set_lang(lab_lang(l));
    for (int i = 0; i < QUIZ_COUNT; ++i) {
      const quiz_question& q = QUIZ[i];
      INFO("question " << QUIZ_NAMES[i] << " lang " << l);
      CHECK(q.id == i);
      CHECK(quiz_prompt(q.id, s, live).size() > 20);
      CHECK(quiz_explanation(q.id, s, live).size() > 20);
      CHECK_FALSE(contains(quiz_prompt(q.id, s, live), "%"));
      CHECK((q.kind == QUIZ_KIND_CHOICE) == (q.option_count > 0));
      for (int o = 0; o < q.option_count; ++o) CHECK(std::strlen(tr(q.options[o])) > 0);
      if (l == 0) CHECK(names.insert(QUIZ_NAMES[i]).second);
    }
    CHECK(contains(quiz_explanation(QUIZ_BF16_LAYER, s, live), "22,020,096"));
    CHECK(contains(quiz_explanation(QUIZ_BF16_LAYER, s, live), "22.02 MB"));
    CHECK(contains(quiz_explanation(QUIZ_BF16_ALL, s, live), "528.48 MB"));
    CHECK(contains(quiz_explanation(QUIZ_INT8_LAYER, s, live), "11.04 MB"));
    CHECK(contains(quiz_explanation(QUIZ_LARGEST, s, live), "35.1 %"));
    CHECK(contains(quiz_explanation(QUIZ_LARGEST, s, live), "752,393,024"));
    CHECK(contains(quiz_explanation(QUIZ_OPEN_SHARE, s, live), "32.3 %"));
    CHECK(contains(quiz_prompt(QUIZ_OPEN_SHARE, s, live), "11"));
    CHECK(contains(quiz_prompt(QUIZ_OPEN_SHARE, s, live), "0.1"));
    CHECK(contains(quiz_prompt(QUIZ_BF16_ALL, s, live), "24"));
  }
  strings_set_lang(LAB_LANG_EN);
}

TEST_CASE("quiz progress: this browser's record round-trips, unknown entries are skipped, reset is empty") {
  quiz_progress p = quiz_progress_empty();
  CHECK(quiz_progress_encode(p).empty());
  CHECK(quiz_progress_right(p) == 0);
  p.verdict[QUIZ_ODOT] = QUIZ_RIGHT;
  p.verdict[QUIZ_BF16_LAYER] = QUIZ_WRONG;
  p.verdict[QUIZ_CHANGE] = QUIZ_RIGHT;
  p.verdict[QUIZ_SHUFFLE] = QUIZ_NOT_READY;  // not a result: not kept
  const std::string text = quiz_progress_encode(p);
  CHECK(text == "odot=r,bf16=w,change=r");
  quiz_progress back = quiz_progress_decode(text);
  for (int i = 0; i < QUIZ_COUNT; ++i) CHECK(back.verdict[i] == (i == QUIZ_SHUFFLE ? QUIZ_UNANSWERED : p.verdict[i]));
  CHECK(quiz_progress_right(back) == 2);
  back = quiz_progress_decode("odot=r,newer=r,bf16=x,,=,largest");
  CHECK(back.verdict[QUIZ_ODOT] == QUIZ_RIGHT);
  CHECK(back.verdict[QUIZ_BF16_LAYER] == QUIZ_UNANSWERED);
  CHECK(quiz_progress_right(back) == 1);
  CHECK(quiz_progress_right(quiz_progress_decode("")) == 0);
}

// [SECTION] the views and their mirror

TEST_CASE("the quiz and glossary views are rows of the view table, and their mirror is in both languages") {
  CHECK(std::string(lab_view_get(LAB_VIEW_QUIZ).name) == "quiz");
  CHECK(std::string(lab_view_get(LAB_VIEW_GLOSSARY).name) == "glossary");
  CHECK_FALSE(lab_view_get(LAB_VIEW_QUIZ).live());
  lab_state s = lab_state_default();
  s.view = LAB_VIEW_GLOSSARY;
  for (int l = 0; l < LAB_LANG_COUNT; ++l) {
    s.lang = lab_lang(l);
    const std::string text = lab_text(s);
    for (const glossary_term& t : GLOSSARY) {
      CHECK(contains(text, tr_in(s.lang, t.term)));
      CHECK(contains(text, tr_in(s.lang, t.definition)));
    }
  }
  s.view = LAB_VIEW_QUIZ;
  s.quiz = QUIZ_ODOT;
  s.lang = LAB_LANG_EN;
  std::string text = lab_text(s);
  CHECK(contains(text, "Question 1 / " + std::to_string(QUIZ_COUNT)));
  CHECK(contains(text, tr_in(LAB_LANG_EN, STR_QUIZ_ODOT_Q)));
  CHECK(contains(text, std::string("B. ") + tr_in(LAB_LANG_EN, STR_QUIZ_ODOT_A1)));
  s.lang = LAB_LANG_ZH;
  s.quiz = QUIZ_BF16_ALL;
  text = lab_text(s);
  CHECK(contains(text, "第 5 / " + std::to_string(QUIZ_COUNT) + " 题"));
  CHECK(contains(text, "全部 24 层"));
}

TEST_CASE("budget view mirror: the whole model and decode traffic") {
  lab_state s = lab_state_default();
  s.view = LAB_VIEW_BUDGET;
  std::string text = lab_text(s);
  for (const char* part : {"254,279,680", "264,241,152", "233,822,016", "752,393,024", "35.1 %", "22.02 MB", "528.48 MB",
                           "11.04 MB", "265.03 MB"})
    CHECK(contains(text, part));
  s.layers = 1;
  s.lang = LAB_LANG_ZH;
  text = lab_text(s);
  CHECK(contains(text, "752,393,024"));  // the whole model keeps Qwen's numbers
  CHECK(contains(text, "仅 1 层"));
  CHECK_FALSE(contains(text, "528.48 MB"));  // decode traffic follows the fields
}

TEST_CASE("lesson path: where the view stands, Previous and Next") {
  lab_state s = lab_state_default();
  CHECK(lab_path_index(s) == -1);
  CHECK_FALSE(lab_path_step(&s, 1));
  s.path = {LAB_VIEW_HAND, LAB_VIEW_SILU, LAB_VIEW_BUDGET, LAB_VIEW_GATES, LAB_VIEW_PERM, LAB_VIEW_QUIZ};
  s.view = LAB_VIEW_BUDGET;
  CHECK(lab_path_index(s) == 2);
  CHECK(lab_path_step(&s, 1));
  CHECK(s.view == LAB_VIEW_GATES);
  CHECK(lab_path_step(&s, -1));
  CHECK(lab_path_step(&s, -1));
  CHECK(lab_path_step(&s, -1));
  CHECK(s.view == LAB_VIEW_HAND);
  CHECK_FALSE(lab_path_step(&s, -1));
  for (int i = 0; i < 5; ++i) CHECK(lab_path_step(&s, 1));
  CHECK(s.view == LAB_VIEW_QUIZ);
  CHECK_FALSE(lab_path_step(&s, 1));
  s.view = LAB_VIEW_WEIGHTS;  // off the path: both return to where it was left
  CHECK(lab_path_index(s) == -1);
  lab_state back = s;
  CHECK(lab_path_step(&back, -1));
  CHECK(back.view == LAB_VIEW_QUIZ);
  s.path_at = -1;  // nowhere left on it (a link without at=): Next goes to its start
  CHECK_FALSE(lab_path_step(&s, -1));
  CHECK(lab_path_step(&s, 1));
  CHECK(s.view == LAB_VIEW_HAND);
}
