// The whole model's answers in a link, on real replies: the built-in synthetic whole model run
// in-process (model_host over the fetch twin, as model_host_test.cpp), asked exactly the questions
// the views ask (model_session_question), its answers encoded, decoded, and the views' mirror text
// (model_view.cpp) built from the decoded answers compared line by line with the text built from
// the host's own replies, in English and Chinese: the rule book with a unit switched off and a unit
// picked, without, the flow, the gates view on the stream.
//
// `answers_tests "[measure]"` prints the lengths of the link's ans= for the lesson's answers on the
// built-in model and an estimate for Qwen3.5-0.8B (docs/links.md has the table); with
// ANSWERS_CORPUS_DIR set it also writes each encoding's bytes there (the fuzz target's seeds).
#include <catch2/catch.hpp>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "core/checkpoint/synthetic_model.h"
#include "core/checkpoint/synthetic_tokenizer.h"
#include "core/experiments/live_session.h"
#include "core/experiments/model_session.h"
#include "core/link/qr_code.h"
#include "core/link/qr_text.h"
#include "core/views/class_answers.h"
#include "core/views/class_link_lighter.h"
#include "core/model/model_host.h"
#include "core/views/model_view.h"
#include "core/base/strings.h"
#include "core/link/url_state.h"
#include "platform/native/fetch_native.h"

namespace {

const char* kSite = "https://lab.example/models/synthetic/";

// The built-in whole model in-process, loaded once for the file.
struct host_fixture {
  mem_files files;
  native_fetch net;
  std::unique_ptr<model_host> host;
  host_fixture() {
    files.files = synth_model_planted_make();
    net.files = &files;
    net.base = kSite;
    model_loader_options o;
    o.fetch.clock = nullptr;
    host.reset(new model_host(&net, o));
    host->open(kSite, 0);
    double now = 0;
    for (int i = 0; i < 100000 && !host->ready() && host->status().phase != MODEL_STATUS_FAILED; i++) {
      now += 0.01;
      host->pump(now);
      net.deliver(now);
    }
  }
};

host_fixture& built_in() {
  static host_fixture f;
  REQUIRE(f.host->ready());
  return f;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The view's mirror text for the state, with this status and this reply to the state's question.
std::string mirror(const lab_state& s, const model_status& st, const model_reply& r) {
  model_session ms;
  ms.location = model_session_location(s);
  ms.status = st;
  ms.asked = model_session_question(s, st.layers);
  ms.have_reply = true;
  ms.reply = r;
  ms.carried.shown = true;  // a session with no model open: the views print what it holds
  live_session ls;
  ls.model = ms;
  const live_choice c;
  if (s.view == LAB_VIEW_RULES) return rules_view_text(s, &ls, c);
  if (s.view == LAB_VIEW_FLOW) return flow_view_text(s, &ls, c);
  return gates_stream_view_text(s, &ls);
}

// The states of the lesson's whole-model views a teacher shares.
struct shared_view {
  const char* name;
  lab_state state;
};

std::vector<shared_view> lesson_views() {
  const synth_planted p;
  std::vector<shared_view> out;
  lab_state s = lab_state_default();
  s.view = LAB_VIEW_RULES;  // lesson 003: the city unit off, the capital unit picked
  s.off = {p.city_layer, p.city_unit};
  s.layer = p.capital_layer, s.unit = p.capital_unit;
  out.push_back({"rule book, a unit off, a unit picked", s});
  s.off.clear();
  s.layer = p.city_layer, s.unit = p.city_unit;
  out.push_back({"rule book, nothing off, the city unit picked", s});
  s.layer = -1, s.token = 1;
  out.push_back({"rule book at token 1, nothing picked", s});
  s = lab_state_default();
  s.view = LAB_VIEW_FLOW;
  s.layer = 5;
  out.push_back({"flow, layer 5 marked", s});
  s.off = {p.city_layer, p.city_unit, p.capital_layer, p.capital_unit};
  s.token = 2, s.layer = -1;
  out.push_back({"flow, two units off, at token 2", s});
  s = lab_state_default();
  s.view = LAB_VIEW_GATES;
  s.gates_input = LAB_GATES_STREAM;
  out.push_back({"gates on the stream, the first, middle and last layers", s});
  s.hist_token = 2, s.threshold = 0.05, s.pack_layers = {3, 18};
  out.push_back({"gates on the stream, one token, thr 0.05", s});
  return out;
}

class_answers identity_of(const model_status& st) {
  class_answers a;
  a.model = "";  // the built-in model: no model= in the link
  a.format = "bf16";
  a.name = st.name;
  a.layers = st.layers, a.hidden = st.hidden, a.intermediate = st.intermediate, a.vocab = st.vocab;
  a.synthetic = st.synthetic;
  return a;
}

carried_answer answer_for(const lab_state& s) {
  host_fixture& f = built_in();
  carried_answer c;
  c.question = model_session_question(s, f.host->status().layers);
  c.reply = f.host->answer(c.question);
  REQUIRE(!c.reply.error.failed());
  return c;
}

std::string un_b64url(const std::string& text) {
  static const std::string a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    acc = acc << 6 | uint32_t(a.find(c)), bits += 6;
    if (bits >= 8) out += char((acc >> (bits - 8)) & 0xff), bits -= 8;
  }
  return out;
}

}  // namespace

TEST_CASE("answers on the built-in model: each view's mirror from the decoded link is the teacher's, line by line", "[answers][model]") {
  const model_status st = built_in().host->status();
  REQUIRE(st.layers == 24);
  class_answers a = identity_of(st);
  const std::vector<shared_view> views = lesson_views();
  for (const shared_view& v : views) a.answers.push_back(answer_for(v.state));
  size_t carried = 0;
  const std::string text = class_answers_encode(a, &carried);
  CHECK(carried == views.size());
  class_answers back;
  answers_refusal why;
  REQUIRE(class_answers_decode(text, {""}, &back, &why));
  REQUIRE(back.answers.size() == views.size());
  const model_status student = class_answers_status(back);
  for (size_t i = 0; i < views.size(); i++) {
    const lab_state& s = views[i].state;
    INFO(views[i].name);
    // The student's page finds the answer to the question its state asks, with the view's part.
    const model_question q = model_session_question(s, student.layers);
    const carried_answer* found = class_answers_find(back, q, class_answers_view_part(s.view));
    REQUIRE(found == &back.answers[i]);
    for (lab_lang lang : {LAB_LANG_EN, LAB_LANG_ZH}) {
      strings_set_lang(lang);
      const std::vector<std::string> teacher = split_lines(mirror(s, st, a.answers[i].reply));
      const std::vector<std::string> shown = split_lines(mirror(s, student, found->reply));
      strings_set_lang(LAB_LANG_EN);
      REQUIRE(teacher.size() > 6);  // the status, the prompt and the view's rows: not only a status
      REQUIRE(shown.size() == teacher.size());
      for (size_t k = 0; k < teacher.size(); k++) {
        INFO("line " << k);
        CHECK(shown[k] == teacher[k]);
      }
    }
  }
  // The flow's answer is not the rule book's: a rule book without a picked unit asks the flow's
  // question, and only an answer carrying the flow serves the flow.
  lab_state flow_state = views[3].state, rules_state = flow_state;
  rules_state.view = LAB_VIEW_RULES;
  rules_state.layer = -1;
  carried_answer rules_only = answer_for(rules_state);
  rules_only.parts = CLASS_PART_RULES;
  class_answers one = identity_of(st);
  one.answers = {rules_only};
  REQUIRE(class_answers_decode(class_answers_encode(one), {""}, &back, &why));
  const model_question fq = model_session_question(flow_state, 24);
  CHECK(class_answers_find(back, fq) != nullptr);
  CHECK(class_answers_find(back, fq, CLASS_PART_FLOW) == nullptr);
  CHECK(back.answers[0].reply.flow.empty());
  // Another model's link is refused, whichever answers it carries.
  CHECK(!class_answers_decode(text, {"hf:Qwen/Qwen3.5-0.8B"}, &back, &why));
  CHECK(why.code == ANSWERS_OTHER_MODEL);
}

// [SECTION] the lengths of ans= (not a test: a table)
namespace {

struct measured {
  std::string what;
  size_t chars = 0, bytes = 0, tokens = 0, piece_bytes = 0, fragment = 0;
};

// `view`: the state the link shows, for the length of the whole fragment (every key, as the page
// writes it: "#v=1&view=rules&...&ans=...").
measured measure(const std::string& what, const class_answers& a, lab_state view) {
  measured m;
  m.what = what;
  const std::string text = class_answers_encode(a);
  m.chars = text.size();
  view.model = a.model;
  view.answers = text;
  m.fragment = 1 + url_encode(view).size();
  m.bytes = un_b64url(text).size();
  std::set<std::pair<int64_t, std::string>> tokens;
  class_answers back;
  answers_refusal why;
  if (class_answers_decode(text, {a.model}, &back, &why))
    for (const carried_answer& c : back.answers) {
      const model_reply& r = c.reply;
      for (const token_text& t : r.prompt) tokens.insert({t.id, t.piece});
      for (const auto* list : {&r.top, &r.before_top, &r.rising})
        for (const model_next_token& t : *list) tokens.insert({t.token.id, t.token.piece});
      for (const model_unit_row& u : r.units)
        for (const token_text& t : u.toward) tokens.insert({t.id, t.piece});
      for (const token_text& t : r.picked.toward) tokens.insert({t.id, t.piece});
    }
  m.tokens = tokens.size();
  for (const auto& t : tokens) m.piece_bytes += t.second.size();
  if (const char* dir = std::getenv("ANSWERS_CORPUS_DIR")) {
    std::string name = what;
    for (char& ch : name) ch = std::isalnum((unsigned char)ch) ? ch : '_';
    std::ofstream(std::string(dir) + "/" + name, std::ios::binary) << un_b64url(text);
  }
  return m;
}

// Qwen3.5-0.8B's answer of the same shape: each token one of its 248,320 (ids of 18 bits), with
// Chinese pieces for the prompt (its own words, so they join back to the prompt's text) and the
// next tokens, and for what units write toward a mix of one or two Chinese characters and Latin
// words; units among its 3,584; the values ten times larger. `shared`: a token or a unit shown
// twice stays the same one (the same unit writes toward the same 8 tokens in every answer of a set,
// as on the real model); else every token a unit writes toward is another one (the worst case). A
// fixed seed: this is an estimate, the same every run.
class_answers qwen_like(const class_answers& built, bool shared) {
  static const char* const han[] = {"北京", "上海", "首都", "中国", "城市", "哪个", "的", "是", "在", "南京", "广州", "深圳",
                                    "杭州", "天津", "重庆", "国家", "政府", "人民", "大学", "东京"};
  static const char* const latin[] = {" capital", " Beijing", " city", " the", "ing", " Shanghai", " of", " China"};
  std::mt19937 rng(20240523);
  class_answers q = built;
  q.model = "hf:Qwen/Qwen3.5-0.8B";
  q.revision = "2fc06364715b967f1860aea9cf38778875588b17";  // a commit's 40 hex digits
  q.name = "Qwen/Qwen3.5-0.8B";
  q.synthetic = false;
  q.layers = 24, q.hidden = 1024, q.intermediate = 3584, q.vocab = 248320;
  auto fresh = [&](bool chinese) {
    token_text t;
    t.id = int64_t(rng() % 248320);
    t.piece = chinese || rng() % 2 ? std::string(han[rng() % 20]) : std::string(latin[rng() % 8]);
    return t;
  };
  std::map<int64_t, token_text> same;  // by the built-in model's id
  auto remap = [&](token_text& t, bool chinese) {
    auto it = same.find(t.id);
    if (it == same.end()) it = same.emplace(t.id, fresh(chinese)).first;
    t = it->second;
  };
  std::map<unit_ref, std::pair<int, std::vector<token_text>>> units;  // by the built-in model's unit
  auto unit = [&](unit_ref& u, std::vector<token_text>& toward) {
    auto it = units.find(u);
    if (it == units.end() || !shared) {
      std::vector<token_text> w;
      for (size_t k = 0; k < toward.size(); k++) w.push_back(fresh(false));
      it = units.insert_or_assign(u, std::make_pair(int(rng() % 3584), w)).first;
    }
    u.unit = it->second.first;
    toward = it->second.second;
  };
  for (carried_answer& c : q.answers) {
    model_reply& r = c.reply;
    for (token_text& t : r.prompt) {
      const std::string piece = t.piece;
      remap(t, true);
      t.piece = piece, same[t.id] = t;
    }
    for (auto* list : {&r.top, &r.before_top, &r.rising})
      for (model_next_token& t : *list) remap(t.token, true);
    for (model_unit_row& u : r.units) {
      unit(u.unit, u.toward);
      u.value *= 10;
    }
    if (r.picked.unit.layer >= 0) unit(r.picked.unit, r.picked.toward);
    for (std::vector<float>* v : {&r.picked_per_token, &r.picked_gate, &r.picked_up})
      for (float& x : *v) x *= 10;
  }
  return q;
}

}  // namespace

TEST_CASE("answers: the length of ans= for the lesson's answers, and Qwen3.5-0.8B's estimate", "[.measure]") {
  const model_status st = built_in().host->status();
  const synth_planted p;
  lab_state rules = lab_state_default();
  rules.view = LAB_VIEW_RULES;
  rules.layer = p.city_layer, rules.unit = p.city_unit;  // the lesson's unit, picked
  auto with_off = [&](std::vector<int64_t> off) {
    lab_state s = rules;
    s.off = off;
    return answer_for(s);
  };
  std::vector<measured> rows;
  auto both = [&](const std::string& what, const std::vector<carried_answer>& answers, const lab_state& view) {
    class_answers a = identity_of(st);
    a.answers = answers;
    rows.push_back(measure(what + ": built-in", a, view));
    rows.push_back(measure(what + ": Qwen3.5-0.8B, estimate", qwen_like(a, true), view));
    rows.push_back(measure(what + ": Qwen3.5-0.8B, no token shared", qwen_like(a, false), view));
  };
  // (a) the lesson's rule book: the top 10 before -> after with a unit off, the rising tokens, ten
  // units with 8 tokens each, one picked unit.
  lab_state lesson = rules;
  lesson.off = {p.city_layer, p.city_unit};
  both("(a) rule book, one unit off, one picked", {with_off({p.city_layer, p.city_unit})}, lesson);
  // (b) a class set: the base answer and three switch-offs.
  both("(b) class set: base + 3 switch-offs",
       {with_off({}), with_off({p.city_layer, p.city_unit}), with_off({p.capital_layer, p.capital_unit}),
        with_off({p.city_name_layer, p.city_name_unit})},
       lesson);
  lab_state flow = lab_state_default();
  flow.view = LAB_VIEW_FLOW;
  carried_answer fa = answer_for(flow);
  fa.parts = CLASS_PART_FLOW;
  both("flow", {fa}, flow);
  lab_state gates = lab_state_default();
  gates.view = LAB_VIEW_GATES;
  gates.gates_input = LAB_GATES_STREAM;
  both("gates on the stream, 3 layers", {answer_for(gates)}, gates);
  std::printf("\n| answers | ans= characters | bytes | distinct tokens | their pieces' bytes | the whole fragment |\n"
              "| --- | --- | --- | --- | --- | --- |\n");
  for (const measured& m : rows)
    std::printf("| %s | %zu | %zu | %zu | %zu | %zu |\n", m.what.c_str(), m.chars, m.bytes, m.tokens, m.piece_bytes, m.fragment);
  std::printf("\n");
  CHECK(rows[1].chars <= 1500);  // the aim for (a) on Qwen3.5-0.8B
}

// [SECTION] a lighter class link for a coarser QR code (core/views/class_link_lighter.h)
TEST_CASE("answers: a class link's lighter form keeps its first answers and every other key, and names what it leaves out", "[answers][model]") {
  const model_status st = built_in().host->status();
  const synth_planted p;
  class_answers a = identity_of(st);
  const std::vector<shared_view> views = lesson_views();
  for (const shared_view& v : views) a.answers.push_back(answer_for(v.state));
  lab_state page = views[0].state;  // the rule book the teacher shows, its link carrying every answer
  page.answers = class_answers_encode(a);
  const std::string head = "https://lab.example/lesson/#";
  const std::string url = head + url_encode(page);
  // The link with the first k answers, built here from the answers themselves.
  const auto first = [&](size_t k) {
    class_answers some = a;
    some.answers.resize(k);
    lab_state s = page;
    s.answers = class_answers_encode(some);
    return head + url_encode(s);
  };
  for (size_t limit : {first(1).size(), first(3).size() + 1, first(views.size() - 1).size(), url.size() - 1}) {
    INFO("a code is coarse enough up to " << limit << " bytes");
    int asked = 0;
    const lighter_link l = class_link_lighter(url, [&](const std::string& link) { return ++asked, link.size() <= limit; });
    size_t want = 0;
    for (size_t k = 1; k < views.size(); k++) want = first(k).size() <= limit ? k : want;
    REQUIRE(want > 0);
    CHECK(l.kept == want);
    CHECK(l.total == views.size());
    CHECK(l.coarse_enough);
    CHECK(l.link == first(want));
    CHECK(asked <= 4);  // a binary search over 6 candidates
    // Every other key as it was: the same view, the same switch-off and picked unit.
    url_decoded back = url_decode(l.link.substr(head.size()));
    CHECK(back.notices.empty());
    back.state.answers = page.answers;
    CHECK(url_encode(back.state) == url_encode(page));
    REQUIRE(l.left_out.size() == views.size() - want);
    class_answers decoded;
    answers_refusal why;
    REQUIRE(class_answers_decode(page.answers, {""}, &decoded, &why));
    for (size_t i = 0; i < l.left_out.size(); i++) CHECK(l.left_out[i] == class_answer_title(decoded.answers[want + i]));
  }
  // None coarse enough: the first answer alone, said as such.
  const lighter_link one = class_link_lighter(url, [](const std::string&) { return false; });
  CHECK(one.kept == 1);
  CHECK_FALSE(one.coarse_enough);
  CHECK(one.link == first(1));
  // Nothing to offer: one answer, none, a refused ans=, no fragment.
  lab_state single = page;
  single.answers = class_answers_encode([&] { class_answers s = a; s.answers.resize(1); return s; }());
  const auto any = [](const std::string&) { return true; };
  CHECK(class_link_lighter(head + url_encode(single), any).link.empty());
  single.answers.clear();
  CHECK(class_link_lighter(head + url_encode(single), any).link.empty());
  CHECK(class_link_lighter(url.substr(0, url.size() - 7), any).link.empty());  // cut short: refused
  CHECK(class_link_lighter("https://lab.example/lesson/", any).link.empty());

  // The answers as the page names them, in both languages.
  const std::string title = class_answer_title(a.answers[0]);
  CHECK(title == "Rule book: '中国' '的' '首都' '是', switched off: Layer 23, unit 75, picked: Layer 18, unit 65");
  strings_set_lang(LAB_LANG_ZH);
  CHECK(class_answer_title(a.answers[0]) == "规则手册：'中国' '的' '首都' '是'，关闭：第 23 层，单元 75，选中：第 18 层，单元 65");
  CHECK(class_answer_title(a.answers[2]) == "规则手册，每层 MLP 加了什么：'中国' '的' '首都' '是'，在 '的' 处");
  strings_set_lang(LAB_LANG_EN);
  CHECK(class_answer_title(a.answers[5]) == "Gate histograms: '中国' '的' '首都' '是'");
  (void)p;
}

TEST_CASE("answers: on a 1080-line projector a class set's code is too fine, its lighter link's is not", "[answers][model]") {
  const synth_planted p;
  const model_status st = built_in().host->status();
  class_answers a = identity_of(st);
  lab_state rules = lab_state_default();
  rules.view = LAB_VIEW_RULES;
  rules.layer = p.city_layer, rules.unit = p.city_unit;
  for (std::vector<int64_t> off : std::vector<std::vector<int64_t>>{{}, {p.city_layer, p.city_unit}, {p.capital_layer, p.capital_unit},
                                                                    {p.city_name_layer, p.city_name_unit}, {p.negation_layer, p.negation_unit}}) {
    lab_state s = rules;
    s.off = off;
    a.answers.push_back(answer_for(s));
  }
  rules.answers = class_answers_encode(a);
  const std::string url = "https://teacher.example.org/swiglu-lab/#" + url_encode(rules);
  const float side = 1080 - 2 * 12;  // ui=present's code square on 1920 x 1080, about (ui_qr_test.cpp)
  const float whole = qr_px_per_module(qr_encode_text(url), side, 1);
  REQUIRE(whole < QR_FAR_PX);
  const lighter_link l = class_link_lighter(url, [&](const std::string& link) {
    return qr_px_per_module(qr_encode_text(link), side, 1) >= QR_FAR_PX;
  });
  CHECK(l.coarse_enough);
  CHECK((l.kept >= 1 && l.kept < 5));
  CHECK(qr_px_per_module(qr_encode_text(l.link), side, 1) >= QR_FAR_PX);
  // One more answer would make it too fine again: the most it can carry.
  class_answers more = a;
  more.answers.resize(l.kept + 1);
  lab_state s = rules;
  s.answers = class_answers_encode(more);
  CHECK(qr_px_per_module(qr_encode_text("https://teacher.example.org/swiglu-lab/#" + url_encode(s)), side, 1) < QR_FAR_PX);
}
