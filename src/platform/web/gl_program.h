// A WebGL2 program from the page's embedded shaders (shaders/*.vert, *.frag).
#pragma once

#include <GLES3/gl3.h>

// Compiles and links; 0 when a shader does not compile or the program does not link (the log is
// printed with `what` in front). Made once per context: the status queries wait for the GPU.
GLuint gl_program_link(const char* what, const unsigned char* vert, unsigned vert_size, const unsigned char* frag,
                       unsigned frag_size);
