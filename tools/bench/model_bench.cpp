// model_bench: the whole model's forward pass (core/model/) on a full-size checkpoint, per weight
// format: memory, forward ms for 6 and 32 tokens, the switch-off rerun at the last layer, what a
// unit writes toward, and fidelity against the double reference (tests/model/forward_reference).
//
//   build-native/model_bench [--dir CHECKPOINT] [--runs N] [--no-reference]
//   build-native/model_bench [--dir CHECKPOINT] [--runs N] --threads 1,2,4
//
// --threads: BF16 only, the forward pass with its products split over each number of threads
// (core/base/parallel_rows.h): ms for 6 and 32 tokens, the speed-up against the first number
// given, and whether the logits are bit for bit those of one thread.
// Without --dir it writes the Qwen3.5-0.8B-shaped synthetic checkpoint (BF16, 1.5 GB) to
// build-native/bench-model/qwen35-0.8b once and reads it from there. Times are wall-clock medians
// (fastest-slowest) of N runs on one thread; the machine's load average is printed with them.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/base/parallel_rows.h"
#include "core/checkpoint/synthetic_model.h"
#include "core/model/forward.h"
#include "core/base/number_format.h"
#include "model/forward_reference.h"
#include "platform/native/dir_files.h"

static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

static std::string load_average() {
  FILE* f = std::fopen("/proc/loadavg", "r");
  char buf[64] = "?";
  if (f) {
    if (!std::fgets(buf, sizeof buf, f)) buf[0] = 0;
    std::fclose(f);
  }
  std::string s(buf);
  return s.substr(0, s.find(' '));
}

struct timing {
  std::vector<double> ms;
  double median() const {
    std::vector<double> v = ms;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  }
  std::string text() const {
    std::vector<double> v = ms;
    std::sort(v.begin(), v.end());
    return fmt_fixed(v[v.size() / 2], 0) + " (" + fmt_fixed(v.front(), 0) + "-" + fmt_fixed(v.back(), 0) + ")";
  }
};

template <class F>
static timing time_runs(int runs, F f) {
  timing t;
  for (int r = 0; r < runs; r++) {
    const double a = now();
    f();
    t.ms.push_back(1000 * (now() - a));
  }
  return t;
}

// The BF16 pass on each number of threads: times, speed-up against the first, and the logits
// compared bit for bit with one thread's.
static int threads_table(byte_source* src, const std::vector<int>& threads, int runs, const std::vector<int64_t>& ids6,
                         const std::vector<int64_t>& ids32) {
  model_weights w;
  std::string err;
  if (!model_load(src, model_formats(), &w, &err)) return std::fprintf(stderr, "%s\n", err.c_str()), 1;
  parallel_rows_configure(1);
  forward_trace one6, one32;
  model_forward(w, ids6, {}, &one6);
  model_forward(w, ids32, {}, &one32);
  std::printf("\nload average %s; %d cores reported; %d runs each; ms as median (fastest-slowest)\n\n", load_average().c_str(),
              parallel_rows_cores(), runs);
  std::printf("| threads | forward, 6 tokens | speed-up | forward, 32 tokens | speed-up | logits as one thread's |\n");
  std::printf("| --- | --- | --- | --- | --- | --- |\n");
  double base6 = 0, base32 = 0;
  for (int n : threads) {
    parallel_rows_configure(n);
    forward_trace t6, t32;
    const timing f6 = time_runs(runs, [&] { model_forward(w, ids6, {}, &t6); });
    const timing f32 = time_runs(runs, [&] { model_forward(w, ids32, {}, &t32); });
    const double m6 = f6.median(), m32 = f32.median();
    if (base6 == 0) base6 = m6, base32 = m32;
    const bool same = t6.logits == one6.logits && t32.logits == one32.logits;
    std::printf("| %d | %s | %.2fx | %s | %.2fx | %s |\n", parallel_rows_threads(), f6.text().c_str(), base6 / m6, f32.text().c_str(),
                base32 / m32, same ? "identical" : "DIFFERENT");
    std::fflush(stdout);
    if (!same) return 1;
  }
  return 0;
}

int main(int argc, char** argv) {
  std::string dir;
  int runs = 3;
  bool reference = true;
  std::vector<int> threads;
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) {
      for (const char* p = argv[++i]; *p;) {
        char* end = nullptr;
        threads.push_back(std::max(1, (int)std::strtol(p, &end, 10)));
        p = *end == ',' ? end + 1 : end + std::strlen(end);
      }
      continue;
    }
    if (!std::strcmp(argv[i], "--dir") && i + 1 < argc) dir = argv[++i];
    else if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--no-reference")) reference = false;
    else return std::fprintf(stderr, "usage: model_bench [--dir CHECKPOINT] [--runs N] [--no-reference] [--threads 1,2,...]\n"), 2;
  }
  std::string err;
  if (dir.empty()) {
    dir = "bench-model/qwen35-0.8b";
    dir_source probe(dir);
    if (!probe.exists("config.json")) {
      std::printf("writing the Qwen3.5-0.8B-shaped synthetic checkpoint to %s ...\n", dir.c_str());
      if (!dir_write_all(dir, synth_model_make(synth_model_qwen35_0p8b()), &err)) return std::fprintf(stderr, "%s\n", err.c_str()), 1;
    }
  }
  dir_source src(dir);
  const std::vector<int64_t> ids6 = {104, 2205, 3, 77100, 1500, 9};
  std::vector<int64_t> ids32;
  for (int i = 0; i < 32; i++) ids32.push_back(11 + 7919 * i % 200000);

  if (!threads.empty()) return threads_table(&src, threads, runs, ids6, ids32);

  ref_result ref;
  if (reference) {
    const double a = now();
    if (!ref_forward(&src, ids6, {}, &ref, &err)) return std::fprintf(stderr, "reference: %s\n", err.c_str()), 1;
    std::printf("double reference, 6 tokens: %.1f s\n", now() - a);
  }

  std::printf("\nload average %s; %d runs each; ms as median (fastest-slowest)\n\n", load_average().c_str(), runs);
  std::printf("| weights in memory | MiB | load s | forward, 6 tokens | forward, 32 tokens | switch-off rerun at layer %s | writes toward (1 unit) | writes toward (the 10 shown, one pass) | max |dP| vs double (points) | max |d ratio| (points) | worst activation (rel.) |\n",
              "L-1");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  struct choice { const char* name; model_formats f; };
  model_formats bf16, q8_embed, q8_layers, q8_all;
  q8_embed.embedding = WMAT_Q8G;
  q8_layers.layers = WMAT_Q8G;
  q8_all.embedding = q8_all.layers = WMAT_Q8G;
  for (const choice& c : {choice{"BF16 (the checkpoint's values)", bf16}, choice{"BF16 layers, int8 embedding", q8_embed},
                          choice{"int8 layers (groups of 32), BF16 embedding", q8_layers}, choice{"int8, groups of 32", q8_all}}) {
    model_weights w;
    const double a = now();
    if (!model_load(&src, c.f, &w, &err)) return std::fprintf(stderr, "%s\n", err.c_str()), 1;
    const double load_s = now() - a;
    uint64_t bytes = w.embed.bytes() + w.lm_head.bytes();
    for (const model_layer_weights& L : w.layers)
      for (const wmatrix* m : {&L.q, &L.k, &L.v, &L.o, &L.qkv, &L.z, &L.b, &L.a, &L.out, &L.gate, &L.up, &L.down}) bytes += m->bytes();
    forward_trace t6, t32, off;
    const timing f6 = time_runs(runs, [&] { model_forward(w, ids6, {}, &t6); });
    const timing f32 = time_runs(runs, [&] { model_forward(w, ids32, {}, &t32); });
    const int last = (int)w.spec.base.layers - 1;
    const timing so = time_runs(runs, [&] { model_forward_switch_off(w, t6, {{last, 275 % (int)w.spec.base.intermediate}}, &off); });
    const timing wt = time_runs(runs, [&] { unit_writes_toward(w, last, 275 % (int)w.spec.base.intermediate, 8); });
    std::vector<unit_ref> shown;  // the rule book's ten at the last token
    for (const unit_activation& u : forward_top_units(t6, (int)ids6.size() - 1, 10)) shown.push_back(u.unit);
    const timing wt10 = time_runs(runs, [&] { units_write_toward(w, shown, 8); });
    std::string dp = "-", dr = "-", da = "-";
    if (reference) {
      double p = 0, r = 0, act = 0;
      for (size_t v = 0; v < ref.probs.size(); v++) p = std::max(p, std::fabs(forward_token_prob(t6, (int64_t)v) - ref.probs[v]));
      for (int l = 0; l <= last; l++) {
        double amax = 0, worst = 0;
        for (size_t i = 0; i < ref.act[l].size(); i++) {
          amax = std::max(amax, std::fabs(ref.act[l][i]));
          worst = std::max(worst, std::fabs(ref.act[l][i] - t6.act[l][i]));
        }
        act = std::max(act, worst / amax);
        for (size_t t = 0; t < ids6.size(); t++)
          r = std::max(r, std::fabs(t6.mlp_l2[l][t] / t6.out_l2[l][t] - ref.mlp_l2[l][t] / ref.out_l2[l][t]));
      }
      dp = strf("%.5f", 100 * p), dr = strf("%.5f", 100 * r), da = strf("%.1e", act);
    }
    std::printf("| %s | %s | %.1f | %s | %s | %s | %s | %s | %s | %s | %s |\n", c.name, fmt_mib(bytes).c_str(), load_s, f6.text().c_str(),
                f32.text().c_str(), so.text().c_str(), wt.text().c_str(), wt10.text().c_str(), dp.c_str(), dr.c_str(), da.c_str());
    std::fflush(stdout);
  }
  if (reference) {
    double best = 0;
    for (double p : ref.probs) best = std::max(best, p);
    std::printf("\n(the double reference's most likely next token has P = %.2f %%)\n", 100 * best);
  }
  std::printf("load average at the end: %s\n", load_average().c_str());
  return 0;
}
