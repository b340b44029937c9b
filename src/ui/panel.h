// What every panel is: one row in panels.inc naming five functions with one signature each, so
// the app draws any view the same way (chips' ui_*_init/draw/discard, with the memory a panel
// keeps between frames behind `self`).
//   void* P_init()                               its own memory, or null when it keeps none
//   void  P_keys(void* self, panel_frame* f)     keyboard, before drawing, unless a field has the keys
//   void  P_draw(void* self, panel_frame* f)     draws into the current window, edits f->state
//   bool  P_animating(const void* self, double now)  true while it changes by itself (playing)
//   std::string P_text(const void* self, panel_frame* f)  what its own memory adds to the mirror
//                                                 (the view's text is the core's: views.inc)
//   void  P_free(void* self)
#pragma once

#include <string>

#include "core/link/lab_state.h"
#include "core/experiments/live_session.h"

struct panel_frame {
  lab_state* state;           // what the panel shows and edits (the link)
  live_session* live;         // where a live view's weights and results are (no source for the others)
  const live_choice* choice;  // the state's choices resolved for that source (not ready for the others)
  double now;                 // seconds
  // A phone, on a view whose early text shows a figure (the gates view's histograms): the figure
  // first, its controls and prose after it, and the live header under them, so what a student
  // could read before the app stays where it was at the first frame.
  bool figure_first = false;
  // False on a projector (ui=present) before "Explore freely": the controls about downloads and
  // the cache are left out, as the live header leaves them out.
  bool controls = true;
};

#define PANEL(view, prefix)                              \
  void* prefix##_init();                                 \
  void prefix##_keys(void* self, panel_frame* f);        \
  void prefix##_draw(void* self, panel_frame* f);        \
  bool prefix##_animating(const void* self, double now); \
  std::string prefix##_text(const void* self, panel_frame* f); \
  void prefix##_free(void* self);
#include "ui/panels.inc"
#undef PANEL
