// Parameter counts of lessons 001/003.
#include <catch2/catch.hpp>

#include "core/lesson/param_budget.h"

TEST_CASE("Qwen3.5-0.8B: 11,010,048 per layer, 264,241,152 for 24 layers") {
  budget_counts c = budget_count(1024, 3584, 24);
  CHECK(c.swiglu_per_layer == 11010048);
  CHECK(c.swiglu_all_layers == 264241152);
  CHECK(c.classic_per_layer == 8 * 1024 * 1024);
  CHECK(c.swiglu_h2 == Approx(10.5));
  CHECK(c.swiglu_vs_classic == Approx(1.3125));
}

TEST_CASE("8/3 h is the break-even width") {
  budget_counts c = budget_count(1024, 3584, 24);
  CHECK(c.balanced_f == 2731);  // 8 * 1024 / 3 = 2730.67
  CHECK(budget_count(3, 8, 1).balanced_f == 8);
  budget_counts exact = budget_count(3, 8, 1);
  CHECK(exact.balanced_per_layer == exact.classic_per_layer);  // 3*3*8 = 72 = 8*9
  CHECK(budget_count(1, 1, 1).balanced_f == 3);                // 8/3 = 2.67 -> 3
  CHECK(budget_count(2, 1, 1).balanced_f == 5);                // 16/3 = 5.33 -> 5
}
