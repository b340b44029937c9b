// GL drawing beyond ImGui's own triangles, behind a seam (the platform and the renderer are
// separate axes): the web build draws the weight heatmap with a WebGL2 shader (shaders/heatmap.*,
// platform/web/renderer_gl.cpp), the headless tests with the null twin (ui/renderer_null.cpp),
// which records what was asked so a test can check it.
#pragma once

#include <cstdint>

#include "core/quant/q8_format.h"
#include "imgui.h"

// Uploads a q8 matrix (int8 values and per-row scales) as textures; 0 when it cannot.
uint32_t renderer_heatmap_upload(const q8_matrix_view* m);
void renderer_heatmap_free(uint32_t heatmap);
// False once the GL context was lost and rebuilt: upload again.
bool renderer_heatmap_valid(uint32_t heatmap);
// Draws the part [uv0, uv1] (fractions of columns and rows) of the heatmap into [p0, p1] of the
// current window, coloured by w / max_abs (blue negative, white 0, red positive).
void renderer_heatmap_draw(uint32_t heatmap, ImVec2 p0, ImVec2 p1, ImVec2 uv0, ImVec2 uv1, float max_abs);

// The null twin's record (headless tests).
struct renderer_null_log {
  int uploads = 0, frees = 0, draws = 0;
  int last_rows = 0, last_cols = 0;
  ImVec2 last_uv0, last_uv1;
};
renderer_null_log* renderer_null_get_log();
