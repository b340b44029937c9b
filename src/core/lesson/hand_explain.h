// The formulas of lesson 002's hand calculation with the reader's numbers put in, one line per
// output cell: what the page shows beside each step and what the text mirror reads out.
#pragma once

#include <string>
#include <vector>

#include "core/lesson/hand_calc.h"

// Lines for one step (1..5), e.g. for step 1 with the lesson's numbers:
//   "u₁ = 1×1 + 0×2 = 1.000000"
std::vector<std::string> hand_step_lines(int step, const double x[HAND_IN], const hand_weights& w,
                                         const hand_trace& t);

// "u₁" .. "u₄": the name of cell i (0-based) of a vector, with a subscript as in the lesson.
std::string hand_cell_name(const char* vector, int i);
