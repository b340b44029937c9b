// Native twin of the wasm kernel bench: the same bench_core.cpp (kernels through SIMDe), driven
// by tools/bench/run.mjs over stdin/stdout, one command per line, one answer line each:
//   init <n_layers> <seed>            -> ok
//   variants                          -> name,name,... (registry order, same as wasm)
//   layer <variant> <T> <cache> <min_calls> <min_ms>  -> ms per layer
//   best <variant> <T> <calls>       -> ms of the fastest single call
//   elementwise <variant> <T> <part> -> ms (part 0: silu * u; 1: q16 activation quantization)
//   bandwidth <reps>                  -> GB/s
//   error <variant> <T>               -> relative error
//   quit
#include <cstdio>
#include <cstring>
#include <string>

extern "C" {
int bench_init(int n_layers, unsigned seed);
int bench_variant_count();
const char* bench_variant_name(int i);
double bench_layer_ms(int variant, int T, int cache_resident, int min_calls, double min_ms);
double bench_layer_best_ms(int variant, int T, int calls);
double bench_elementwise_ms(int variant, int T, int part);
double bench_bandwidth_gbs(int reps);
double bench_rel_error(int variant, int T);
}

int main() {
  char line[256];
  while (std::fgets(line, sizeof line, stdin)) {
    char cmd[32] = {0};
    int a = 0, b = 0, c = 0, d = 0;
    double e = 0.0;
    if (std::sscanf(line, "%31s", cmd) != 1) continue;
    if (!std::strcmp(cmd, "init") && std::sscanf(line, "%*s %d %d", &a, &b) == 2) {
      std::printf("%s\n", bench_init(a, (unsigned)b) == 0 ? "ok" : "error");
    } else if (!std::strcmp(cmd, "variants")) {
      std::string s;
      for (int i = 0; i < bench_variant_count(); i++) s += (i ? "," : "") + std::string(bench_variant_name(i));
      std::printf("%s\n", s.c_str());
    } else if (!std::strcmp(cmd, "layer") && std::sscanf(line, "%*s %d %d %d %d %lf", &a, &b, &c, &d, &e) == 5) {
      std::printf("%.6f\n", bench_layer_ms(a, b, c, d, e));
    } else if (!std::strcmp(cmd, "best") && std::sscanf(line, "%*s %d %d %d", &a, &b, &c) == 3) {
      std::printf("%.6f\n", bench_layer_best_ms(a, b, c));
    } else if (!std::strcmp(cmd, "elementwise") && std::sscanf(line, "%*s %d %d %d", &a, &b, &c) == 3) {
      std::printf("%.6f\n", bench_elementwise_ms(a, b, c));
    } else if (!std::strcmp(cmd, "bandwidth") && std::sscanf(line, "%*s %d", &a) == 1) {
      std::printf("%.3f\n", bench_bandwidth_gbs(a));
    } else if (!std::strcmp(cmd, "error") && std::sscanf(line, "%*s %d %d", &a, &b) == 2) {
      std::printf("%.3e\n", bench_rel_error(a, b));
    } else if (!std::strcmp(cmd, "quit")) {
      break;
    } else {
      std::printf("error unknown command\n");
    }
    std::fflush(stdout);
  }
  return 0;
}
