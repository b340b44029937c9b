// A lesson path that names a view twice reaches its end (the place on the
// path is kept, at= in the link), a view off the path returns to where the student left it, old
// links keep their meaning, and "Start the lesson" begins before anything is computed.
#include <catch2/catch.hpp>

#include "core/link/lab_state.h"
#include "core/views/lab_text.h"
#include "core/base/strings.h"
#include "core/link/url_state.h"

static lab_state on_path(const char* fragment) { return url_decode(fragment).state; }

TEST_CASE("lesson path: a view named twice, Next walks every place to the end") {
  lab_state s = on_path("#v=1&view=hand&path=hand,silu,hand,quiz&lock=1");
  std::vector<int> seen = {lab_path_index(s)};
  while (lab_path_step(&s, +1)) seen.push_back(lab_path_index(s));
  CHECK(seen == std::vector<int>{0, 1, 2, 3});  // before: 0, 1, 0, 1, ... and never the quiz
  CHECK(s.view == LAB_VIEW_QUIZ);
  // And back, place by place.
  seen = {lab_path_index(s)};
  while (lab_path_step(&s, -1)) seen.push_back(lab_path_index(s));
  CHECK(seen == std::vector<int>{3, 2, 1, 0});
  CHECK(s.view == LAB_VIEW_HAND);
}

TEST_CASE("lesson path: the place is in the link, and a link reopens it") {
  lab_state s = on_path("#v=1&view=hand&path=hand,silu,hand,quiz&lock=1");
  lab_path_step(&s, +1);
  lab_path_step(&s, +1);
  const std::string link = url_encode(s);
  CHECK(link.find("&at=2") != std::string::npos);
  const url_decoded back = url_decode(link);
  CHECK(back.notices.empty());
  CHECK(lab_path_index(back.state) == 2);  // the second hand, not the first
  lab_state next = back.state;
  REQUIRE(lab_path_step(&next, +1));
  CHECK(next.view == LAB_VIEW_QUIZ);
  // The mirror says where on the path, in both languages (lab_text follows the state's language).
  CHECK(lab_text(back.state).find("Lesson path: 3 of 4\n") == 0);
  lab_state zh = back.state;
  zh.lang = LAB_LANG_ZH;
  CHECK(lab_text(zh).find("课程路线：第 3 个，共 4 个\n") == 0);
}

TEST_CASE("lesson path: old links without at= mean what they meant") {
  // The view's first place, as before the key existed.
  lab_state s = on_path("#v=1&view=budget&path=hand,silu,budget,gates,perm,quiz&lock=1");
  CHECK(s.path_at == -1);
  CHECK(lab_path_index(s) == 2);
  CHECK(lab_path_step(&s, +1));
  CHECK(s.view == LAB_VIEW_GATES);
  // The key's default reads back without a notice; a link with it writes it.
  CHECK(url_decode("#at=-1").notices.empty());
  CHECK(url_encode(lab_state_default()).find("&at=-1") != std::string::npos);
  // A place the path does not have means the view's first place, and the link is rewritten to say so.
  lab_state past = url_decode("#view=silu&path=hand,silu&at=9").state;
  CHECK(lab_path_index(past) == 1);
  lab_path_follow(&past);
  CHECK(past.path_at == 1);
  lab_state none = url_decode("#view=silu&at=3").state;  // no path at all
  CHECK(lab_path_index(none) == -1);
  lab_path_follow(&none);
  CHECK(none.path_at == -1);
  // Out of the key's own range: clamped, and said in words, not "-1".
  const url_decoded low = url_decode("#view=silu&at=-5");
  REQUIRE(low.notices.size() == 1);
  strings_set_lang(LAB_LANG_EN);
  CHECK(lab_notice_text(low.notices[0]) ==
        "Link key 'at' = '-5' is out of range: using the view's first place on the path, the nearest allowed value.");
}

TEST_CASE("lesson path: off the path (a quiz's view button), Previous and Next return where it was left") {
  lab_state s = on_path("#v=1&view=hand&path=hand,silu,quiz&lock=1");
  REQUIRE(lab_path_step(&s, +1));
  REQUIRE(lab_path_step(&s, +1));
  CHECK(s.view == LAB_VIEW_QUIZ);
  s.view = LAB_VIEW_GATES;  // the quiz's "Gate histograms" button
  lab_path_follow(&s);
  CHECK(lab_path_index(s) == -1);
  CHECK(s.path_at == 2);  // kept: where the student left the path
  strings_set_lang(LAB_LANG_EN);
  CHECK(lab_path_text(s) == "This view is not on the lesson path: Previous view and Next view return to 3 of 3.");
  lab_state prev = s;
  REQUIRE(lab_path_step(&prev, -1));
  CHECK(prev.view == LAB_VIEW_QUIZ);
  REQUIRE(lab_path_step(&s, +1));  // before: the path's first view
  CHECK(s.view == LAB_VIEW_QUIZ);
  CHECK(lab_path_index(s) == 2);
  // The link says so too: a student's page opened from it returns to the same place.
  lab_state off = s;
  off.view = LAB_VIEW_WEIGHTS;
  lab_path_follow(&off);
  lab_state reopened = url_decode(url_encode(off)).state;
  REQUIRE(lab_path_step(&reopened, +1));
  CHECK(reopened.view == LAB_VIEW_QUIZ);
  // With no place to return to, Next starts the path, as before.
  lab_state fresh = on_path("#v=1&view=weights&path=hand,silu,quiz");
  CHECK_FALSE(lab_path_step(&fresh, -1));
  REQUIRE(lab_path_step(&fresh, +1));
  CHECK(fresh.view == LAB_VIEW_HAND);
}

TEST_CASE("start the lesson: the hand calculation at step 0, the path at its first place") {
  lab_state s = lab_state_default();
  CHECK(s.step == 5);  // the bare page shows the lesson's answer
  lab_lesson_start(&s);
  CHECK(s.step == 0);
  CHECK(s.view == LAB_VIEW_HAND);
  CHECK(s.path_at == 0);
  CHECK(lab_path_index(s) == 0);
  CHECK(s.path.size() == size_t(LAB_LESSON_ORDER_COUNT));
}
