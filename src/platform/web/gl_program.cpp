// A WebGL2 program from embedded shaders (see gl_program.h).
#include "platform/web/gl_program.h"

#include <cstdio>

namespace {
GLuint compile(const char* what, GLenum type, const unsigned char* src, unsigned n) {
  GLuint s = glCreateShader(type);
  const GLchar* text = (const GLchar*)src;
  const GLint len = (GLint)n;
  glShaderSource(s, 1, &text, &len);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[1024];
    glGetShaderInfoLog(s, sizeof log, nullptr, log);
    std::printf("%s shader: %s\n", what, log);
  }
  return s;
}
}  // namespace

GLuint gl_program_link(const char* what, const unsigned char* vert, unsigned vert_size, const unsigned char* frag,
                       unsigned frag_size) {
  GLuint vs = compile(what, GL_VERTEX_SHADER, vert, vert_size);
  GLuint fs = compile(what, GL_FRAGMENT_SHADER, frag, frag_size);
  GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[1024];
    glGetProgramInfoLog(program, sizeof log, nullptr, log);
    std::printf("%s program: %s\n", what, log);
    glDeleteProgram(program);
    return 0;
  }
  return program;
}
