// The renderer seam (ui/renderer.h) in WebGL2: the weight heatmap as two textures (int8 weights,
// f32 row scales) drawn by shaders/heatmap.{vert,frag} inside ImGui's draw list through a
// callback, after which ImGui's own GL state is set again (ImDrawCallback_ResetRenderState).
#include <GLES3/gl3.h>

#include <algorithm>
#include <map>
#include <vector>

#include "core/base/hash.h"
#include "imgui.h"
#include "platform/web/gl_program.h"
#include "platform/web/renderer_gl.h"
#include "ui/renderer.h"

extern const unsigned char shader_heatmap_vert[], shader_heatmap_frag[];
extern const unsigned shader_heatmap_vert_size, shader_heatmap_frag_size;

namespace {
struct gl_heatmap {
  GLuint q = 0, scale = 0;
  int rows = 0, cols = 0, width = 0;
};

struct heatmap_draw {
  uint32_t id;
  ImVec2 p0, p1, uv0, uv1;
  float max_abs;
};

std::map<uint32_t, gl_heatmap> g_maps;
uint32_t g_next_id = 1;
GLuint g_program = 0, g_vao = 0;
heatmap_draw g_draws[16];  // this frame's draws: the callbacks read them during rendering
int g_draw_count = 0, g_draw_frame = -1;

bool ensure_program() {
  if (g_program) return true;
  g_program = gl_program_link("heatmap", shader_heatmap_vert, shader_heatmap_vert_size, shader_heatmap_frag,
                              shader_heatmap_frag_size);
  if (!g_program) return false;
  glGenVertexArrays(1, &g_vao);
  return true;
}

// A texture of `count` values wrapped at `width` texels per row.
GLuint upload_texture(GLenum internal, GLenum format, GLenum type, const void* data, size_t count, int width, size_t elem) {
  const int height = (int)((count + width - 1) / width);
  std::vector<unsigned char> padded((size_t)width * height * elem, 0);
  std::copy((const unsigned char*)data, (const unsigned char*)data + count * elem, padded.begin());
  GLuint t;
  glGenTextures(1, &t);
  glBindTexture(GL_TEXTURE_2D, t);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, internal, width, height, 0, format, type, padded.data());
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  return t;
}

void draw_callback(const ImDrawList*, const ImDrawCmd* cmd) {
  const heatmap_draw& d = *(const heatmap_draw*)cmd->UserCallbackData;
  auto it = g_maps.find(d.id);
  if (it == g_maps.end() || !ensure_program()) return;
  const gl_heatmap& h = it->second;
  const ImDrawData* dd = ImGui::GetDrawData();
  const ImVec2 dp = dd->DisplayPos, ds = dd->DisplaySize, fb = dd->FramebufferScale;
  auto ndc_x = [&](float x) { return (x - dp.x) / ds.x * 2 - 1; };
  auto ndc_y = [&](float y) { return 1 - (y - dp.y) / ds.y * 2; };
  const ImVec4 clip = cmd->ClipRect;
  glEnable(GL_SCISSOR_TEST);
  glScissor((int)((clip.x - dp.x) * fb.x), (int)((ds.y - (clip.w - dp.y)) * fb.y), (int)((clip.z - clip.x) * fb.x),
            (int)((clip.w - clip.y) * fb.y));
  glDisable(GL_BLEND);
  glUseProgram(g_program);
  glBindVertexArray(g_vao);
  glUniform4f(glGetUniformLocation(g_program, "u_rect"), ndc_x(d.p0.x), ndc_y(d.p0.y), ndc_x(d.p1.x), ndc_y(d.p1.y));
  glUniform4f(glGetUniformLocation(g_program, "u_uv"), d.uv0.x, d.uv0.y, d.uv1.x, d.uv1.y);
  glUniform2i(glGetUniformLocation(g_program, "u_dims"), h.rows, h.cols);
  glUniform1i(glGetUniformLocation(g_program, "u_width"), h.width);
  glUniform1f(glGetUniformLocation(g_program, "u_inv_max"), 1.0f / d.max_abs);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, h.scale);
  glUniform1i(glGetUniformLocation(g_program, "u_scale"), 1);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, h.q);
  glUniform1i(glGetUniformLocation(g_program, "u_q"), 0);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}
}  // namespace

uint32_t renderer_heatmap_upload(const q8_matrix_view* m) {
  GLint max_size = 2048;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
  gl_heatmap h;
  h.rows = m->rows;
  h.cols = m->cols;
  h.width = std::min(max_size, 4096);
  const size_t n = (size_t)m->rows * m->cols;
  if (n > (size_t)h.width * (size_t)max_size) return 0;  // larger than one texture holds
  // The panel layout (q8_format.h) back to row-major int8.
  std::vector<int8_t> q(n);
  const int panels = m->rows_padded / Q8_PANEL_ROWS, blocks = m->cols_padded / Q8_PANEL_COLS;
  for (int p = 0; p < panels; p++)
    for (int b = 0; b < blocks; b++)
      for (int r = 0; r < Q8_PANEL_ROWS; r++) {
        const int row = p * Q8_PANEL_ROWS + r;
        if (row >= m->rows) continue;
        const int8_t* src = m->weights + (((size_t)p * blocks + b) * Q8_PANEL_ROWS + r) * Q8_PANEL_COLS;
        for (int c = 0; c < Q8_PANEL_COLS && b * Q8_PANEL_COLS + c < m->cols; c++) q[(size_t)row * m->cols + b * Q8_PANEL_COLS + c] = src[c];
      }
  h.q = upload_texture(GL_R8I, GL_RED_INTEGER, GL_BYTE, q.data(), n, h.width, 1);
  h.scale = upload_texture(GL_R32F, GL_RED, GL_FLOAT, m->scales, (size_t)m->rows, h.width, 4);
  const uint32_t id = g_next_id++;
  g_maps[id] = h;
  return id;
}

void renderer_heatmap_free(uint32_t id) {
  auto it = g_maps.find(id);
  if (it == g_maps.end()) return;
  glDeleteTextures(1, &it->second.q);
  glDeleteTextures(1, &it->second.scale);
  g_maps.erase(it);
}

bool renderer_heatmap_valid(uint32_t id) { return g_maps.count(id) != 0; }

void renderer_heatmap_draw(uint32_t id, ImVec2 p0, ImVec2 p1, ImVec2 uv0, ImVec2 uv1, float max_abs) {
  if (g_draw_frame != ImGui::GetFrameCount()) g_draw_frame = ImGui::GetFrameCount(), g_draw_count = 0;
  if (g_draw_count == (int)(sizeof g_draws / sizeof g_draws[0])) return;
  heatmap_draw* d = &g_draws[g_draw_count++];
  *d = {id, p0, p1, uv0, uv1, max_abs};
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddCallback(draw_callback, d);
  dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

uint64_t renderer_gl_frame_key() {
  const int n = g_draw_frame == ImGui::GetFrameCount() ? g_draw_count : 0;
  return hash64(g_draws, sizeof(heatmap_draw) * n) ^ (uint64_t(g_next_id) << 32);
}

void renderer_gl_context_lost() {
  g_maps.clear();
  g_program = 0;
  g_vao = 0;
}
