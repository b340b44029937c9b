// Weights (lessons 000/003, "the rule book"): one matrix of one layer as a zoomable, pannable
// heatmap drawn by a shader from the int8 data, and one intermediate unit's gate row, up row and
// down column with its silu(gate) on each probe token. Zoom and centre live in the view state
// (the link: zoom=, cx=, cy=), so a shared link shows the same patch of weights.
#pragma once

#include <cstdint>

#include "core/live_view.h"

struct weights_panel {
  uint32_t heatmap = 0;            // renderer handle of the uploaded matrix
  int uploaded_layer = -1, uploaded_matrix = -1;
  float max_abs = 1;
  bool dragged = false;      // this press panned: its release picks nothing
  bool mouse_press = false;  // pressed by a mouse or finger (Enter or Space on it picks nothing)
};

void weights_panel_draw(weights_panel* w, lab_state* s, pack_stream* st, const live_choice& c);
void weights_panel_free(weights_panel* w);
