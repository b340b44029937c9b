// The WebGL2 side of the renderer seam (ui/renderer.h), for the page's main loop.
#pragma once

// After a lost WebGL context every GL object is gone: forget them, so they are made again.
void renderer_gl_context_lost();
