// Lesson 002's hand calculation (see hand_calc.h).
#include "core/lesson/hand_calc.h"

#include "core/lesson/activations.h"

void hand_lesson_input(double x[HAND_IN]) {
  x[0] = 1;
  x[1] = 2;
}

hand_weights hand_lesson_weights() {
  return hand_weights{
      {1, 0, 0, 1, 1, 1, 1, -1},   // W_up rows [1,0] [0,1] [1,1] [1,-1]
      {-1, 0, 0, 0, 1, 0, 0, 1},   // W_gate rows [-1,0] [0,0] [1,0] [0,1]
      {1, 0, 1, 0, 0, 1, 0, 1},    // W_down rows [1,0,1,0] [0,1,0,1]
  };
}

static void matvec(const double* w, const double* x, int rows, int cols, double* out) {
  for (int r = 0; r < rows; ++r) {
    double sum = 0;
    for (int c = 0; c < cols; ++c) sum += w[r * cols + c] * x[c];
    out[r] = sum;
  }
}

static hand_trace forward(const double x[HAND_IN], const hand_weights& w, const double* fixed_g) {
  hand_trace t{};
  matvec(w.up, x, HAND_MID, HAND_IN, t.u);
  matvec(w.gate, x, HAND_MID, HAND_IN, t.a);
  for (int i = 0; i < HAND_MID; ++i) {
    t.sigmoid[i] = act_sigmoid(t.a[i]);
    t.g[i] = fixed_g ? fixed_g[i] : act_silu(t.a[i]);
    t.z[i] = t.u[i] * t.g[i];
  }
  matvec(w.down, t.z, HAND_OUT, HAND_MID, t.y);
  return t;
}

hand_trace hand_forward(const double x[HAND_IN], const hand_weights& w) {
  return forward(x, w, nullptr);
}

hand_trace hand_forward_fixed_gate(const double x[HAND_IN], const hand_weights& w,
                                   const double g[HAND_MID]) {
  return forward(x, w, g);
}

double hand_and(double x0, double x1) { return x0 * act_silu(x1) / act_silu(1.0); }
