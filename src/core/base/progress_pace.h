// How often a figure that only counts progress (bytes loaded, bytes cached) may change what the
// page shows. Each new picture is a redraw, and where the compositor reads the canvas back
// (software WebGL: a laptop without a usable GPU, headless Chromium) a redraw holds the main
// thread 20-60 ms while the model worker fills the other core; those figures move up to 25 times
// a second (docs/model.md, "Where the main thread waits").
#pragma once

#include <cstdint>

#define LAB_PROGRESS_EVERY_S 0.25

// A shown figure held steady between refreshes.
struct progress_pace {
  uint64_t shown = 0, latest = 0;
  double at = -1e9;
  // Whether what is shown may be refreshed at `now`: LAB_PROGRESS_EVERY_S has passed since the
  // last refresh, or `at_once` (a change that is news, not progress). True counts as the refresh.
  bool due(double now, bool at_once = false) {
    if (!at_once && now - at < LAB_PROGRESS_EVERY_S) return false;
    at = now;
    return true;
  }
  // What to show of `value` at `now`: the value itself when due, else the last shown.
  uint64_t take(uint64_t value, double now, bool at_once = false) {
    latest = value;
    if (due(now, at_once)) shown = value;
    return shown;
  }
  // A newer value waits to be shown: the page keeps making frames until it is (bounded, so a
  // figure no longer drawn never keeps the page awake).
  bool pending(double now) const { return latest != shown && now < at + 2 * LAB_PROGRESS_EVERY_S; }
};
