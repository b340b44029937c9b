// The whole view state of the page: everything a shared link must reproduce.
// The URL fragment (url_state.h) is its serialised form; the panels read and write it.
#pragma once

#include <cstdint>

#include "core/hand_calc.h"

enum lab_view { LAB_VIEW_HAND, LAB_VIEW_SILU, LAB_VIEW_BUDGET, LAB_VIEW_COUNT };
enum lab_lang { LAB_LANG_EN, LAB_LANG_ZH, LAB_LANG_COUNT };

// Ranges a link may set; values outside are clamped (and the page says so).
#define LAB_VALUE_LIMIT 100.0  // |x| and |weight| for the hand calculation
#define LAB_PROBE_MIN (-6.0)   // SiLU plot range, lesson 001: z in [-6, 6]
#define LAB_PROBE_MAX 6.0
#define LAB_HIDDEN_MIN 1
#define LAB_HIDDEN_MAX 65536
#define LAB_INTERMEDIATE_MIN 1
#define LAB_INTERMEDIATE_MAX 262144
#define LAB_LAYERS_MIN 1
#define LAB_LAYERS_MAX 1024

struct lab_state {
  lab_view view;
  lab_lang lang;
  // Hand calculation (lesson 002)
  double x[HAND_IN];
  hand_weights w;
  int step;  // hand_step: 0 nothing computed .. 5 y computed
  // SiLU vs ReLU (lesson 001)
  double probe_z;
  bool show_sigmoid, show_gelu;
  // Parameter budget (lessons 001/003)
  int64_t hidden, intermediate, layers;
};

// The lesson's example: x = [1, 2], lesson 002's weights, every step shown, probe at z = -1,
// Qwen3.5-0.8B's 1024 / 3584 / 24.
lab_state lab_state_default();

bool lab_state_equal(const lab_state& a, const lab_state& b);
