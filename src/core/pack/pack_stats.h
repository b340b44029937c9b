// Gate statistics of a pack's layer, computed by the kernels from its verified int8 gate matrix
// over every probe token: the numbers `swiglu stats` prints and the page's live histograms show.
#pragma once

#include <string>

#include "core/io/byte_source.h"
#include "core/pack/mlp_experiments.h"
#include "core/pack/pack_format.h"

bool pack_gate_stats(byte_source* src, const pack_manifest& m, int layer, double thr, mlp_gate_counts* out,
                     std::string* error);
