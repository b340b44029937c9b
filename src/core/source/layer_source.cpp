// What every layer source shares (see layer_source.h): its plain data and progress sums.
#include "core/source/layer_source.h"

#include <algorithm>

#include "core/stream/fetch_queue.h"

void source_failure_add(std::vector<source_failure>* out, source_failure f) {
  for (const source_failure& g : *out)
    if (g.file == f.file && g.error.fault == f.error.fault && g.error.detail == f.error.detail && g.error.reason == f.error.reason) return;
  out->push_back(std::move(f));
}

int source_model::find_layer(int model_layer) const {
  auto it = std::find(layers.begin(), layers.end(), model_layer);
  return it == layers.end() ? -1 : (int)(it - layers.begin());
}

void source_progress_add(source_progress* p, const fetch_item& it, bool done) {
  p->total += it.bytes;
  p->loaded += done ? it.bytes : it.state == FETCH_ITEM_LOADING ? it.loaded : 0;
  p->failed += it.state == FETCH_ITEM_FAILED && it.error.fault != STREAM_CANCELLED;
  p->loading += it.state == FETCH_ITEM_LOADING;
  p->waiting += it.state == FETCH_ITEM_IDLE && it.not_before > 0;
}
