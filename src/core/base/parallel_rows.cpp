// A fixed pool of threads that each take one part of a call's rows (see parallel_rows.h).
#include "core/base/parallel_rows.h"

#include <algorithm>
#include <utility>
#include <vector>

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define PARALLEL_ROWS_THREADS 0  // wasm without shared memory: no threads to start
#else
#define PARALLEL_ROWS_THREADS 1
#include <condition_variable>
#include <mutex>
#include <thread>
#endif

namespace {
int g_threads = 1;
int64_t g_min_work = PARALLEL_ROWS_MIN_WORK;

#if PARALLEL_ROWS_THREADS
// Parts of [0, rows): `parts` at most, each a multiple of align but the last, none empty.
std::vector<std::pair<int, int>> split(int rows, int align, int parts) {
  std::vector<std::pair<int, int>> out;
  align = std::max(1, align);
  const int blocks = (rows + align - 1) / align;
  parts = std::max(1, std::min(parts, blocks));
  int r0 = 0;
  for (int p = 0; p < parts; p++) {
    const int b = blocks / parts + (p < blocks % parts ? 1 : 0);
    const int r1 = std::min(rows, r0 + b * align);
    if (r1 > r0) out.push_back({r0, r1});
    r0 = r1;
  }
  return out;
}

// Worker i runs part i + 1 of each call; the caller runs part 0.
struct pool {
  std::mutex m;
  std::condition_variable go, done;
  std::vector<std::thread> workers;
  const std::function<void(int, int)>* job = nullptr;
  std::vector<std::pair<int, int>> parts;
  uint64_t generation = 0;
  int pending = 0;
  bool stop = false;

  void resize(int n) {  // n workers (the threads beside the caller's)
    if ((int)workers.size() == n) return;
    {
      std::lock_guard<std::mutex> l(m);
      stop = true;
    }
    go.notify_all();
    for (std::thread& t : workers) t.join();
    workers.clear();
    stop = false;
    // A new worker starts at the current call's generation: the calls before it are not its own.
    for (int i = 0; i < n; i++) workers.emplace_back([this, i, g = generation] { loop(i, g); });
  }
  void loop(int i, uint64_t seen) {
    for (;;) {
      std::pair<int, int> part{0, 0};
      const std::function<void(int, int)>* fn = nullptr;
      {
        std::unique_lock<std::mutex> l(m);
        go.wait(l, [&] { return stop || generation != seen; });
        if (stop) return;
        seen = generation;
        if (i + 1 >= (int)parts.size()) continue;  // no part for this one this time
        part = parts[i + 1];
        fn = job;
      }
      (*fn)(part.first, part.second);
      {
        std::lock_guard<std::mutex> l(m);
        pending--;
      }
      done.notify_all();
    }
  }
  ~pool() { resize(0); }
};
pool& the_pool() {
  static pool p;
  return p;
}
#endif
}  // namespace

void parallel_rows_configure(int threads, int64_t min_work) {
  g_threads = PARALLEL_ROWS_THREADS ? std::max(1, std::min(threads, PARALLEL_ROWS_MAX)) : 1;
  g_min_work = min_work;
#if PARALLEL_ROWS_THREADS
  the_pool().resize(g_threads - 1);
#endif
}

int parallel_rows_threads() { return g_threads; }

bool parallel_rows_built() { return PARALLEL_ROWS_THREADS != 0; }

int parallel_rows_cores() {
#if PARALLEL_ROWS_THREADS
  return std::max(1, std::min((int)std::thread::hardware_concurrency(), PARALLEL_ROWS_MAX));
#else
  return 1;
#endif
}

void parallel_rows(int rows, int align, int64_t work, const std::function<void(int, int)>& fn) {
  if (rows <= 0) return;
  if (g_threads <= 1 || work < g_min_work) return fn(0, rows);
#if PARALLEL_ROWS_THREADS
  pool& p = the_pool();
  {
    std::lock_guard<std::mutex> l(p.m);
    p.parts = split(rows, align, g_threads);
    p.job = &fn;
    p.pending = (int)p.parts.size() - 1;
    p.generation++;
  }
  p.go.notify_all();
  const std::pair<int, int> mine = p.parts[0];
  fn(mine.first, mine.second);
  std::unique_lock<std::mutex> l(p.m);
  p.done.wait(l, [&] { return p.pending == 0; });
#else
  (void)align;
#endif
}
