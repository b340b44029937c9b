// A pack manifest's own counts for one layer (docs/pack.md: `open`, `negative`, `histogram` of
// every probe), summed over the probes: the histogram a page can draw the moment the manifest is
// in. At the lessons' threshold (PACK_THRESHOLD) and over every token only.
#pragma once

#include "core/pack/mlp_experiments.h"
#include "core/pack/pack_format.h"

// False when the pack has no such layer.
bool pack_summary_counts(const pack_manifest& m, int layer, mlp_gate_counts* out);
