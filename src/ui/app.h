// The whole page as one ImGui window: a top bar (views, language, copy link), link notices, and
// the current view's panel. Keeps the URL and the text mirror in step with the state through
// platform.h, so every front end (browser, headless native tests) behaves the same.
//
// A frame walks one way: the state (the link) -> the live session (source, then the lesson's
// results) -> the view's panel and the mirror, which only read what the session computed.
#pragma once

#include <string>
#include <vector>

#include "core/link/lab_state.h"
#include "core/lesson/faq.h"
#include "core/experiments/live_session.h"
#include "ui/qr_panel.h"

struct lab_app {
  lab_state state;
  void* panels[LAB_VIEW_COUNT] = {};  // each view's own memory (ui/panel.h)
  live_session live;                  // the live views' weights and results, opened when first shown
  live_choice choice;                 // this frame's, for the mirror
  double stall_seconds = 20.0;        // the streaming's stall limit (tests shorten it)
  // The lesson around the views: which common questions are open, the projector's scale.
  faq_open_set faq_open = 0;
  float font_scale_base = 1.0f;       // the fonts' own scale (1 / pixel ratio), as the platform set it
  float font_scale_written = 0;       // io.FontGlobalScale as the page last set it (ui=present's factor on the base)
  bool explored = false;              // "Explore freely" pressed since the link was read (view buttons back)
  std::vector<std::string> notices;   // from the last link read, until dismissed
  std::string pack_said;              // the pack= a whole-model view last said it does not use
  std::string written_fragment;       // what the URL holds now, to write only on change
  int written_view = -1, written_at = -1;  // its view and place on the path: a change of view is a history entry
  std::string written_model;               // and its model=: taking up an offer, or the way back, is one too
  std::string written_storage;        // the view the bare address reopens (never one whose weights failed)
  std::string written_mirror;
  std::string written_notice;
  double copy_feedback_until = 0;
  qr_panel qr;                        // the QR code of the link, while shown
  bool layout_settling = false;       // a box changed size last frame: draw one more
};

// Reads the state from the platform's URL fragment (the link a student opened).
void lab_app_init(lab_app* app);
void lab_app_free(lab_app* app);
// The user changed the URL by hand (hashchange): restore exactly that view.
void lab_app_load_fragment(lab_app* app, const std::string& fragment);
// Before the first frame: a live view asks its source for what it needs, so that an answer
// already at hand (the page's own request for the default pack's manifest) is in the first frame.
void lab_app_open_sources(lab_app* app, double now_seconds);
// One frame, between ImGui::NewFrame() and ImGui::Render().
void lab_app_frame(lab_app* app, double now_seconds);
// True while something on screen changes by itself (playing the steps, a fading message, bytes
// arriving), so the host keeps drawing frames.
bool lab_app_animating(const lab_app* app, double now_seconds);
// ui=present is a projector's layout: on a screen narrower than this (CSS px), a phone that
// opened the class's one link, the page keeps its normal layout (the link keeps ui=present).
#define LAB_PRESENT_MIN_WIDTH 720.0f
// Its type is this much larger than the normal layout's.
#define LAB_PRESENT_TYPE_SCALE 1.4f
bool lab_app_presenting(const lab_app* app);
// A screen narrower than that is a phone's: the gates view's figure comes before the live header.
bool lab_app_phone(const lab_app* app);
// Whether a view's panel memory is in the given state (tests): the hand panel playing.
bool lab_app_panel_animating(const lab_app* app, lab_view view, double now_seconds);
