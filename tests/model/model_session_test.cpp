// The whole-model views' session (core/experiments/model_session.h): what it shows of a service's
// status from frame to frame.
#include <catch2/catch.hpp>

#include <map>

#include "core/experiments/model_session.h"

namespace {
// A service whose status the test sets, and whose answers it hands over by id as the worker posts
// them (none unless posted).
struct scripted_service final : model_service {
  model_status now;
  uint64_t changes = 0;
  uint32_t asks = 0;
  std::map<uint32_t, model_reply> posted;
  void set(model_status s) {
    now = std::move(s);
    now.generation = 1;  // the one open
    changes++;
  }
  uint32_t model_open(const std::string&) override { return 1; }
  void model_go() override {}
  void model_cancel() override {}
  void model_retry() override {}
  uint64_t model_clear_cache() override { return 0; }
  uint64_t model_cache_bytes() const override { return 0; }
  uint32_t model_ask(const model_question&) override { return ++asks; }
  model_status model_status_now() override { return now; }
  uint64_t model_status_changes() const override { return changes; }
  bool model_poll(uint32_t id, model_reply* out) override {
    auto it = posted.find(id);
    if (it == posted.end()) return false;
    *out = it->second;
    posted.erase(it);
    return true;
  }
};

model_status loading(uint64_t loaded) {
  model_status s;
  s.phase = MODEL_STATUS_LOADING;
  s.layers = 24;
  s.files = {{"model.safetensors", loaded, 1000}};
  s.bytes_network = loaded;
  return s;
}
}  // namespace

TEST_CASE("model session: the download's progress moves what is shown at most every LAB_PROGRESS_EVERY_S; anything else at once") {
  scripted_service service;
  model_session ms;
  lab_state s;
  s.view = LAB_VIEW_RULES;
  const double frame = 1.0 / 60;
  double t = 10;
  service.set(loading(0));
  model_session_frame(&ms, s, &service, t);
  REQUIRE(ms.status.files.at(0).loaded == 0);

  // Bytes arrive every frame: what is shown changes at most once per LAB_PROGRESS_EVERY_S.
  int changes = 0;
  uint64_t shown = 0;
  for (int i = 1; i <= 60; i++) {
    t += frame;
    service.set(loading(uint64_t(i) * 10));
    model_session_frame(&ms, s, &service, t);
    if (ms.status.files.at(0).loaded != shown) ++changes, shown = ms.status.files.at(0).loaded;
  }
  CHECK(changes >= 3);  // 60 frames of 1/60 s: 4 windows of 0.25 s (the clock sums in floating point)
  CHECK(changes <= 4);
  CHECK(shown >= 600 - uint64_t(LAB_PROGRESS_EVERY_S / frame) * 10);

  // A pause, a failure, the end of the download show in the very next frame.
  t += frame;
  service.set(loading(610));
  service.now.paused = true;
  service.changes++;
  model_session_frame(&ms, s, &service, t);
  CHECK(ms.status.paused);
  CHECK(ms.status.files.at(0).loaded == 610);
  t += frame;
  service.set(loading(1000));
  service.now.phase = MODEL_STATUS_READY;
  service.changes++;
  model_session_frame(&ms, s, &service, t);
  CHECK(ms.status.phase == MODEL_STATUS_READY);
  CHECK(ms.status.files.at(0).loaded == 1000);
}

TEST_CASE("progress pace: a held-back figure is pending until shown, and never keeps the page awake for good") {
  progress_pace pace;
  CHECK(pace.take(100, 1.0) == 100);  // the first value shows at once
  CHECK_FALSE(pace.pending(1.0));
  CHECK(pace.take(200, 1.1) == 100);  // held back: the page keeps making frames
  CHECK(pace.pending(1.1));
  CHECK(pace.take(0, 1.1, true) == 0);  // news shows at once
  CHECK_FALSE(pace.pending(1.1));
  CHECK(pace.take(300, 1.2) == 0);
  CHECK(pace.pending(1.2));
  CHECK(pace.take(300, 1.1 + LAB_PROGRESS_EVERY_S) == 300);  // its turn: shown
  CHECK_FALSE(pace.pending(1.1 + LAB_PROGRESS_EVERY_S));
  CHECK(pace.take(400, 1.2 + LAB_PROGRESS_EVERY_S) == 300);
  CHECK(pace.pending(1.2 + LAB_PROGRESS_EVERY_S));
  CHECK_FALSE(pace.pending(1.2 + 3 * LAB_PROGRESS_EVERY_S));  // nobody draws it any more: no frames for it
}

namespace {
model_reply reply_with_units(uint32_t id, bool pending) {
  model_reply r;
  r.id = id;
  r.prompt = {{1, "a"}};
  r.top = {{{2, "b"}, 0.5, 0.5}};
  r.units = {{{23, 75}, 1.5f, pending ? std::vector<token_text>() : std::vector<token_text>{{3, "北京"}}}};
  r.toward_pending = pending;
  return r;
}
}  // namespace

TEST_CASE("model session: a first answer without the units' lists is shown, the question stays asked until the whole one") {
  scripted_service service;
  model_status ready;
  ready.phase = MODEL_STATUS_READY;
  ready.name = "test/model";
  ready.layers = 24, ready.hidden = 64, ready.intermediate = 192, ready.vocab = 512;
  service.set(ready);
  model_session ms;
  lab_state s = lab_state_default();
  s.view = LAB_VIEW_RULES;
  model_session_frame(&ms, s, &service, 1.0);
  REQUIRE(service.asks == 1);
  REQUIRE(ms.pending == 1);

  service.posted[1] = reply_with_units(1, true);
  model_session_frame(&ms, s, &service, 1.1);
  CHECK(model_session_current(ms, s));  // the next tokens are shown
  CHECK(ms.reply.toward_pending);
  CHECK(ms.pending == 1);  // the rest is awaited under the same id, not asked again
  CHECK(!model_session_fonts_text(&ms).empty());  // its words, asked of the fonts once
  CHECK(model_session_fonts_text(&ms).empty());
  lab_state link = s;
  CHECK(!model_session_add_to_link(ms, &link));  // a link carries whole answers only
  CHECK(link.answers.empty());
  model_session_frame(&ms, s, &service, 1.2);
  CHECK(service.asks == 1);

  service.posted[1] = reply_with_units(1, false);
  model_session_frame(&ms, s, &service, 1.3);
  CHECK(ms.pending == 0);
  CHECK(!ms.reply.toward_pending);
  REQUIRE(ms.reply.units.size() == 1);
  CHECK(ms.reply.units[0].toward.size() == 1);
  CHECK(model_session_fonts_text(&ms).find("北京") != std::string::npos);  // the lists' words too, under the same id
  CHECK(model_session_current(ms, s));
  CHECK(service.asks == 1);
  CHECK(model_session_add_to_link(ms, &link));
  CHECK(!link.answers.empty());
}
