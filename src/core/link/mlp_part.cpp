// The MLP's matrices' names (see mlp_part.h).
#include "core/link/mlp_part.h"

const char* const MLP_PART_NAMES[MLP_PART_COUNT] = {"gate", "up", "down"};
const char* const MLP_PART_SYMBOLS[MLP_PART_COUNT] = {"W_gate", "W_up", "W_down"};
const char* mlp_part_name(mlp_part p) { return MLP_PART_NAMES[p < 0 || p >= MLP_PART_COUNT ? 0 : p]; }
const char* mlp_part_symbol(mlp_part p) { return MLP_PART_SYMBOLS[p < 0 || p >= MLP_PART_COUNT ? 0 : p]; }
