// Lesson 002's worked example, the AND construction and the fixed-gate exercise, to 6 decimals.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/lesson/hand_calc.h"

static const double LESSON_MARGIN = 5e-7;  // the lesson prints 6 decimals

TEST_CASE("lesson 002: x = [1, 2] gives y ~ [1.924234, -1.761594]") {
  double x[HAND_IN];
  hand_lesson_input(x);
  hand_trace t = hand_forward(x, hand_lesson_weights());
  const double u[] = {1, 2, 3, -1}, a[] = {-1, 0, 1, 2};
  const double g[] = {-0.268941, 0, 0.731059, 1.761594};
  const double z[] = {-0.268941, 0, 2.193176, -1.761594};
  for (int i = 0; i < HAND_MID; ++i) {
    INFO("cell " << i);
    CHECK(t.u[i] == u[i]);
    CHECK(t.a[i] == a[i]);
    CHECK(t.g[i] == Approx(g[i]).margin(LESSON_MARGIN));
    CHECK(t.z[i] == Approx(z[i]).margin(LESSON_MARGIN));
  }
  CHECK(t.sigmoid[3] == Approx(0.880797).margin(LESSON_MARGIN));
  CHECK(t.y[0] == Approx(1.924234).margin(LESSON_MARGIN));
  CHECK(t.y[1] == Approx(-1.761594).margin(LESSON_MARGIN));
}

TEST_CASE("edited weights recompute every step") {
  double x[] = {0.5, -3};
  hand_weights w = hand_lesson_weights();
  w.up[0] = 2;     // u1 = 2*0.5 + 0*(-3) = 1
  w.gate[4] = -1;  // row 3: a3 = -1*0.5 + 0*(-3) = -0.5
  hand_trace t = hand_forward(x, w);
  CHECK(t.u[0] == 1.0);
  CHECK(t.a[2] == -0.5);
  double g3 = -0.5 / (1 + std::exp(0.5));
  CHECK(t.g[2] == Approx(g3).margin(1e-15));
  CHECK(t.y[0] == Approx(t.z[0] + t.z[2]).margin(1e-15));
}

TEST_CASE("AND from a product: 00, 01, 10, 11 -> 0, 0, 0, 1") {
  CHECK(hand_and(0, 0) == 0.0);
  CHECK(hand_and(0, 1) == 0.0);
  CHECK(hand_and(1, 0) == 0.0);
  CHECK(hand_and(1, 1) == Approx(1.0).margin(1e-15));
}

TEST_CASE("fixing g = [1, 1, 1, 1] makes y linear in x") {
  const double ones[HAND_MID] = {1, 1, 1, 1};
  hand_weights w = hand_lesson_weights();
  double x[] = {1, 2}, x2[] = {2, 4}, xs[] = {3, -1}, xsum[] = {4, 1};
  hand_trace t = hand_forward_fixed_gate(x, w, ones);
  // y = W_down W_up x = [(1 + 1)x1 + (0 + 1)x2, x2 + (x1 - x2)] = [2x1 + x2, x1] = [4, 1]
  CHECK(t.y[0] == 4.0);
  CHECK(t.y[1] == 1.0);
  hand_trace t2 = hand_forward_fixed_gate(x2, w, ones);
  hand_trace ts = hand_forward_fixed_gate(xs, w, ones);
  hand_trace tsum = hand_forward_fixed_gate(xsum, w, ones);
  for (int j = 0; j < HAND_OUT; ++j) {
    CHECK(t2.y[j] == 2 * t.y[j]);
    CHECK(tsum.y[j] == t.y[j] + ts.y[j]);
  }
  // With the real gate, doubling x does not double y.
  CHECK(hand_forward(x2, w).y[0] != Approx(2 * hand_forward(x, w).y[0]).margin(1e-3));
}
