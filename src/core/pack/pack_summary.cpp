// The manifest's summed counts (see pack_summary.h).
#include "core/pack/pack_summary.h"

bool pack_summary_counts(const pack_manifest& m, int layer, mlp_gate_counts* out) {
  const int li = m.find_layer(layer);
  if (li < 0) return false;
  mlp_gate_counts c;
  for (const pack_probe& p : m.probes) {
    const pack_probe_layer& pl = p.layers[li];
    const int64_t n = (int64_t)p.tokens.size() * m.intermediate;
    c.total += n;
    c.open += (int64_t)(pl.open * (double)n + 0.5);
    c.negative += (int64_t)(pl.negative * (double)n + 0.5);
    for (int b = 0; b < GATE_HIST_BINS && b < (int)pl.histogram.size(); b++) c.histogram[b] += pl.histogram[b];
  }
  *out = c;
  return true;
}
