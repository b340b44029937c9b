// The fetch seam (core/stream/fetch_seam.h) in the browser: fetch() for the network (Range
// requests, the body streamed and cut at its limit, past the HTTP cache where an answer's
// identity is checked, progress, cancel) and IndexedDB for the verified cache, so a reload
// fetches no weights and a visited pack works offline. Every answer goes to the sink that asked,
// and asks for a frame. No DOM: a worker's module can use it with the same exported callbacks
// (lab_on_fetch_answer, lab_on_fetch_progress, lab_on_cache_*, lab_on_prefetched).
#pragma once

#include "core/stream/fetch_seam.h"

#include "core/stream/cache_lru.h"

// The one client of a module (the page's, or its model worker's); `on_event` is called after every
// answer (to draw a frame, or to pump the worker). Its verified cache is the IndexedDB `database`,
// bounded to `budget` bytes: the page's "swiglu-lab" (CACHE_BUDGET_BYTES), the whole model's
// "swiglu-lab-model" (MODEL_CACHE_BUDGET_BYTES, core/model/model_service.h).
fetch_client* fetch_web_client(void (*on_event)(), const char* database = "swiglu-lab", uint64_t budget = CACHE_BUDGET_BYTES);
