#version 300 es
// Weight heatmap (ui/renderer.h): a quad with no vertex buffer. gl_VertexID 0..3 are the
// corners of the target rectangle (NDC) and of the visible part of the matrix (fractions of its
// columns and rows), drawn as a triangle strip.
uniform vec4 u_rect;  // x0, y0, x1, y1 in normalised device coordinates
uniform vec4 u_uv;    // u0, v0, u1, v1: visible columns and rows, as fractions
out vec2 v_uv;

void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
  gl_Position = vec4(mix(u_rect.xy, u_rect.zw, corner), 0.0, 1.0);
  v_uv = mix(u_uv.xy, u_uv.zw, corner);
}
