// ImGui's draw data in WebGL2 (see imgui_render_gl.h).
#include "platform/web/imgui_render_gl.h"

#include <GLES3/gl3.h>

#include <cstddef>
#include <cstdint>

#include "platform/web/gl_program.h"

extern const unsigned char shader_imgui_vert[], shader_imgui_frag[];
extern const unsigned shader_imgui_vert_size, shader_imgui_frag_size;

namespace {
// Every GL name this renderer made; 0 until made (again, after a lost context).
struct gl_objects {
  GLuint program = 0, vao = 0, vertices = 0, indices = 0, font = 0;
  GLint proj = -1;
};
gl_objects g;
bool g_link_failed = false;  // tried once per context: a failure is printed once, not every frame

bool ensure_objects() {
  if (g.program) return true;
  if (g_link_failed) return false;
  g.program = gl_program_link("imgui", shader_imgui_vert, shader_imgui_vert_size, shader_imgui_frag, shader_imgui_frag_size);
  if (!g.program) {
    g_link_failed = true;
    return false;
  }
  g.proj = glGetUniformLocation(g.program, "u_proj");
  glUseProgram(g.program);
  glUniform1i(glGetUniformLocation(g.program, "u_texture"), 0);
  // The vertex layout lives in the VAO with its buffers: set once, bound each frame.
  glGenVertexArrays(1, &g.vao);
  glGenBuffers(1, &g.vertices);
  glGenBuffers(1, &g.indices);
  glBindVertexArray(g.vao);
  glBindBuffer(GL_ARRAY_BUFFER, g.vertices);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g.indices);
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  glEnableVertexAttribArray(2);
  const GLsizei stride = sizeof(ImDrawVert);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, stride, (const void*)offsetof(ImDrawVert, pos));
  glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, stride, (const void*)offsetof(ImDrawVert, uv));
  glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, (const void*)offsetof(ImDrawVert, col));
  glBindVertexArray(0);
  return true;
}

void ensure_font() {
  // The atlas is built whatever GL does (ImGui::NewFrame needs it); its texture once GL can draw.
  ImGuiIO& io = ImGui::GetIO();
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  if (g.font || !ensure_objects()) return;
  glGenTextures(1, &g.font);
  glBindTexture(GL_TEXTURE_2D, g.font);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  io.Fonts->SetTexID((ImTextureID)(intptr_t)g.font);
}

// The state ImGui's triangles need, set whole (never read back): alpha blending, no culling,
// depth or stencil, scissored, the pixel projection of the display.
void set_state(const ImDrawData* dd, int fb_w, int fb_h) {
  glViewport(0, 0, fb_w, fb_h);
  glEnable(GL_BLEND);
  glBlendEquation(GL_FUNC_ADD);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glDisable(GL_CULL_FACE);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_STENCIL_TEST);
  glEnable(GL_SCISSOR_TEST);
  const float l = dd->DisplayPos.x, r = dd->DisplayPos.x + dd->DisplaySize.x;
  const float t = dd->DisplayPos.y, b = dd->DisplayPos.y + dd->DisplaySize.y;
  const float proj[16] = {2 / (r - l), 0, 0, 0, 0, 2 / (t - b), 0, 0, 0, 0, -1, 0, (r + l) / (l - r), (t + b) / (b - t), 0, 1};
  glUseProgram(g.program);
  glUniformMatrix4fv(g.proj, 1, GL_FALSE, proj);
  glBindVertexArray(g.vao);
  glBindBuffer(GL_ARRAY_BUFFER, g.vertices);
  glActiveTexture(GL_TEXTURE0);
}
}  // namespace

void imgui_gl_new_frame() { ensure_font(); }

void imgui_gl_render(ImDrawData* dd) {
  const int fb_w = (int)(dd->DisplaySize.x * dd->FramebufferScale.x), fb_h = (int)(dd->DisplaySize.y * dd->FramebufferScale.y);
  if (fb_w <= 0 || fb_h <= 0 || !g.program) return;
  set_state(dd, fb_w, fb_h);
  const ImVec2 origin = dd->DisplayPos, scale = dd->FramebufferScale;
  const GLenum index_type = sizeof(ImDrawIdx) == 2 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT;
  for (int n = 0; n < dd->CmdListsCount; n++) {
    const ImDrawList* list = dd->CmdLists[n];
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)list->VtxBuffer.size_in_bytes(), list->VtxBuffer.Data, GL_STREAM_DRAW);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)list->IdxBuffer.size_in_bytes(), list->IdxBuffer.Data, GL_STREAM_DRAW);
    for (const ImDrawCmd& cmd : list->CmdBuffer) {
      if (cmd.UserCallback) {
        if (cmd.UserCallback == ImDrawCallback_ResetRenderState) set_state(dd, fb_w, fb_h);
        else cmd.UserCallback(list, &cmd);
        continue;
      }
      const float x0 = (cmd.ClipRect.x - origin.x) * scale.x, y0 = (cmd.ClipRect.y - origin.y) * scale.y;
      const float x1 = (cmd.ClipRect.z - origin.x) * scale.x, y1 = (cmd.ClipRect.w - origin.y) * scale.y;
      if (x1 <= x0 || y1 <= y0) continue;
      glScissor((int)x0, (int)(fb_h - y1), (int)(x1 - x0), (int)(y1 - y0));  // GL's y runs up
      glBindTexture(GL_TEXTURE_2D, (GLuint)(intptr_t)cmd.TextureId);
      glDrawElements(GL_TRIANGLES, (GLsizei)cmd.ElemCount, index_type, (const void*)(cmd.IdxOffset * sizeof(ImDrawIdx)));
    }
  }
  glBindVertexArray(0);
  glDisable(GL_SCISSOR_TEST);  // the next frame's clear covers the whole canvas
}

void imgui_gl_fonts_changed() {
  if (g.font) glDeleteTextures(1, &g.font);
  g.font = 0;
}

void imgui_gl_context_lost() {
  g = gl_objects();
  g_link_failed = false;
}
