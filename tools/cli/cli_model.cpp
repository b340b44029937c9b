// The CLI's whole model (see cli_model.h).
#include "cli_model.h"

#include <cstdio>

#include "core/views/live_view.h"
#include "core/views/model_view.h"

cli_model::cli_model(const std::string& dir) : files(dir), host(&net) {
  net.files = &files;
  net.base = "local/";
}

bool cli_model_load(const char* command, cli_model* m) {
  if (!m->files.exists("config.json")) {
    std::fprintf(stderr, "swiglu %s: %s has no config.json (a checkpoint directory: config.json, safetensors)\n", command,
                 m->files.dir.c_str());
    return false;
  }
  double now = 0;
  m->host.open("local/", now);
  for (int steps = 0; steps < 10000000; steps++) {
    const model_status s = m->host.status();
    // Failed, or a part of it failed (a chunk answered 500, weights holding NaN): nobody presses Retry here.
    if (s.phase == MODEL_STATUS_FAILED || model_status_chunk_failed(s)) {
      std::fprintf(stderr, "swiglu %s: %s%s%s\n", command, s.failed_file.empty() ? "" : s.failed_file.c_str(),
                   s.failed_file.empty() ? "" : ": ", live_fault_text(s.error).c_str());
      return false;
    }
    if (s.phase == MODEL_STATUS_ASKING) m->host.go();  // a command line asked for it: no question
    if (m->host.ready()) return true;
    now += 0.001;
    const int answered = m->net.deliver(now);
    m->host.pump(now);
    if (answered == 0 && m->net.pending() == 0 && !m->host.converting() && s.phase != MODEL_STATUS_ASKING && steps > 100000) break;
  }
  std::fprintf(stderr, "swiglu %s: the model did not finish loading\n", command);
  return false;
}
