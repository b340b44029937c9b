// The three matrices of a SwiGLU MLP, in one enum and one name table for the whole program:
// pack files, links (mat=), the weights view and the mirror.
//   gate_proj (intermediate, hidden), up_proj (intermediate, hidden), down_proj (hidden, intermediate)
#pragma once

enum mlp_part { MLP_GATE, MLP_UP, MLP_DOWN, MLP_PART_COUNT };

extern const char* const MLP_PART_NAMES[MLP_PART_COUNT];    // "gate", "up", "down": files and links (public)
extern const char* const MLP_PART_SYMBOLS[MLP_PART_COUNT];  // "W_gate", "W_up", "W_down": what the page prints
const char* mlp_part_name(mlp_part p);
const char* mlp_part_symbol(mlp_part p);
