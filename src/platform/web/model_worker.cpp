// The page's model worker: the whole model's host (core/model/model_host.h) as a wasm
// module of its own, run in a Web Worker by web/model_worker.js and fetched only when a view needs
// the whole model (the rule book, the flow, the gate histograms with in=stream): never in the
// first load. It reads the checkpoint itself through the page's transport (fetch_web.cpp: fetch()
// and IndexedDB, no DOM) with the whole model's own cache, and runs every forward pass here, so
// the page's thread only posts questions and draws answers.
//
//   model_worker_open(location, generation)    a model (relative to the page, http(s), or hf:OWNER/NAME)
//   model_worker_go / _cancel / _retry / _clear
//   model_worker_pump(budget_ms)   loads for about budget_ms; 1 while there is more to do
//   model_worker_status()          the status as JSON (model_protocol.h)
//   model_worker_ask(question, quick)  the reply as JSON (runs the forward passes it needs; quick:
//                                  without what the units write toward where that is long to
//                                  compute, model_host::answer: model_worker.js then asks in full)
#include <emscripten.h>

#include <string>

#include "core/base/parallel_rows.h"
#include "core/model/model_host.h"
#include "core/model/model_service.h"
#include "platform/platform.h"
#include "platform/web/fetch_web.h"

double platform_now_seconds() { return emscripten_get_now() / 1000.0; }

namespace {
model_host* g_host = nullptr;
uint32_t g_generation = 0;  // the page's open being served: every status carries it
std::string g_out;
bool g_event = false;

// An answer came (fetch_web.cpp calls this): the worker's loop pumps again now.
EM_JS(void, js_wake, (void), { if (Module.labOnEvent) Module.labOnEvent(); });
void on_fetch_event() {
  g_event = true;
  js_wake();
}

// The threads model_worker.js started beside this one (labThreads: 0 in the single-threaded
// module), and whether the page is cross-origin isolated (without it there are none).
EM_JS(int, js_pool_threads, (void), { return Module.labThreads | 0; });
EM_JS(int, js_isolated, (void), { return self.crossOriginIsolated ? 1 : 0; });

model_host* host() {
  if (!g_host) {
    parallel_rows_configure(1 + js_pool_threads());
    model_loader_options o;
    o.fetch.convert_budget_seconds = 0.04;  // a worker's slices may be longer: no frame waits on them
    g_host = new model_host(fetch_web_client(on_fetch_event, MODEL_CACHE_DATABASE, MODEL_CACHE_BUDGET_BYTES), o);
  }
  return g_host;
}
}  // namespace

extern "C" {
EMSCRIPTEN_KEEPALIVE void model_worker_open(const char* location, int generation) {
  g_generation = (uint32_t)generation;
  host()->open(location, platform_now_seconds());
}
EMSCRIPTEN_KEEPALIVE void model_worker_go() { host()->go(); }
EMSCRIPTEN_KEEPALIVE void model_worker_cancel() { host()->cancel(); }
EMSCRIPTEN_KEEPALIVE void model_worker_retry() { host()->retry(platform_now_seconds()); }
EMSCRIPTEN_KEEPALIVE double model_worker_cache_bytes() {
  host();
  return (double)fetch_web_client(on_fetch_event, MODEL_CACHE_DATABASE, MODEL_CACHE_BUDGET_BYTES)->cache_bytes();
}
EMSCRIPTEN_KEEPALIVE double model_worker_clear() {
  host();
  return (double)fetch_web_client(on_fetch_event, MODEL_CACHE_DATABASE, MODEL_CACHE_BUDGET_BYTES)->cache_clear("");
}

// Loads for about budget_ms (several pumps, each converting within its own slice). 2: more work is
// waiting (call again at once); 1: waiting for the network (call again soon, for the stall clock;
// an answer wakes the loop earlier); 0: nothing to do.
EMSCRIPTEN_KEEPALIVE int model_worker_pump(double budget_ms) {
  const double end = emscripten_get_now() + budget_ms;
  bool worked = false;
  do {
    g_event = false;
    host()->pump(platform_now_seconds());
    worked |= g_event || host()->converting();
  } while ((g_event || host()->converting()) && emscripten_get_now() < end);
  if (host()->converting() || g_event) return 2;
  const model_status_phase p = host()->status().phase;
  return p == MODEL_STATUS_OPENING || p == MODEL_STATUS_LOADING ? (worked ? 2 : 1) : 0;
}

EMSCRIPTEN_KEEPALIVE const char* model_worker_status() {
  model_status s = host()->status();
  s.generation = g_generation;
  s.isolated = js_isolated() != 0;
  g_out = model_status_json(s);
  return g_out.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* model_worker_ask(const char* question, int quick) {
  model_question q;
  model_reply r;
  if (model_question_parse(question, &q)) r = host()->answer(q, quick ? MODEL_TOWARD_SPLIT_MACS : UINT64_MAX);
  else r.error = stream_error_of(STREAM_FORMAT);
  g_out = model_reply_json(r);
  return g_out.c_str();
}
}
