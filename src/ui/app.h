// The whole page as one ImGui window: a top bar (views, language, copy link), link notices, and
// the current view's panel. Keeps the URL and the text mirror in step with the state through
// platform.h, so every front end (browser, headless native tests) behaves the same.
#pragma once

#include <string>
#include <vector>

#include "core/lab_state.h"
#include "core/live_view.h"
#include "core/stream/pack_stream.h"
#include "core/faq.h"
#include "ui/hand_panel.h"
#include "ui/quiz_panel.h"
#include "ui/weights_panel.h"

struct lab_app {
  lab_state state;
  hand_panel hand;
  // Real weights: the streamed pack (opened when a live view is first shown), the per-token
  // results, the heatmap.
  pack_stream stream;
  std::string stream_location;  // what `stream` was opened with
  bool pack_fonts_asked = false;  // the pack's text was handed to platform_fonts_need
  live_perm_cache perm;
  weights_panel weights;
  // The lesson around the views (issue 14): the quiz's answers, which common questions are open.
  quiz_panel quiz;
  faq_open_set faq_open;
  float ui_scale_applied = 1.0f;     // ui=present's factor now in io.FontGlobalScale
  std::vector<std::string> notices;  // from the last link read, until dismissed
  std::string written_fragment;      // what the URL holds now, to write only on change
  std::string written_mirror;
  std::string written_notice;
  double copy_feedback_until;
  bool layout_settling;              // a box changed size last frame: draw one more
};

// Reads the state from the platform's URL fragment (the link a student opened).
void lab_app_init(lab_app* app);
// The user changed the URL by hand (hashchange): restore exactly that view.
void lab_app_load_fragment(lab_app* app, const std::string& fragment);
// One frame, between ImGui::NewFrame() and ImGui::Render().
void lab_app_frame(lab_app* app, double now_seconds);
// True while something on screen changes by itself (playing the steps, a fading message, bytes
// arriving), so the host keeps drawing frames.
bool lab_app_animating(const lab_app* app, double now_seconds);
