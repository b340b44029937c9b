// Gate statistics of a pack layer (see pack_stats.h).
#include "core/pack/pack_stats.h"

#include "core/pack/pack_read.h"

bool pack_gate_stats(byte_source* src, const pack_manifest& m, int layer, double thr, mlp_gate_counts* out,
                     std::string* error) {
  pack_layer_data d;
  if (!pack_load_layer(src, m, layer, /*gate_only=*/true, &d, error)) return false;
  mlp_gate_counts c;
  for (const pack_probe& p : m.probes) {
    std::vector<float> x;
    if (!pack_load_probe_input(src, p, &x, error)) return false;
    const int T = (int)p.tokens.size();
    std::vector<float> sg((size_t)T * m.intermediate);
    mlp_gate_silu(&d.part[MLP_GATE].view, x.data(), T, sg.data());
    mlp_gate_count(sg.data(), sg.size(), thr, &c);
  }
  *out = c;
  return true;
}
