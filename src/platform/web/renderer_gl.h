// The WebGL2 side of the renderer seam (ui/renderer.h), for the page's main loop.
#pragma once

#include <cstdint>

// What this frame's heatmaps look like beyond ImGui's draw lists (their rectangles and zoom, and
// the textures uploaded so far): part of the page's "did the picture change" key (main_web.cpp).
uint64_t renderer_gl_frame_key();

// After a lost WebGL context every GL object is gone: forget them, so they are made again.
void renderer_gl_context_lost();
