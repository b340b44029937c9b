// The 2 -> 4 -> 2 SwiGLU of lesson 002, computed step by step in double precision.
//   u = W_up x            W_up   (4, 2)  row-major
//   a = W_gate x          W_gate (4, 2)
//   g = silu(a)           (sigmoid(a) kept for display)
//   z = u * g             element-wise
//   y = W_down z          W_down (2, 4)
// With the lesson's x = [1, 2] and weights: y ~ [1.924234, -1.761594].
#pragma once

enum { HAND_IN = 2, HAND_MID = 4, HAND_OUT = 2 };

// The steps a reader walks through; HAND_STEP_COUNT - 1 is the last (y computed).
enum hand_step {
  HAND_STEP_NONE = 0,  // nothing computed yet
  HAND_STEP_UP = 1,    // u = W_up x
  HAND_STEP_GATE = 2,  // a = W_gate x
  HAND_STEP_SILU = 3,  // g = silu(a)
  HAND_STEP_MUL = 4,   // z = u * g
  HAND_STEP_DOWN = 5,  // y = W_down z
  HAND_STEP_COUNT = 6
};

struct hand_weights {
  double up[HAND_MID * HAND_IN];     // (4, 2)
  double gate[HAND_MID * HAND_IN];   // (4, 2)
  double down[HAND_OUT * HAND_MID];  // (2, 4)
};

struct hand_trace {
  double u[HAND_MID], a[HAND_MID], sigmoid[HAND_MID], g[HAND_MID], z[HAND_MID];
  double y[HAND_OUT];
};

void hand_lesson_input(double x[HAND_IN]);  // [1, 2]
hand_weights hand_lesson_weights();

hand_trace hand_forward(const double x[HAND_IN], const hand_weights& w);

// Lesson 002's exercise: keep every projection, but replace g by a fixed vector (all ones in the
// lesson). y is then W_down (u * g) = (W_down diag(g) W_up) x: linear in x.
hand_trace hand_forward_fixed_gate(const double x[HAND_IN], const hand_weights& w,
                                   const double g[HAND_MID]);

// Lesson 002's AND: one up unit reads x0, one gate unit reads x1, the output is
// u * silu(a) / silu(1). Gives 0, 0, 0, 1 on 00, 01, 10, 11.
double hand_and(double x0, double x1);
