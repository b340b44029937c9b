// The class link, headless: a teacher's page computes the rule book on a checkpoint and adds its
// answers to the link (ans=); a student's page opens that link with every request to the model's
// host failing and shows the same numbers without opening the model; a switch-off the teacher
// prepared toggles; "Check them yourself" (the host back) loads the model and says every carried
// answer agrees. A bad ans= is named in the notice and the view asks the model instead.
#include "ui_harness.h"

#include "core/checkpoint/synthetic_model.h"
#include "core/experiments/model_session.h"
#include "core/experiments/precomputed_answers.h"
#include "core/views/lab_text_open.h"
#include "core/checkpoint_remote/model_location.h"
#include "core/link/qr_code.h"
#include "core/link/qr_text.h"
#include "core/views/class_link_lighter.h"
#include "ui/qr_panel.h"
#include "core/views/model_view.h"
#include "core/base/number_format.h"
#include "core/base/strings.h"
#include "core/link/url_state.h"
#include "early/early_text.h"
#include "platform/native/fetch_native.h"
#include "platform/native/platform_native.h"

namespace {

struct class_site {
  mem_files files;
  class_site() {
    for (const auto& f : synth_model_planted_make()) {
      files.files[std::string(MODEL_DEFAULT_LOCATION) + f.first] = f.second;
      files.files["hub/qwen/" + f.first] = f.second;
    }
    native_fetch* net = platform_native_fetch();
    *net = native_fetch();
    net->files = &files;
    net->base = "";
    platform_native_model_reset();
  }
  template <class F>
  static bool settle_until(headless_page& page, F done, int frames = 3000) {
    for (int i = 0; i < frames; i++) {
      page.frame();
      platform_native_fetch()->deliver(page.now);
      if (done()) {
        for (int k = 0; k < 3; k++) page.frame();
        return true;
      }
    }
    return false;
  }
  static bool shown(headless_page& page) { return model_view_ready(page.app.live.model, page.app.state); }
};

// The view's answer as the mirror prints it: from its prompt on (the status lines above it say
// where the numbers come from, and differ by design).
std::string answer_part(const std::string& mirror) {
  const std::string prompt = std::string(tr(STR_MODEL_PROMPT)) + tr(STR_MIRROR_COLON);
  const size_t at = mirror.find(prompt);
  return at == std::string::npos ? "" : mirror.substr(at);
}

}  // namespace

TEST_CASE("class link: the teacher's answers travel in the link; a student's page shows them with the host gone, toggles a prepared unit, and checks them") {
  for (const char* model : {"hub/qwen/", ""}) {
    INFO("model=" << model);
    class_site site;
    const std::string where = std::string(model).empty() ? "" : std::string("&model=") + model;
    const std::string base = "#v=1&view=rules&layer=23&unit=75" + where;
    std::string teacher_base, teacher_off, link;
    {
      headless_page teacher(base);
      REQUIRE(site.settle_until(teacher, [&] { return class_site::shown(teacher); }));
      teacher.click("class-add");
      REQUIRE_FALSE(teacher.app.state.answers.empty());
      teacher_base = answer_part(teacher.mirror());
      teacher.click("rules-picked-off");  // the unit the lesson switches off, then its answer added too
      REQUIRE(site.settle_until(teacher, [&] { return class_site::shown(teacher) && !teacher.app.state.off.empty(); }));
      teacher.click("class-add");
      teacher_off = answer_part(teacher.mirror());
      INFO(teacher.mirror());
      CHECK(contains(teacher.mirror(), strf(tr(STR_CARRIED_ADDED), "2", "").substr(0, 20)));
      teacher.click("rules-picked-off");  // back on: the link the teacher copies
      REQUIRE(site.settle_until(teacher, [&] { return class_site::shown(teacher) && teacher.app.state.off.empty(); }));
      link = "#" + url_encode(teacher.app.state);
    }
    REQUIRE_FALSE(teacher_base.empty());
    REQUIRE(teacher_base != teacher_off);
    CHECK(link.size() < 2600);  // two answers of the built-in model (docs/links.md)

    // The student: a phone, the model's host unreachable.
    platform_native_fetch()->offline = true;
    platform_native_fetch()->requested.clear();
    headless_page student(link, 390, 844);
    REQUIRE(site.settle_until(student, [&] { return class_site::shown(student); }, 60));
    INFO(student.mirror());
    CHECK(answer_part(student.mirror()) == teacher_base);
    CHECK(contains(student.mirror(), strf(tr(STR_CARRIED_FROM), "swiglu-lab/synthetic-whole-model", "").substr(0, 30)));
    CHECK(student.app.live.model.service == nullptr);  // no model opened: no worker, no weights
    CHECK(platform_native_fetch()->requested.empty());
    scroll_through(student, "a student's carried rule book");
    check_mirror_has_every_number(student.mirror(), "a student's carried rule book", 20);
    student.click("rules-picked-off");  // a switch-off the teacher prepared
    REQUIRE(site.settle_until(student, [&] { return class_site::shown(student) && !student.app.state.off.empty(); }, 60));
    CHECK(answer_part(student.mirror()) == teacher_off);
    CHECK(platform_native_fetch()->requested.empty());

    // Another unit: not in the link, so the model is needed, and the page says so.
    student.open(link + "&off=23:76");
    for (int i = 0; i < 10; i++) student.frame();
    CHECK_FALSE(class_site::shown(student));
    CHECK(contains(student.mirror(), tr(STR_CARRIED_MISSING)));
    scroll_through(student, "a setting the link does not carry");
    CHECK(has_widget("class-check"));

    // Check them yourself, the host back: every carried answer agrees with the model.
    student.open(link);
    for (int i = 0; i < 5; i++) student.frame();
    platform_native_fetch()->offline = false;
    student.click("class-check");
    const std::string agree = strf(tr(STR_CARRIED_AGREE), "2");
    // As the web page draws: only while it asks for frames (lab_app_animating), and the "worker"
    // here runs in frames. The check asks for frames until its verdict shows, so a page gone idle
    // after the view's own answer cannot leave it at "0 of 2".
    const std::string checking = std::string(tr(STR_CARRIED_CHECKING)).substr(0, std::string(tr(STR_CARRIED_CHECKING)).find("%s"));
    int checking_frames = 0;
    for (int i = 0; i < 3000 && (i < 3 || lab_app_animating(&student.app, student.now)); i++) {
      student.frame();
      platform_native_fetch()->deliver(student.now);
      if (!contains(student.mirror(), checking)) continue;
      checking_frames++;
      CHECK(model_view_waiting(student.app.live.model, student.app.state));  // "0 of 2" asks for frames
    }
    CHECK(checking_frames > 0);
    INFO(student.mirror());
    REQUIRE(contains(student.mirror(), agree));
    CHECK(answer_part(student.mirror()) == teacher_base);
  }
}

TEST_CASE("class link: a bad ans= is named in the notice (en, zh), the view asks the model, nothing else of the link is lost") {
  class_site site;
  std::string good;
  {
    headless_page teacher("#v=1&view=flow");
    REQUIRE(site.settle_until(teacher, [&] { return class_site::shown(teacher); }));
    teacher.click("class-add");
    good = teacher.app.state.answers;
  }
  REQUIRE(good.size() > 20);
  const std::vector<std::string> bad = {good.substr(0, good.size() / 2), (good[0] == 'B' ? "C" : "B") + good.substr(1), good + "AAAA", "%%%", good};
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH})
    for (size_t i = 0; i < bad.size(); i++) {
      INFO(i << " " << l);
      // The last: a good text on a link naming another model.
      const std::string other = i + 1 == bad.size() ? "&model=hub/qwen/" : "";
      headless_page page("#v=1&view=flow&tok=2&ans=" + bad[i] + other + (l == LAB_LANG_ZH ? "&lang=zh" : ""));
      REQUIRE(site.settle_until(page, [&] { return class_site::shown(page); }));
      std::string notices;
      for (const std::string& n : page.app.notices) notices += n + "\n";
      INFO(notices);
      CHECK(contains(notices, "ans"));
      CHECK(page.url().state.answers.empty());
      CHECK(page.url().state.token == 2);  // the rest of the link stands
      CHECK(page.app.live.model.service != nullptr);  // the model itself answers
    }
}

// The early text of a class link (swiglu_text_class_LANG.wasm's entry, here natively): a student's
// page prints the carried rows before the app arrives, exactly as the app's mirror prints them once
// it runs, for the rule book (with a picked unit, and a prepared switch-off), the flow and the gates
// view on the stream, in both languages. A setting the link does not carry prints the status only,
// as the app does; a refused ans= prints what a link without it prints.
TEST_CASE("class link: the early text prints the carried answers as the app's mirror does", "[early]") {
  class_site site;
  lab_state teacher_state;
  {
    headless_page teacher("#v=1&view=rules&layer=23&unit=75");
    REQUIRE(site.settle_until(teacher, [&] { return class_site::shown(teacher); }));
    teacher.click("class-add");
    teacher.click("rules-picked-off");
    REQUIRE(site.settle_until(teacher, [&] { return class_site::shown(teacher) && !teacher.app.state.off.empty(); }));
    teacher.click("class-add");
    for (const char* view : {"&view=flow", "&view=gates&in=stream&pl=0,23"}) {
      teacher.open("#" + url_encode(teacher.app.state) + view);
      REQUIRE(site.settle_until(teacher, [&] { return class_site::shown(teacher); }));
      teacher.click("class-add");
    }
    teacher_state = teacher.app.state;
  }
  REQUIRE_FALSE(teacher_state.answers.empty());
  platform_native_fetch()->offline = true;
  // What the student opens: the teacher's link on one view, in one language, maybe changed.
  struct student_case { lab_view view; bool off; const char* extra; bool carries; };
  const student_case cases[] = {
      {LAB_VIEW_RULES, false, "", true}, {LAB_VIEW_RULES, true, "", true}, {LAB_VIEW_FLOW, true, "", true},
      {LAB_VIEW_GATES, true, "", true}, {LAB_VIEW_RULES, true, "&off=23:76", false}, {LAB_VIEW_FLOW, true, "&off=18:65", false},
      {LAB_VIEW_FLOW, true, "&ans=AAAA", false},
      {LAB_VIEW_RULES, true, "&layer=99", true}};  // no such layer: none picked (the flow's answer serves it)
  int carried = 0;
  for (lab_lang lang : {LAB_LANG_EN, LAB_LANG_ZH})
    for (const student_case& c : cases) {
      lab_state s = teacher_state;
      s.lang = lang, s.view = c.view;
      if (!c.off) s.off.clear();
      const std::string link = "#" + url_encode(s) + c.extra;
      INFO(link);
      const std::string early = early_text_for_link(link.c_str());
      headless_page student(link, 390, 844);
      site.settle_until(student, [&] { return class_site::shown(student); }, 30);
      for (int i = 0; i < 5; i++) student.frame();
      INFO("early:\n" << early << "\nmirror:\n" << student.mirror());
      const bool from_link = student.app.live.model.carried.shown && class_site::shown(student);
      CHECK(from_link == c.carries);
      carried += from_link;
      if (student.app.live.model.carried.shown) {  // the carried rows, or the status only (a setting not carried)
        CHECK(student.mirror() == early);
      } else {  // refused: the app asks the model; the early text is the link's without ans=
        lab_state bare = url_decode(link).state;
        bare.answers.clear();
        CHECK(early == early_text_for_link(("#" + url_encode(bare)).c_str()));
        CHECK(student.mirror().compare(0, early.find('\n'), early, 0, early.find('\n')) == 0);
      }
    }
  CHECK(carried == 10);  // each language: the rule book three times, the flow, the gates view on the stream
}

// The built-in model's precomputed answers (models/synthetic/answers.txt, precomputed_answers.h):
// with the model's weights held back, the rule book, the flow and the gates view on the stream show
// the first question's numbers at once, marked, with the model asked all the same; "Add to the class
// link" waits for the model's own. Once the weights come, the model's answer replaces them with the
// same rows and the mark goes. A question the file does not answer waits for the model, and a file
// for another model, or one that does not read, is not used.
TEST_CASE("precomputed answers: the built-in model's first answers show at once, marked, until the model's own (en, zh)") {
  class_site site;
  std::string text;  // the file, as the build writes it: the answers to precomputed_answer_links()
  {
    headless_page teacher("#v=1&view=hand");
    for (const std::string& link : precomputed_answer_links()) {
      teacher.open(link + (text.empty() ? "" : "&ans=" + text));  // the teacher's page: the model answers
      REQUIRE(site.settle_until(teacher, [&] { return class_site::shown(teacher); }));
      CHECK_FALSE(teacher.app.live.model.precomputed_shown);  // no file yet
      teacher.click("class-add");
      text = teacher.app.state.answers;
    }
  }
  REQUIRE_FALSE(text.empty());
  const std::string weights = std::string(MODEL_DEFAULT_LOCATION) + "model.safetensors-00001-of-00001.safetensors";
  const std::string views[] = {"#v=1&view=rules", "#v=1&view=flow", "#v=1&view=gates&in=stream"};
  for (const char* lang : {"en", "zh"})
    for (const std::string& view : views) {
      const std::string link = view + "&lang=" + lang;
      INFO(link);
      site.files.files[PRECOMPUTED_ANSWERS_URL] = text + "\n";
      platform_native_fetch()->cache_clear("");  // a first visit: no weights kept, no model open
      platform_native_model_reset();
      platform_native_fetch()->faults[weights].stall = true;  // the model does not finish loading
      std::string precomputed;
      {
        headless_page page(link);
        REQUIRE(site.settle_until(page, [&] { return class_site::shown(page); }, 60));
        const model_session& ms = page.app.live.model;
        CHECK(ms.precomputed_shown);
        CHECK(ms.service != nullptr);  // the model is opened all the same
        CHECK(ms.status.phase != MODEL_STATUS_READY);
        CHECK(contains(page.mirror(), tr_in(page.app.state.lang, STR_MODEL_PRECOMPUTED)));
        lab_state added = page.app.state;
        CHECK_FALSE(model_session_add_to_link(ms, &added));  // a class link carries the model's own answers
        const std::string early = lab_text_at_open_precomputed(url_decode(link).state, text);
        precomputed = answer_part(page.mirror());
        CHECK_FALSE(precomputed.empty());
        CHECK(contains(early, precomputed));  // the early text prints the same rows
        CHECK(contains(early, tr_in(page.app.state.lang, STR_MODEL_PRECOMPUTED)));
      }
      // The weights come (a fresh visit, nothing held back): the precomputed rows first, then the
      // model's answer in their place, the same rows, unmarked.
      platform_native_fetch()->faults.clear();
      platform_native_fetch()->cache_clear("");
      platform_native_model_reset();
      headless_page loads(link);
      bool saw = false;
      const model_session& ls = loads.app.live.model;
      REQUIRE(site.settle_until(loads, [&] { return (saw |= ls.precomputed_shown), !ls.precomputed_shown && class_site::shown(loads); }));
      INFO(loads.mirror());
      CHECK(saw);
      CHECK(answer_part(loads.mirror()) == precomputed);
      CHECK_FALSE(contains(loads.mirror(), tr_in(loads.app.state.lang, STR_MODEL_PRECOMPUTED)));
      lab_state added = loads.app.state;
      CHECK(model_session_add_to_link(ls, &added));
    }
  // A question the file does not answer, a file for another model, a file that does not read: the
  // views wait for the model.
  const std::string other = [&] {
    headless_page teacher("#v=1&view=rules&model=hub/qwen/");
    REQUIRE(site.settle_until(teacher, [&] { return class_site::shown(teacher); }));
    teacher.click("class-add");
    return teacher.app.state.answers;
  }();
  struct held { std::string link, file; };
  for (const held& h : {held{"#v=1&view=rules&off=23:75", text}, held{"#v=1&view=rules", other},
                        held{"#v=1&view=rules", text.substr(0, text.size() / 2)}, held{"#v=1&view=rules", ""}}) {
    INFO(h.link << " " << h.file.size());
    site.files.files[PRECOMPUTED_ANSWERS_URL] = h.file;
    platform_native_fetch()->cache_clear("");
    platform_native_model_reset();
    platform_native_fetch()->faults[weights].stall = true;
    headless_page page(h.link);
    for (int i = 0; i < 60; i++) page.frame(), platform_native_fetch()->deliver(page.now);
    CHECK_FALSE(page.app.live.model.precomputed_shown);
    CHECK_FALSE(class_site::shown(page));
    platform_native_fetch()->faults.clear();
  }
}

// A pack= on the whole model's views is not used there: said once in the notice (en, zh), quoted
// as notices quote, and kept in the link for the views that read packs.
TEST_CASE("pack= on the rule book, the flow and the gates view on the stream is said once and kept in the link") {
  class_site site;
  for (lab_lang lang : {LAB_LANG_EN, LAB_LANG_ZH})
    for (const char* view : {"rules", "flow", "gates&in=stream"}) {
      const std::string link = std::string("#v=1&view=") + view + "&pack=nothing/&lang=" + (lang == LAB_LANG_ZH ? "zh" : "en");
      INFO(link);
      headless_page page(link);
      site.settle_until(page, [&] { return class_site::shown(page); });
      int said = 0;
      for (const std::string& n : page.app.notices) said += contains(n, "pack") && contains(n, "nothing/");
      CHECK(said == 1);
      const std::string words = tr_in(lang, STR_NOTICE_PACK_UNUSED);
      bool in_language = false;
      for (const std::string& n : page.app.notices) in_language |= n.compare(0, 12, words, 0, 12) == 0;
      CHECK(in_language);
      CHECK(page.url().state.pack == "nothing/");
      CHECK(class_site::shown(page));  // the view runs as without it
    }
  headless_page page("#v=1&view=rules");
  site.settle_until(page, [&] { return class_site::shown(page); });
  for (const std::string& n : page.app.notices) CHECK_FALSE(contains(n, "pack"));
}

// The class link names the weights the teacher's page read (the host's ETags, as a short digest):
// the student's page says that revision, and "Check them yourself" says when the host's files are
// no longer those (another ETag), beside the verdict on the numbers.
TEST_CASE("class link: the teacher's revision travels with the answers; a check on changed files says so") {
  class_site site;
  const std::string shard = "hub/qwen/model.safetensors-00001-of-00001.safetensors";
  platform_native_fetch()->etags[shard] = "\"weights-v1\"";
  std::string link, revision;
  {
    headless_page teacher("#v=1&view=flow&model=hub/qwen/");
    REQUIRE(site.settle_until(teacher, [&] { return class_site::shown(teacher); }));
    revision = teacher.app.live.model.status.revision;
    teacher.click("class-add");
    link = "#" + url_encode(teacher.app.state);
  }
  REQUIRE(revision.size() == 12);
  for (lab_lang lang : {LAB_LANG_EN, LAB_LANG_ZH}) {
    headless_page student(link + (lang == LAB_LANG_ZH ? "&lang=zh" : ""));
    REQUIRE(site.settle_until(student, [&] { return class_site::shown(student); }, 60));
    CHECK(contains(student.mirror(), strf(tr_in(lang, STR_CARRIED_REVISION), revision.c_str())));
  }
  // The host's file replaced by one with the same bytes and another ETag: the numbers agree, and
  // the page says the files are not the teacher's.
  platform_native_fetch()->cache_clear("");
  platform_native_model_reset();
  platform_native_fetch()->etags[shard] = "\"weights-v2\"";
  headless_page student(link);
  REQUIRE(site.settle_until(student, [&] { return class_site::shown(student); }, 60));
  student.click("class-check");
  REQUIRE(site.settle_until(student, [&] { return contains(student.mirror(), strf(tr(STR_CARRIED_AGREE), "1")); }));
  const std::string now = student.app.live.model.status.revision;
  CHECK(now.size() == 12);
  CHECK(now != revision);
  CHECK(contains(student.mirror(), strf(tr(STR_CARRIED_OTHER_REVISION), revision.c_str(), now.c_str())));
}

// On the Hub, the revision is the commit: the link's @COMMIT, else the one the Hub says it served
// the files from (X-Repo-Commit, where the page may read it), else the ETags' digest as elsewhere.
TEST_CASE("class link: on the Hub the revision is the commit the Hub served, or the link's own") {
  const std::string commit = "2fc06364715b967f1860aea9cf38778875588b17", other = "0123456789abcdef0123456789abcdef01234567";
  struct tried {
    const char* model;      // model= of the teacher's link
    const char* header;     // X-Repo-Commit as the host sends it
    std::string revision;   // what the page names
  };
  const std::vector<tried> cases = {
      {"hf:Qwen/Qwen3.5-0.8B", commit.c_str(), commit.substr(0, 12)},
      {"hf:Qwen/Qwen3.5-0.8B", "2FC06364715B967F1860AEA9CF38778875588B17", commit.substr(0, 12)},  // as the page shows it: lower case
      {"hf:Qwen/Qwen3.5-0.8B@0123456789abcdef0123456789abcdef01234567", commit.c_str(), other.substr(0, 12)},
      {"hf:Qwen/Qwen3.5-0.8B@v1.0", commit.c_str(), commit.substr(0, 12)},  // a tag, resolved
      {"hf:Qwen/Qwen3.5-0.8B@v1.0", "", "v1.0"},                          // a tag the host does not resolve
      {"hf:Qwen/Qwen3.5-0.8B", "not-a-commit\"<script>", ""},             // not a commit: the ETags' digest
  };
  for (const tried& t : cases) {
    INFO(t.model << " with X-Repo-Commit '" << t.header << "'");
    class_site site;
    model_location where;
    std::string error;
    REQUIRE(model_location_parse(t.model, &where, &error));
    for (const auto& f : synth_model_planted_make()) site.files.files[model_location_file_url(where, f.first)] = f.second;
    native_fetch* net = platform_native_fetch();
    net->repo_commit = t.header;
    net->etags[model_location_file_url(where, "model.safetensors-00001-of-00001.safetensors")] = "\"weights-v1\"";
    std::string revision, link;
    {  // one page at a time (the harness has one ImGui context)
      headless_page teacher(std::string("#v=1&view=flow&model=") + t.model);
      REQUIRE(site.settle_until(teacher, [&] { return class_site::shown(teacher); }));
      revision = teacher.app.live.model.status.revision;
      teacher.click("class-add");
      link = "#" + url_encode(teacher.app.state);
    }
    if (t.revision.empty()) {
      CHECK(revision.size() == 12);
      CHECK(revision != commit.substr(0, 12));
    } else {
      CHECK(revision == t.revision);
    }
    net->repo_commit.clear();
    headless_page student(link + "&lang=zh");
    REQUIRE(site.settle_until(student, [&] { return class_site::shown(student); }, 60));
    CHECK(contains(student.mirror(), strf(tr_in(LAB_LANG_ZH, STR_CARRIED_REVISION), revision.c_str())));
  }
  platform_native_fetch()->repo_commit.clear();
}

// A link made where the Hub's commit could not be read (a host hiding X-Repo-Commit, or a page from
// before it was read) carries the ETags' digest; checked on a page that reads the commit, the
// same files are not "another revision". And the other way round: a link made where the commit was
// read carries the digest beside it (version 2), so a student's host that hides the header agrees.
// Files that did change still are another revision (the test above).
TEST_CASE("class link: the same files are the same revision whichever page could read the Hub's commit") {
  const std::string commit = "2fc06364715b967f1860aea9cf38778875588b17";
  for (bool teacher_reads_commit : {false, true}) {
    INFO((teacher_reads_commit ? "the teacher's page read the commit" : "the student's page reads the commit"));
    class_site site;
    model_location where;
    std::string error;
    REQUIRE(model_location_parse("hf:Qwen/Qwen3.5-0.8B", &where, &error));
    for (const auto& f : synth_model_planted_make()) site.files.files[model_location_file_url(where, f.first)] = f.second;
    native_fetch* net = platform_native_fetch();
    net->etags[model_location_file_url(where, "model.safetensors-00001-of-00001.safetensors")] = "\"weights-v1\"";
    net->repo_commit = teacher_reads_commit ? commit : "";
    std::string revision, files, link;
    {
      headless_page teacher("#v=1&view=flow&model=hf:Qwen/Qwen3.5-0.8B");
      REQUIRE(site.settle_until(teacher, [&] { return class_site::shown(teacher); }));
      revision = teacher.app.live.model.status.revision;
      files = teacher.app.live.model.status.revision_files;
      teacher.click("class-add");
      link = "#" + url_encode(teacher.app.state);
    }
    REQUIRE(files.size() == 12);
    CHECK(revision == (teacher_reads_commit ? commit.substr(0, 12) : files));
    platform_native_fetch()->cache_clear("");
    platform_native_model_reset();
    net->repo_commit = teacher_reads_commit ? "" : commit;
    for (lab_lang lang : {LAB_LANG_EN, LAB_LANG_ZH}) {
      INFO(lang);
      headless_page student(link + (lang == LAB_LANG_ZH ? "&lang=zh" : ""));
      REQUIRE(site.settle_until(student, [&] { return class_site::shown(student); }, 60));
      CHECK(contains(student.mirror(), strf(tr_in(lang, STR_CARRIED_REVISION), revision.c_str())));
      student.click("class-check");
      REQUIRE(site.settle_until(student, [&] { return contains(student.mirror(), strf(tr_in(lang, STR_CARRIED_AGREE), "1")); }));
      CHECK(student.app.live.model.status.revision == (teacher_reads_commit ? files : commit.substr(0, 12)));
      CHECK(student.app.live.model.status.revision_files == files);
      CHECK_FALSE(contains(student.mirror(), before_args(STR_CARRIED_OTHER_REVISION, lang)));
    }
    net->repo_commit.clear();
  }
}

// A teacher's class set: the rule book's answer, then `offs` of its most active units switched
// off one at a time, each added to the link (as a teacher prepares lesson 003).
static std::string class_set_link(class_site& site, size_t offs, const std::string& extra = "") {
  headless_page teacher("#v=1&view=rules" + extra);
  REQUIRE(site.settle_until(teacher, [&] { return class_site::shown(teacher); }));
  teacher.click("class-add");
  const std::vector<model_unit_row> units = teacher.app.live.model.reply.units;
  REQUIRE(units.size() >= offs);
  for (size_t i = 0; i < offs; i++) {
    const std::string off = "rules-off-" + std::to_string(units[i].unit.layer) + "-" + std::to_string(units[i].unit.unit);
    teacher.click(off.c_str());
    REQUIRE(site.settle_until(teacher, [&] { return class_site::shown(teacher) && teacher.app.state.off.size() == 2; }));
    teacher.click("class-add");
    teacher.click(off.c_str());
    REQUIRE(site.settle_until(teacher, [&] { return class_site::shown(teacher) && teacher.app.state.off.empty(); }));
  }
  return "#" + url_encode(teacher.app.state);
}

// A class set on a laptop's screen: its code is finer than the back of a room reads, so the card
// offers the same link with its first answers, says what it leaves out, and Copy link keeps all.
TEST_CASE("class link: a class set's QR code too fine for the back of a room offers a lighter one (en, zh)") {
  class_site site;
  // Three answers: a code of version 36 at 4 px a module. Six: a link too long for any code.
  for (size_t offs : {2, 5}) {
    const std::string link = class_set_link(site, offs);
    class_answers carried;
    answers_refusal why;
    REQUIRE(class_answers_decode(url_decode(link).state.answers, {""}, &carried, &why));
    const size_t count = offs + 1;
    const std::string total = std::to_string(count);
    REQUIRE(carried.answers.size() == count);
    for (lab_lang lang : {LAB_LANG_EN, LAB_LANG_ZH}) {
      INFO("lang " << (lang == LAB_LANG_ZH ? "zh" : "en") << ", " << count << " answers");
      headless_page page(link + (lang == LAB_LANG_ZH ? "&lang=zh" : ""));
      REQUIRE(site.settle_until(page, [&] { return class_site::shown(page); }, 60));
      const std::string url = platform_page_url();
      page.click("qr-code");
      page.frame();
      const qr_panel& qr = page.app.qr;
      REQUIRE(qr.px_per_module < QR_FAR_PX);  // the whole set on 1280 x 800: too fine, or no code at all
      CHECK((qr.code.status == QR_TOO_LONG) == (count == 6));
      REQUIRE_FALSE(qr.lighter.link.empty());
      const float whole_px = qr.px_per_module;
      const std::string kept = std::to_string(qr.lighter.kept);
      CHECK((qr.lighter.kept >= 1 && qr.lighter.kept < count));
      CHECK(contains(page.mirror(), strf(tr_in(lang, STR_QR_LIGHTER_SHOW), kept.c_str(), total.c_str())));
      CHECK(contains(page.mirror(), strf(tr_in(lang, STR_QR_LIGHTER_OFFER), kept.c_str(), total.c_str(), "").substr(0, 40)));

      page.click("qr-lighter");
      page.frame();
      // The code drawn is the lighter link's, coarser; the page's own link still carries all six.
      const item_rect drawn = page.rect("qr-image");  // the square on screen is the lighter code's, quiet zone included
      CHECK(drawn.x1 - drawn.x0 == Approx(qr.px_per_module * float(qr.lighter_code.size + 2 * QR_QUIET_ZONE)));
      CHECK(qr.lighter_code.size != qr.code.size);
      const qr_code want = qr_encode_text(qr.lighter.link);
      CHECK(qr.lighter_code.dark == want.dark);
      CHECK(qr.px_per_module > whole_px);
      CHECK(qr.px_per_module >= QR_FAR_PX);
      CHECK(platform_page_url() == url);
      const std::string m = page.mirror();
      CHECK(contains(m, strf(tr_in(lang, STR_QR_LIGHTER_SHOWN), kept.c_str(), total.c_str())));
      CHECK(contains(m, strf(tr_in(lang, STR_QR_DETAILS), std::to_string(want.version).c_str(), "", "", "", "").substr(0, 20)));
      CHECK(contains(m, strf(tr_in(lang, STR_QR_WHOLE_SHOW), total.c_str())));
      // Each answer left out, named: the last one is the last switch-off.
      strings_lang_scope scope(lang);
      const unit_ref last = carried.answers[count - 1].question.off.at(0);
      CHECK(contains(m, strf(tr(STR_QR_LIGHTER_LEFT_OUT), total.c_str(), class_answer_title(carried.answers[count - 1]).c_str())));
      CHECK(contains(class_answer_title(carried.answers[count - 1]), strf(tr(STR_RULES_UNIT), std::to_string(last.layer).c_str(), std::to_string(last.unit).c_str())));
      // The lighter link opens the same view with its first answers.
      const url_decoded light = url_decode(qr.lighter.link.substr(qr.lighter.link.find('#')));
      class_answers first;
      REQUIRE(class_answers_decode(light.state.answers, {""}, &first, &why));
      CHECK(first.answers.size() == qr.lighter.kept);
      CHECK(light.state.view == LAB_VIEW_RULES);
      // The focus stays on the toggle as its label changes; pressing it again shows the whole link.
      page.click("qr-lighter");
      page.frame();
      CHECK(qr.px_per_module == whole_px);
      if (count == 6) CHECK(contains(page.mirror(), strf(tr(STR_QR_TOO_LONG), fmt_count(int64_t(url.size())).c_str(), "2,953")));
      CHECK(contains(page.mirror(), strf(tr(STR_QR_LIGHTER_SHOW), kept.c_str(), total.c_str())));
      scroll_through(page, "qr with a lighter link offered");
      check_mirror_has_every_number(page.mirror(), "qr with a lighter link offered", 4);
    }
  }
}

// Not a test: the table in docs/performance.md. For class sets of 1 to 6 answers on the built-in
// model, the link's length, its code, and the lighter code the card offers, as the page lays them
// out on a projector (ui=present) and on a laptop. `ui_tests "[.measure]"`.
TEST_CASE("class link: the QR codes of class sets and their lighter links", "[.measure]") {
  class_site site;
  std::printf("\n| screen | answers | link characters | code: version, level, px a module | lighter code offered: answers, version, px a module |\n"
              "| --- | --- | --- | --- | --- |\n");
  for (size_t offs = 0; offs <= 5; offs++) {
    const std::string link = class_set_link(site, offs);
    for (int screen = 0; screen < 2; screen++) {
      const bool projector = screen == 0;
      headless_page page(link + (projector ? "&ui=present" : ""), projector ? 1920 : 1280, projector ? 1080 : 800);
      REQUIRE(site.settle_until(page, [&] { return class_site::shown(page); }, 60));
      page.click("qr-code");
      page.frame();
      const qr_panel& qr = page.app.qr;
      std::string light = "none";
      if (!qr.lighter.link.empty()) {
        page.click("qr-lighter");
        page.frame();
        light = strf("%zu, %d %s, %s px", qr.lighter.kept, qr.lighter_code.version, qr_level_name(qr.lighter_code.level),
                     fmt_sig3(qr.px_per_module).c_str());
        page.click("qr-lighter");
        page.frame();
      }
      const std::string code = qr.code.status == QR_OK ? strf("%d %s, %s px", qr.code.version, qr_level_name(qr.code.level), fmt_sig3(qr.px_per_module).c_str())
                                                       : "none: too long for a QR code";
      std::printf("| %s | %zu | %s | %s | %s |\n", projector ? "projector 1920×1080, ui=present" : "laptop 1280×800", offs + 1,
                  fmt_count(int64_t(platform_page_url().size())).c_str(), code.c_str(), light.c_str());
    }
  }
}
