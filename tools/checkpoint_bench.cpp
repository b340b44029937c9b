// checkpoint_bench: how long a checkpoint read by byte ranges holds the caller, and how many bytes
// it fetches, for a Qwen3.5-0.8B-shaped BF16 checkpoint (the synthetic default, in memory) served
// through the fetch seam's twin. Prints one table: the longest hold, in one answer (checks and a
// copy of the chunk's bytes; a cached chunk's record) or one pump (conversion slices within the
// page's budget, a finished chunk's cache record), bytes fetched against the tensors needed, and a
// reload's weight bytes. Natively and (built with Emscripten) under Node.
//
//   checkpoint_bench [--chunk-mib 2] [--layers 0,11,23]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/checkpoint/synthetic_checkpoint.h"
#include "core/source/checkpoint_source.h"
#include "platform/native/fetch_native.h"

static double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char** argv) {
  double chunk_mib = 2;
  for (int i = 1; i + 1 < argc; i += 2)
    if (!std::strcmp(argv[i], "--chunk-mib")) chunk_mib = std::atof(argv[i + 1]);
  synth_spec spec;  // the embedded default: 1024 / 3584, 24 layers, layers 0, 11, 23, BF16
  mem_files files;
  files.files = synth_checkpoint_make(spec);
  const std::string base = "https://hub.example/Qwen/Qwen3.5-0.8B-shaped/resolve/main/";
  native_fetch net;
  net.files = &files;
  net.base = base;
  model_location loc;
  std::string err;
  if (!model_location_parse(base, &loc, &err)) return std::fprintf(stderr, "%s\n", err.c_str()), 1;
  checkpoint_source_options opt;
  opt.chunk_bytes = (uint64_t)(chunk_mib * (1 << 20));

  std::printf("| visit | answers | longest hold | first gate matrix in | all 3 gates in | fetched | tensors needed | weights from cache |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (int visit = 0; visit < 2; visit++) {
    net.network_bytes = 0;
    checkpoint_source src(&net, loc, 0, opt);
    src.want({0, 11, 23}, -1);
    const double t0 = now_ms();
    double longest = 0, first_gate = -1, all = -1;
    int answers = 0;
    for (int round = 0; round < 100000 && all < 0; round++) {
      src.want({0, 11, 23}, -1);
      const double p = now_ms();
      src.pump(0);
      const double pumped = now_ms() - p;
      const double a = now_ms();
      const int n = net.deliver(0);  // one answer per file in flight
      const double held = std::max(pumped, (now_ms() - a) / (n ? n : 1));
      answers += n;
      if (held > longest) longest = held;
      if (first_gate < 0 && src.matrix(0, MLP_GATE)) first_gate = now_ms() - t0;
      if (src.matrix(0, MLP_GATE) && src.matrix(11, MLP_GATE) && src.matrix(23, MLP_GATE)) all = now_ms() - t0;
      if (n == 0 && net.pending() == 0 && src.chunks_converting() == 0 && src.phase() != SOURCE_OPENING) break;
    }
    if (src.phase() != SOURCE_READY || all < 0) {
      std::fprintf(stderr, "checkpoint_bench: the source did not finish (%zu failures)\n", src.failures().size());
      return 1;
    }
    std::printf("| %s | %d | %.1f ms | %.0f ms | %.0f ms | %.2f MB | %.2f MB | %.2f MB |\n", visit ? "reload" : "first", answers,
                longest, first_gate, all, net.network_bytes / 1e6, src.tensor_bytes_wanted() / 1e6, src.bytes_from_cache() / 1e6);
  }
  std::printf("\n(%.1f MiB of the file per request; times are the twin's, which answers at once: only the page's own work)\n", chunk_mib);
  return 0;
}
