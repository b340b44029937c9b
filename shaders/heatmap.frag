#version 300 es
// Weight heatmap: each pixel reads its int8 weight and its row's scale straight from the
// textures (no filtering: one weight is one colour), so zooming in shows single weights.
// Both textures hold the values row-major, wrapped at u_width texels: element i sits at
// (i % u_width, i / u_width). That keeps a 3584 x 1024 matrix inside any texture size limit.
precision highp float;
precision highp int;
uniform highp isampler2D u_q;     // R8I: q[row * cols + col]
uniform highp sampler2D u_scale;  // R32F: scale[row]
uniform ivec2 u_dims;             // rows, cols
uniform int u_width;              // texels per texture row
uniform float u_inv_max;          // 1 / max |w| of the matrix
in vec2 v_uv;
out vec4 o_color;

ivec2 texel(int i) { return ivec2(i % u_width, i / u_width); }

void main() {
  int row = clamp(int(v_uv.y * float(u_dims.x)), 0, u_dims.x - 1);
  int col = clamp(int(v_uv.x * float(u_dims.y)), 0, u_dims.y - 1);
  float q = float(texelFetch(u_q, texel(row * u_dims.y + col), 0).r);
  float w = q * texelFetch(u_scale, texel(row), 0).r * u_inv_max;  // in [-1, 1]
  float t = sqrt(min(abs(w), 1.0));  // most weights are small: a square root shows them
  vec3 neg = vec3(0.16, 0.40, 0.85), pos = vec3(0.86, 0.24, 0.16), zero = vec3(1.0);
  o_color = vec4(mix(zero, w < 0.0 ? neg : pos, t), 1.0);
}
