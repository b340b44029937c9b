// Parameter counts of the feed-forward block (see param_budget.h).
#include "core/lesson/param_budget.h"

budget_counts budget_count(int64_t h, int64_t f, int64_t layers) {
  budget_counts c{};
  c.classic_per_layer = 2 * h * (4 * h);
  c.balanced_f = (8 * h + 1) / 3;  // 8h/3 to the nearest integer (8h/3 is never halfway)
  c.balanced_per_layer = 3 * h * c.balanced_f;
  c.swiglu_per_layer = 3 * h * f;
  c.swiglu_all_layers = layers * c.swiglu_per_layer;
  c.swiglu_h2 = h > 0 ? double(c.swiglu_per_layer) / double(h * h) : 0;
  c.swiglu_vs_classic = h > 0 ? double(c.swiglu_per_layer) / double(c.classic_per_layer) : 0;
  return c;
}
