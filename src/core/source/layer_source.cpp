// The parts of the layer source interface that are plain data (see layer_source.h).
#include "core/source/layer_source.h"

#include <algorithm>

void source_failure_add(std::vector<source_failure>* out, source_failure f) {
  for (const source_failure& g : *out)
    if (g.file == f.file && g.error.fault == f.error.fault && g.error.detail == f.error.detail && g.error.reason == f.error.reason) return;
  out->push_back(std::move(f));
}

int source_model::find_layer(int model_layer) const {
  auto it = std::find(layers.begin(), layers.end(), model_layer);
  return it == layers.end() ? -1 : (int)(it - layers.begin());
}
