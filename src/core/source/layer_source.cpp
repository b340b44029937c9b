// The parts of the layer source interface that are plain data (see layer_source.h).
#include "core/source/layer_source.h"

#include <algorithm>

int source_model::find_layer(int model_layer) const {
  auto it = std::find(layers.begin(), layers.end(), model_layer);
  return it == layers.end() ? -1 : (int)(it - layers.begin());
}
