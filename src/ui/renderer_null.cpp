// The renderer's null twin (see renderer.h): no GL, just a record of the calls.
#include "ui/renderer.h"

static renderer_null_log g_log;

renderer_null_log* renderer_null_get_log() { return &g_log; }

uint32_t renderer_heatmap_upload(const q8_matrix_view* m) {
  g_log.uploads++;
  g_log.last_rows = m->rows;
  g_log.last_cols = m->cols;
  return (uint32_t)g_log.uploads;
}

void renderer_heatmap_free(uint32_t) { g_log.frees++; }
bool renderer_heatmap_valid(uint32_t heatmap) { return heatmap != 0; }

void renderer_heatmap_draw(uint32_t, ImVec2 p0, ImVec2 p1, ImVec2 uv0, ImVec2 uv1, float) {
  g_log.draws++;
  g_log.last_uv0 = uv0;
  g_log.last_uv1 = uv1;
  ImGui::GetWindowDrawList()->AddRect(p0, p1, IM_COL32(128, 128, 128, 255));
}
