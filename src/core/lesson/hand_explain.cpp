// Substituted formulas for the hand calculation (see hand_explain.h).
#include "core/lesson/hand_explain.h"

#include "core/base/number_format.h"

static const char* const SUBSCRIPT[] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};

std::string hand_cell_name(const char* vector, int i) {
  return std::string(vector) + SUBSCRIPT[(i + 1) % 10];
}

// A factor in a product: negative numbers get parentheses, "1×(-1)", as on paper.
static std::string factor(const std::string& text) {
  return !text.empty() && text[0] == '-' ? "(" + text + ")" : text;
}

static std::string dot_line(const char* out, int row, const double* w, const double* v, int n,
                            bool v_is_computed, double result) {
  std::string s = hand_cell_name(out, row) + " = ";
  for (int c = 0; c < n; ++c) {
    if (c) s += " + ";
    std::string vv = v_is_computed ? fmt6(v[c]) : fmt_short(v[c]);
    s += factor(fmt_short(w[row * n + c])) + "×" + factor(vv);
  }
  return s + " = " + fmt6(result);
}

std::vector<std::string> hand_step_lines(int step, const double x[HAND_IN], const hand_weights& w,
                                         const hand_trace& t) {
  std::vector<std::string> lines;
  switch (step) {
    case HAND_STEP_UP:
      for (int i = 0; i < HAND_MID; ++i) lines.push_back(dot_line("u", i, w.up, x, HAND_IN, false, t.u[i]));
      break;
    case HAND_STEP_GATE:
      for (int i = 0; i < HAND_MID; ++i) lines.push_back(dot_line("a", i, w.gate, x, HAND_IN, false, t.a[i]));
      break;
    case HAND_STEP_SILU:
      for (int i = 0; i < HAND_MID; ++i)
        lines.push_back(hand_cell_name("g", i) + " = " + factor(fmt6(t.a[i])) + "×sigmoid(" +
                        fmt6(t.a[i]) + ") = " + factor(fmt6(t.a[i])) + "×" + fmt6(t.sigmoid[i]) +
                        " = " + fmt6(t.g[i]));
      break;
    case HAND_STEP_MUL:
      for (int i = 0; i < HAND_MID; ++i)
        lines.push_back(hand_cell_name("z", i) + " = " + factor(fmt6(t.u[i])) + "×" +
                        factor(fmt6(t.g[i])) + " = " + fmt6(t.z[i]));
      break;
    case HAND_STEP_DOWN:
      for (int j = 0; j < HAND_OUT; ++j) lines.push_back(dot_line("y", j, w.down, t.z, HAND_MID, true, t.y[j]));
      break;
    default:
      break;
  }
  return lines;
}
