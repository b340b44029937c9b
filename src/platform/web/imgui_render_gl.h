// ImGui's draw data in WebGL2, in place of imgui_impl_opengl3. The page owns the whole GL
// context, so each frame sets the state it needs and never asks GL what the state was: every
// glGet* is a round trip that waits for the GPU process to finish all that is queued (the last
// frame's drawing too). imgui_impl_opengl3 backs the state up with 18 queries a frame, about 6-7
// of them round trips, which held the main thread up to 40 ms at once while the model worker
// loaded (docs/model.md, "Where the main thread waits").
#pragma once

#include "imgui.h"

// Before ImGui::NewFrame: makes what is missing (the program, buffers, the font atlas's texture),
// so the frame's draw commands name the atlas's texture as it is now.
void imgui_gl_new_frame();
// Draws the frame.
void imgui_gl_render(ImDrawData* dd);
// The font atlas was rebuilt: its texture is uploaded again at the next imgui_gl_new_frame.
void imgui_gl_fonts_changed();
// After a lost WebGL context every GL object is gone: forget them, so they are made again.
void imgui_gl_context_lost();
