// The whole model as the views reach it: the page runs the host (model_host.h) in a Web Worker
// fetched when a view needs it (platform/web/model_web.cpp), the tests and the benchmark run it
// in-process (model_service_local below). Either way the views speak the same messages
// (model_protocol.h), asked and collected once a frame, so a forward pass never holds the page.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/model/model_protocol.h"
#include "core/stream/fetch_seam.h"

// The whole model's verified cache, its own bound beside the page's 256 MiB (core/stream/cache_lru.h):
// one Qwen3.5-0.8B (its language model's 1.43 GiB of BF16 records), not two.
constexpr uint64_t MODEL_CACHE_BUDGET_BYTES = 2ull << 30;
#define MODEL_CACHE_DATABASE "swiglu-lab-model"

struct model_service {
  virtual ~model_service() = default;
  // Opens the model at `location` (the same one again: nothing, unless the last open failed for
  // good: a worker that stopped is replaced). Returns the open's generation: statuses carry it, and
  // one of an earlier generation is never this model's.
  virtual uint32_t model_open(const std::string& location) = 0;
  virtual void model_go() = 0;      // the user named the download's size and tapped
  virtual void model_cancel() = 0;
  virtual void model_retry() = 0;
  // Empties the whole model's cache; the bytes it held, when known (the page's worker may not
  // have started: then its database is deleted unseen and this returns 0).
  virtual uint64_t model_clear_cache() = 0;
  virtual uint64_t model_cache_bytes() const = 0;
  // Asks a question; its answer comes later (model_poll).
  virtual uint32_t model_ask(const model_question& q) = 0;
  // From the frame: the newest status, and the answer to `id` once it is in (true once). The
  // status is read again only when model_status_changes() moved.
  virtual model_status model_status_now() = 0;
  virtual uint64_t model_status_changes() const = 0;
  virtual bool model_poll(uint32_t id, model_reply* out) = 0;
  // From the frame (the in-process service works here; the worker's needs nothing).
  virtual void model_pump(double now) { (void)now; }
};

// The host in-process, through the same JSON as the worker's messages (so the tests run them).
// Answers are computed on the next pump, as the worker would between messages.
model_service* model_service_local(fetch_client* client);
