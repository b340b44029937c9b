#version 300 es
precision mediump float;
uniform sampler2D u_texture;
in vec2 v_uv;
in vec4 v_color;
layout(location = 0) out vec4 out_color;
void main() { out_color = v_color * texture(u_texture, v_uv); }
