// The gate histogram's bins, colours and ticks (see gates_figure.h).
#include "core/views/gates_figure.h"

#include <algorithm>

const double GATES_TICK_AT[GATES_TICKS] = {-0.3, 0, 0.5, 1.0};
const char* const GATES_TICK_LABEL[GATES_TICKS] = {"-0.3", "0", "0.5", "1"};

static double bin_step() { return (GATE_HIST_HI - GATE_HIST_LO) / GATE_HIST_BINS; }

double gates_plot_lo() { return GATE_HIST_LO; }
double gates_plot_hi() { return GATE_HIST_LO + GATES_SHOWN_BINS * bin_step(); }
double gates_bar_begin(int b) { return GATE_HIST_LO + b * bin_step(); }
double gates_bar_center(int b) { return b >= GATES_SHOWN_BINS ? gates_plot_hi() : GATE_HIST_LO + (b + 0.5) * bin_step(); }

lab_rgb gates_bar_rgb(int b, double thr) {
  const double c = gates_bar_center(b);
  return c > thr ? RGB_GATE : c < -thr ? RGB_RELU : RGB_CLASSIC;
}

gates_bars gates_bars_from(const int64_t (&pack_histogram)[GATE_HIST_BINS]) {
  gates_bars out;
  for (int b = 0; b < GATE_HIST_BINS; b++) out.count[std::min(b, (int)GATES_SHOWN_BINS)] += pack_histogram[b];
  for (int64_t n : out.count) out.peak = std::max(out.peak, n);
  return out;
}
