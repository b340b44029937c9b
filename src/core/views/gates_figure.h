// The gate histogram as the lesson draws it: on the canvas (ui/gates_panel.cpp) and as the early
// SVG before the wasm (gates_text.cpp). Which bins become bars, their colours, the axis ticks: one
// table, so the figure a student reads first is the figure the canvas then draws in its place.
#pragma once

#include <cstdint>

#include "core/pack/pack_format.h"  // GATE_HIST_BINS

// The pack's histogram bins over [-0.3, 1.2) are shown as they are; everything from 1.2 up is one
// more bar after a gap, labelled, so a tall one there reads as what it is.
enum { GATES_SHOWN_BINS = 30 };

struct lab_rgb {
  unsigned char r, g, b;
};
// The lesson's hues: open gates orange, negative ones blue (ReLU's colour: what ReLU would zero),
// the rest grey; SiLU's floor red; thresholds dark; frames and axis text grey.
constexpr lab_rgb RGB_GATE = {240, 150, 40};
constexpr lab_rgb RGB_RELU = {40, 100, 220};
constexpr lab_rgb RGB_CLASSIC = {140, 150, 165};
constexpr lab_rgb RGB_FLOOR = {200, 30, 30};
constexpr lab_rgb RGB_THRESHOLD = {60, 60, 60};
constexpr lab_rgb RGB_FRAME = {180, 180, 180};
constexpr lab_rgb RGB_AXIS_TEXT = {110, 110, 110};

// The bars of one histogram: the shown bins' counts (the last, GATES_SHOWN_BINS, is the overflow
// bar) and the tallest, at least 1.
struct gates_bars {
  int64_t count[GATES_SHOWN_BINS + 1] = {0};
  int64_t peak = 1;
};
gates_bars gates_bars_from(const int64_t (&pack_histogram)[GATE_HIST_BINS]);

// The plotted range [lo, hi) of values, and bar b's span and colour: above thr, below -thr, between.
double gates_plot_lo();
double gates_plot_hi();
double gates_bar_begin(int b);
double gates_bar_center(int b);  // the overflow bar: hi
lab_rgb gates_bar_rgb(int b, double thr);

// The value axis' ticks and their labels.
enum { GATES_TICKS = 4 };
extern const double GATES_TICK_AT[GATES_TICKS];
extern const char* const GATES_TICK_LABEL[GATES_TICKS];
